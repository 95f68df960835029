"""What every campaign has whatever its game: the core's own events (its start, a void, an
organiser taking or leaving a seat, the language it speaks to everyone), the shape of a campaign's id, and a campaign folded to a
version as the pages and commands see it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from marshmallow import fields, validate
from slugify import slugify

from tracker.events import Event
from tracker.systems import i18n
from tracker.systems.base import EventSchema, GameSystem
from tracker.systems.i18n import Said, _

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


class LanguageChosenSchema(EventSchema):
    language = fields.Str(
        required=True,
        validate=validate.OneOf(list(i18n.LANGUAGES)),
        metadata={"label": "the language"},
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
    # The organiser chooses the language of what the campaign says to everyone at once (its
    # sheets, its PDF, its webhooks' messages); each page is still read in its reader's.
    "LanguageChosen": LanguageChosenSchema,
}
SEAT_EVENTS = frozenset({"SeatTaken", "SeatLeft"})
# Where a campaign's state keeps its chosen language: a key no game's state has.
LANGUAGE = "language"


def never_voided(event) -> Said | None:
    """Why `event` can never be voided, in words; None when it may be (if nothing recorded
    after it depends on it: the rules decide that, `tracker.recording`)."""
    if event.type == "CampaignStarted":
        return _("the event that starts a campaign cannot be voided")
    if event.type == "EventVoided":
        return _("a correction cannot itself be voided; record the event again")
    if event.type in SEAT_EVENTS:
        return _("a seat taken or left cannot be voided: change the seat again on the Members page")
    return None


def language_chosen(state, event) -> dict:
    """`state` after a `LanguageChosen` event: the language kept beside the game's state."""
    if isinstance(state, dict):
        state[LANGUAGE] = event.data["language"]
    return state


def language_of(state) -> str | None:
    """The language a campaign's shared outputs speak (a code of `i18n.LANGUAGES`), or None
    while its organiser has not chosen one: each reader's own then."""
    language = state.get(LANGUAGE) if isinstance(state, dict) else None
    return language if language in i18n.LANGUAGES else None


def language_words(event) -> Said:
    """What a `LanguageChosen` event says in the audit log."""
    code = event.data["language"]
    return _(
        "The campaign's sheets and messages are in %(language)s from here on",
        language=i18n.LANGUAGES.get(code, code),
    )


def seat_words(event, sides: dict[str, str]) -> Said:
    """What a seat event says in the audit log."""
    who, side = event.data["organiser"], sides.get(event.data["side"], event.data["side"])
    if event.type == "SeatTaken":
        return _(
            "%(who)s, organising, took the seat of %(side)s: from here on sees only what "
            "%(side)s sees",
            who=who,
            side=side,
        )
    return _(
        "%(who)s, organising, left the seat of %(side)s to referee: from here on sees every hand",
        who=who,
        side=side,
    )


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

    @property
    def language(self) -> str | None:
        """The language of the campaign's shared outputs (`language_of`), None: the reader's."""
        return language_of(self.state)

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
    """A lower-case identifier made from a name, its letters spelled in plain Latin, never
    dropped ("Żar Korony — wtorki" -> "zar-korony-wtorki"): lower-case letters, digits and
    dashes, at most 60 characters."""
    made = slugify(text, entities=False, decimal=False, hexadecimal=False, max_length=60)
    return made.strip("-") or "x"
