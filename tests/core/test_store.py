"""The append-only log on a real SQLite file."""

import json
import multiprocessing
import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tracker.errors import Conflict
from tracker.events import NewEvent, decode
from tracker.store import Store


def ev(n, **meta):
    return NewEvent("Noted", {"n": n}, meta)


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
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        store.conn.execute("UPDATE events SET data = '{}'")


def test_the_database_refuses_a_raw_delete_of_an_event(store):
    store.append("c", [ev(1)], 0)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        store.conn.execute("DELETE FROM events")
    assert store.version("c") == 1


def test_the_file_runs_in_wal_mode_with_full_sync_and_a_busy_timeout(store):
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


def test_read_all_gives_every_campaign_in_global_order(store):
    store.append("a", [ev(1)], 0)
    store.append("b", [ev(1)], 0)
    store.append("a", [ev(2)], 1)
    events = list(store.read_all())
    assert [(e.campaign, e.version) for e in events] == [("a", 1), ("b", 1), ("a", 2)]
    assert [e.campaign for e in store.read_all(after_position=events[1].position)] == ["a"]


def test_each_hash_chains_to_the_previous_event_of_its_campaign(store):
    store.append("c", [ev(1), ev(2)], 0)
    assert store.verify("c") is None
    first, second = store.read("c")
    assert first.hash != second.hash and len(second.hash) == 64


def test_verify_names_the_event_edited_behind_the_trackers_back(store, db_path):
    store.append("c", [ev(n) for n in range(1, 6)], 0)
    raw = sqlite3.connect(db_path)
    raw.execute("DROP TRIGGER events_refuse_update")
    raw.execute("UPDATE events SET data = '{\"n\":99}' WHERE campaign = 'c' AND version = 3")
    raw.commit()
    raw.close()
    broken = store.verify("c")
    assert broken is not None and broken.version == 3
    assert "event 3 (Noted)" in str(broken)


def test_verify_names_a_missing_event(store, db_path):
    store.append("c", [ev(n) for n in range(1, 4)], 0)
    raw = sqlite3.connect(db_path)
    raw.execute("DROP TRIGGER events_refuse_delete")
    raw.execute("DELETE FROM events WHERE version = 2")
    raw.commit()
    raw.close()
    assert store.verify("c").version == 2


def _appender(path, worker, count, queue, barrier):
    """Append `count` events with expected versions, retrying on conflict."""
    store = Store(path, timeout=60)
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


def test_several_processes_appending_to_one_campaign_lose_nothing_and_double_nothing(db_path):
    store = Store(db_path)
    store.init()
    store.append("shared", [NewEvent("Noted", {"w": -1, "n": -1})], 0)
    ctx = multiprocessing.get_context("spawn")
    queue, barrier = ctx.Queue(), ctx.Barrier(4)
    workers = [
        ctx.Process(target=_appender, args=(str(db_path), w, 25, queue, barrier)) for w in range(4)
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


def test_a_writer_that_last_saw_an_older_head_gets_a_conflict_naming_the_new_one(tmp_path):
    first, second = Store(tmp_path / "two.db"), Store(tmp_path / "two.db")
    first.init()
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
    first.close()
    second.close()
