"""The append-only event log in SQLite, through sqlite-utils: the embedded default.

One table of events, chained by hashes per campaign, that the database itself refuses to
change or delete; and a table of snapshots, a cache of folded states that may be dropped at
any time. The store knows no game: it keeps, chains and reads events.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import quote

import sqlite_utils

from tracker.errors import Conflict, TrackerError
from tracker.events import NewEvent
from tracker.store.base import (
    INSERT,
    SNAPSHOTS_SCHEMA,
    AppendResult,
    Pending,
    ReadOnly,
    Store,
    chained,
    pending,
)

SCHEMA = (
    """
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
"""
    + SNAPSHOTS_SCHEMA
)

# What each campaign's head was (`Store.heads_differ`), kept by a trigger in the transaction
# of every insert into the log, whichever path it takes (an append, an import, a restore): a
# log cut short or deleted behind the tracker's back no longer matches it. Made apart from
# the schema, so that a database made before it gets it, filled from the log as it then is.
HEADS_SCHEMA = """
BEGIN IMMEDIATE;
CREATE TABLE heads (
    campaign TEXT    PRIMARY KEY,
    version  INTEGER NOT NULL,
    hash     TEXT    NOT NULL
);
INSERT INTO heads (campaign, version, hash)
    SELECT e.campaign, e.version, e.hash FROM events e
    WHERE e.version = (SELECT max(m.version) FROM events m WHERE m.campaign = e.campaign);
CREATE TRIGGER events_keep_head AFTER INSERT ON events
BEGIN
    INSERT INTO heads (campaign, version, hash) VALUES (NEW.campaign, NEW.version, NEW.hash)
        ON CONFLICT (campaign) DO UPDATE SET version = excluded.version, hash = excluded.hash
        WHERE excluded.version > heads.version;
END;
COMMIT;
"""

_INSERT = INSERT


class _Transaction:
    """BEGIN IMMEDIATE for a `with` block: committed if the block ends, rolled back if it
    raises. The writers of one process queue on the file's own lock (`_File.writers`) first, so
    they take turns without sleeping; SQLite's lock, with the busy timeout, makes the
    writers of different processes take turns."""

    __slots__ = ("conn", "lock", "timeout")

    def __init__(self, conn: sqlite3.Connection, lock: threading.RLock | None, timeout: float):
        self.conn, self.lock, self.timeout = conn, lock, timeout

    def __enter__(self) -> sqlite3.Connection:
        lock = self.lock
        if lock is not None and not lock.acquire(timeout=self.timeout):
            raise sqlite3.OperationalError("database is locked")
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except BaseException:
            if lock is not None:
                lock.release()
            raise
        return self.conn

    def __exit__(self, kind, error, traceback) -> None:
        try:
            self._end(kind)
        finally:
            if self.lock is not None:
                self.lock.release()

    def _end(self, kind) -> None:
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


class _Waiting:
    """An append of this process waiting for its turn to be written: its request, and once
    written (by whichever thread had the turn) its result or the error that refused it."""

    __slots__ = ("request", "result", "error", "done")

    def __init__(self, request: Pending):
        self.request, self.result, self.error, self.done = request, None, None, False

    def outcome(self) -> AppendResult:
        if self.error is not None:
            raise self.error
        return self.result


class _File:
    """What the writers of this process share for one database file.

    `writers`, the file's lock: every write transaction takes it first, so the writers of
    one process take turns without sleeping (re-entrant: a thread that writes through a
    second connection of its own meets SQLite's busy timeout, as before). And the group
    commit's queue: the appends waiting to be written, in the order they came, and whether
    a thread is writing a group of them now. The thread that writes takes every append
    waiting by then; the others sleep until theirs is written, or until the writer is done
    and one of them may write the next group."""

    __slots__ = ("writers", "changed", "waiting", "writing")

    def __init__(self):
        self.writers = threading.RLock()
        self.changed = threading.Condition(threading.Lock())
        self.waiting: list[_Waiting] = []
        self.writing = False


# Looked up at each write; a forked process starts with files of its own, no lock held.
_files: dict[str, _File] = {}
os.register_at_fork(after_in_child=_files.clear)


def _group_of(key: str) -> _File:
    """This process's share of the database file named by `key`."""
    shared = _files.get(key)
    return shared if shared is not None else _files.setdefault(key, _File())


def _writers_of(key: str | None) -> threading.RLock | None:
    """This process's lock of the database file named by `key` (None: a database in
    memory, which each connection has to itself)."""
    return None if key is None else _group_of(key).writers


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
    NO_LIMIT = 2**62
    TABLE_EXISTS = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"

    #: Group commit: the appends of this process that wait while another is written are
    #: written after it in one transaction, each on its own (bench/RESULTS.md, change 78).
    grouped = True

    def __init__(
        self,
        path: str | Path,
        *,
        timeout: float = 30.0,
        readonly: bool = False,
        grouped: bool | None = None,
    ):
        self.path = self.target = str(path)
        if grouped is not None:
            self.grouped = grouped
        self.readonly = readonly
        self.timeout = timeout
        in_memory = self.path in ("", ":memory:")
        self._file = None if readonly or in_memory else os.path.realpath(self.path)
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
        return _Transaction(self.conn, _writers_of(self._file), self.timeout)

    def create(self, script: str, marker: str = "") -> None:
        """Run a schema script (every statement in it says IF NOT EXISTS)."""
        if self.readonly:
            raise ReadOnly(self.path)
        self.conn.executescript(script)

    def query(self, sql: str, args: tuple | list = ()) -> list[tuple]:
        return self.conn.execute(sql, args).fetchall()

    def stream(self, sql: str, args: tuple | list = ()) -> sqlite3.Cursor:
        return self.conn.execute(sql, args)

    def field(self, column: str, name: str) -> str:
        return f"json_extract({column}, '$.{name}')"

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
        if "heads" not in self.db.table_names():
            self.conn.executescript(HEADS_SCHEMA)

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
        """Append events to a campaign in one BEGIN IMMEDIATE transaction (with group
        commit, the transaction of the appends of this process that waited with it).

        Raises `Conflict` (naming both versions) when the campaign is not at
        `expected_version`; a new campaign is appended with expected version 0. When the
        events carry a retry key (meta.retry) already used in this campaign for the same
        request (meta.request), the first append's result is returned and nothing is written;
        for another request, `KeyReused`.
        """
        request = pending(campaign, events, expected_version)
        if self.grouped and self._file is not None and not self.readonly:
            return self._grouped(request)
        with self.transaction():
            result = self._one(request)
        if not result.replayed:  # durable now: the head this connection wrote
            self._heads[campaign] = (result.last_version, result.head)
        return result

    def _grouped(self, request: Pending) -> AppendResult:
        """Group commit. The append waits in this process's queue for the file; the thread
        whose turn it is writes every append waiting by then, each under a savepoint of its
        own (a refused one undoes only itself), in one transaction: one disk sync for them
        all. Each is answered only once that transaction is durable."""
        group, mine = _group_of(self._file), _Waiting(request)
        deadline = time.monotonic() + self.timeout
        with group.changed:
            group.waiting.append(mine)
            while group.writing and not mine.done:
                left = None if deadline is None else deadline - time.monotonic()
                if not group.changed.wait(left) and mine in group.waiting:
                    group.waiting.remove(mine)  # no writer took it: nothing was written
                    raise sqlite3.OperationalError("database is locked")
                if mine not in group.waiting:
                    deadline = None  # taken by the writer: answered when it is done
            if mine.done:
                return mine.outcome()
            group.writing = True
        batch: list[_Waiting] = []
        try:
            batch = self._write_group(group, mine)
        finally:
            with group.changed:  # each written is answered, and the next may write
                for waiting in batch:
                    waiting.done = True
                group.writing = False
                group.changed.notify_all()
        return mine.outcome()

    def _write_group(self, group: _File, mine: _Waiting) -> list[_Waiting]:
        """Write the appends waiting in `group` (`mine` among them) in one transaction;
        the appends written or refused."""
        batch: list[_Waiting] = []
        try:
            with self.transaction():
                with group.changed:  # taken once the turn is ours: all that came meanwhile
                    batch = group.waiting[:]
                    del group.waiting[:]
                if len(batch) == 1:
                    mine.result = self._one(mine.request)
                else:
                    for waiting in batch:
                        self._one_of_many(waiting)
        except BaseException as error:
            if not batch:  # no turn: this one gives up, the others wait for the next
                with group.changed:
                    group.waiting.remove(mine)
                raise
            for waiting in batch:
                waiting.result, waiting.error = None, waiting.error or error
        for waiting in batch:  # durable now: the heads this connection wrote
            result = waiting.result
            if result is not None and not result.replayed:
                self._heads[result.campaign] = (result.last_version, result.head)
        return batch

    def _one_of_many(self, waiting: _Waiting) -> None:
        """One append of a group, under a savepoint: refused, it undoes only itself."""
        conn = self.conn
        conn.execute("SAVEPOINT one_append")
        try:
            waiting.result = self._one(waiting.request)
        except (TrackerError, sqlite3.IntegrityError) as error:
            conn.execute("ROLLBACK TO one_append")
            waiting.error = error
        conn.execute("RELEASE one_append")

    def _one(self, request: Pending) -> AppendResult:
        campaign = request.campaign
        earlier = self._replay(request)
        if earlier is not None:
            return earlier
        # The head this connection wrote last, when the caller expects it, spares a query:
        # if another writer has appended since, the next version is taken, and the insert
        # below fails on the log's unique (campaign, version) before anything is written.
        known = self._heads.get(campaign)
        if known is not None and known[0] == request.expected:
            version, head = known
        else:
            version, head = self.head(campaign)
            if version != request.expected:
                raise Conflict(campaign, request.expected, version)
        out = chained(request, version, head)
        try:
            self.conn.executemany(_INSERT, out)
        except sqlite3.IntegrityError as error:
            if known is None or "UNIQUE" not in str(error):
                raise
            del self._heads[campaign]
            raise Conflict(campaign, request.expected, self.head(campaign)[0]) from None
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
                self._check_new(rows)
                conn.executemany(_INSERT, rows)

    # -- snapshots: a cache, never the truth -------------------------------------------------

    def save_snapshots(self, campaign: str, fingerprint: str, states: list[tuple[int, str]]):
        """Keep folded states [(version, state_json)] of a campaign, in one transaction, each
        bound to the hash of the event it was folded to (none in a database opened read-only:
        they are a cache)."""
        if self.readonly:
            return
        with self.transaction() as conn:
            rows = self._bound(campaign, fingerprint, states)
            conn.executemany(
                "INSERT OR REPLACE INTO snapshots "
                "(campaign, fingerprint, version, state, head, digest) VALUES (?, ?, ?, ?, ?, ?)",
                rows,
            )
