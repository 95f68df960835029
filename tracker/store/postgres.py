"""The append-only event log on PostgreSQL, through psycopg 3 and its connection pool.

The same contract as the SQLite store, for several app servers sharing one database. What the
log promises, the database enforces:

- append-only: triggers refuse UPDATE, DELETE and TRUNCATE on `events`, and `init` takes
  those privileges from PUBLIC (an app role given SELECT and INSERT only cannot change a row
  even with the triggers dropped);
- versions without a gap: `UNIQUE (campaign, version)`, and the head read under the lock
  below, so an append expecting a stale version is a `Conflict` that writes nothing;
- a global order readers can follow: every append takes `LOCK TABLE events IN EXCLUSIVE
  MODE` (as the eventsourcing library's recorder does), so appends commit one after another
  in the order of their positions, and a reader that has seen position p never finds later a
  smaller position committed late;
- durability: `synchronous_commit = on` on every connection of the pool;
- live updates: each append sends `NOTIFY tracker_events` with its last position, delivered
  when it commits; `wait` listens on a connection of its own.

Isolation: READ COMMITTED. The lock makes appends run one at a time, and under READ
COMMITTED each statement after the lock sees every append committed before it, so the head
an append reads is the head. REPEATABLE READ or SERIALIZABLE would add retries and nothing
else: the lock and the unique key already exclude every interleaving they would refuse.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import lru_cache

import psycopg
from psycopg_pool import ConnectionPool

from tracker.errors import Conflict, KeyReused
from tracker.events import GENESIS, Event, NewEvent, decode
from tracker.store.base import (
    AppendResult,
    Broken,
    CampaignRow,
    Pending,
    ReadOnly,
    Store,
    Unreachable,
    chained,
    check_chain,
    decoded,
    describe,
    pending,
    snapshot_digest,
)

CHANNEL = "tracker_events"

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    position    BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    campaign    TEXT    NOT NULL,
    version     INTEGER NOT NULL CHECK (version >= 1),
    type        TEXT    NOT NULL,
    data        TEXT    NOT NULL,
    meta        TEXT    NOT NULL,
    recorded_at TEXT    NOT NULL,
    hash        TEXT    NOT NULL,
    UNIQUE (campaign, version)
);
CREATE INDEX IF NOT EXISTS events_retry
    ON events (campaign, ((meta::json) ->> 'retry'))
    WHERE ((meta::json) ->> 'retry') IS NOT NULL;
CREATE INDEX IF NOT EXISTS events_voids
    ON events (campaign, version) WHERE type = 'EventVoided';
CREATE OR REPLACE FUNCTION events_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the event log is append-only: an event cannot be %',
        CASE TG_OP WHEN 'UPDATE' THEN 'changed' ELSE 'deleted' END;
END $$;
CREATE OR REPLACE TRIGGER events_refuse_update BEFORE UPDATE ON events
    FOR EACH ROW EXECUTE FUNCTION events_refuse_change();
CREATE OR REPLACE TRIGGER events_refuse_delete BEFORE DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION events_refuse_change();
CREATE OR REPLACE TRIGGER events_refuse_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION events_refuse_change();
REVOKE UPDATE, DELETE, TRUNCATE ON events FROM PUBLIC;
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
    "VALUES (%s, %s, %s, %s, %s, %s, %s)"
)
_COLUMNS = "position, campaign, version, type, data, meta, recorded_at, hash"
# Any number that every tracker uses for its schema's advisory lock.
_SCHEMA_LOCK = 7_216_001


@lru_cache(maxsize=512)
def _sql(text: str) -> str:
    """SQL written with `?` placeholders (the contract's, SQLite's) in psycopg's `%s`."""
    return text.replace("%", "%%").replace("?", "%s")


class Tx:
    """A write transaction's handle: `execute` takes the contract's `?` SQL."""

    __slots__ = ("conn",)

    def __init__(self, conn: psycopg.Connection):
        self.conn = conn

    def execute(self, sql: str, args: tuple | list = ()) -> psycopg.Cursor:
        return self.conn.execute(_sql(sql), args)


def _configure(conn: psycopg.Connection) -> None:
    # An acknowledged append is on the server's disk (the default, made sure of here).
    conn.execute("SET synchronous_commit = on")


def _reachable(url: str, timeout: float) -> None:
    """Raise `Unreachable`, in one line, unless the server answers at `url`."""
    try:
        psycopg.connect(url, connect_timeout=max(1, int(timeout))).close()
    except psycopg.Error as error:
        reason = str(error).strip().splitlines()[-1] if str(error).strip() else type(error)
        raise Unreachable(f"cannot reach the database {describe(url)}: {reason}") from None


class PostgresStore(Store):
    """The event log of every campaign in one PostgreSQL database, over a pool of
    connections shared by the threads of a process."""

    dialect = "postgresql"

    def __init__(
        self, url: str, *, timeout: float = 10.0, readonly: bool = False, max_size: int = 8
    ):
        self.url = url
        self.target = self.path = describe(url)
        self.readonly = readonly
        _reachable(url, timeout)
        self.pool = ConnectionPool(
            url,
            min_size=1,
            max_size=max_size,
            kwargs={"autocommit": True},
            configure=_configure,
            timeout=timeout * 3,
            open=False,
            name="tracker",
        )
        self.pool.open(wait=True, timeout=timeout)
        self._listener: _Listener | None = None
        self._listener_lock = threading.Lock()
        self._local = threading.local()  # conn: this thread's open transaction, if any

    # -- the one writer discipline, and plain reads ---------------------------------------

    @contextmanager
    def transaction(self) -> Iterator[Tx]:
        """A transaction at READ COMMITTED: committed if the block ends, else undone.

        While it is open, this thread's reads go through it too (as on SQLite, where a
        connection reads what its own open transaction wrote): an import checks a line
        against the lines before it that it has written but not committed."""
        if self.readonly:
            raise ReadOnly(self.target)
        if getattr(self._local, "conn", None) is not None:
            yield Tx(self._local.conn)  # within this thread's transaction already
            return
        with self.pool.connection() as conn, conn.transaction():
            self._local.conn = conn
            try:
                yield Tx(conn)
            finally:
                self._local.conn = None

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection]:
        """This thread's open transaction's connection, else one from the pool."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            yield conn
            return
        with self.pool.connection() as conn:
            yield conn

    def query(self, sql: str, args: tuple | list = ()) -> list[tuple]:
        with self._connection() as conn:
            return conn.execute(_sql(sql), args).fetchall()

    def create(self, script: str, marker: str = "users") -> None:
        """Run a schema script once (under an advisory lock, so two app servers starting
        together do not both run it), unless its `marker` table is there already: a role
        that does not own the tables never needs to create them."""
        if self.readonly:
            raise ReadOnly(self.target)
        with self.pool.connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
            (there,) = conn.execute("SELECT to_regclass(%s) IS NOT NULL", (marker,)).fetchone()
            if not there:
                conn.execute(script)

    def init(self) -> None:
        """Create the tables, indexes, triggers and privileges if they are not there yet."""
        self.create(SCHEMA, "events")

    def close(self) -> None:
        if self._listener is not None:
            self._listener.stop()
        self.pool.close()

    def initialised(self) -> bool:
        return bool(self.one("SELECT to_regclass('events') IS NOT NULL")[0])

    # -- writing ---------------------------------------------------------------------------

    def append(
        self, campaign: str, events: Iterable[NewEvent], expected_version: int
    ) -> AppendResult:
        """Append events to a campaign in one transaction, under the log's table lock.

        Raises `Conflict` when the campaign is not at `expected_version` and `KeyReused`
        for a retry key used before by another request, as the SQLite store does; a retry of
        the same request returns the first append's result and writes nothing.
        """
        request = pending(campaign, events, expected_version)
        with self.transaction() as tx:
            tx.conn.execute("LOCK TABLE events IN EXCLUSIVE MODE")
            return self._one(tx.conn, request)

    def _one(self, conn: psycopg.Connection, request: Pending) -> AppendResult:
        campaign = request.campaign
        if request.key is not None:
            earlier = self._idempotent(conn, campaign, request.key)
            if earlier is not None:
                if earlier.request != request.request:
                    raise KeyReused("(the one sent)")
                return earlier
        version, head = self._head(conn, campaign)
        if version != request.expected:
            raise Conflict(campaign, request.expected, version)
        out = chained(request, version, head)
        try:
            with conn.cursor() as cursor:
                cursor.executemany(_INSERT, out)
        except psycopg.errors.UniqueViolation:
            raise Conflict(campaign, request.expected, version + 1) from None
        _announce(conn)
        return AppendResult(campaign, version + 1, out[-1][1], out[-1][6])

    def import_rows(self, batches: Iterable[list[tuple]]) -> None:
        """Write whole new campaigns in one transaction: all of them or none (see the SQLite
        store); a campaign's first row finds the campaign empty, or the whole is a Conflict."""
        with self.transaction() as tx:
            conn = tx.conn
            conn.execute("LOCK TABLE events IN EXCLUSIVE MODE")
            written = False
            for rows in batches:
                for row in rows:
                    if row[1] == 1:
                        version, _ = self._head(conn, row[0])
                        if version != 0:
                            raise Conflict(row[0], 0, version)
                with conn.cursor() as cursor:
                    cursor.executemany(_INSERT, rows)
                written = written or bool(rows)
            if written:
                _announce(conn)

    def _head(self, conn, campaign: str) -> tuple[int, str]:
        row = conn.execute(
            "SELECT version, hash FROM events WHERE campaign = %s ORDER BY version DESC LIMIT 1",
            (campaign,),
        ).fetchone()
        return (row[0], row[1]) if row else (0, GENESIS)

    def idempotent(self, campaign: str, key: str) -> AppendResult | None:
        """The earlier append that carried the retry key `key` (meta.retry), or None."""
        with self._connection() as conn:
            return self._idempotent(conn, campaign, key)

    def _idempotent(self, conn, campaign: str, key: str) -> AppendResult | None:
        row = conn.execute(
            "SELECT min(version), max(version) FROM events "
            "WHERE campaign = %s AND (meta::json) ->> 'retry' = %s",
            (campaign, key),
        ).fetchone()
        if row is None or row[0] is None:
            return None
        (head,) = conn.execute(
            "SELECT hash FROM events WHERE campaign = %s AND version = %s", (campaign, row[1])
        ).fetchone()
        (request,) = conn.execute(
            "SELECT (meta::json) ->> 'request' FROM events WHERE campaign = %s AND version = %s",
            (campaign, row[0]),
        ).fetchone()
        return AppendResult(campaign, row[0], row[1], head, replayed=True, request=request)

    # -- reading ---------------------------------------------------------------------------

    def head(self, campaign: str) -> tuple[int, str]:
        """The campaign's version and head hash; (0, genesis) when it has no events."""
        with self._connection() as conn:
            return self._head(conn, campaign)

    def ends(self, campaign: str) -> tuple[int, str, str | None]:
        """The campaign's version, head hash and first event's hash, in one query."""
        row = self.one(
            "SELECT version, hash, (SELECT hash FROM events WHERE campaign = ? AND version = 1) "
            "FROM events WHERE campaign = ? ORDER BY version DESC LIMIT 1",
            (campaign, campaign),
        )
        return row if row else (0, GENESIS, None)

    def read(self, campaign: str, after: int = 0, upto: int | None = None) -> Iterator[Event]:
        """The campaign's events with after < version <= upto, in order."""
        rows = self.query(
            f"SELECT {_COLUMNS} FROM events WHERE campaign = ? AND version > ? "
            "AND version <= ? ORDER BY version",
            (campaign, after, upto if upto is not None else 2**31 - 1),
        )
        yield from decoded(rows)

    def read_all(self, after_position: int = 0) -> Iterator[Event]:
        """Every campaign's events in global order, from after `after_position`."""
        rows = self.query(
            f"SELECT {_COLUMNS} FROM events WHERE position > ? ORDER BY position",
            (after_position,),
        )
        yield from decoded(rows)

    def event(self, campaign: str, version: int) -> Event | None:
        row = self.one(
            f"SELECT {_COLUMNS} FROM events WHERE campaign = ? AND version = ?",
            (campaign, version),
        )
        if row is None:
            return None
        return Event(row[0], row[1], row[2], row[3], decode(row[4]), row[5], row[6], row[7])

    def voids(self, campaign: str, upto: int | None = None) -> dict[int, int]:
        """Voided versions of a campaign, as of `upto`: voided version -> version of the void."""
        rows = self.query(
            "SELECT version, data FROM events WHERE campaign = ? AND type = 'EventVoided' "
            "AND version <= ?",
            (campaign, upto if upto is not None else 2**31 - 1),
        )
        return {json.loads(data)["version"]: version for version, data in rows}

    def campaigns(self) -> list[CampaignRow]:
        """One row per campaign: its system and name (from its first event), version, head."""
        return self._campaign_rows("", ())

    def campaign(self, campaign: str) -> CampaignRow | None:
        rows = self._campaign_rows("AND f.campaign = ?", (campaign,))
        return rows[0] if rows else None

    def campaign_page(
        self, among: str, args: tuple, *, search: str = "", limit: int = 50, offset: int = 0
    ) -> tuple[list[CampaignRow], int]:
        """A page of the campaigns the query `among` gives (see the SQLite store)."""
        where, params = f"f.version = 1 AND f.campaign IN ({among})", list(args)
        if search:
            escaped = search.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            # ILIKE: SQLite's LIKE ignores the case of ASCII letters too.
            where += (
                " AND (((f.data::json) ->> 'name') ILIKE ? ESCAPE '\\'"
                " OR f.campaign ILIKE ? ESCAPE '\\')"
            )
            params += [f"%{escaped}%"] * 2
        (total,) = self.one(f"SELECT count(*) FROM events f WHERE {where}", params)
        rows = self.query(
            f"""
            SELECT f.campaign, (f.data::json) ->> 'system', (f.data::json) ->> 'name',
                   f.recorded_at, h.version, h.hash
            FROM events f JOIN events h ON h.campaign = f.campaign AND h.version = (
                SELECT max(version) FROM events WHERE campaign = f.campaign)
            WHERE {where} ORDER BY f.position LIMIT ? OFFSET ?
            """,
            [*params, limit, offset],
        )
        return [
            CampaignRow(campaign, system or "?", name or campaign, version, head, started)
            for campaign, system, name, started, version, head in rows
        ], total

    def _campaign_rows(self, where: str, args: tuple) -> list[CampaignRow]:
        rows = self.query(
            f"""
            SELECT f.campaign, (f.data::json) ->> 'system', (f.data::json) ->> 'name',
                   f.recorded_at, h.version, h.hash
            FROM events f
            JOIN (SELECT campaign, max(version) AS version FROM events GROUP BY campaign) m
                ON m.campaign = f.campaign
            JOIN events h ON h.campaign = m.campaign AND h.version = m.version
            WHERE f.version = 1 {where}
            ORDER BY f.position
            """,
            args,
        )
        return [
            CampaignRow(campaign, system or "?", name or campaign, version, head, started)
            for campaign, system, name, started, version, head in rows
        ]

    def count(self) -> int:
        return int(self.one("SELECT count(*) FROM events")[0])

    def verify(self, campaign: str) -> Broken | None:
        """Recompute a campaign's hash chain; the first event that does not match, or None."""
        rows = self.query(
            "SELECT version, type, data, meta, recorded_at, hash FROM events "
            "WHERE campaign = ? ORDER BY version",
            (campaign,),
        )
        return check_chain(campaign, rows)

    # -- snapshots: a cache, never the truth -------------------------------------------------

    def save_snapshots(self, campaign: str, fingerprint: str, states: list[tuple[int, str]]):
        """Keep folded states [(version, state_json)], each bound to its event's hash."""
        if self.readonly:
            return
        with self.transaction() as tx:
            rows = []
            for version, text in states:
                found = tx.execute(
                    "SELECT hash FROM events WHERE campaign = ? AND version = ?",
                    (campaign, version),
                ).fetchone()
                if found is not None:
                    head = found[0]
                    rows.append(
                        (campaign, fingerprint, version, text, head, snapshot_digest(head, text))
                    )
            with tx.conn.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO snapshots (campaign, fingerprint, version, state, head, digest) "
                    "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (campaign, fingerprint, version) "
                    "DO UPDATE SET state = excluded.state, head = excluded.head, "
                    "digest = excluded.digest",
                    rows,
                )

    def latest_snapshot(self, campaign: str, fingerprint: str, upto: int) -> tuple[int, str] | None:
        """The latest snapshot at or before `upto` bound to the log as it is."""
        rows = self.query(
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
        yield from self.query(
            "SELECT fingerprint, version, state FROM snapshots WHERE campaign = ? "
            "ORDER BY fingerprint, version",
            (campaign,),
        )

    def drop_snapshot(self, campaign: str, fingerprint: str, version: int) -> None:
        if self.readonly:
            return
        with self.transaction() as tx:
            tx.execute(
                "DELETE FROM snapshots WHERE campaign = ? AND fingerprint = ? AND version = ?",
                (campaign, fingerprint, version),
            )

    def drop_snapshots(self, campaign: str | None = None, from_version: int = 0) -> int:
        """Forget cached states (of one campaign from a version on, or all of them)."""
        with self.transaction() as tx:
            if campaign is None:
                return tx.execute("DELETE FROM snapshots").rowcount
            return tx.execute(
                "DELETE FROM snapshots WHERE campaign = ? AND version >= ?",
                (campaign, from_version),
            ).rowcount

    # -- live updates ------------------------------------------------------------------------

    def wait(self, after: int, timeout: float) -> None:
        """Return once an event after position `after` may exist, or when `timeout` passes:
        woken by the NOTIFY of an append through any app server."""
        listener = self._listening(timeout)
        if self.position() > after:
            return
        with listener.changed:
            listener.changed.wait_for(lambda: listener.latest > after, timeout)

    def _listening(self, timeout: float) -> _Listener:
        with self._listener_lock:
            if self._listener is None:
                self._listener = _Listener(self.url)
        self._listener.ready.wait(timeout)
        return self._listener


def _announce(conn: psycopg.Connection) -> None:
    """Tell every listener the log's newest position (sent when the transaction commits)."""
    conn.execute("SELECT pg_notify(%s, lastval()::text)", (CHANNEL,))


class _Listener:
    """A connection of its own that LISTENs for appends, in a thread, and wakes the waiters;
    it connects again when the connection drops, and then wakes them all (a notification
    may have been missed meanwhile)."""

    def __init__(self, url: str):
        self.url = url
        self.latest = 0
        self.changed = threading.Condition()
        self.ready = threading.Event()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="tracker-listen", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stopping.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    (newest,) = conn.execute(
                        "SELECT coalesce(max(position), 0) FROM events"
                    ).fetchone()
                    self._heard(int(newest))
                    self.ready.set()
                    while not self.stopping.is_set():
                        for note in conn.notifies(timeout=0.5):
                            self._heard(int(note.payload or 0))
            except psycopg.Error:
                self.stopping.wait(0.5)

    def _heard(self, position: int) -> None:
        with self.changed:
            self.latest = max(self.latest, position)
            self.changed.notify_all()

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(2)
