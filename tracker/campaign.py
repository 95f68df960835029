"""What every campaign has whatever its game: the core's own events (its start, a void), the
shape of a campaign's id, and a campaign folded to a version as the pages and commands see it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from marshmallow import fields, validate

from tracker.events import Event
from tracker.systems.base import EventSchema, GameSystem

CAMPAIGN_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,62}$")


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


CORE_EVENTS = {"CampaignStarted": CampaignStartedSchema, "EventVoided": EventVoidedSchema}


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
