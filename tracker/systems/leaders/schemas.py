"""Marshmallow schemas of the Leaders settings and events, and the chance the server draws."""

from __future__ import annotations

from marshmallow import ValidationError, fields, validate, validates_schema

from tracker.dice import Drawn, PlayerByLot
from tracker.systems.base import EventSchema, IdPattern
from tracker.systems.i18n import _

MODES = ("standard", "expert")
ABILITIES = (
    "leader",
    "acrobat",
    "rider",
    "colossus",
    "royal-guard",
    "illusionist",
    "claw",
    "manipulator",
    "wanderer",
    "brewmaster",
    "archer",
    "assassin",
    "jailer",
    "protector",
    "vizier",
    "hermit",
    "cub",
    "nemesis",
)
IDENT = IdPattern(40, error=_("use lower-case letters, digits, dashes"))


def Coord(**kwargs):
    """A space as [q, r], two strict integers."""
    return fields.List(
        fields.Integer(strict=True),
        validate=validate.Length(equal=2, error=_("a space is [q, r]")),
        **kwargs,
    )


def Ident(**kwargs):
    return fields.Str(validate=IDENT, **kwargs)


# -- chance ---------------------------------------------------------------------------------


class ShuffledDeck(Drawn):
    """The character cards of a match in the order the shuffle left them (top first)."""

    label = "shuffled deck"

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("allow_none", True)
        super().__init__(**kwargs)

    def draw(self, roller, data, state):
        match = (state or {}).get("match") or {}
        return roller.shuffle(match.get("pool") or [])

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, list) or not all(isinstance(card, str) for card in value):
            raise ValidationError(_("a shuffled deck is a list of card ids"))
        if len(set(value)) != len(value):
            raise ValidationError(_("a shuffled deck holds each card once"))
        return list(value)

    def _serialize(self, value, attr, obj, **kwargs):
        return value


# -- settings -------------------------------------------------------------------------------


class Player(EventSchema):
    id = Ident(required=True, metadata={"made_from": "name"})
    name = fields.Str(required=True, validate=validate.Length(min=1, max=60))


class Seat(EventSchema):
    start = Coord(required=True)
    recruitment = fields.List(Coord(), required=True, validate=validate.Length(min=1))


class Board(EventSchema):
    id = fields.Str(required=True)
    title = fields.Str(load_default="")
    cells = fields.List(Coord(), required=True, validate=validate.Length(min=7))
    seats = fields.List(fields.Nested(Seat), required=True, validate=validate.Length(equal=2))


class LeaderFigure(EventSchema):
    id = Ident(required=True)
    name = fields.Str(required=True)


class Piece(EventSchema):
    id = Ident(required=True)
    name = fields.Str(required=True)
    ability = fields.Str(required=True, validate=validate.OneOf(ABILITIES[1:]))


class Card(EventSchema):
    id = Ident(required=True)
    pieces = fields.List(
        fields.Nested(Piece), required=True, validate=validate.Length(min=1, max=2)
    )


class Characters(EventSchema):
    leaders = fields.List(
        fields.Nested(LeaderFigure), required=True, validate=validate.Length(min=2)
    )
    cards = fields.List(fields.Nested(Card), required=True)


class Settings(EventSchema):
    players = fields.List(fields.Nested(Player), required=True, validate=validate.Length(equal=2))
    board = fields.Nested(Board, required=True)
    characters = fields.Nested(Characters, required=True)

    @validates_schema
    def _distinct(self, data, **kwargs):
        ids = [p["id"] for p in data.get("players", [])]
        if len(set(ids)) != len(ids):
            raise ValidationError(_("the two players need different ids"), "players")


# -- events ---------------------------------------------------------------------------------


class MatchStarted(EventSchema):
    # Left empty on a form, the next free id (match-1, match-2, ...): `views.next_free`.
    match = Ident(required=True, metadata={"next_free": True})
    mode = fields.Str(load_default="standard", validate=validate.OneOf(MODES))


class LeaderChosen(EventSchema):
    player = fields.Str(required=True)
    leader = fields.Str(required=True)


class DeckShuffled(EventSchema):
    deck = ShuffledDeck()


class FirstPlayerDrawn(EventSchema):
    first = PlayerByLot("first player")


class CharacterExiled(EventSchema):
    player = fields.Str(required=True)
    card = fields.Str(required=True)


class CharacterMoved(EventSchema):
    player = fields.Str(required=True)
    character = fields.Str(required=True)
    path = fields.List(Coord(), required=True, validate=validate.Length(min=1, max=2))


class AbilityUsed(EventSchema):
    player = fields.Str(required=True)
    character = fields.Str(required=True)
    target = fields.Str(load_default=None, allow_none=True)
    path = fields.List(Coord(), load_default=list, validate=validate.Length(max=2))
    form = fields.Str(load_default=None, allow_none=True, validate=validate.OneOf(("move", "pull")))


class NemesisMoved(EventSchema):
    player = fields.Str(required=True)
    path = fields.List(Coord(), required=True, validate=validate.Length(min=1, max=2))


class ActionPhaseEnded(EventSchema):
    player = fields.Str(required=True)


class TurnEnded(EventSchema):
    player = fields.Str(required=True)


class CharacterRecruited(EventSchema):
    player = fields.Str(required=True)
    card = fields.Str(required=True)
    spaces = fields.List(Coord(), required=True, validate=validate.Length(min=1, max=2))


EVENTS = {
    cls.__name__: cls
    for cls in (
        MatchStarted,
        LeaderChosen,
        DeckShuffled,
        FirstPlayerDrawn,
        CharacterExiled,
        CharacterMoved,
        AbilityUsed,
        NemesisMoved,
        ActionPhaseEnded,
        CharacterRecruited,
        TurnEnded,
    )
}
