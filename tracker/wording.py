"""What each event of a campaign's log says: the core's own events worded here, the rest by
the game's rules, each as the campaign stood just after it."""

from __future__ import annotations

from collections.abc import Iterator

from tracker.campaign import SEAT_EVENTS, Entry, seat_words
from tracker.errors import TrackerError
from tracker.events import copied
from tracker.fold import apply_event


def worded(system, state, events, voided) -> Iterator[Entry]:
    """The events applied to `state` one by one, each with its words."""
    for event in events:
        state, words = worded_step(system, state, event, voided)
        yield Entry(event, words, voided.get(event.version))


def worded_step(system, state, event, voided) -> tuple[dict, str]:
    """One step of a worded fold: the state after `event` and the event's words. A voided
    event is skipped by the fold, and worded as it read when it was recorded: applied to a
    copy of the state before it (as the rules take it now, if they still do)."""
    if event.version not in voided or event.type in ("CampaignStarted", "EventVoided"):
        state = apply_event(system, state, event, voided)
        return state, words(system, state, event)
    try:
        as_recorded = system.apply(copied(state), system.upcast(event))
    except TrackerError:
        as_recorded = state
    return state, words(system, as_recorded, event)


def words(system, state, event) -> str:
    """What `event` says in the audit log, `state` being the campaign just after it."""
    if event.type == "CampaignStarted":
        began = f"The campaign {event.data['name']!r} began ({system.title})"
        if "branched_from" in event.meta:
            began += (
                f", playing on from campaign {event.meta['branched_from']!r} as it stood "
                f"after its event {event.meta['branched_at']} "
                f"(log hash {str(event.meta.get('branched_head'))[:12]})"
            )
        return began
    if event.type == "EventVoided":
        return f"Event {event.data['version']} was voided: {event.data['reason']}"
    if event.type in SEAT_EVENTS:
        return seat_words(event, system.sides(state) if state is not None else {})
    try:
        return system.describe(state, system.upcast(event))
    except (KeyError, TypeError, ValueError, AttributeError):
        return event.type
