"""The store's contract, on each engine: a real SQLite file and a real PostgreSQL database.

The `store` fixture here is parametrised (conftest's `any_store`): every test that takes it
runs with the same body on both engines.
"""

import json
import multiprocessing
import sqlite3

import psycopg
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tracker.errors import Conflict
from tracker.events import GENESIS, NewEvent, decode
from tracker.store import SQLiteStore, open_store

# What each engine raises when its triggers refuse a change to the log.
REFUSED = (sqlite3.IntegrityError, psycopg.errors.RaiseException)


@pytest.fixture
def store(any_store):
    return any_store


def ev(n, **meta):
    return NewEvent("Noted", {"n": n}, meta)


def where(store) -> str:
    """What opens the same database again: the file's path, or the server's URL."""
    return store.path if isinstance(store, SQLiteStore) else store.url


def raw(store, *statements):
    """Statements run straight on the database, behind the store's back, as its owner."""
    if isinstance(store, SQLiteStore):
        conn = sqlite3.connect(store.path)
        try:
            for statement in statements:
                conn.execute(statement)
            conn.commit()
        finally:
            conn.close()
        return
    with psycopg.connect(store.url, autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)


def drop_trigger(store, name: str) -> str:
    return f"DROP TRIGGER {name}" + ("" if isinstance(store, SQLiteStore) else " ON events")


def test_versions_run_one_two_three_without_gaps(store):
    store.append("c", [ev(1), ev(2)], 0)
    store.append("c", [ev(3)], 2)
    assert [e.version for e in store.read("c")] == [1, 2, 3]
    assert [e.data["n"] for e in store.read("c")] == [1, 2, 3]


def test_a_new_campaign_is_appended_with_expected_version_zero(store):
    with pytest.raises(Conflict):
        store.append("new", [ev(1)], 1)
    result = store.append("new", [ev(1)], 0)
    assert (result.first_version, result.last_version) == (1, 1)


def test_a_stale_expected_version_writes_nothing_and_names_both_versions(store):
    store.append("c", [ev(1), ev(2)], 0)
    with pytest.raises(Conflict) as caught:
        store.append("c", [ev(3), ev(4)], 1)
    assert caught.value.expected == 1 and caught.value.actual == 2
    assert "version 2" in str(caught.value) and "not 1" in str(caught.value)
    assert store.version("c") == 2


def test_the_database_refuses_a_raw_update_of_an_event(store):
    store.append("c", [ev(1)], 0)
    with pytest.raises(REFUSED, match="append-only"):
        raw(store, "UPDATE events SET data = '{}'")


def test_the_database_refuses_a_raw_delete_of_an_event(store):
    store.append("c", [ev(1)], 0)
    with pytest.raises(REFUSED, match="append-only"):
        raw(store, "DELETE FROM events")
    assert store.version("c") == 1


def test_the_file_runs_in_wal_mode_with_full_sync_and_a_busy_timeout(db_path):
    store = open_store(db_path)
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert store.conn.execute("PRAGMA busy_timeout").fetchone()[0] >= 1000


def test_an_idempotent_retry_returns_the_first_result_and_writes_nothing(store):
    store.append("c", [ev(1)], 0)
    first = store.append("c", [ev(2, retry="k"), ev(3, retry="k")], 1)
    again = store.append("c", [ev(2, retry="k"), ev(3, retry="k")], 1)
    assert again.replayed and not first.replayed
    assert (again.first_version, again.last_version, again.head) == (
        first.first_version,
        first.last_version,
        first.head,
    )
    assert store.version("c") == 3


def test_an_idempotency_key_belongs_to_its_campaign(store):
    store.append("a", [ev(1, retry="k")], 0)
    result = store.append("b", [ev(1, retry="k")], 0)
    assert not result.replayed and store.version("b") == 1


def test_read_streams_a_window_of_versions(store):
    store.append("c", [ev(n) for n in range(1, 11)], 0)
    stream = store.read("c", after=3, upto=6)
    assert not isinstance(stream, list)
    assert [e.version for e in stream] == [4, 5, 6]


def test_changes_give_every_campaign_in_global_order(store):
    store.append("a", [ev(1)], 0)
    store.append("b", [ev(1)], 0)
    store.append("a", [ev(2)], 1)
    changes = store.changes(0)
    assert [(campaign, version) for _, campaign, version in changes] == [
        ("a", 1),
        ("b", 1),
        ("a", 2),
    ]
    assert [campaign for _, campaign, _ in store.changes(changes[1][0])] == ["a"]


def test_each_hash_chains_to_the_previous_event_of_its_campaign(store):
    store.append("c", [ev(1), ev(2)], 0)
    assert store.verify("c") is None
    first, second = store.read("c")
    assert first.hash != second.hash and len(second.hash) == 64


def test_verify_names_the_event_edited_behind_the_trackers_back(store):
    store.append("c", [ev(n) for n in range(1, 6)], 0)
    raw(
        store,
        drop_trigger(store, "events_refuse_update"),
        "UPDATE events SET data = '{\"n\":99}' WHERE campaign = 'c' AND version = 3",
    )
    broken = store.verify("c")
    assert broken is not None and broken.version == 3
    assert "event 3 (Noted)" in str(broken)


def test_verify_names_a_missing_event(store):
    store.append("c", [ev(n) for n in range(1, 4)], 0)
    raw(store, drop_trigger(store, "events_refuse_delete"), "DELETE FROM events WHERE version = 2")
    assert store.verify("c").version == 2


def _appender(path, worker, count, queue, barrier):
    """Append `count` events with expected versions, retrying on conflict."""
    store = open_store(path, timeout=60)
    acknowledged, conflicts = [], 0
    for n in range(count):
        while True:
            version = store.version("shared")
            if n == 0 and not conflicts:
                barrier.wait()  # everyone read the same version: all but one must conflict
            try:
                result = store.append("shared", [NewEvent("Noted", {"w": worker, "n": n})], version)
            except Conflict:
                conflicts += 1
                continue
            acknowledged.append((worker, n, result.last_version))
            break
    store.close()
    queue.put((acknowledged, conflicts))


def test_several_processes_appending_to_one_campaign_lose_nothing_and_double_nothing(store):
    store.append("shared", [NewEvent("Noted", {"w": -1, "n": -1})], 0)
    ctx = multiprocessing.get_context("spawn")
    queue, barrier = ctx.Queue(), ctx.Barrier(4)
    workers = [
        ctx.Process(target=_appender, args=(where(store), w, 25, queue, barrier)) for w in range(4)
    ]
    for process in workers:
        process.start()
    results = [queue.get(timeout=120) for _ in workers]
    for process in workers:
        process.join(timeout=60)
    acknowledged = [a for acks, _ in results for a in acks]
    assert len(acknowledged) == 100
    events = list(store.read("shared"))
    assert [e.version for e in events] == list(range(1, 102))  # no gaps
    written = {(e.data["w"], e.data["n"]): e.version for e in events[1:]}
    assert len(written) == 100  # no duplicates
    for worker, n, version in acknowledged:
        assert written[(worker, n)] == version  # every acknowledged event is there
    # The first round raced four appenders on one version: three were told of a conflict.
    assert sum(c for _, c in results) >= 3
    assert store.verify("shared") is None


# -- decoding: msgspec's decoder, with json.loads' results and errors -----------------------

_json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=2**63 - 2, max_value=2**70)  # past 64 bits: still an int
    | st.floats()  # NaN and infinities too: json.dumps writes them, json.loads reads them
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(
    value=_json_values,
    indent=st.sampled_from([None, 1]),
    around=st.sampled_from(["", " ", "\n"]),
    ascii_only=st.booleans(),
)
def test_decode_gives_what_json_loads_gives(value, indent, around, ascii_only):
    text = around + json.dumps(value, indent=indent, ensure_ascii=ascii_only) + around
    # repr: the same types too (1 is not 1.0), and NaN is not equal to itself
    assert repr(decode(text)) == repr(json.loads(text))


@pytest.mark.parametrize(
    "text",
    [
        "123456789012345678901234567890",  # an int past 64 bits stays an int
        "-9223372036854775809",
        "1e400",  # json.loads: inf
        "-1e400",
        "NaN",
        "Infinity",
        '"\\ud800"',  # a lone surrogate
        '{"a": 1, "a": 2}',  # the last of a repeated key
        "-0.0",
        "5e-324",
        "1.7976931348623159e308",  # rounds past the largest float: inf
        "0." + "0" * 400 + "1",
        "1" + "0" * 400,
    ],
)
def test_decode_matches_json_loads_where_decoders_differ(text):
    assert repr(decode(text)) == repr(json.loads(text))


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=20))
def test_decode_refuses_what_json_loads_refuses(text):
    try:
        expected = json.loads(text)
    except ValueError as error:
        with pytest.raises(ValueError) as caught:
            decode(text)
        assert str(caught.value) == str(error)
    else:
        assert repr(decode(text)) == repr(expected)  # repr: NaN is not equal to itself


def test_a_writer_that_last_saw_an_older_head_gets_a_conflict_naming_the_new_one(store):
    first, second = store, open_store(where(store))
    first.append("c", [ev(1), ev(2), ev(3)], 0)
    second.append("c", [ev(4)], 3)  # another connection (a thread, a process) moved on
    for batch in ([ev(5)], [ev(5), ev(6)]):
        with pytest.raises(Conflict) as caught:
            first.append("c", batch, 3)  # the head this connection wrote last
        assert (caught.value.expected, caught.value.actual) == (3, 4)
    assert first.version("c") == 4
    first.append("c", [ev(5), ev(6)], 4)
    second.append("c", [ev(7)], 6)
    assert [e.data["n"] for e in first.read("c")] == [1, 2, 3, 4, 5, 6, 7]
    assert first.verify("c") is None and second.verify("c") is None
    second.close()


# -- the rest of the contract, on both engines ----------------------------------------------


def test_time_travel_reads_the_log_as_it_stood_at_a_version(store):
    store.append("c", [ev(n) for n in range(1, 6)], 0)
    assert [e.data["n"] for e in store.read("c", upto=3)] == [1, 2, 3]
    assert store.event("c", 3).data == {"n": 3} and store.event("c", 9) is None
    assert store.head("c")[0] == 5 and store.ends("c")[2] == store.event("c", 1).hash


def test_voids_are_read_as_of_a_version(store):
    store.append("c", [ev(1), ev(2)], 0)
    store.append("c", [NewEvent("EventVoided", {"version": 2, "reason": "misread"}, {})], 2)
    assert store.voids("c") == {2: 3}
    assert store.voids("c", upto=2) == {}


def _rows(campaign, count):
    from tracker.store.records import append_request, chained

    return chained(append_request(campaign, [ev(n) for n in range(1, count + 1)], 0), 0, "0" * 64)


def test_an_import_writes_all_of_its_campaigns_or_none(store):
    store.append("taken", [ev(1)], 0)
    with pytest.raises(Conflict):
        store.import_rows(iter([_rows("fresh", 3), _rows("taken", 2)]))
    assert not store.exists("fresh") and store.version("taken") == 1
    store.import_rows(iter([_rows("fresh", 3)]))
    assert store.version("fresh") == 3 and store.verify("fresh") is None


def test_an_import_that_fails_while_reading_writes_nothing(store):
    def batches():
        yield _rows("half", 2)
        raise ValueError("line 3 is not JSON")

    with pytest.raises(ValueError):
        store.import_rows(batches())
    assert store.count() == 0


def test_a_snapshot_is_used_only_while_it_is_bound_to_the_log(store):
    store.append("c", [ev(1), ev(2), ev(3)], 0)
    store.save_snapshots("c", "f1", [(2, '{"n": 2}'), (3, '{"n": 3}'), (7, '{"n": 7}')])
    assert store.latest_snapshot("c", "f1", 3) == (3, '{"n": 3}')
    assert store.latest_snapshot("c", "f1", 2) == (2, '{"n": 2}')
    assert store.latest_snapshot("c", "other", 3) is None
    assert [v for _, v, _ in store.snapshots("c")] == [2, 3]  # none for an event not there
    store.drop_snapshot("c", "f1", 3)
    assert store.latest_snapshot("c", "f1", 3) == (2, '{"n": 2}')
    assert store.drop_snapshots("c", 0) == 1 and list(store.snapshots("c")) == []


def test_campaign_rows_name_each_campaign_from_its_first_event(store):
    store.append("b", [NewEvent("CampaignStarted", {"system": "warcry", "name": "Bravo"}, {})], 0)
    store.append("a", [NewEvent("CampaignStarted", {"system": "claim", "name": "Alpha"}, {})], 0)
    store.append("b", [ev(2)], 1)
    rows = store.campaigns()
    assert [(r.id, r.system, r.name, r.version) for r in rows] == [
        ("b", "warcry", "Bravo", 2),
        ("a", "claim", "Alpha", 1),
    ]
    page, more = store.campaign_page([("SELECT ? AS campaign", ("a",))], search="alp")
    assert not more and [r.id for r in page] == ["a"]
    assert store.campaign("b").head == store.head("b")[1] and store.campaign("z") is None


def started(store, campaign, system, name, events=0):
    store.append(campaign, [NewEvent("CampaignStarted", {"system": system, "name": name}, {})], 0)
    if events:
        store.append(campaign, [ev(n) for n in range(events)], 1)


def ids_of(store, table: str) -> tuple[str, tuple]:
    """A query for the ids a test lists: those in a table of its own, as the accounts keep."""
    return f"SELECT campaign FROM {table}", ()


def test_a_page_of_campaigns_says_what_the_log_says_of_each(store):
    for number in range(7):
        started(store, f"c{number}", "warcry" if number % 2 else "claim", f"Camp {number}", number)
    page, more = store.campaign_page([("SELECT campaign FROM events WHERE version = 1", ())])
    assert not more and page == store.campaigns()[::1] == [store.campaign(r.id) for r in page]
    for row in page:
        events = list(store.read(row.id))
        assert (row.version, row.head) == (events[-1].version, events[-1].hash)
        assert (row.system, row.name, row.started_at) == (
            events[0].data["system"],
            events[0].data["name"],
            events[0].recorded_at,
        )


def test_campaigns_are_paged_by_id_both_ways_from_any_of_several_lists(store):
    with store.transaction() as tx:
        tx.execute("CREATE TABLE listed_a (campaign TEXT PRIMARY KEY)")
        tx.execute("CREATE TABLE listed_b (campaign TEXT PRIMARY KEY)")
    for number in range(10):
        started(store, f"c{number}", "warcry", f"Camp {number}")
        with store.transaction() as tx:  # c0-c5 in one list, c4-c7 in the other, c8-c9 in none
            if number < 6:
                tx.execute("INSERT INTO listed_a VALUES (?)", (f"c{number}",))
            if 4 <= number < 8:
                tx.execute("INSERT INTO listed_b VALUES (?)", (f"c{number}",))
    among = [ids_of(store, "listed_a"), ids_of(store, "listed_b")]

    def page(**cursor):
        rows, more = store.campaign_page(among, limit=3, **cursor)
        return [r.id for r in rows], more

    assert page() == (["c0", "c1", "c2"], True)
    assert page(after="c2") == (["c3", "c4", "c5"], True)
    assert page(after="c5") == (["c6", "c7"], False)
    assert page(before="c6") == (["c3", "c4", "c5"], True)
    assert page(before="c3") == (["c0", "c1", "c2"], False)
    assert page(after="c7") == ([], False)


def test_campaigns_are_found_by_name_or_id_whatever_the_case_and_by_game(store):
    started(store, "ember", "warcry", "The Ember Crown")
    started(store, "tavern", "claim", "Tavern nights")
    started(store, "odd_100", "claim", "A 100% league")
    among = [("SELECT campaign FROM events WHERE version = 1", ())]

    def found(**search):
        return [r.id for r in store.campaign_page(among, **search)[0]]

    assert found(search="EMBER cr") == ["ember"] and found(search="tav") == ["tavern"]
    assert found(search="0%") == ["odd_100"] and found(search="d_1") == ["odd_100"]
    assert found(search="x%") == [] and found(search="_") == ["odd_100"]
    assert found(game="claim") == ["odd_100", "tavern"]
    assert found(game="claim", search="crown") == [] and found(game="hellas") == []


def test_position_and_changes_follow_the_global_order(store):
    assert store.position() == 0 and store.changes(0) == []
    store.append("a", [ev(1), ev(2)], 0)
    store.append("b", [ev(1)], 0)
    changes = store.changes(0)
    assert [(c, v) for _, c, v in changes] == [("a", 1), ("a", 2), ("b", 1)]
    assert store.position() == changes[-1][0]
    assert store.changes(changes[0][0]) == changes[1:]


def test_wait_returns_at_once_when_the_log_is_ahead_and_at_the_timeout_when_not(store):
    import time

    store.append("a", [ev(1)], 0)
    started = time.monotonic()
    store.wait(0, 5)
    assert time.monotonic() - started < 1
    started = time.monotonic()
    store.wait(store.position(), 0.3)
    assert 0.25 <= time.monotonic() - started < 3


def test_an_append_through_another_connection_wakes_a_waiter_within_two_seconds(store):
    import threading
    import time

    other = open_store(where(store))  # another app server's store
    seen = store.position()
    woke = []

    def waiter():  # a page of this app server, waiting in a thread of its own
        page = open_store(where(store))
        page.wait(seen, 10)
        woke.append(time.monotonic())
        page.close()

    thread = threading.Thread(target=waiter)
    thread.start()
    time.sleep(0.5)
    appended = time.monotonic()
    other.append("c", [ev(1)], 0)
    thread.join(10)
    other.close()
    assert woke and woke[0] - appended < 2
    assert store.changes(seen)[0][1:] == ("c", 1)


# -- PostgreSQL: what the server itself enforces ----------------------------------------------


@pytest.fixture
def pg_store(pg_url):
    opened = open_store(pg_url)
    opened.init()
    yield opened
    opened.close()


def test_postgresql_commits_synchronously_at_read_committed(pg_store):
    with pg_store.pool.connection() as conn:
        assert conn.execute("SHOW synchronous_commit").fetchone()[0] == "on"
        assert conn.execute("SHOW transaction_isolation").fetchone()[0] == "read committed"


def test_postgresql_refuses_a_truncate_of_the_log(pg_store):
    pg_store.append("c", [ev(1)], 0)
    with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
        raw(pg_store, "TRUNCATE events")
    assert pg_store.version("c") == 1


def test_an_app_role_that_does_not_own_the_log_may_not_change_it_even_without_triggers(
    pg_store,
):
    pg_store.append("c", [ev(1)], 0)
    raw(
        pg_store,
        "CREATE ROLE tracker_app LOGIN",
        "GRANT SELECT, INSERT ON events TO tracker_app",
        drop_trigger(pg_store, "events_refuse_update"),
        drop_trigger(pg_store, "events_refuse_delete"),
    )
    as_app = pg_store.url.replace("tracker@", "tracker_app@")
    try:
        with psycopg.connect(as_app, autocommit=True) as conn:
            assert conn.execute("SELECT count(*) FROM events").fetchone()[0] == 1
            for statement in ("UPDATE events SET data = '{}'", "DELETE FROM events"):
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    conn.execute(statement)
    finally:
        raw(pg_store, "DROP OWNED BY tracker_app", "DROP ROLE tracker_app")
    assert pg_store.verify("c") is None


def test_a_server_that_is_not_there_is_one_plain_error(pg_server):
    from tracker.store import Unreachable, open_store

    with pytest.raises(Unreachable, match="cannot reach the database postgresql://"):
        open_store(f"postgresql://tracker:secret@127.0.0.1:{pg_server.port + 1}/none", timeout=2)


def _loader(url, worker, queue):
    """Append one event at a time until the server goes away; report what was acknowledged."""
    store = open_store(url, timeout=5)
    acknowledged = []
    try:
        for n in range(100_000):
            while True:
                version = store.version("load")
                try:
                    store.append("load", [NewEvent("Noted", {"w": worker, "n": n})], version)
                except Conflict:
                    continue
                acknowledged.append(n)
                queue.put((worker, n))
                break
    except Exception:
        pass


def test_a_server_killed_mid_load_loses_no_acknowledged_append(pg_server, pg_url):
    import time

    store = open_store(pg_url)
    store.init()
    store.append("load", [NewEvent("Noted", {"w": -1, "n": -1})], 0)
    store.close()
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    workers = [ctx.Process(target=_loader, args=(pg_url, w, queue)) for w in range(3)]
    for process in workers:
        process.start()
    acknowledged = []
    deadline = time.monotonic() + 60
    while len(acknowledged) < 60 and time.monotonic() < deadline:
        acknowledged.append(queue.get(timeout=60))
    pg_server.stop("immediate")  # no checkpoint, no goodbye: as a crash
    for process in workers:
        process.join(30)
    while not queue.empty():
        acknowledged.append(queue.get())
    pg_server.start()
    store = open_store(pg_url)
    events = list(store.read("load"))
    written = {(e.data["w"], e.data["n"]) for e in events}
    assert [e.version for e in events] == list(range(1, len(events) + 1))
    assert len(acknowledged) >= 60 and set(acknowledged) <= written
    assert len(written) == len(events) and store.verify("load") is None
    store.close()


def test_postgresql_inserts_no_event_chained_on_a_head_the_log_does_not_hold(pg_store):
    pg_store.append("c", [ev(1), ev(2)], 0)
    # A head remembered wrongly (the database restored to an earlier point under a running
    # app server, say): beyond the log, and at the log's version with another hash.
    for remembered in ((3, "0" * 64), (2, "f" * 64)):
        pg_store._heads["c"] = remembered
        with pytest.raises(Conflict) as caught:
            pg_store.append("c", [ev(3), ev(4)], remembered[0])
        assert caught.value.actual == 2
    assert [e.version for e in pg_store.read("c")] == [1, 2]
    assert pg_store.verify("c") is None
    assert pg_store.append("c", [ev(3)], 2).last_version == 3


def test_postgresql_a_retry_that_loses_the_race_to_its_first_attempt_gets_its_result(
    pg_store, monkeypatch
):
    pg_store.append("c", [ev(1)], 0)
    first = pg_store.append("c", [ev(2, retry="k", request="r")], 1)
    # The retry looked for its key just before the first attempt committed, and found none.
    looks = iter([None])
    looked = pg_store._replay
    monkeypatch.setattr(pg_store, "_replay", lambda request: next(looks, looked(request)))
    again = pg_store.append("c", [ev(2, retry="k", request="r")], 1)
    assert again.replayed and (again.last_version, again.head) == (2, first.head)
    assert pg_store.version("c") == 2


def test_postgresql_appends_within_an_open_transaction_are_undone_with_it(pg_store):
    pg_store.append("c", [ev(1)], 0)
    with pytest.raises(Conflict):
        with pg_store.transaction():
            assert pg_store.append("c", [ev(2)], 1).last_version == 2
            assert pg_store.version("c") == 2  # its own reads see it
            pg_store.append("c", [ev(3)], 1)
    assert pg_store.version("c") == 1 and pg_store.verify("c") is None
    with pg_store.transaction():
        pg_store.append("c", [ev(2)], 1)
        pg_store.append("c", [ev(3)], 2)
    assert [e.data["n"] for e in pg_store.read("c")] == [1, 2, 3]


def test_postgresql_prepares_the_appends_statements_once_on_each_connection(pg_store):
    # The first append of the connection, in a transaction that is then undone: what it
    # prepared stays with the connection.
    with pytest.raises(Conflict):
        with pg_store.transaction():
            pg_store.append("c", [ev(1)], 0)
            pg_store.append("c", [ev(2)], 0)
    assert pg_store.version("c") == 0
    pg_store.append("c", [ev(1)], 0)
    # Refused by the unique key in the middle of its message (a head remembered behind the
    # log's): its transaction is undone, and the next append still finds its statements.
    pg_store._heads["c"] = (0, GENESIS)
    with pytest.raises(Conflict):
        pg_store.append("c", [ev(1)], 0)
    pg_store.append("c", [ev(2), ev(3)], 1)
    assert [e.data["n"] for e in pg_store.read("c")] == [1, 2, 3]
    assert pg_store.verify("c") is None
    with pg_store.pool.connection() as conn:
        prepared = conn.execute(
            "SELECT name FROM pg_prepared_statements WHERE name LIKE 'tracker%' ORDER BY name"
        ).fetchall()
    assert prepared == [("tracker_chained",), ("tracker_notify",)]


def test_what_an_event_holds_is_read_back_exactly_quotes_and_all(store):
    awkward = {
        "note": "it's \"quoted\"; DROP TABLE events; -- %s %(x)s \\ \\' $$ ? ?",
        "names": ["Zoë", "淡水", "🎲", "\t\n"],
        "deep": {"a'b": [1, 2.5, None, True]},
    }
    store.append("c", [NewEvent("Noted", awkward, {"actor": "o'neil"})], 0)
    store.append("c", [ev(2), NewEvent("Noted", {"?": "%"}, {})], 1)
    events = list(store.read("c"))
    assert events[0].data == awkward and events[0].meta == {"actor": "o'neil"}
    assert events[2].data == {"?": "%"} and store.verify("c") is None
