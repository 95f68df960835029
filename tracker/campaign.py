"""What every campaign has whatever its game: the core's own events (its start, a void, an
organiser taking or leaving a seat), the shape of a campaign's id, and a campaign folded to a
version as the pages and commands see it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from marshmallow import fields, validate

from tracker.events import Event
from tracker.systems.base import EventSchema, GameSystem

CAMPAIGN_ID_LENGTH = 63
CAMPAIGN_ID = re.compile(rf"^[a-z0-9][a-z0-9-]{{0,{CAMPAIGN_ID_LENGTH - 1}}}$")


class CampaignStartedSchema(EventSchema):
    system = fields.Str(required=True)
    name = fields.Str(required=True, validate=validate.Length(min=1, max=120))
    settings = fields.Dict(load_default=dict)


class EventVoidedSchema(EventSchema):
    version = fields.Integer(
        strict=True,
        required=True,
        validate=validate.Range(min=1),
        metadata={"label": "the event number"},
    )
    reason = fields.Str(
        required=True, validate=validate.Length(min=1, max=500), metadata={"label": "the reason"}
    )


class SeatSchema(EventSchema):
    organiser = fields.Str(
        required=True, validate=validate.Length(min=1, max=64), metadata={"label": "who"}
    )
    side = fields.Str(
        required=True, validate=validate.Length(min=1, max=64), metadata={"label": "the side"}
    )


CORE_EVENTS = {
    "CampaignStarted": CampaignStartedSchema,
    "EventVoided": EventVoidedSchema,
    # An organiser takes a seat (leaving any other it had), and then sees only what that
    # seat sees; or leaves its seat and referees, seeing every hand. Recorded by the Members
    # page with the change of membership, so the log says who saw every hand from when; no
    # game's rules see them (the fold passes them by), and they are never voided.
    "SeatTaken": SeatSchema,
    "SeatLeft": SeatSchema,
}
SEAT_EVENTS = frozenset({"SeatTaken", "SeatLeft"})


def seat_words(event, sides: dict[str, str]) -> str:
    """What a seat event says in the audit log."""
    who, side = event.data["organiser"], sides.get(event.data["side"], event.data["side"])
    if event.type == "SeatTaken":
        return (
            f"{who}, organising, took the seat of {side}: from here on sees only what {side} sees"
        )
    return f"{who}, organising, left the seat of {side} to referee: from here on sees every hand"


@dataclass
class View:
    """A campaign folded to a version: what every page and command shows."""

    campaign: str
    system: GameSystem
    name: str
    version: int
    head: str
    latest: int
    state: dict
    voided: dict[int, int] = field(default_factory=dict)

    @property
    def is_latest(self) -> bool:
        return self.version == self.latest

    def to_json(self) -> dict:
        return {
            "campaign": self.campaign,
            "name": self.name,
            "system": self.system.name,
            "version": self.version,
            "head": self.head,
            **self.system.public_state(self.state),
        }


@dataclass
class Entry:
    """One event of the audit log: the event, its words, and what voided it, if anything."""

    event: Event
    words: str
    voided_by: int | None


def slug(text: str) -> str:
    """A lower-case identifier made from a name."""
    made = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return made[:60] or "x"
