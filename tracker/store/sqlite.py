"""The append-only event log in SQLite, through sqlite-utils: the embedded default.

One table of events, chained by hashes per campaign, that the database itself refuses to
change or delete; and a table of snapshots, a cache of folded states that may be dropped at
any time. The store knows no game: it keeps, chains and reads events.
"""

from __future__ import annotations

import os
import queue
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable, Iterable
from concurrent.futures import Future, wait
from pathlib import Path
from urllib.parse import quote

import sqlite_utils

from tracker.errors import Conflict, TrackerError
from tracker.events import NewEvent
from tracker.store.base import Store
from tracker.store.records import (
    INSERT,
    SNAPSHOTS_SCHEMA,
    AppendRequest,
    AppendResult,
    ReadOnly,
    append_request,
    chained,
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


class _Transaction:
    """BEGIN IMMEDIATE for a `with` block: committed if the block ends, rolled back if it
    raises. The writers of one process take the file's `turn` first (`_FileWriter`), so
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


class _FileWriter:
    """The one thread of this process that appends to one database file, and the process's
    turn at writing that file.

    `turn`: every write transaction of this process on the file takes it first, the writer
    thread's too, so they take turns without meeting SQLite's busy handler, which sleeps
    between tries (re-entrant: a thread that writes through a second connection of its own
    meets the busy timeout, not itself).

    The writer thread takes appends from its queue. Once its transaction has begun, it takes
    every append waiting by then into it, each under a savepoint of its own: the appends of
    many threads share one commit, one disk sync, and one that is refused undoes only
    itself. Each caller waits for its own answer, given once the transaction is durable. The
    thread starts with the first append and stops when the last store that appends through
    it closes; the transaction's busy timeout is that of the store that started it."""

    def __init__(self, path: str):
        self.path = path
        self.turn = threading.RLock()
        self.commits = 0  # transactions the writer thread committed
        self._guard = threading.Lock()  # over the thread, its queue and the stores
        self._thread: threading.Thread | None = None
        self._requests: queue.SimpleQueue = queue.SimpleQueue()
        self._waiting = 0  # appends queued, neither taken into a transaction nor withdrawn
        self._stores: weakref.WeakSet = weakref.WeakSet()

    def join(self, store: SQLiteStore) -> None:
        """`store` appends through this writer: it runs until the last such store closes."""
        with self._guard:
            self._stores.add(store)

    def leave(self, store: SQLiteStore) -> None:
        with self._guard:
            self._stores.discard(store)
            if self._stores or self._thread is None:
                return
            self._requests.put(None)  # the thread ends once it has written what came before
            self._thread, self._requests = None, queue.SimpleQueue()

    def waiting(self) -> int:
        """How many appends wait for the writer: neither taken into a transaction yet nor
        withdrawn by their callers."""
        with self._guard:
            return self._waiting

    def _taken(self, requests: list) -> list:
        """Those of `requests` their callers have not withdrawn, each taken now: its caller
        waits for its answer, however long."""
        taken = [(r, a) for r, a in requests if a.set_running_or_notify_cancel()]
        with self._guard:
            self._waiting -= len(taken)
        return taken

    def write(self, store: SQLiteStore, request: AppendRequest) -> AppendResult:
        """`request` written by the writer thread; its result, or the error that refused it.
        An append still queued after `store.timeout` is withdrawn, nothing written, and
        fails as SQLite's own busy timeout does ("database is locked")."""
        answer: Future = Future()
        with self._guard:
            self._stores.add(store)  # a store made before a fork joins its child's writer
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run,
                    args=(self._requests, store.timeout),
                    name=f"tracker-writer {os.path.basename(self.path)}",
                    daemon=True,
                )
                self._thread.start()
            self._requests.put((request, answer))
            self._waiting += 1
        done, _ = wait((answer,), store.timeout)
        if not done and answer.cancel():
            with self._guard:
                self._waiting -= 1
            raise sqlite3.OperationalError("database is locked")
        return answer.result()  # taken by the writer: answered once its transaction ends

    def _run(self, requests: queue.SimpleQueue, timeout: float) -> None:
        own: SQLiteStore | None = None
        try:
            while (first := requests.get()) is not None:
                try:
                    if own is None:  # a connection of the thread's own
                        own = SQLiteStore(self.path, timeout=timeout, grouped=False)
                except BaseException as error:
                    self._fail([first], error)
                    continue
                if not self._write_batch(own, requests, first):
                    return
        finally:
            if own is not None:
                own.close()

    def _write_batch(self, own: SQLiteStore, requests: queue.SimpleQueue, first) -> bool:
        """`first` and every append waiting once the transaction has begun, written in it,
        and each answered; False when the queue said to stop."""
        batch, more = None, True
        try:
            with own.transaction():
                taken = [first]
                while (item := _next(requests)) is not _EMPTY:
                    if item is None:
                        more = False
                        break
                    taken.append(item)
                batch = self._taken(taken)
                outcomes = own.write_each([request for request, _ in batch])
        except BaseException as error:
            if batch is None:  # the turn or the transaction not had: `first` fails alone
                self._fail([first], error)
            else:
                for _, answer in batch:
                    answer.set_exception(error)
            return more
        self.commits += 1
        for (_, answer), outcome in zip(batch, outcomes):
            if isinstance(outcome, BaseException):
                answer.set_exception(outcome)
            else:
                own.wrote(outcome)
                answer.set_result(outcome)
        return more

    def _fail(self, requests: list, error: BaseException) -> None:
        """Each of `requests` not withdrawn by its caller fails with `error`."""
        for _, answer in self._taken(requests):
            answer.set_exception(error)


_EMPTY = object()


def _next(requests: queue.SimpleQueue):
    """The next request waiting, None to stop, or _EMPTY when none is waiting."""
    try:
        return requests.get_nowait()
    except queue.Empty:
        return _EMPTY


# This process's writer of each database file, by its real path; a forked process starts
# with none (no writer thread, no turn held) and makes its own on its first write.
_writers: dict[str, _FileWriter] = {}
os.register_at_fork(after_in_child=_writers.clear)


def _writer_of(path: str | None) -> _FileWriter | None:
    """This process's writer of the database file at the real path `path` (None: a
    database in memory, which each connection has to itself, or one opened for reading)."""
    if path is None:
        return None
    writer = _writers.get(path)
    return writer if writer is not None else _writers.setdefault(path, _FileWriter(path))


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

    POLL = 0.2  # seconds between looks at the log while a live page waits
    NO_LIMIT = 2**62
    TABLE_EXISTS = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"

    #: Appends go through the file's one writer thread (`_FileWriter`), which writes those
    #: of the process's threads that wait together in one transaction. False: each append a
    #: transaction of its own on this store's connection, taking turns on the file.
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
            if not in_memory:
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
        # behind the log (which only grows), never wrong for this file: see `_write_one`.
        self._heads: dict[str, tuple[int, str]] = {}
        if self.grouped and self._file is not None:
            _writer_of(self._file).join(self)

    def transaction(self) -> _Transaction:
        """The one way to write: BEGIN IMMEDIATE (a read-then-write never fails busy in WAL
        mode) in this process's turn at the file, committed if the block ends, else undone.
        Raises `ReadOnly` on a database opened for reading."""
        if self.readonly:
            raise ReadOnly(self.path)
        writer = _writer_of(self._file)
        return _Transaction(self.conn, writer.turn if writer else None, self.timeout)

    def create(self, marker: str, script: str, *, postgresql: str | None = None) -> None:
        """Run `script` unless its last table or index, `marker`, is there already."""
        if self.readonly:
            raise ReadOnly(self.path)
        if not self.one("SELECT 1 FROM sqlite_master WHERE name = ?", (marker,)):
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
        writer = _writers.get(self._file) if self._file is not None else None
        if writer is not None:
            writer.leave(self)
        self.conn.close()

    def backup(self, path: str, progress: Callable[[int, int], None] | None = None) -> None:
        """SQLite's online backup of the whole file into a new file at `path`, consistent
        while writers go on writing; `progress(pages copied, pages in all)` as it goes. A
        backup that fails leaves no file behind."""
        target = sqlite3.connect(path)

        def told(_status, remaining, total):
            if progress is not None:
                progress(total - remaining, total)

        try:
            self.conn.backup(target, pages=256, progress=told)
        except BaseException:
            target.close()
            Path(path).unlink(missing_ok=True)
            raise
        target.close()

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
        """Append events to a campaign in one BEGIN IMMEDIATE transaction: the writer
        thread's, with the appends of this process that waited with it (see `_FileWriter`),
        or, within a transaction of this store's open already, a part of it.

        Raises `Conflict` (naming both versions) when the campaign is not at
        `expected_version`; a new campaign is appended with expected version 0. When the
        events carry a retry key (meta.retry) already used in this campaign for the same
        request (meta.request), the first append's result is returned and nothing is written;
        for another request, `KeyReused`.
        """
        request = append_request(campaign, events, expected_version)
        if self.readonly:
            raise ReadOnly(self.path)
        if self.conn.in_transaction:
            return self._write_one(request)
        if self.grouped and self._file is not None:
            return _writer_of(self._file).write(self, request)
        with self.transaction():
            result = self._write_one(request)
        self.wrote(result)
        return result

    def write_each(self, requests: list[AppendRequest]) -> list[AppendResult | Exception]:
        """Within this store's open transaction: each append written, or the error that
        refused it (`Conflict`, `KeyReused`, an integrity error) with nothing of it written,
        each under a savepoint of its own when there are several."""
        if len(requests) == 1:
            return [self._write_one(requests[0])]
        outcomes: list[AppendResult | Exception] = []
        for request in requests:
            self.conn.execute("SAVEPOINT one_append")
            try:
                outcomes.append(self._write_one(request))
            except (TrackerError, sqlite3.IntegrityError) as error:
                self.conn.execute("ROLLBACK TO one_append")
                outcomes.append(error)
            self.conn.execute("RELEASE one_append")
        return outcomes

    def wrote(self, result: AppendResult) -> None:
        """An append committed: its head is the one this connection knows of its campaign."""
        if not result.replayed:
            self._heads[result.campaign] = (result.last_version, result.head)

    def _write_one(self, request: AppendRequest) -> AppendResult:
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
            self.conn.executemany(INSERT, out)
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
                conn.executemany(INSERT, rows)

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
