"""The append-only event log in SQLite, through sqlite-utils.

One table of events, chained by hashes per campaign, that the database itself refuses to
change or delete; and a table of snapshots, a cache of folded states that may be dropped at
any time. The store knows no game: it keeps, chains and reads events.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple
from urllib.parse import quote

import sqlite_utils

from tracker.errors import Conflict, KeyReused, TrackerError
from tracker.events import (
    GENESIS,
    Event,
    NewEvent,
    canonical,
    canonical_meta,
    chain_hash,
    decode,
    utcnow,
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


class AppendResult(NamedTuple):
    """What an append wrote: the versions from first to last and the new head hash."""

    campaign: str
    first_version: int
    last_version: int
    head: str
    replayed: bool = False  # True when an idempotent retry returned an earlier append's result
    request: str | None = None  # the digest of the request that wrote it (a retry's check)


@dataclass(frozen=True)
class Broken:
    """The first event of a campaign whose hash does not hold."""

    campaign: str
    version: int
    type: str
    reason: str

    def __str__(self) -> str:
        return f"{self.campaign}: event {self.version} ({self.type}) {self.reason}"


@dataclass(frozen=True)
class CampaignRow:
    id: str
    system: str
    name: str
    version: int
    head: str
    started_at: str


def snapshot_digest(head: str, state_json: str) -> str:
    """What binds a snapshot's state to the event it was folded to."""
    return hashlib.sha256(f"{head}\n{state_json}".encode()).hexdigest()


def _row_event(row) -> Event:
    return Event(row[0], row[1], row[2], row[3], decode(row[4]), row[5], row[6], row[7])


def _events(cursor) -> Iterator[Event]:
    """The events of a cursor over _COLUMNS, fetched 500 rows at a time (a fold streams)."""
    cursor.arraysize = 500
    while True:
        rows = cursor.fetchmany()
        if not rows:
            return
        for row in rows:
            event = Event(*row)  # cheaper than unpacking the row into names first
            event.data = decode(event.data)
            yield event


class _Append:
    """One append waiting its turn: its rows made canonical, then its answer."""

    __slots__ = ("campaign", "rows", "expected", "key", "request", "done", "result", "error")

    def __init__(self, campaign: str, rows: list[tuple], expected: int, meta: dict):
        self.campaign = campaign
        self.rows = rows  # (type, data_json, meta_json, recorded_at)
        self.expected = expected
        self.key = meta.get("retry")
        self.request = meta.get("request")
        self.done = False
        self.result: AppendResult | None = None
        self.error: BaseException | None = None


class _Group:
    """The appends of this process to one database file, written by one thread at a time.

    `lock` is the lock of the condition `turn`: it is entered as itself where nobody waits
    (cheaper than entering the condition), and the writer tells the others it is done only
    when some wait.
    """

    def __init__(self):
        self.lock = threading.Lock()
        self.turn = threading.Condition(self.lock)
        self.queue: list[_Append] = []
        self.writing = False
        self.waiting = 0  # threads waiting on `turn` for their append to be written


_GROUPS: dict[str, _Group] = {}
_GROUPS_LOCK = threading.Lock()


def _group(path: str) -> _Group:
    key = os.path.realpath(path)
    with _GROUPS_LOCK:
        group = _GROUPS.get(key)
        if group is None:
            group = _GROUPS[key] = _Group()
        return group


class _Turn:
    """The writers' turn on a lock file (see `Store._writer`), held for a `with` block.

    Plain classes, not generator-based context managers: an append goes through both, and
    their cost is a good part of what an append adds to SQLite's own.
    """

    __slots__ = ("fd",)

    def __init__(self, fd: int | None):
        self.fd = fd

    def __enter__(self) -> None:
        if self.fd is not None:
            fcntl.flock(self.fd, fcntl.LOCK_EX)

    def __exit__(self, *exc) -> None:
        if self.fd is not None:
            fcntl.flock(self.fd, fcntl.LOCK_UN)


class _Transaction:
    """BEGIN IMMEDIATE for a `with` block, on the writers' turn (unless held already):
    committed if the block ends, rolled back if it raises."""

    __slots__ = ("conn", "turn")

    def __init__(self, conn: sqlite3.Connection, turn: _Turn | None):
        self.conn, self.turn = conn, turn

    def __enter__(self) -> sqlite3.Connection:
        if self.turn is not None:
            self.turn.__enter__()
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except BaseException:
            self._leave()
            raise
        return self.conn

    def __exit__(self, kind, error, traceback) -> None:
        conn = self.conn
        try:
            if conn.in_transaction:
                if kind is None:
                    try:
                        conn.execute("COMMIT")
                    except BaseException:
                        if conn.in_transaction:
                            conn.execute("ROLLBACK")
                        raise
                else:
                    conn.execute("ROLLBACK")
        finally:
            self._leave()

    def _leave(self) -> None:
        if self.turn is not None:
            self.turn.__exit__()


class ReadOnly(TrackerError):
    """A write to a database that was opened, or may only be opened, for reading."""

    def __init__(self, path: str):
        super().__init__(f"the database {path} may only be read: nothing was written")


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


class Store:
    """The event log of every campaign in one SQLite file."""

    def __init__(self, path: str | Path, *, timeout: float = 30.0, readonly: bool = False):
        self.path = str(path)
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
        self._lock_fd: int | None = None
        # The head this connection last wrote, per campaign: (version, hash). Only ever
        # behind the log (which only grows), never wrong for this file: see `_one`.
        self._heads: dict[str, tuple[int, str]] = {}
        # The appends of this process to this file take turns here; every ":memory:" store
        # is a database of its own.
        self._group = _Group() if self.path == ":memory:" else _group(self.path)

    def _writer(self) -> _Turn:
        """Writers take turns on a lock file beside the database before they begin.

        SQLite makes a writer that finds the database locked sleep and poll (1 ms, then
        longer); a writer waiting on the lock file wakes the moment the one before it is
        done. Any process and thread that writes through a Store queues here.
        """
        return _Turn(self._lock())

    def _lock(self) -> int | None:
        """The lock file's descriptor (None for a database in memory)."""
        if self.readonly:
            raise ReadOnly(self.path)
        if self._lock_fd is None and self.path != ":memory:":
            self._lock_fd = os.open(self.path + "-writer", os.O_RDWR | os.O_CREAT, 0o600)
        return self._lock_fd

    def _transaction(self, turn_held: bool = False) -> _Transaction:
        """A write transaction, on the writers' turn: committed if the block ends, else undone."""
        if self.readonly:
            raise ReadOnly(self.path)
        return _Transaction(self.conn, None if turn_held else self._writer())

    def init(self) -> None:
        """Create the tables, indexes and triggers if they are not there yet."""
        if self.readonly:
            raise ReadOnly(self.path)
        columns = {row[1] for row in self.conn.execute("PRAGMA table_info(snapshots)")}
        if columns and "digest" not in columns:
            # Snapshots of an older tracker, bound to nothing: a cache, so dropped.
            self.conn.execute("DROP TABLE snapshots")
        self.conn.executescript(SCHEMA)

    def close(self) -> None:
        self.conn.close()
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def initialised(self) -> bool:
        return "events" in self.db.table_names()

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

        Appends that threads of this process ask for while another is being written are
        written together after it, each checked on its own, in one transaction: one disk
        sync for all of them (a group commit). Each is answered only once it is durable.
        """
        events = list(events)
        if not events:
            raise TrackerError("nothing to append: the batch holds no event")
        # What does not depend on the head is made before queueing: the canonical texts.
        now = utcnow()
        rows = [
            (e.type, canonical(e.data), canonical_meta(e.meta), e.recorded_at or now)
            for e in events
        ]
        request = _Append(campaign, rows, expected_version, events[0].meta)
        group = self._group
        with group.lock:
            group.queue.append(request)
            if group.writing:
                group.waiting += 1
                while not request.done and group.writing:
                    group.turn.wait()
                group.waiting -= 1
            if not request.done:  # this thread writes: what is queued, its own included
                group.writing = True
                batch, group.queue = group.queue, []
        if not request.done:
            try:
                with self._writer():
                    # What the other threads asked for while this one waited for its turn
                    # among the writers (another process's, say) joins the same transaction.
                    with group.lock:
                        batch += group.queue
                        group.queue = []
                    self._commit(batch)
            except BaseException as error:
                for queued in batch:  # none of it was written
                    if queued.error is None:
                        queued.result, queued.error = None, error
                raise
            finally:
                with group.lock:
                    group.writing = False
                    for queued in batch:
                        queued.done = True
                    if group.waiting:
                        group.turn.notify_all()
        if request.error is not None:
            raise request.error
        return request.result

    def _commit(self, batch: list[_Append]) -> None:
        """Write a batch of appends in one transaction, on the writers' turn this thread holds;
        each gets its result or its error."""
        try:
            with self._transaction(turn_held=True) as conn:
                if len(batch) == 1:  # alone: its refusal is the transaction's rollback
                    try:
                        batch[0].result = self._one(batch[0])
                    except TrackerError as error:
                        batch[0].error = error
                        conn.execute("ROLLBACK")
                else:
                    for request in batch:
                        conn.execute("SAVEPOINT one_append")
                        try:
                            request.result = self._one(request)
                        except TrackerError as error:
                            request.error = error
                            conn.execute("ROLLBACK TO one_append")
                        conn.execute("RELEASE one_append")
        except BaseException as error:
            for request in batch:  # nothing of the batch was written
                request.result, request.error = None, error
            raise
        for request in batch:  # durable now: the heads this connection wrote
            result = request.result
            if result is not None and not result.replayed:
                self._heads[result.campaign] = (result.last_version, result.head)

    def _one(self, request: _Append) -> AppendResult:
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
        first, out = version + 1, []
        for type_, data_json, meta_json, recorded_at in request.rows:
            version += 1
            head = chain_hash(head, campaign, version, type_, data_json, meta_json, recorded_at)
            out.append((campaign, version, type_, data_json, meta_json, recorded_at, head))
        try:
            if len(out) == 1:
                self.conn.execute(_INSERT, out[0])
            else:
                self.conn.executemany(_INSERT, out)
        except sqlite3.IntegrityError as error:
            if known is None or "UNIQUE" not in str(error):
                raise
            del self._heads[campaign]
            raise Conflict(campaign, request.expected, self._head(campaign)[0]) from None
        return AppendResult(campaign, first, version, head)

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
        with self._transaction() as conn:
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

    def version(self, campaign: str) -> int:
        return self._head(campaign)[0]

    def exists(self, campaign: str) -> bool:
        return self._head(campaign)[0] > 0

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
        yield from _events(cursor)

    def read_all(self, after_position: int = 0) -> Iterator[Event]:
        """Every campaign's events in global order, from after `after_position`, streamed."""
        cursor = self.conn.execute(
            f"SELECT {_COLUMNS} FROM events WHERE position > ? ORDER BY position",
            (after_position,),
        )
        yield from _events(cursor)

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
        previous = GENESIS
        expected_version = 0
        cursor = self.conn.execute(
            "SELECT version, type, data, meta, recorded_at, hash, campaign FROM events "
            "WHERE campaign = ? ORDER BY version",
            (campaign,),
        )
        for version, type_, data, meta, recorded_at, stored, _ in cursor:
            expected_version += 1
            if version != expected_version:
                return Broken(campaign, expected_version, "?", "is missing from the log")
            try:
                data_json = canonical(decode(data))
                meta_json = canonical(decode(meta))
            except ValueError:
                return Broken(campaign, version, type_, "holds data that is not JSON")
            actual = chain_hash(
                previous, campaign, version, type_, data_json, meta_json, recorded_at
            )
            if actual != stored or data_json != data or meta_json != meta:
                return Broken(
                    campaign,
                    version,
                    type_,
                    f"does not match its hash (stored {stored[:12]}, recomputed {actual[:12]})",
                )
            previous = stored
        return None

    # -- snapshots: a cache, never the truth -------------------------------------------------

    def save_snapshot(self, campaign: str, fingerprint: str, version: int, state_json: str):
        self.save_snapshots(campaign, fingerprint, [(version, state_json)])

    def save_snapshots(self, campaign: str, fingerprint: str, states: list[tuple[int, str]]):
        """Keep folded states [(version, state_json)] of a campaign, in one transaction, each
        bound to the hash of the event it was folded to (none in a database opened read-only:
        they are a cache)."""
        if self.readonly:
            return
        with self._transaction() as conn:
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
        self.conn.execute(
            "DELETE FROM snapshots WHERE campaign = ? AND fingerprint = ? AND version = ?",
            (campaign, fingerprint, version),
        )

    def drop_snapshots(self, campaign: str | None = None, from_version: int = 0) -> int:
        """Forget cached states (of one campaign from a version on, or all of them)."""
        if campaign is None:
            cursor = self.conn.execute("DELETE FROM snapshots")
        else:
            cursor = self.conn.execute(
                "DELETE FROM snapshots WHERE campaign = ? AND version >= ?",
                (campaign, from_version),
            )
        return cursor.rowcount

    # -- the live feed's seam: where the log has got to, and what changed after a point -----

    def position(self) -> int:
        """The global position of the newest event (0 when the log is empty)."""
        row = self.conn.execute("SELECT max(position) FROM events").fetchone()
        return row[0] or 0

    def changes(self, after: int) -> list[tuple[int, str, int]]:
        """(position, campaign, version) of every event after global position `after`, in order."""
        return self.conn.execute(
            "SELECT position, campaign, version FROM events WHERE position > ? ORDER BY position",
            (after,),
        ).fetchall()

    def wait(self, after: int, timeout: float) -> None:
        """Return once an event after global position `after` may exist, or when `timeout`
        seconds have passed. SQLite tells no other connection of a commit: this looks every
        0.2 s (one indexed read of the newest position)."""
        import time  # here, so that the feed's seam is these three methods and nothing else

        deadline = time.monotonic() + timeout
        while self.position() <= after:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            time.sleep(min(0.2, left))
