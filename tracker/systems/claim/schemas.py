"""Event and settings schemas of Claim, and the chance the server draws (deal, first leader, turn-up)."""

from __future__ import annotations

import re

from marshmallow import Schema, ValidationError, fields, validate

from tracker.dice import Drawn, PlayerByLot
from tracker.systems.base import EventSchema, IdPattern
from tracker.systems.i18n import N_, _

from .cards import CARD

_card = validate.Regexp(CARD, error=_("a card is written faction-value, such as knights-7"))


def _check_card(value) -> str:
    if not isinstance(value, str) or not CARD.match(value):
        raise ValidationError(
            _(
                "a card is written faction-value, such as knights-7, not %(card)s",
                card=repr(value),
            )
        )
    return value


def _check_cards(value, what: str) -> list[str]:
    if not isinstance(value, list):
        raise ValidationError(_("%(what)s is a list of cards", what=what))
    return [_check_card(card) for card in value]


class _TypedDeal(Schema):
    """A deal typed in at the table, as a form lays it out: a box for each player's hand and
    one for the deck left over, each holding cards separated by spaces, commas or lines."""

    hands = fields.Dict(keys=fields.Str(), values=fields.Str())
    stock = fields.Str()


def _typed_cards(text) -> list[str] | str:
    return [card for card in re.split(r"[\s,;]+", text) if card] if isinstance(text, str) else text


class ShuffledDeal(Drawn):
    """The deal of a game: {"hands": {player: [cards]}, "stock": [cards, top first]}.

    The server shuffles the campaign's deck and deals the first cards to the players in
    their seating order; a deal typed in from a physical deck gives both hands and the
    stock as it lies, top card first.
    """

    label = N_("shuffled deck")
    typed_in = _TypedDeal

    def from_typed(self, boxes):
        return {
            "hands": {p: _typed_cards(text) for p, text in boxes.get("hands", {}).items()},
            "stock": _typed_cards(boxes.get("stock", "")),
        }

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("allow_none", True)
        super().__init__(**kwargs)

    def draw(self, roller, data, state):
        cards = roller.shuffle(state["deck"])
        size = state["hand_size"]
        first, second = (p["id"] for p in state["players"])
        return {
            "hands": {first: cards[:size], second: cards[size : 2 * size]},
            "stock": cards[2 * size :],
        }

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, dict) or set(value) != {"hands", "stock"}:
            raise ValidationError(_('a deal is {"hands": {player: [cards]}, "stock": [cards]}'))
        hands = value["hands"]
        if not isinstance(hands, dict):
            raise ValidationError(_("the hands of a deal are {player: [cards]}"))
        return {
            "hands": {
                str(p): _check_cards(h, _("the hand of %(player)s", player=p))
                for p, h in hands.items()
            },
            "stock": _check_cards(value["stock"], _("the stock")),
        }

    def _serialize(self, value, attr, obj, **kwargs):
        return value


class TopCard(Drawn):
    """The card turned up: the top of the stock, which the server reads from the state.

    A player cannot see the stock, so the server fills this in; a value typed in (a game
    recorded from a physical deck) is checked against the stock by the fold.
    """

    label = N_("turned-up card")

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("allow_none", True)
        super().__init__(**kwargs)

    def draw(self, roller, data, state):
        game = (state or {}).get("game")
        if not game or game["over"] or game["phase"] != 1 or not game["stock"]:
            return None  # the fold refuses the event with the rule in words
        return game["stock"][0]

    def _deserialize(self, value, attr, data, **kwargs):
        return _check_card(value)

    def _serialize(self, value, attr, obj, **kwargs):
        return value


class PlayerSchema(EventSchema):
    id = fields.Str(
        required=True,
        validate=IdPattern(40, error=_("a player id is lower-case letters, digits, -")),
        metadata={"made_from": "name"},
    )
    name = fields.Str(required=True, validate=validate.Length(min=1, max=60))


class FactionSchema(EventSchema):
    id = fields.Str(required=True)
    name = fields.Str(required=True)
    one = fields.Str(required=True)
    values = fields.List(fields.Integer(strict=True, validate=validate.Range(0, 99)), required=True)


class SettingsSchema(EventSchema):
    players = fields.List(
        fields.Nested(PlayerSchema),
        required=True,
        validate=validate.Length(equal=2, error=_("Claim is played by exactly 2 players")),
    )
    deck = fields.Str(load_default="standard")
    title = fields.Str()
    hand_size = fields.Integer(strict=True, validate=validate.Range(min=1))
    factions = fields.List(fields.Nested(FactionSchema))


class GameDealt(EventSchema):
    game = fields.Integer(strict=True, required=True, validate=validate.Range(min=1))
    leader = PlayerByLot(N_("first leader"))
    deal = ShuffledDeal()


class CardTurnedUp(EventSchema):
    game = fields.Integer(strict=True, required=True, validate=validate.Range(min=1))
    card = TopCard()


class CardPlayed(EventSchema):
    game = fields.Integer(strict=True, required=True, validate=validate.Range(min=1))
    player = fields.Str(required=True)
    card = fields.Str(required=True, validate=_card)


#: event type -> its schema
EVENTS = {"GameDealt": GameDealt, "CardTurnedUp": CardTurnedUp, "CardPlayed": CardPlayed}
