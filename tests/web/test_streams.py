"""The announcer: one thread that writes every handed-off stream, over socket pairs."""

import socket
import threading
import time

import pytest

from tracker.web.streams import Announcer, Listener, Slots


class Reader:
    def __init__(self, user_id=None):
        self.id = user_id


class Page:
    """The browser's end of a handed-off stream."""

    def __init__(self):
        self.ours, self.theirs = socket.socketpair()
        self.ours.settimeout(5.0)
        self.heard = b""

    def until(self, text: str, seconds: float = 5.0) -> str:
        deadline = time.monotonic() + seconds
        while text.encode() not in self.heard:
            assert time.monotonic() < deadline, f"never heard {text!r}: {self.heard!r}"
            chunk = self.ours.recv(4096)
            if not chunk:
                break
            self.heard += chunk
        return self.heard.decode()

    def ended(self, seconds: float = 5.0) -> bool:
        self.ours.settimeout(seconds)
        while True:
            chunk = self.ours.recv(4096)
            if not chunk:
                return True
            self.heard += chunk


@pytest.fixture
def rights():
    allowed = {"public": True}
    asked = []

    def may_read(reader, campaign):
        asked.append((reader.id, campaign))
        return allowed.get(campaign, True)

    may_read.allowed, may_read.asked = allowed, asked
    return may_read


@pytest.fixture
def announcer(rights):
    made = Announcer(rights, beat=0.2, retry_ms=1000)
    yield made
    made.stop()


def hand(announcer, campaign="c", since=0, newest=0, seconds=60.0, reader=None):
    page = Page()
    ended = threading.Event()
    listener = Listener(
        page.theirs, campaign, since, reader or Reader(), time.monotonic() + seconds
    )
    listener.done = ended.set
    announcer.add(listener, newest)
    page.ended_event = ended
    return page


def test_a_handed_stream_opens_and_hears_each_new_version(announcer):
    page = hand(announcer, since=3, newest=3)
    assert page.until(": watching c").startswith("retry: 1000")
    announcer.heard({"c": 4})
    assert "id: 4\nevent: version\ndata: 4\n\n" in page.until("data: 4")
    announcer.heard({"other": 9})
    announcer.heard({"c": 5})
    text = page.until("data: 5")
    assert "data: 9" not in text


def test_a_page_behind_the_campaign_hears_the_newest_version_at_once(announcer):
    page = hand(announcer, since=2, newest=7)
    assert "data: 7" in page.until("data: 7")


def test_a_quiet_stream_beats_and_ends_with_bye_when_its_time_is_up(announcer):
    page = hand(announcer, seconds=0.7)
    assert ": still here" in page.until(": still here", 2.0)
    assert "event: bye" in page.until("event: bye", 3.0)
    assert page.ended()
    assert page.ended_event.wait(2.0)
    assert announcer.count() == 0


def test_a_closed_page_gives_back_its_hold_at_once(announcer):
    page = hand(announcer)
    page.until(": watching")
    page.ours.close()
    assert page.ended_event.wait(2.0)
    assert announcer.count() == 0


def test_rights_are_asked_once_for_all_the_streams_of_one_reader(announcer, rights):
    pages = [hand(announcer, reader=Reader(7)) for _ in range(5)]
    for page in pages:
        page.until(": watching")
    announcer.heard({"c": 1})
    for page in pages:
        page.until("data: 1")
    assert rights.asked == [(7, "c")]


def test_a_reader_who_may_no_longer_read_hears_bye_and_nothing_more(announcer, rights):
    page = hand(announcer, campaign="secret")
    page.until(": watching")
    rights.allowed["secret"] = False
    announcer.heard({"secret": 2})
    text = page.until("event: bye")
    assert "data: 2" not in text
    assert page.ended()


def test_a_stopping_announcer_says_bye_to_every_stream(rights):
    told = Announcer(rights, beat=5.0, retry_ms=1000)
    pages = [hand(told) for _ in range(3)]
    for page in pages:
        page.until(": watching")
    started = time.monotonic()
    told.stop()
    for page in pages:
        assert "event: bye" in page.until("event: bye")
        assert page.ended()
    assert time.monotonic() - started < 2.0


def test_a_thousand_streams_are_held_by_one_thread(announcer):
    before = threading.active_count()
    pages = [hand(announcer, since=0, newest=0) for _ in range(1000)]
    for page in pages:
        page.until(": watching")
    assert threading.active_count() == before
    announcer.heard({"c": 1})
    for page in pages:
        page.until("data: 1")
    assert announcer.count() == 1000
    for page in pages:
        page.ours.close()


def test_slots_are_counted_per_address_per_account_and_in_all():
    slots = Slots(per_address=2, per_account=2, total=5)
    assert slots.take("a", None) is None and slots.take("a", None) is None
    refused = slots.take("a", None)
    assert refused.status == 429 and "your address has 2 live pages" in refused.words
    assert slots.take("b", 1) is None and slots.take("c", 1) is None
    refused = slots.take("d", 1)
    assert refused.status == 429 and "your account has 2 live pages" in refused.words
    assert slots.take("d", None) is None
    refused = slots.take("e", None)
    assert refused.status == 503 and "holds 5 live pages" in refused.words
    slots.give_back("a", None)
    assert slots.take("e", None) is None
    assert slots.held() == 5


def test_a_burst_of_versions_is_told_once_the_newest_after_the_streams_quiet_time(rights):
    told = Announcer(rights, beat=5.0, retry_ms=1000, spacing=0.4)
    try:
        page = hand(told, since=0, newest=0)
        page.until(": watching")
        started = time.monotonic()
        told.heard({"c": 1})
        page.until("data: 1")
        assert time.monotonic() - started < 0.3  # a quiet campaign's first version: at once
        told.heard({"c": 2})
        told.heard({"c": 3})
        text = page.until("data: 3", 3.0)
        assert time.monotonic() - started >= 0.35  # held for the stream's quiet time
        assert "data: 2" not in text  # the burst is told once, its newest version
    finally:
        told.stop()
