"""The worded tail of a log (tracker.wording) gives every page of the audit log as the simple
path words it: at the head, near it, in the past, after appends and after a void."""

import pytest

from tracker import config, wording
from tracker.dice import SeededRoller
from tracker.service import Service

SAMPLE = config.SAMPLES / "warcry-ember-crown.jsonl"
DUP = {"warband": "dup", "name": "Dup", "player": "P", "faction": "F"}


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
            want = wording.simple_page(svc, cid, upto, count, voided)
            assert [(e.event.version, e.words, e.voided_by) for e in got] == [
                (e.event.version, e.words, e.voided_by) for e in want
            ]
            assert [e.event.hash for e in got] == [e.event.hash for e in want]


def test_the_worded_tail_words_every_page_as_the_simple_path_does(svc):
    same_pages(svc)
    assert svc.cache.tails.entries  # the tail was kept, and is what answered since
    cid = "ember-crown-sample"
    version = svc.store.version(cid)
    svc.append(cid, [{"type": "WarbandFounded", "data": DUP}], version)
    same_pages(svc)  # brought forward by an append
    svc.append(
        cid, [{"type": "EventVoided", "data": {"version": version + 1, "reason": "x"}}], version + 1
    )
    same_pages(svc)  # a void reaching back into the tail
    assert "Event" in svc.recent(cid, 1)[0].words


def test_the_head_page_is_read_from_the_tail_without_folding(svc, monkeypatch):
    cid = "ember-crown-sample"
    first = svc.log_page(cid, svc.store.version(cid), 50)

    def refuse(*args, **kwargs):
        raise AssertionError("folded again")

    version = svc.store.version(cid)
    svc.append(cid, [{"type": "WarbandFounded", "data": DUP}], version)
    monkeypatch.setattr(svc.folder, "fold", refuse)
    assert svc.log_page(cid, version, 50) == first
    assert [e.event.version for e in svc.recent(cid, 8)] == list(
        range(version + 1, version - 7, -1)
    )


def test_a_tail_of_another_log_under_the_same_name_is_not_used(svc, tmp_path):
    from tracker.store import open_store

    same_pages(svc)
    other = open_store(tmp_path / "other.db")
    other.init()
    other.path = svc.store.path  # as a database file put back from a backup would be
    again = Service(other, SeededRoller(3), cache=svc.cache)
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()[:40]
    again.import_lines(lines)
    same_pages(again)
    other.close()
