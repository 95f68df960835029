"""Folding: a campaign's events applied in order through its game's rules. Pure but for
`fold_from`, which reads a stretch of the log; what to keep of a fold, and when to leave a
snapshot, the campaign repository decides (tracker.repository)."""

from __future__ import annotations

from collections.abc import Iterable

from tracker.campaign import SEAT_EVENTS, language_chosen
from tracker.events import Event
from tracker.systems.base import GameSystem

# The core's events that change no game's state (a void is read apart, by the store's `voids`).
PASSED_BY = frozenset({"EventVoided", *SEAT_EVENTS})


def apply_event(system: GameSystem, state, event: Event, skipped) -> dict:
    """One step of a fold: the core's events handled here, the rest by the system's rules."""
    if event.type == "CampaignStarted":
        return system.initial_state(event.data["settings"])
    if event.type in PASSED_BY or event.version in skipped:
        return state
    if event.type == "LanguageChosen":
        return language_chosen(state, event)
    return system.apply(state, system.upcast(event))


def fold(system: GameSystem, events: Iterable[Event], skipped=(), state=None) -> dict:
    """Apply events in order to `state` (None before the first): the loop of every fold."""
    for event in events:
        state = apply_event(system, state, event, skipped)
    return state


def fold_from(store, campaign: str, system, after: int, upto: int, skipped, state):
    """The state after the events `after` < version <= `upto` of the log, applied to `state`
    (the state at `after`), and how many events that was."""
    count = 0
    for event in store.read(campaign, after=after, upto=upto):
        state = apply_event(system, state, event, skipped)
        count += 1
    return state, count


def stale(version: int, voided: dict[int, int]) -> bool:
    """Whether a state as of `version` is stale by a void recorded after it of an earlier event."""
    return any(target <= version < void for target, void in voided.items())
