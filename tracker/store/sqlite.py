"""The append-only event log in SQLite, through sqlite-utils: the embedded default.

One table of events, chained by hashes per campaign, that the database itself refuses to
change or delete; and a table of snapshots, a cache of folded states that may be dropped at
any time. The store knows no game: it keeps, chains and reads events.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from urllib.parse import quote

import sqlite_utils

from tracker.errors import Conflict, KeyReused
from tracker.events import GENESIS, Event, NewEvent, decode
from tracker.store.base import (
    AppendResult,
    Broken,
    CampaignRow,
    Pending,
    ReadOnly,
    Store,
    chained,
    check_chain,
    decoded,
    pending,
    snapshot_digest,
)

SCHEMA = """
-- position: the order of the whole log. No row is ever deleted (the triggers below), so a
-- plain rowid never reuses a number and AUTOINCREMENT's bookkeeping (a page more to write
-- at every commit) buys nothing.
CREATE TABLE IF NOT EXISTS events (
    position    INTEGER PRIMARY KEY,
    campaign    TEXT    NOT NULL,
    version     INTEGER NOT NULL CHECK (version >= 1),
    type        TEXT    NOT NULL,
    data        TEXT    NOT NULL,
    meta        TEXT    NOT NULL,
    recorded_at TEXT    NOT NULL,
    hash        TEXT    NOT NULL,
    UNIQUE (campaign, version)
);
-- A retry key, scoped to the account that sent it (meta.retry is a digest of both).
DROP INDEX IF EXISTS events_idempotency;
CREATE INDEX IF NOT EXISTS events_retry
    ON events (campaign, json_extract(meta, '$.retry'))
    WHERE json_extract(meta, '$.retry') IS NOT NULL;
CREATE INDEX IF NOT EXISTS events_voids
    ON events (campaign, version) WHERE type = 'EventVoided';
CREATE TRIGGER IF NOT EXISTS events_refuse_update BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'the event log is append-only: an event cannot be changed');
END;
CREATE TRIGGER IF NOT EXISTS events_refuse_delete BEFORE DELETE ON events
BEGIN
    SELECT RAISE(ABORT, 'the event log is append-only: an event cannot be deleted');
END;
-- head: the hash of the event the state was folded to; digest: sha256 of head and state.
-- A snapshot whose head is not the log's, or whose digest does not hold, is never used.
CREATE TABLE IF NOT EXISTS snapshots (
    campaign    TEXT    NOT NULL,
    fingerprint TEXT    NOT NULL,
    version     INTEGER NOT NULL,
    state       TEXT    NOT NULL,
    head        TEXT    NOT NULL DEFAULT '',
    digest      TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (campaign, fingerprint, version)
);
"""

_INSERT = (
    "INSERT INTO events (campaign, version, type, data, meta, recorded_at, hash) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)"
)
_COLUMNS = "position, campaign, version, type, data, meta, recorded_at, hash"


def _row_event(row) -> Event:
    return Event(row[0], row[1], row[2], row[3], decode(row[4]), row[5], row[6], row[7])


class _Transaction:
    """BEGIN IMMEDIATE for a `with` block: committed if the block ends, rolled back if it
    raises. SQLite's own lock, with the busy timeout, makes writers take turns."""

    __slots__ = ("conn",)

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def __enter__(self) -> sqlite3.Connection:
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, kind, error, traceback) -> None:
        conn = self.conn
        if not conn.in_transaction:
            return
        if kind is not None:
            conn.execute("ROLLBACK")
            return
        try:
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise


def _read_only(path: str, timeout: float) -> sqlite3.Connection:
    """A connection that only reads (SQLite's mode=ro). A database in WAL mode whose folder
    may not be written has no -shm file to share with writers, and there can be none: it
    is then read as an unchanging file (immutable=1)."""
    uri = "file:" + quote(os.path.abspath(path)) + "?mode=ro"
    try:
        return _connect(uri, timeout)
    except sqlite3.OperationalError as error:
        if "unable to open" not in str(error):
            raise
    return _connect(uri + "&immutable=1", timeout)


def _connect(uri: str, timeout: float) -> sqlite3.Connection:
    """A connection to `uri`, opened for sure (SQLite opens a file at its first query)."""
    conn = sqlite3.connect(uri, uri=True, timeout=timeout, isolation_level=None)
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except BaseException:
        conn.close()
        raise
    return conn


class SQLiteStore(Store):
    """The event log of every campaign in one SQLite file."""

    dialect = "sqlite"
    POLL = 0.2  # seconds between looks at the log while a live page waits

    def __init__(self, path: str | Path, *, timeout: float = 30.0, readonly: bool = False):
        self.path = self.target = str(path)
        self.readonly = readonly
        if readonly:
            conn = _read_only(self.path, timeout)
        else:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, timeout=timeout, isolation_level=None)
            conn.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
            conn.execute("PRAGMA journal_mode = WAL")
            # FULL: an acknowledged commit survives a power cut, not only a crash.
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("PRAGMA foreign_keys = ON")
        self.db = sqlite_utils.Database(conn)
        self.conn = conn
        # The head this connection last wrote, per campaign: (version, hash). Only ever
        # behind the log (which only grows), never wrong for this file: see `_one`.
        self._heads: dict[str, tuple[int, str]] = {}

    def transaction(self) -> _Transaction:
        """The one way to write: BEGIN IMMEDIATE (a read-then-write never fails busy in WAL
        mode), committed if the block ends, else undone. Raises `ReadOnly` on a database
        opened for reading."""
        if self.readonly:
            raise ReadOnly(self.path)
        return _Transaction(self.conn)

    def create(self, script: str, marker: str = "") -> None:
        """Run a schema script (every statement in it says IF NOT EXISTS)."""
        if self.readonly:
            raise ReadOnly(self.path)
        self.conn.executescript(script)

    def query(self, sql: str, args: tuple | list = ()) -> list[tuple]:
        return self.conn.execute(sql, args).fetchall()

    def finish_request(self) -> None:
        if self.conn.in_transaction:
            self.conn.rollback()  # never leave a transaction open on a kept connection

    def init(self) -> None:
        """Create the tables, indexes and triggers if they are not there yet."""
        if self.readonly:
            raise ReadOnly(self.path)
        columns = {row[1] for row in self.conn.execute("PRAGMA table_info(snapshots)")}
        if columns and "digest" not in columns:
            # Snapshots of an older tracker, bound to nothing: a cache, so dropped.
            self.db["snapshots"].drop()
        self.conn.executescript(SCHEMA)

    def close(self) -> None:
        self.conn.close()

    def initialised(self) -> bool:
        return "events" in self.db.table_names()

    def wait(self, after: int, timeout: float) -> None:
        """Return once an event after `after` may exist, or when `timeout` passes: SQLite
        tells no other connection of a commit, so the log is looked at every POLL seconds."""
        deadline = time.monotonic() + timeout
        while self.position() <= after:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            time.sleep(min(self.POLL, left))

    # -- writing ---------------------------------------------------------------------------

    def append(
        self, campaign: str, events: Iterable[NewEvent], expected_version: int
    ) -> AppendResult:
        """Append events to a campaign in one BEGIN IMMEDIATE transaction.

        Raises `Conflict` (naming both versions) when the campaign is not at
        `expected_version`; a new campaign is appended with expected version 0. When the
        events carry a retry key (meta.retry) already used in this campaign for the same
        request (meta.request), the first append's result is returned and nothing is written;
        for another request, `KeyReused`.
        """
        request = pending(campaign, events, expected_version)
        with self.transaction():
            result = self._one(request)
        if not result.replayed:  # durable now: the head this connection wrote
            self._heads[campaign] = (result.last_version, result.head)
        return result

    def _one(self, request: Pending) -> AppendResult:
        campaign = request.campaign
        if request.key is not None:
            earlier = self.idempotent(campaign, request.key)
            if earlier is not None:
                if earlier.request != request.request:
                    raise KeyReused("(the one sent)")
                return earlier
        # The head this connection wrote last, when the caller expects it, spares a query:
        # if another writer has appended since, the next version is taken, and the insert
        # below fails on the log's unique (campaign, version) before anything is written.
        known = self._heads.get(campaign)
        if known is not None and known[0] == request.expected:
            version, head = known
        else:
            version, head = self._head(campaign)
            if version != request.expected:
                raise Conflict(campaign, request.expected, version)
        out = chained(request, version, head)
        try:
            self.conn.executemany(_INSERT, out)
        except sqlite3.IntegrityError as error:
            if known is None or "UNIQUE" not in str(error):
                raise
            del self._heads[campaign]
            raise Conflict(campaign, request.expected, self._head(campaign)[0]) from None
        return AppendResult(campaign, version + 1, out[-1][1], out[-1][6])

    def import_rows(self, batches: Iterable[list[tuple]]) -> None:
        """Write whole new campaigns in one transaction: all of them or none.

        `batches` yields lists of rows, each row (campaign, version, type, data_json,
        meta_json, recorded_at, hash), already canonical and chained from the genesis hash (an
        import checks and hashes each line as it reads it, so nothing is serialised or hashed
        twice); `verify` recomputes them. Each batch is written as it comes, so an import
        writes while it is still reading; anything raised meanwhile undoes the whole
        transaction. A campaign's first row finds the campaign empty, or the whole import is a
        Conflict.
        """
        with self.transaction() as conn:
            for rows in batches:
                for row in rows:
                    if row[1] == 1:
                        version, _ = self._head(row[0])
                        if version != 0:
                            raise Conflict(row[0], 0, version)
                conn.executemany(_INSERT, rows)

    def _head(self, campaign: str) -> tuple[int, str]:
        row = self.conn.execute(
            "SELECT version, hash FROM events WHERE campaign = ? ORDER BY version DESC LIMIT 1",
            (campaign,),
        ).fetchone()
        return (row[0], row[1]) if row else (0, GENESIS)

    def idempotent(self, campaign: str, key: str) -> AppendResult | None:
        """The earlier append that carried the retry key `key` (meta.retry), or None."""
        row = self.conn.execute(
            "SELECT min(version), max(version) FROM events "
            "WHERE campaign = ? AND json_extract(meta, '$.retry') = ?",
            (campaign, key),
        ).fetchone()
        if row is None or row[0] is None:
            return None
        (head,) = self.conn.execute(
            "SELECT hash FROM events WHERE campaign = ? AND version = ?", (campaign, row[1])
        ).fetchone()
        (request,) = self.conn.execute(
            "SELECT json_extract(meta, '$.request') FROM events WHERE campaign = ? AND version = ?",
            (campaign, row[0]),
        ).fetchone()
        return AppendResult(campaign, row[0], row[1], head, replayed=True, request=request)

    # -- reading ---------------------------------------------------------------------------

    def head(self, campaign: str) -> tuple[int, str]:
        """The campaign's version and head hash; (0, genesis) when it has no events."""
        return self._head(campaign)

    def ends(self, campaign: str) -> tuple[int, str, str | None]:
        """The campaign's version, head hash and first event's hash, in one query."""
        row = self.conn.execute(
            "SELECT version, hash, (SELECT hash FROM events WHERE campaign = ?1 AND version = 1) "
            "FROM events WHERE campaign = ?1 ORDER BY version DESC LIMIT 1",
            (campaign,),
        ).fetchone()
        return row if row else (0, GENESIS, None)

    def read(self, campaign: str, after: int = 0, upto: int | None = None) -> Iterator[Event]:
        """The campaign's events with after < version <= upto, in order, streamed."""
        if upto is None:
            cursor = self.conn.execute(
                f"SELECT {_COLUMNS} FROM events WHERE campaign = ? AND version > ? ORDER BY version",
                (campaign, after),
            )
        else:
            cursor = self.conn.execute(
                f"SELECT {_COLUMNS} FROM events WHERE campaign = ? AND version > ? AND version <= ? "
                "ORDER BY version",
                (campaign, after, upto),
            )
        yield from decoded(cursor)

    def read_all(self, after_position: int = 0) -> Iterator[Event]:
        """Every campaign's events in global order, from after `after_position`, streamed."""
        cursor = self.conn.execute(
            f"SELECT {_COLUMNS} FROM events WHERE position > ? ORDER BY position",
            (after_position,),
        )
        yield from decoded(cursor)

    def event(self, campaign: str, version: int) -> Event | None:
        row = self.conn.execute(
            f"SELECT {_COLUMNS} FROM events WHERE campaign = ? AND version = ?",
            (campaign, version),
        ).fetchone()
        return _row_event(row) if row else None

    def voids(self, campaign: str, upto: int | None = None) -> dict[int, int]:
        """Voided versions of a campaign, as of `upto`: voided version -> version of the void."""
        rows = self.conn.execute(
            "SELECT version, data FROM events WHERE campaign = ? AND type = 'EventVoided' "
            "AND version <= ?",
            (campaign, upto if upto is not None else 2**62),
        )
        return {json.loads(data)["version"]: version for version, data in rows}

    def campaigns(self) -> list[CampaignRow]:
        """One row per campaign: its system and name (from its first event), version, head."""
        return self._campaign_rows("", ())

    def campaign(self, campaign: str) -> CampaignRow | None:
        """The row of one campaign, or None."""
        rows = self._campaign_rows("AND f.campaign = ?", (campaign,))
        return rows[0] if rows else None

    def campaign_page(
        self, among: str, args: tuple, *, search: str = "", limit: int = 50, offset: int = 0
    ) -> tuple[list[CampaignRow], int]:
        """A page of the campaigns whose ids the query `among` gives (with `args`), those whose
        name or id holds `search`, oldest first; and how many there are in all.

        Reads each campaign's first event and its head, never the events between: a page
        costs the same with thousands of campaigns of thousands of events."""
        where, params = f"f.version = 1 AND f.campaign IN ({among})", list(args)
        if search:
            escaped = search.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            where += (
                " AND (json_extract(f.data, '$.name') LIKE ? ESCAPE '\\'"
                " OR f.campaign LIKE ? ESCAPE '\\')"
            )
            params += [f"%{escaped}%"] * 2
        (total,) = self.conn.execute(
            f"SELECT count(*) FROM events f WHERE {where}", params
        ).fetchone()
        rows = self.conn.execute(
            f"""
            SELECT f.campaign, json_extract(f.data, '$.system'), json_extract(f.data, '$.name'),
                   f.recorded_at, h.version, h.hash
            FROM events f JOIN events h ON h.campaign = f.campaign AND h.version = (
                SELECT max(version) FROM events WHERE campaign = f.campaign)
            WHERE {where} ORDER BY f.position LIMIT ? OFFSET ?
            """,
            [*params, limit, offset],
        ).fetchall()
        return [
            CampaignRow(campaign, system or "?", name or campaign, version, head, started)
            for campaign, system, name, started, version, head in rows
        ], total

    def _campaign_rows(self, where: str, args: tuple) -> list[CampaignRow]:
        # The first event carries the campaign's content: SQLite reads the two fields it needs.
        rows = self.conn.execute(
            f"""
            SELECT f.campaign, json_extract(f.data, '$.system'), json_extract(f.data, '$.name'),
                   f.recorded_at, h.version, h.hash
            FROM events f
            JOIN (SELECT campaign, max(version) AS version FROM events GROUP BY campaign) m
                ON m.campaign = f.campaign
            JOIN events h ON h.campaign = m.campaign AND h.version = m.version
            WHERE f.version = 1 {where}
            ORDER BY f.position
            """,
            args,
        ).fetchall()
        return [
            CampaignRow(campaign, system or "?", name or campaign, version, head, started)
            for campaign, system, name, started, version, head in rows
        ]

    def count(self) -> int:
        return self.conn.execute("SELECT count(*) FROM events").fetchone()[0]

    # -- tamper evidence -------------------------------------------------------------------

    def verify(self, campaign: str) -> Broken | None:
        """Recompute a campaign's hash chain; the first event that does not match, or None."""
        cursor = self.conn.execute(
            "SELECT version, type, data, meta, recorded_at, hash FROM events "
            "WHERE campaign = ? ORDER BY version",
            (campaign,),
        )
        return check_chain(campaign, cursor)

    # -- snapshots: a cache, never the truth -------------------------------------------------

    def save_snapshots(self, campaign: str, fingerprint: str, states: list[tuple[int, str]]):
        """Keep folded states [(version, state_json)] of a campaign, in one transaction, each
        bound to the hash of the event it was folded to (none in a database opened read-only:
        they are a cache)."""
        if self.readonly:
            return
        with self.transaction() as conn:
            rows = []
            for version, text in states:
                head = self._hash_at(campaign, version)
                if head is not None:
                    rows.append(
                        (campaign, fingerprint, version, text, head, snapshot_digest(head, text))
                    )
            conn.executemany(
                "INSERT OR REPLACE INTO snapshots "
                "(campaign, fingerprint, version, state, head, digest) VALUES (?, ?, ?, ?, ?, ?)",
                rows,
            )

    def _hash_at(self, campaign: str, version: int) -> str | None:
        row = self.conn.execute(
            "SELECT hash FROM events WHERE campaign = ? AND version = ?", (campaign, version)
        ).fetchone()
        return row[0] if row else None

    def latest_snapshot(self, campaign: str, fingerprint: str, upto: int) -> tuple[int, str] | None:
        """The latest snapshot at or before `upto` that is bound to the log as it is: its head
        the hash of the log's event at its version, its digest holding. Others are skipped."""
        rows = self.conn.execute(
            "SELECT s.version, s.state, s.digest, s.head FROM snapshots s "
            "JOIN events e ON e.campaign = s.campaign AND e.version = s.version "
            "AND e.hash = s.head "
            "WHERE s.campaign = ? AND s.fingerprint = ? AND s.version <= ? "
            "ORDER BY s.version DESC LIMIT 3",
            (campaign, fingerprint, upto),
        )
        for version, text, digest, head in rows:
            if digest == snapshot_digest(head, text):
                return version, text
        return None

    def snapshots(self, campaign: str) -> Iterator[tuple[str, int, str]]:
        """Every snapshot of a campaign: (fingerprint, version, state_json)."""
        yield from self.conn.execute(
            "SELECT fingerprint, version, state FROM snapshots WHERE campaign = ? "
            "ORDER BY fingerprint, version",
            (campaign,),
        )

    def drop_snapshot(self, campaign: str, fingerprint: str, version: int) -> None:
        if self.readonly:
            return
        with self.transaction() as conn:
            conn.execute(
                "DELETE FROM snapshots WHERE campaign = ? AND fingerprint = ? AND version = ?",
                (campaign, fingerprint, version),
            )

    def drop_snapshots(self, campaign: str | None = None, from_version: int = 0) -> int:
        """Forget cached states (of one campaign from a version on, or all of them)."""
        with self.transaction() as conn:
            if campaign is None:
                return conn.execute("DELETE FROM snapshots").rowcount
            return conn.execute(
                "DELETE FROM snapshots WHERE campaign = ? AND version >= ?",
                (campaign, from_version),
            ).rowcount
