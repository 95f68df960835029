"""The append-only event log on PostgreSQL, through psycopg 3 and its connection pool.

The same contract as the SQLite store, for several app servers sharing one database. What the
log promises, the database enforces:

- append-only: triggers refuse UPDATE, DELETE and TRUNCATE on `events`, and `init` takes
  those privileges from PUBLIC (an app role given SELECT and INSERT only cannot change a row
  even with the triggers dropped);
- versions without a gap, the hash chain unbroken: `UNIQUE (campaign, version)`, and each
  event inserted only where the one before it is in the log with the hash it chains from
  (`tracker_chained`, `_PREPARED`), so an append expecting a stale version is a `Conflict`
  that writes nothing;
- a global order readers can follow: every append takes `LOCK TABLE events IN EXCLUSIVE
  MODE` (as the eventsourcing library's recorder does; through `events_lock()`, see `LOCK`), so appends commit one after another
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

import threading
import weakref
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import lru_cache

import psycopg
from psycopg_pool import ConnectionPool

from tracker.errors import Conflict
from tracker.events import NewEvent
from tracker.store.base import Store
from tracker.store.records import (
    INSERT,
    SNAPSHOTS_SCHEMA,
    AppendRequest,
    AppendResult,
    ReadOnly,
    Unreachable,
    append_request,
    chained,
    describe,
)
from tracker.systems.i18n import _

CHANNEL = "tracker_events"
# Tells every listener the log's newest position, when the transaction commits.
_NOTIFY = "SELECT pg_notify(%s, max(position)::text) FROM events"

SCHEMA = (
    """
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
"""
    + SNAPSHOTS_SCHEMA
)

# What each campaign's head was (`Store.heads_differ`), kept by a trigger in the transaction
# of every insert into the log (an append, an import, a copy), filled from the log as it is
# when the table is made. The trigger's function runs with its owner's rights (SECURITY
# DEFINER): an app role that may only insert into the log and read `heads` keeps it all the
# same, and cannot change it otherwise. Made apart from the schema, so that a database made
# before it gets it (by its owner: `init`, or an app server's first start as the owner).
HEADS_SCHEMA = """
LOCK TABLE events IN EXCLUSIVE MODE;
CREATE TABLE IF NOT EXISTS heads (
    campaign TEXT    PRIMARY KEY,
    version  INTEGER NOT NULL,
    hash     TEXT    NOT NULL
);
INSERT INTO heads (campaign, version, hash)
    SELECT DISTINCT ON (campaign) campaign, version, hash FROM events
    ORDER BY campaign, version DESC
    ON CONFLICT (campaign) DO NOTHING;
CREATE OR REPLACE FUNCTION events_keep_head() RETURNS trigger LANGUAGE plpgsql
    SECURITY DEFINER SET search_path FROM CURRENT AS $$
BEGIN
    INSERT INTO heads (campaign, version, hash) VALUES (NEW.campaign, NEW.version, NEW.hash)
        ON CONFLICT (campaign) DO UPDATE SET version = excluded.version, hash = excluded.hash
        WHERE excluded.version > heads.version;
    RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER events_keep_head AFTER INSERT ON events
    FOR EACH ROW EXECUTE FUNCTION events_keep_head();
REVOKE ALL ON heads FROM PUBLIC;
REVOKE ALL ON FUNCTION events_keep_head() FROM PUBLIC;
CREATE OR REPLACE FUNCTION events_lock() RETURNS void LANGUAGE plpgsql
    SECURITY DEFINER SET search_path FROM CURRENT AS $$
BEGIN
    LOCK TABLE events IN EXCLUSIVE MODE;
END $$;
"""
# The append's lock (see the module's docstring), taken through a function that runs with
# its owner's rights: PostgreSQL lets only a role that may UPDATE, DELETE or TRUNCATE a table
# take an EXCLUSIVE lock on it, and an app role may only INSERT into the log. The lock lasts
# until the append's transaction ends, as LOCK TABLE's does.
LOCK = "SELECT events_lock()"

_INSERT = INSERT.replace("?", "%s")
# The append's statements, prepared once on each connection (`_prepared`), so that the
# server does not parse and plan them again for every append. `tracker_chained` inserts an
# event only where the one before it is in the log with the hash it chains from (the first
# of a campaign has none): a chain never forks or skips, whatever head the writer believed.
# Its arguments: the row (campaign, version, type, data, meta, recorded_at, hash), then the
# previous hash. `tracker_notify` tells every listener the log's newest position.
_PREPARED = (
    "PREPARE tracker_chained (text, integer, text, text, text, text, text, text) AS "
    "INSERT INTO events (campaign, version, type, data, meta, recorded_at, hash) "
    "SELECT $1, $2, $3, $4, $5, $6, $7 WHERE $2 = 1 OR EXISTS (SELECT FROM events "
    "WHERE campaign = $1 AND version = $2 - 1 AND hash = $8); "
    "PREPARE tracker_notify (text) AS " + _NOTIFY.replace("%s", "$1")
)
_CHAINED = "EXECUTE tracker_chained (%s, %s, %s, %s, %s, %s, %s, %s)"
_NOTIFY_PREPARED = "EXECUTE tracker_notify (%s)"
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
        raise Unreachable(
            _(
                "cannot reach the database %(database)s: %(reason)s",
                database=describe(url),
                reason=str(reason),
            )
        ) from None


class PostgresStore(Store):
    """The event log of every campaign in one PostgreSQL database, over a pool of
    connections shared by the threads of a process."""

    LIKE = "ILIKE"  # SQLite's LIKE ignores the case of ASCII letters too
    TABLE_EXISTS = "SELECT 1 WHERE to_regclass(?) IS NOT NULL"

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
        # campaign -> (version, hash) this store appended last: a head a caller expecting it
        # need not read (an append chained on a head gone stale inserts nothing: `_CHAINED`).
        self._heads: dict[str, tuple[int, str]] = {}

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

    def field(self, column: str, name: str) -> str:
        return f"(({column}::json) ->> '{name}')"

    def serialise(self, tx, key: str) -> None:
        tx.execute("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", (key,))

    def create(self, marker: str, script: str, *, postgresql: str | None = None) -> None:
        """Run `postgresql` (else `script`) once, under an advisory lock so that two app
        servers starting together do not both run it, unless its last table or index,
        `marker`, is there already: a role that does not own the tables never needs to
        create them."""
        script = postgresql if postgresql is not None else script
        if self.readonly:
            raise ReadOnly(self.target)
        with self.pool.connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
            (there,) = conn.execute("SELECT to_regclass(%s) IS NOT NULL", (marker,)).fetchone()
            if not there:
                conn.execute(script)

    def init(self) -> None:
        """Create the tables, indexes, triggers and privileges if they are not there yet."""
        self.create("events", SCHEMA)
        self.create("heads", HEADS_SCHEMA)

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

        The transaction (the lock, the inserts, the NOTIFY) goes to the server in one
        message: one round trip (`_write`). Each row is inserted only where the event before it
        is in the log with the hash it chains from (`_CHAINED`), so the chain holds whatever
        head it was chained on; a head the caller expects and this store wrote last spares
        reading it first (if another append wrote meanwhile, nothing is inserted: a Conflict).
        """
        request = append_request(campaign, events, expected_version)
        if self.readonly:
            raise ReadOnly(self.target)
        conn = getattr(self._local, "conn", None)
        if conn is not None:  # within this thread's open transaction: a part of it
            conn.execute(LOCK)
            result = self._checked(request, conn)
            self._heads.pop(campaign, None)  # the transaction may yet be undone
            return result
        with self.pool.connection() as conn:
            self._local.conn = conn  # this append's reads go through it too
            try:
                return self._checked(request, conn)
            finally:
                self._local.conn = None

    def _checked(self, request: AppendRequest, conn: psycopg.Connection) -> AppendResult:
        campaign = request.campaign
        earlier = self._replay(request)
        if earlier is not None:
            return earlier
        known = self._heads.pop(campaign, None)
        if known is not None and known[0] == request.expected:
            version, head = known
        else:
            version, head = self.head(campaign)
            if version != request.expected:
                return self._refused(request, version)
        out = chained(request, version, head)
        try:
            written = _write(conn, out, head)
        except psycopg.errors.UniqueViolation:
            if conn.info.transaction_status == psycopg.pq.TransactionStatus.INERROR:
                # The enclosing transaction is undone and takes no more queries.
                raise Conflict(campaign, request.expected, version + 1) from None
            written = 0
        if written < len(out):
            return self._refused(request, self.head(campaign)[0])
        self._heads[campaign] = (out[-1][1], out[-1][6])
        return AppendResult(campaign, version + 1, out[-1][1], out[-1][6])

    def _refused(self, request: AppendRequest, version: int) -> AppendResult:
        """The Conflict of an append that found the campaign at `version`, unless the same
        request, retried with its key, has just been written by another append."""
        earlier = self._replay(request)
        if earlier is not None:
            return earlier
        raise Conflict(request.campaign, request.expected, version)

    def import_rows(self, batches: Iterable[list[tuple]]) -> None:
        """Write whole new campaigns in one transaction: all of them or none (see the SQLite
        store); a campaign's first row finds the campaign empty, or the whole is a Conflict."""
        with self.transaction() as tx:
            conn = tx.conn
            conn.execute(LOCK)
            written = False
            for rows in batches:
                self._check_new(rows)
                with conn.cursor() as cursor:
                    cursor.executemany(_INSERT, rows)
                written = written or bool(rows)
            if written:
                _announce(conn)

    # -- snapshots: a cache, never the truth -------------------------------------------------

    def save_snapshots(self, campaign: str, fingerprint: str, states: list[tuple[int, str]]):
        """Keep folded states [(version, state_json)], each bound to its event's hash."""
        if self.readonly:
            return
        with self.transaction() as tx:
            rows = self._bound(campaign, fingerprint, states)
            with tx.conn.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO snapshots (campaign, fingerprint, version, state, head, digest) "
                    "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (campaign, fingerprint, version) "
                    "DO UPDATE SET state = excluded.state, head = excluded.head, "
                    "digest = excluded.digest",
                    rows,
                )

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


# The connections on which the append's statements are prepared (a prepared statement lasts
# as long as its connection, and outlives a transaction rolled back).
_prepared: weakref.WeakSet = weakref.WeakSet()


def _write(conn: psycopg.Connection, rows: list[tuple], head: str) -> int:
    """Insert chained rows, the first chained on from `head`, under the table lock, and
    announce them; how many were inserted (all, or none when the log does not hold the head
    they chain from).

    The statements go in one Query message (psycopg's ClientCursor binds the arguments on
    the client), one round trip, which the server runs as one transaction: the lock, the
    inserts, the NOTIFY. The inserts and the NOTIFY execute statements that the connection
    prepared on its first append (`_PREPARED`; not as the pool connects, since a new
    database has the table only after `init`). In a transaction of this thread's already,
    the lock taken before, they are part of it."""
    if conn not in _prepared:
        conn.execute(_PREPARED)
        _prepared.add(conn)
    args, previous = [], head
    for row in rows:
        args += [*row, previous]
        previous = row[6]
    statements = [_CHAINED] * len(rows) + [_NOTIFY_PREPARED]
    if conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE:
        statements.insert(0, LOCK)
    written = 0
    with psycopg.ClientCursor(conn) as cursor:
        cursor.execute("; ".join(statements), [*args, CHANNEL])
        while True:
            if (cursor.statusmessage or "").startswith("INSERT"):
                written += cursor.rowcount
            if not cursor.nextset():
                return written


def _announce(conn: psycopg.Connection) -> None:
    """Tell every listener the log's newest position (sent when the transaction commits)."""
    conn.execute(_NOTIFY, (CHANNEL,))


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
