"""The writers of one process on one SQLite file: their appends go through the file's one
writer thread, other writes take turns on the file's lock, and nothing is lost; and a page of
the log leaves a snapshot where a long fold ended, which changes nothing it shows."""

import os
import sqlite3
import threading

import pytest

from tracker.dice import SeededRoller
from tracker.errors import Conflict, KeyReused
from tracker.events import NewEvent
from tracker.service import Service
from tracker.store import open_store
from tracker.store import sqlite as engine

WRITERS = 8
EACH = 25


def _noted(n):
    return NewEvent("Noted", {"n": n}, {})


def test_many_threads_appending_to_one_campaign_land_each_append_once_on_a_gapless_chain(
    tmp_path,
):
    path = tmp_path / "tracker.db"
    open_store(path).init()
    acknowledged, failures = [], []
    start = threading.Barrier(WRITERS)

    def writer(number):
        store = open_store(path)  # a connection of its own, as each server thread keeps
        try:
            start.wait()
            for n in range(EACH):
                while True:  # a writer that lost the race reads the head and tries again
                    try:
                        result = store.append("c", [_noted(f"{number}-{n}")], store.version("c"))
                        break
                    except Conflict:
                        continue
                acknowledged.append((f"{number}-{n}", result.last_version))
        except BaseException as error:
            failures.append(error)
        finally:
            store.close()

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert failures == []
    store = open_store(path)
    log = list(store.read("c"))
    assert [e.version for e in log] == list(range(1, WRITERS * EACH + 1))
    at = {e.data["n"]: e.version for e in log}
    assert sorted(at.items()) == sorted(acknowledged)
    assert store.verify("c") is None
    store.close()


def test_many_threads_appending_each_to_its_own_campaign_never_conflict(tmp_path):
    path = tmp_path / "tracker.db"
    open_store(path).init()
    failures = []

    def writer(number):
        store = open_store(path)
        try:
            for n in range(EACH):
                store.append(f"c{number}", [_noted(n)], n)
        except BaseException as error:
            failures.append(error)
        finally:
            store.close()

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    store = open_store(path)
    for number in range(WRITERS):
        assert [e.data["n"] for e in store.read(f"c{number}")] == list(range(EACH))
        assert store.verify(f"c{number}") is None
    store.close()


def _free(store) -> bool:
    """Whether another thread may take the file's writers' lock at once."""
    got = []

    def other():
        lock = engine._writer_of(store._file).turn
        got.append(lock.acquire(blocking=False))
        if got[0]:
            lock.release()

    thread = threading.Thread(target=other)
    thread.start()
    thread.join()
    return got[0]


def test_a_write_that_fails_undoes_itself_and_leaves_the_next_writer_free_to_go(tmp_path):
    store = open_store(tmp_path / "tracker.db")
    store.init()
    store.append("c", [_noted(1)], 0)
    with pytest.raises(Conflict):
        store.append("c", [_noted(2)], 0)
    with pytest.raises(RuntimeError):
        with store.transaction() as conn:
            conn.execute(
                "INSERT INTO snapshots (campaign, fingerprint, version, state, head,"
                " digest) VALUES ('c', 'f', 1, '{}', 'h', 'd')"
            )
            raise RuntimeError("a failure half-way")
    assert _free(store)
    assert store.query("SELECT count(*) FROM snapshots") == [(0,)]
    assert [e.version for e in store.read("c")] == [1]
    store.close()


def test_a_writer_holds_the_lock_only_inside_its_transaction(tmp_path):
    store = open_store(tmp_path / "tracker.db")
    store.init()
    with store.transaction():
        assert not _free(store)
    assert _free(store)
    store.close()


def test_two_files_have_two_writers_and_a_file_in_memory_none(tmp_path):
    one, two = open_store(tmp_path / "one.db"), open_store(tmp_path / "two.db")
    again = open_store(tmp_path / "sub" / ".." / "one.db")
    assert engine._writer_of(one._file) is engine._writer_of(again._file)
    assert engine._writer_of(one._file) is not engine._writer_of(two._file)
    memory = open_store(":memory:")
    assert engine._writer_of(memory._file) is None
    memory.init()
    memory.append("c", [_noted(1)], 0)  # writes as before
    for store in (one, two, again, memory):
        store.close()


# -- one writer: the appends that wait while another is written go in one transaction --------


def _appending_while_the_turn_is_held(path, submissions, **options):
    """Each submission (campaign, expected version, key) appended by a thread of its own, on
    a connection of its own, while the file's writing turn is held, then the turn let go;
    what each thread got, and how many transactions were committed (the writer thread's and
    the COMMITs the threads' own connections sent)."""
    writer = engine._writer_of(os.path.realpath(path))
    committed = writer.commits
    got: dict = {}
    commits: list = []

    def writer_thread(n, campaign, expected, key):
        store = open_store(path, **options)
        store.conn.set_trace_callback(lambda sql: commits.append(sql) if sql == "COMMIT" else 0)
        meta = {"retry": key, "request": f"r{n}"} if key else {}
        try:
            got[n] = store.append(campaign, [NewEvent("Noted", {"n": n}, meta)], expected)
        except Exception as error:
            got[n] = error
        finally:
            store.close()

    threads = [
        threading.Thread(target=writer_thread, args=(n, *s)) for n, s in enumerate(submissions)
    ]
    with writer.turn:  # as if another write of this process were under way
        for thread in threads:
            thread.start()
        while options.get("grouped", True) and writer.waiting() < len(submissions):
            threading.Event().wait(0.01)
    for thread in threads:
        thread.join()
    return got, len(commits) + writer.commits - committed


def test_appends_that_wait_for_the_turn_are_written_in_one_transaction_each_on_its_own(
    tmp_path,
):
    path = tmp_path / "tracker.db"
    store = open_store(path)
    store.init()
    for campaign in ("a", "b", "c", "d"):
        store.append(campaign, [_noted(0)], 0)
    store.append("d", [NewEvent("Noted", {"n": 1}, {"retry": "k", "request": "first"})], 1)
    submissions = [("a", 1, None), ("b", 1, None), ("c", 5, None), ("d", 2, "k"), ("a", 1, None)]
    got, commits = _appending_while_the_turn_is_held(path, submissions)

    assert commits == 1  # five appends, one transaction, one disk sync
    assert got[1].last_version == 2
    assert isinstance(got[2], Conflict) and got[2].actual == 1  # refused alone
    assert isinstance(got[3], KeyReused)  # the key was used for another request
    # Two appends at version 1 of "a": the first in the group takes version 2, the other
    # is refused as the conflict it is.
    (won,) = [n for n in (0, 4) if not isinstance(got[n], Exception)]
    (lost,) = {0, 4} - {won}
    assert got[won].last_version == 2 and isinstance(got[lost], Conflict)
    assert [e.data["n"] for e in store.read("a")] == [0, won]
    assert [e.data["n"] for e in store.read("b")] == [0, 1]
    assert [e.data["n"] for e in store.read("c")] == [0]
    assert [e.data["n"] for e in store.read("d")] == [0, 1]
    assert all(store.verify(campaign) is None for campaign in "abcd")
    store.close()


def test_with_the_writer_thread_switched_off_each_append_is_a_transaction_of_its_own(tmp_path):
    path = tmp_path / "tracker.db"
    store = open_store(path)
    store.init()
    got, commits = _appending_while_the_turn_is_held(
        path, [("a", 0, None), ("b", 0, None), ("c", 0, None)], grouped=False
    )
    assert commits == 3
    assert sorted(result.campaign for result in got.values()) == ["a", "b", "c"]
    store.close()


def test_an_append_that_waits_longer_than_the_timeout_fails_and_writes_nothing(tmp_path):
    path = tmp_path / "tracker.db"
    store = open_store(path, timeout=0.2)
    store.init()
    writer = engine._writer_of(store._file)
    with writer.turn:
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            store.append("a", [_noted(1)], 0)
        assert writer.waiting() == 0
    assert store.version("a") == 0
    assert store.append("a", [_noted(1)], 0).last_version == 1  # the next one goes
    store.close()


def test_a_writer_that_cannot_begin_gives_up_alone_and_leaves_the_queue_to_the_next(tmp_path):
    path = tmp_path / "tracker.db"
    store = open_store(path, timeout=0.2)
    store.init()
    other = sqlite3.connect(path, isolation_level=None)  # another process's writer, say
    other.execute("BEGIN IMMEDIATE")
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        store.append("a", [_noted(1)], 0)
    assert engine._writer_of(store._file).waiting() == 0
    other.execute("ROLLBACK")
    other.close()
    assert store.append("a", [_noted(1)], 0).last_version == 1
    store.close()


def test_a_forked_process_appends_through_a_writer_of_its_own(tmp_path):
    path = tmp_path / "tracker.db"
    store = open_store(path)
    store.init()
    store.append("c", [_noted(1)], 0)  # the parent's writer thread runs
    child = os.fork()
    if child == 0:  # the child: no writer thread until its first append, which starts one
        try:
            os._exit(0 if store.append("c", [_noted(2)], 1).last_version == 2 else 1)
        except BaseException:
            os._exit(2)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert store.append("c", [_noted(3)], 2).last_version == 3
    assert [e.data["n"] for e in store.read("c")] == [1, 2, 3]
    store.close()


# -- a page of the log, and the snapshot it leaves ---------------------------------------------


def _warcry(service, cid, warbands):
    service.start(cid, "warcry", "Snap", {"quest": "ember-crown"}, actor="t")
    for n in range(warbands):
        service.append(
            cid,
            [
                {
                    "type": "WarbandFounded",
                    "data": {"warband": f"w{n}", "name": f"W {n}", "player": "p", "faction": "f"},
                }
            ],
            None,
            actor="t",
        )


def _entries(entries):
    return [(e.event.version, e.words, e.voided_by) for e in entries]


def test_the_latest_events_read_after_a_long_fold_are_worded_as_without_the_snapshot_it_left(
    tmp_path,
):
    store = open_store(tmp_path / "tracker.db")
    store.init()
    service = Service(store, SeededRoller(1), snapshot_every=20)
    _warcry(service, "c", 40)
    store.drop_snapshots()
    service.repository.forget()  # a process that keeps no head of the campaign
    # A page short of the head (read from a kept head's worded tail only).
    first = _entries(service.log_page("c", 35, 4))
    left = {v for _, v, _ in store.snapshots("c")}
    assert left == {31}  # the fold to just before the page was long: a snapshot there
    assert _entries(service.log_page("c", 35, 4)) == first  # read again from the snapshot
    plain = Service(open_store(tmp_path / "tracker.db"), SeededRoller(1), snapshot_every=10**9)
    plain.store.drop_snapshots()
    assert _entries(plain.log_page("c", 35, 4)) == first  # folded from the start, nothing kept
    assert list(plain.store.snapshots("c")) == []
    plain.store.close()
    store.close()


def test_a_page_of_the_log_leaves_no_snapshot_where_a_later_void_reaches_back(tmp_path):
    store = open_store(tmp_path / "tracker.db")
    store.init()
    service = Service(store, SeededRoller(1), snapshot_every=5)
    _warcry(service, "c", 30)
    service.append(
        "c", [{"type": "EventVoided", "data": {"version": 3, "reason": "a slip"}}], None, actor="t"
    )
    store.drop_snapshots()
    # As of event 20, the void (event 32) was not recorded yet: the page of events 11-20.
    as_then = _entries(service.log_page("c", 20, 10, as_of=20))
    assert {v for _, v, _ in store.snapshots("c")} == {10}
    store.drop_snapshots()
    # As of the latest, event 3 is voided: the fold to 10 skips it, which the log at 10 did
    # not: no snapshot is bound there.
    now = _entries(service.log_page("c", 20, 10))
    assert list(store.snapshots("c")) == []
    assert [v for v, _, _ in now] == [v for v, _, _ in as_then]
    store.close()
