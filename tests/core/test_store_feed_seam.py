"""The store's seam for live pages: where the log has got to, what changed after a point, and
waiting for the next change. Every engine of the store answers these three the same way."""

import threading
import time

from tracker.events import NewEvent
from tracker.store import open_store


def ev(n):
    return NewEvent("Noted", {"n": n}, {})


def test_an_empty_log_stands_at_position_zero_and_has_no_changes(store):
    assert store.position() == 0
    assert store.changes(0) == []


def test_changes_name_each_event_after_a_position_in_the_logs_order(store):
    store.append("a", [ev(1), ev(2)], 0)
    store.append("b", [ev(1)], 0)
    store.append("a", [ev(3)], 2)
    changes = store.changes(0)
    assert [(campaign, version) for _, campaign, version in changes] == [
        ("a", 1),
        ("a", 2),
        ("b", 1),
        ("a", 3),
    ]
    positions = [position for position, _, _ in changes]
    assert positions == sorted(positions) and store.position() == positions[-1]
    assert [tuple(c) for c in store.changes(positions[1])] == [tuple(c) for c in changes[2:]]
    assert store.changes(store.position()) == []


def test_wait_returns_at_once_when_the_log_is_already_beyond(store):
    store.append("a", [ev(1)], 0)
    started = time.monotonic()
    store.wait(0, timeout=5.0)
    assert time.monotonic() - started < 0.5


def test_wait_gives_up_after_its_timeout_when_nothing_is_appended(store):
    started = time.monotonic()
    store.wait(store.position(), timeout=0.3)
    assert 0.25 <= time.monotonic() - started < 2.0


def test_wait_wakes_soon_after_another_connection_appends(store, db_path):
    def append_later():
        time.sleep(0.3)
        other = open_store(db_path)
        other.append("a", [ev(1)], 0)
        other.close()

    writer = threading.Thread(target=append_later)
    writer.start()
    started = time.monotonic()
    store.wait(0, timeout=10.0)
    waited = time.monotonic() - started
    writer.join()
    assert store.position() > 0 and 0.2 < waited < 2.0
