"""The campaign repository: what a process keeps of a campaign is shared by its readers and
never changed under them, bounded, and always what a fold of the log from the start gives;
the worded end of a log gives every page as the simple path words it."""

import threading

import pytest

from tracker import config
from tracker.dice import SeededRoller
from tracker.repository import Head, Projections
from tracker.service import Service
from tracker.store import open_store

from .test_service import start_two_warbands

SAMPLE = config.SAMPLES / "warcry-ember-crown.jsonl"
DUP = {"warband": "dup", "name": "Dup", "player": "P", "faction": "F"}


def in_thread(work):
    """`work()` on a thread of its own (a request of another worker thread); its answer."""
    answer = []
    thread = threading.Thread(target=lambda: answer.append(work()))
    thread.start()
    thread.join()
    return answer[0]


def other_request(db_path, kept, campaign="c"):
    """A request on another thread, with its own connection: the state it reads."""

    def work():
        store = open_store(db_path)
        try:
            return Service(store, SeededRoller(7), kept=kept).state(campaign).state
        finally:
            store.close()

    return in_thread(work)


def counting_folds(service):
    folds = []
    fold = service.repository.fold

    def counted(*args, **kwargs):
        folds.append(args[0])
        return fold(*args, **kwargs)

    service.repository.fold = counted
    return folds


def _corrected(name: str) -> dict:
    return {
        "type": "FighterCorrected",
        "data": {"warband": "iron", "fighter": "iron-0", "name": name},
    }


def test_a_kept_state_is_shared_by_the_next_request_on_another_thread_unfolded(service, db_path):
    start_two_warbands(service)
    first = service.state("c").state
    folds = counting_folds(service)
    assert other_request(db_path, service.repository.kept) is first
    assert folds == []


def test_a_state_brought_forward_by_another_process_equals_a_fold_from_the_start(service, db_path):
    start_two_warbands(service)
    elsewhere = Projections()  # another process, which read the campaign before the append
    other_request(db_path, elsewhere)
    service.append("c", [_corrected("Zed")], service.store.version("c"), actor="org")
    brought = other_request(db_path, elsewhere)
    fresh = Service(service.store, SeededRoller(7), kept=Projections()).state("c").state
    assert brought == fresh
    assert brought["warbands"]["iron"]["fighters"]["iron-0"]["name"] == "Zed"


def test_a_writer_never_changes_a_state_a_reader_of_another_thread_holds(service, db_path):
    start_two_warbands(service)
    held = service.state("c").state
    before = repr(held)

    def write():
        store = open_store(db_path)
        try:
            Service(store, SeededRoller(7), kept=service.repository.kept).append(
                "c", [_corrected("Zed")], store.version("c"), actor="org"
            )
        finally:
            store.close()

    in_thread(write)
    assert repr(held) == before  # the page being rendered saw nothing change under it
    assert service.state("c").state["warbands"]["iron"]["fighters"]["iron-0"]["name"] == "Zed"


def test_the_state_a_writer_leaves_is_read_without_a_fold_and_as_a_fold_gives_it(service):
    start_two_warbands(service)
    service.state("c")
    service.append("c", [_corrected("Zed")], service.store.version("c"), actor="org")
    folds = counting_folds(service)
    left = service.state("c").state
    assert folds == []
    assert left == Service(service.store, kept=Projections()).state("c").state


def test_a_reader_that_looked_before_a_writer_appended_reads_the_state_left(service):
    """The reader read the log's ends, then a writer of its process appended and left its
    state, newer than those ends: the reader reads that state, folding nothing."""
    looked = _looked_before_a_writer_appended(service)
    folds = counting_folds(service)
    view = service.state("c")
    assert folds == []
    assert view.version == view.latest == looked[0] + 1
    assert view.state["warbands"]["iron"]["fighters"]["iron-0"]["name"] == "Zed"


def test_a_reader_that_asked_for_the_version_it_looked_at_is_not_given_a_later_one(service):
    looked = _looked_before_a_writer_appended(service)
    view = service.state("c", looked[0])
    assert view.version == looked[0]
    assert view.state["warbands"]["iron"]["fighters"]["iron-0"]["name"] != "Zed"


def _looked_before_a_writer_appended(service) -> tuple:
    """The ends a reader read just before a writer of its process appended: the store's next
    look at the ends answers those, the later ones the log's."""
    start_two_warbands(service)
    service.state("c")
    looked = service.store.ends("c")
    service.append("c", [_corrected("Zed")], looked[0], actor="org")
    ends = service.store.ends
    seen = iter([looked])
    service.store.ends = lambda campaign: next(seen, None) or ends(campaign)
    return looked


def test_a_head_of_another_log_under_the_same_name_is_not_used(service, tmp_path):
    start_two_warbands(service)
    service.state("c")
    other = open_store(tmp_path / "other.db")
    other.init()
    other.path = service.store.path  # as a database file put back from a backup would be
    again = Service(other, SeededRoller(3), kept=service.repository.kept)
    again.start("c", "warcry", "Another", {"quest": "ember-crown"})
    assert again.state("c").version == 1 and again.state("c").name == "Another"
    other.close()


def test_the_kept_store_holds_at_most_its_size_dropping_the_least_recently_asked():
    kept = Projections(3)
    for key in "abc":
        kept.put(key, Head(1, "h", {}, {}))
    kept.get("a")
    kept.put("d", Head(1, "h", {}, {}))
    assert len(kept) == 3
    assert kept.get("b") is None and kept.get("a") is not None


def test_a_head_behind_the_kept_one_does_not_replace_it():
    kept = Projections(3)
    newer = lambda old, new: new.version >= old.version  # noqa: E731
    kept.put("a", Head(9, "h9", {}, {}), newer)
    kept.put("a", Head(7, "h7", {}, {}), newer)
    assert kept.get("a").version == 9


def test_a_processs_writers_of_one_campaign_write_in_turn(service):
    start_two_warbands(service)
    turn = service.repository.writing("c")
    assert turn is service.repository.writing("c")
    assert turn is not service.repository.writing("d")
    held = []
    real = service.store.append

    def noting(*args, **kwargs):
        held.append(turn._is_owned())
        return real(*args, **kwargs)

    service.store.append = noting
    service.append("c", [_corrected("Zed")], 11, actor="org")
    assert held == [True]
    assert not turn._is_owned()


# -- the worded end of the log ----------------------------------------------------------------


@pytest.fixture
def svc(store):
    service = Service(store, SeededRoller(3))
    service.import_lines(SAMPLE.read_text(encoding="utf-8").splitlines())
    return service


def same_pages(svc, cid="ember-crown-sample"):
    """Every page shape asked of the tail equals the simple path's, as of each moment."""
    latest = svc.store.version(cid)
    for as_of in (None, latest - 1, latest - 30):
        top = latest if as_of is None else as_of
        voided = svc.store.voids(cid, as_of)
        for upto, count in ((top, 50), (top, 8), (top - 3, 50), (top - 150, 50), (top, 250)):
            got = svc.log_page(cid, upto, count, as_of)
            want = svc.repository.simple_page(cid, upto, count, voided)
            assert [(e.event.version, e.words, e.voided_by) for e in got] == [
                (e.event.version, e.words, e.voided_by) for e in want
            ]
            assert [e.event.hash for e in got] == [e.event.hash for e in want]


def test_the_worded_tail_words_every_page_as_the_simple_path_does(svc):
    cid = "ember-crown-sample"
    same_pages(svc)
    version = svc.store.version(cid)
    system = svc.state(cid).system
    assert svc.repository.kept.get(svc.repository._key(cid, system)).tail  # kept, and used
    svc.append(cid, [{"type": "WarbandFounded", "data": DUP}], version)
    same_pages(svc)  # stepped by an append
    elsewhere = Service(svc.store, SeededRoller(3), kept=Projections())
    elsewhere.log_page(cid, version + 1, 8)
    svc.append(cid, [{"type": "WarbandFounded", "data": {**DUP, "warband": "dup2"}}], version + 1)
    same_pages(elsewhere)  # brought forward by a reader of another process
    svc.append(
        cid, [{"type": "EventVoided", "data": {"version": version + 1, "reason": "x"}}], version + 2
    )
    same_pages(svc)  # a void reaching back into the tail
    same_pages(elsewhere)
    assert "Event" in svc.recent(cid, 1)[0].words


def test_the_head_page_is_read_from_the_tail_without_folding(svc, monkeypatch):
    cid = "ember-crown-sample"
    first = svc.log_page(cid, svc.store.version(cid), 50)

    def refuse(*args, **kwargs):
        raise AssertionError("folded again")

    version = svc.store.version(cid)
    svc.append(cid, [{"type": "WarbandFounded", "data": DUP}], version)
    monkeypatch.setattr(svc.repository, "fold", refuse)
    assert [(e.event.version, e.words) for e in svc.log_page(cid, version, 50)] == [
        (e.event.version, e.words) for e in first
    ]
    assert [e.event.version for e in svc.recent(cid, 8)] == list(
        range(version + 1, version - 7, -1)
    )


def test_a_tail_of_another_log_under_the_same_name_is_not_used(svc, tmp_path):
    same_pages(svc)
    other = open_store(tmp_path / "other.db")
    other.init()
    other.path = svc.store.path  # as a database file put back from a backup would be
    again = Service(other, SeededRoller(3), kept=svc.repository.kept)
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()[:40]
    again.import_lines(lines)
    same_pages(again)
    other.close()


def test_recent_events_read_at_a_version_another_process_passed_come_from_the_head(svc):
    """A page rendered at version v asks for its recent events up to v; another process
    appended v+1 meanwhile: the kept head is brought forward and its worded tail holds them,
    with nothing folded and the words a fresh fold gives."""
    cid = "ember-crown-sample"
    version = svc.store.version(cid)
    svc.state(cid)  # this process keeps the head at v
    elsewhere = Service(svc.store, SeededRoller(3), kept=Projections())
    elsewhere.append(cid, [{"type": "WarbandFounded", "data": DUP}], version)
    folds = counting_folds(svc)
    got = svc.recent(cid, 8, upto=version)
    assert folds == []
    fresh = Service(svc.store, SeededRoller(3), kept=Projections()).recent(cid, 8, upto=version)
    assert [(e.event.version, e.words) for e in got] == [(e.event.version, e.words) for e in fresh]
    assert got[0].event.version == version


def test_a_head_another_thread_brought_further_is_used_not_folded_again(svc):
    cid = "ember-crown-sample"
    version = svc.store.version(cid)
    svc.state(cid)
    svc.append(cid, [{"type": "WarbandFounded", "data": DUP}], version)
    system = svc.state(cid).system
    elsewhere = Service(svc.store, SeededRoller(3), kept=Projections())
    elsewhere.append(cid, [{"type": "WarbandFounded", "data": {**DUP, "warband": "dup2"}}], None)
    folds = counting_folds(svc)
    # Asked with the ends a request read before the appends: the kept head is newer than
    # they were, and the log has gone further still.
    head = svc.repository.head(cid, system, version, svc.store.event(cid, version).hash)
    assert (head.version, folds) == (version + 1, [])
