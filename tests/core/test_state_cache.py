"""The states a process keeps: lent to one request at a time, never shared while in use,
and always what a fold of the log from the start gives."""

import threading
import time

from tracker import wording
from tracker.cache import Handover, Kept, Pool, StateCache
from tracker.dice import SeededRoller
from tracker.service import Service
from tracker.store import open_store

from .test_service import start_two_warbands


def in_thread(work):
    """`work()` on a thread of its own (a request of another worker thread); its answer."""
    answer = []
    thread = threading.Thread(target=lambda: answer.append(work()))
    thread.start()
    thread.join()
    return answer[0]


def other_request(db_path, cache, campaign="c", give_back=True):
    """A request on another thread, with its own connection: the state it reads."""

    def work():
        store = open_store(db_path)
        try:
            state = Service(store, SeededRoller(7), cache=cache).state(campaign).state
        finally:
            store.close()
        if give_back:
            cache.give_back()
        return state

    return in_thread(work)


def counting_folds(service):
    folds = []
    fold = service.folder.fold

    def counted(*args, **kwargs):
        folds.append(args[0])
        return fold(*args, **kwargs)

    service.folder.fold = counted
    return folds


def test_a_state_given_back_is_read_by_the_next_request_on_another_thread_unfolded(
    service, db_path
):
    start_two_warbands(service)
    first = service.state("c").state
    service.cache.give_back()
    folds = counting_folds(service)
    assert other_request(db_path, service.cache) is first
    assert folds == []


def test_two_requests_at_once_never_hold_the_same_state(service, db_path):
    start_two_warbands(service)
    held = service.state("c").state  # this request has not ended: it still reads it
    theirs = other_request(db_path, service.cache)
    assert theirs is not held
    assert theirs == held


def test_a_state_lent_on_and_brought_forward_equals_a_fold_from_the_start(service, db_path):
    start_two_warbands(service)
    service.state("c")
    service.cache.give_back()
    service.append(
        "c",
        [
            {
                "type": "FighterCorrected",
                "data": {"warband": "iron", "fighter": "iron-0", "name": "Zed"},
            }
        ],
        service.store.version("c"),
        actor="org",
    )
    brought = other_request(db_path, service.cache)
    fresh = Service(service.store, SeededRoller(7), cache=StateCache()).state("c").state
    assert brought == fresh
    assert brought["warbands"]["iron"]["fighters"]["iron-0"]["name"] == "Zed"


def test_a_writer_never_takes_a_state_a_reader_of_another_thread_holds(service, db_path):
    start_two_warbands(service)
    held = service.state("c").state
    before = repr(held)

    def write():
        store = open_store(db_path)
        try:
            Service(store, SeededRoller(7), cache=service.cache).append(
                "c",
                [
                    {
                        "type": "FighterCorrected",
                        "data": {"warband": "iron", "fighter": "iron-0", "name": "Zed"},
                    }
                ],
                store.version("c"),
                actor="org",
            )
        finally:
            store.close()
        service.cache.give_back()

    in_thread(write)
    assert repr(held) == before  # the page being rendered saw nothing change under it
    assert service.state("c").state["warbands"]["iron"]["fighters"]["iron-0"]["name"] == "Zed"


def test_a_reader_that_looked_before_a_writer_appended_reads_the_state_handed_on(service):
    """The reader read the log's ends, then a writer of its process appended and handed on
    its state, newer than those ends: the reader looks at the ends again and reads that
    state, instead of folding one of its own to the version it first saw."""
    looked = _looked_before_a_writer_appended(service)
    folds = counting_folds(service)
    view = service.state("c")
    assert folds == []
    assert view.version == view.latest == looked[0] + 1
    assert view.state["warbands"]["iron"]["fighters"]["iron-0"]["name"] == "Zed"


def test_a_reader_that_asked_for_the_version_it_looked_at_is_not_given_a_later_one(service):
    """The same race, but the reader asked for that version by its number: it gets it."""
    looked = _looked_before_a_writer_appended(service)
    view = service.state("c", looked[0])
    assert view.version == looked[0]
    assert view.state["warbands"]["iron"]["fighters"]["iron-0"]["name"] != "Zed"


def _looked_before_a_writer_appended(service) -> tuple:
    """The ends a reader read just before a writer of its process appended and handed its
    state on: the store's next look at the ends answers those, the later ones the log's."""
    start_two_warbands(service)
    service.state("c")
    service.cache.give_back()
    looked = service.store.ends("c")
    service.append("c", [_corrected("Zed")], looked[0], actor="org")
    ends = service.store.ends
    seen = iter([looked])
    service.store.ends = lambda campaign: next(seen, None) or ends(campaign)
    return looked


def _corrected(name: str) -> dict:
    return {
        "type": "FighterCorrected",
        "data": {"warband": "iron", "fighter": "iron-0", "name": name},
    }


def test_a_command_without_requests_keeps_reading_its_own_state(service):
    start_two_warbands(service)
    first = service.state("c").state
    folds = counting_folds(service)
    assert service.state("c").state is first
    assert folds == []


def test_the_pool_keeps_at_most_its_size_dropping_the_campaigns_given_back_longest_ago():
    pool = Pool(3)
    for n, key in enumerate(["a", "a", "b", "c"]):
        pool.put(key, Kept(n, f"h{n}", {}, {}))
    assert pool.count == 3
    assert pool.take("a").version == 1  # the older of a's two went first
    assert pool.take("a") is None
    assert pool.take("c").version == 3


def test_the_pool_lends_a_campaigns_newest_state_first():
    pool = Pool(8)
    for version in (5, 9, 7):
        pool.put("a", Kept(version, "h", {}, {}))
    assert [pool.take("a").version for _ in range(3)] == [9, 7, 5]


def test_a_processs_writers_of_one_campaign_write_in_turn(service):
    start_two_warbands(service)
    turn = service.cache.writing((service.store.path, "c"))
    assert turn is service.cache.writing((service.store.path, "c"))
    assert turn is not service.cache.writing((service.store.path, "d"))
    held = []
    real = service.store.append

    def noting(*args, **kwargs):
        held.append(turn._is_owned())
        return real(*args, **kwargs)

    service.store.append = noting
    service.append(
        "c",
        [
            {
                "type": "FighterCorrected",
                "data": {"warband": "iron", "fighter": "iron-0", "name": "Zed"},
            }
        ],
        11,
        actor="org",
    )
    assert held == [True]
    assert not turn._is_owned()


# -- entries handed over: one request at a time, the others waiting for it -------------------


def test_a_request_asking_for_an_entry_another_has_taken_waits_for_it_to_be_put_back():
    handover = Handover(4)
    handover.put("k", "entry")
    assert handover.take("k") == "entry"  # this thread has it now
    got = []
    waiting = threading.Thread(target=lambda: got.append(handover.take("k")))
    waiting.start()
    waiting.join(0.2)
    assert waiting.is_alive() and got == []  # it waits rather than making its own
    handover.put("k", "brought forward")
    waiting.join()
    assert got == ["brought forward"]


def test_a_request_waits_for_one_that_is_making_the_entry_and_lets_go_of_it_after():
    handover = Handover(4)
    assert handover.take("k") is None  # none yet: this thread makes it
    got = []
    waiting = threading.Thread(target=lambda: got.append(handover.take("k")))
    waiting.start()
    waiting.join(0.2)
    assert waiting.is_alive()
    handover.let_go("k")  # it made nothing worth keeping after all
    waiting.join()
    assert got == [None]


def test_a_request_takes_again_what_it_holds_without_waiting_and_waits_no_longer_than_patience():
    handover = Handover(4, patience=0.05)
    handover.put("k", "entry")
    assert handover.take("k") == "entry"
    assert handover.take("k") is None  # its own: nothing else to wait for
    assert in_thread(lambda: handover.take("k")) is None  # waited 0.05 s, then went on
    handover.let_go("k")


def test_pages_asked_for_at_once_word_the_campaigns_tail_once(service, db_path, monkeypatch):
    start_two_warbands(service)
    service.cache.give_back()
    made = []
    new_tail = wording._new_tail

    def counted(*args):
        made.append(args[1])
        return new_tail(*args)

    monkeypatch.setattr(wording, "_new_tail", counted)
    start = threading.Barrier(6)
    pages = []

    def request():
        store = open_store(db_path)
        try:
            start.wait()
            svc = Service(store, SeededRoller(7), cache=service.cache)
            pages.append([entry.words for entry in svc.recent("c", 5)])
        finally:
            store.close()

    threads = [threading.Thread(target=request) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert made == ["c"]  # one request worded the tail; the five others read it
    assert len(pages) == 6 and all(page == pages[0] for page in pages)


def test_a_page_of_the_past_made_without_the_tail_keeps_nobody_waiting(service, monkeypatch):
    start_two_warbands(service)
    head = service.store.version("c")
    tails = service.cache.tails
    tails.clear()
    tails.patience = 2.0
    key = (service.store.path, service.system_of("c")[0].fingerprint, "c")
    waited = []
    simple_page = wording.simple_page

    def another_request_meanwhile(svc, campaign, *args):
        def take():
            began = time.monotonic()
            tails.take(key)
            tails.let_go(key)
            return time.monotonic() - began

        waited.append(in_thread(take))
        return simple_page(svc, campaign, *args)

    monkeypatch.setattr(wording, "simple_page", another_request_meanwhile)
    service.log_page("c", head - 1, 2, head - 1)  # the past: folded, not from the tail
    assert len(waited) == 1 and waited[0] < 1.0
