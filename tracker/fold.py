"""Folding: a campaign's events applied in order through its game's rules, from its latest
usable snapshot, leaving snapshots along the way."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable

from tracker.cache import Kept
from tracker.campaign import SEAT_EVENTS
from tracker.errors import TrackerError
from tracker.events import Event, decode
from tracker.store import Store
from tracker.systems.base import GameSystem

# The core's events that change no game's state (a void is read apart, by `voids`).
PASSED_BY = frozenset({"EventVoided", *SEAT_EVENTS})
# A fold leaves a snapshot at least this often (more seldom for big states).
SNAPSHOT_SPACING = 1000


def apply_event(system: GameSystem, state, event: Event, skipped) -> dict:
    """One step of a fold: the core's events handled here, the rest by the system's rules."""
    if event.type == "CampaignStarted":
        return system.initial_state(event.data["settings"])
    if event.type in PASSED_BY or event.version in skipped:
        return state
    return system.apply(state, system.upcast(event))


def fold(system: GameSystem, events: Iterable[Event], skipped=(), state=None) -> dict:
    """Apply events in order to `state` (None before the first): the loop of every fold."""
    for event in events:
        state = apply_event(system, state, event, skipped)
    return state


class Counted:
    """An iterable of events that counts them as they go by."""

    def __init__(self, events):
        self.events, self.count = events, 0

    def __iter__(self):
        for event in self.events:
            self.count += 1
            yield event


def stale(version: int, voided: dict[int, int]) -> bool:
    """Whether a state as of `version` is stale by a void recorded after it of an earlier event."""
    return any(target <= version < void for target, void in voided.items())


class Folder:
    """Folds the campaigns of one store, from snapshots, keeping snapshots as it goes."""

    def __init__(self, store: Store):
        self.store = store

    def fold(
        self,
        campaign: str,
        system: GameSystem,
        upto: int,
        voided: dict[int, int],
        skip=frozenset(),
        progress: Callable[[int], None] | None = None,
    ) -> tuple[dict, int]:
        """The state at `upto` and how many events were replayed to get it.

        Starts from the latest usable snapshot and folds in stretches, leaving a snapshot at
        the end of each one: a later look at any moment of the log then folds one stretch at
        most. `skip` (a void being checked) folds from the start and keeps nothing.
        `progress(n)`, when given, hears of every stretch of n events folded.
        """
        after, state = 0, None
        snap = None if skip else self.store.latest_snapshot(campaign, system.fingerprint, upto)
        if snap is not None and not stale(snap[0], voided):
            after, state = snap[0], decode(snap[1])
        skipped = set(voided) | set(skip)
        replayed, spacing, kept = 0, SNAPSHOT_SPACING, []
        while after < upto:
            end = min(upto, (after // spacing + 1) * spacing)
            counted = Counted(self.store.read(campaign, after=after, upto=end))
            state = fold(system, counted, skipped, state)
            replayed += counted.count
            after = end
            if progress:
                progress(counted.count)
            if end < upto and not skip and not stale(end, voided):
                text = json.dumps(state)
                kept.append((end, text))
                # Big states are kept further apart: at most ~256 bytes of snapshot an event.
                spacing = max(SNAPSHOT_SPACING, len(text) // 256 // 1000 * 1000)
        if kept:
            self.store.save_snapshots(campaign, system.fingerprint, kept)
        return state, replayed

    def forward(
        self, campaign: str, system: GameSystem, kept: Kept, upto: int, head: str
    ) -> Kept | None:
        """A kept state brought forward to `upto`, or None when it cannot be trusted: the
        log no longer holds its head, or a later void reaches back into it."""
        if kept.version > upto:
            return None
        event = self.store.event(campaign, kept.version)
        if event is None or event.hash != kept.head:
            return None  # another log, or another database file
        voided = self.store.voids(campaign, upto)
        if stale(kept.version, voided):
            return None
        try:
            state = fold(
                system, self.store.read(campaign, after=kept.version, upto=upto), voided, kept.state
            )
        except TrackerError:
            return None  # half-applied: fold afresh instead
        return Kept(upto, head, state, voided)
