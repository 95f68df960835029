"""Pages of the audit log in words: the simple path, and the worded tail a process keeps.

A page of the log words each event as the campaign stood just after it, so the simple path
folds from a snapshot to just before the page (up to a stretch of events) on every request.
The worded tail is the end of a campaign's log already worded, with the state after its
last event: the latest page, the dashboard's recent events and any page near the end are
read from it, and the events recorded since are folded and worded once, as they come.

A cache, never the truth: a tail is used only while the log still holds its last event (its
hash), and for a page only while the events voided as of the moment looked at, up to the
page's end, are those the tail's words were folded without. Otherwise the simple path.
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass

from tracker.campaign import Entry
from tracker.fold import stale

# Events a tail keeps worded: a few pages of the audit log.
TAIL = 200


@dataclass
class Tail:
    """The last events of a campaign's log up to `version` (whose hash is `head`), worded,
    with the state after `version` and the voided events its fold skipped (those at most
    `version`)."""

    version: int
    head: str
    state: dict
    skipped: frozenset
    entries: deque  # Entry of each version up to `version`, the oldest first


def simple_page(service, campaign: str, upto: int, count: int, voided: dict) -> list[Entry]:
    """The `count` events up to `upto`, worded: folded to just before them from a snapshot."""
    system, _ = service.system_of(campaign)
    first = max(1, upto - count + 1)
    state = _state_before(service, campaign, system, first, voided)
    events = service.store.read(campaign, after=first - 1, upto=upto)
    return list(service.worded(system, state, events, voided))


def _state_before(service, campaign: str, system, first: int, voided: dict) -> dict | None:
    """The state just before event `first` (None before the first), folded from a snapshot
    skipping `voided`; a long fold leaves a snapshot where it ended, unless a later void
    reaches back into it (the next page there then starts from it)."""
    if first <= 1:
        return None
    state, replayed = service.folder.fold(campaign, system, first - 1, voided)
    if replayed >= service.snapshot_every and not stale(first - 1, voided):
        service.store.save_snapshot(campaign, system.fingerprint, first - 1, json.dumps(state))
    return state


def page(service, campaign: str, upto: int, count: int, voided: dict) -> list[Entry]:
    """The same page as `simple_page`, from the campaign's worded tail where it holds it
    (brought forward to `upto` first); the tail is kept for the next request."""
    system, _ = service.system_of(campaign)
    key = (service.store.path, system.fingerprint, campaign)
    tails = service.cache.tails
    tail = tails.take(key)  # ours alone until it is put back or let go
    try:
        return _page_from(service, campaign, system, key, tail, upto, count, voided)
    finally:
        tails.let_go(key)


def _page_from(service, campaign, system, key, tail, upto, count, voided) -> list[Entry]:
    """The page from `tail` (the one taken, or None), brought forward or made, and kept."""
    tails = service.cache.tails
    if tail is not None and not _holds(service, campaign, tail):
        tail = None
    first = max(1, upto - count + 1)
    if tail is not None and upto > tail.version and _before(tail, voided, tail.version):
        _forward(service, campaign, system, tail, upto, voided)
    elif (tail is None or upto > tail.version) and upto == service.store.version(campaign):
        tail = _new_tail(service, campaign, system, upto, voided)  # a tail at the head only
    if tail is None:  # nothing to keep: the others need not wait for this page
        tails.let_go(key)
        return simple_page(service, campaign, upto, count, voided)
    oldest = tail.version - len(tail.entries) + 1
    held = first >= oldest and upto <= tail.version and _before(tail, voided, upto)
    kept = list(tail.entries)[first - oldest : upto - oldest + 1] if held else None
    tails.put(key, tail)  # others may bring it forward from now on
    if kept is None:
        return simple_page(service, campaign, upto, count, voided)
    return [Entry(e.event, e.words, voided.get(e.event.version)) for e in kept]


def _holds(service, campaign: str, tail: Tail) -> bool:
    """Whether the log still holds the tail's last event (another log, or another file)."""
    event = service.store.event(campaign, tail.version)
    return event is not None and event.hash == tail.head


def _before(tail: Tail, voided: dict, upto: int) -> bool:
    """Whether the tail's words up to `upto` were folded skipping what `voided` voids."""
    return {t for t in voided if t <= upto} == {t for t in tail.skipped if t <= upto}


def _new_tail(service, campaign: str, system, upto: int, voided: dict) -> Tail:
    first = max(1, upto - TAIL + 1)
    state = _state_before(service, campaign, system, first, voided)
    tail = Tail(first - 1, "", state, frozenset(), deque(maxlen=TAIL))
    _forward(service, campaign, system, tail, upto, voided)
    return tail


def _forward(service, campaign: str, system, tail: Tail, upto: int, voided: dict) -> None:
    """Fold and word the events after the tail's end up to `upto`, skipping `voided`."""
    events = service.store.read(campaign, after=tail.version, upto=upto)
    state = tail.state
    for event in events:
        state, words = service.worded_step(system, state, event, voided)
        tail.entries.append(Entry(event, words, None))
        tail.version, tail.head = event.version, event.hash
    tail.state = state
    tail.skipped = frozenset(t for t in voided if t <= tail.version)
