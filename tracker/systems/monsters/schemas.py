"""The events of monster battles and their schemas, with the chance the server may draw."""

from __future__ import annotations

from marshmallow import ValidationError, fields, validate

from tracker.dice import Drawn
from tracker.systems.base import EventSchema

from . import rules

ID = {"required": True, "validate": validate.Length(min=1, max=80)}


def coordinate(**kwargs) -> fields.List:
    """A space as [q, r], two strict integers."""
    return fields.List(fields.Integer(strict=True), validate=validate.Length(equal=2), **kwargs)


class FirstPlayer(Drawn):
    """The player who moves first in a battle, drawn at random when not given."""

    label = "first player"

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("allow_none", True)
        super().__init__(**kwargs)

    def draw(self, roller, data, state):
        return roller.choice(state["order"])

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, str) or not value:
            raise ValidationError("the first player is named by the player's id")
        return value

    def _serialize(self, value, attr, obj, **kwargs):
        return value


class AttackDice(Drawn):
    """Every die of an attack: rounds of {"attacker": [...], "defender": [...]}.

    Each side rolls one die; a first 6 may be followed by a second die, which is not added.
    A round with equal totals is followed by another.
    """

    label = "attack dice"

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("allow_none", True)
        super().__init__(**kwargs)

    def draw(self, roller, data, state):
        return rules.roll_attack(roller, data, state)

    def _deserialize(self, value, attr, data, **kwargs):
        shape = (
            'the attack dice are a list of rounds, each {"attacker": [die], "defender": [die]}, '
            "a second die only after a first 6"
        )
        if not isinstance(value, list) or not 1 <= len(value) <= 50:
            raise ValidationError(shape)
        rounds = []
        for rolled in value:
            if not isinstance(rolled, dict) or set(rolled) != {"attacker", "defender"}:
                raise ValidationError(shape)
            for dice in rolled.values():
                if not isinstance(dice, list) or not 1 <= len(dice) <= 2:
                    raise ValidationError(shape)
                for die in dice:
                    if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
                        raise ValidationError(f"a die shows 1 to 6, not {die!r}")
                if len(dice) == 2 and dice[0] != 6:
                    raise ValidationError(
                        f"a second die is rolled only after a first 6 (not after {dice[0]})"
                    )
            rounds.append(
                {"attacker": list(rolled["attacker"]), "defender": list(rolled["defender"])}
            )
        return rounds

    def _serialize(self, value, attr, obj, **kwargs):
        return value


class BattleBegunSchema(EventSchema):
    battle = fields.Str(**ID)
    map = fields.Str(**ID)
    first = FirstPlayer()


class FiguresChosenSchema(EventSchema):
    battle = fields.Str(**ID)
    figures = fields.List(fields.Str(**ID), required=True, validate=validate.Length(min=1, max=30))
    king = fields.Str(**ID)


class FigurePlacedSchema(EventSchema):
    battle = fields.Str(**ID)
    piece = fields.Str(**ID)
    at = coordinate(required=True)


class FigureMovedSchema(EventSchema):
    battle = fields.Str(**ID)
    piece = fields.Str(**ID)
    path = fields.List(coordinate(), required=True, validate=validate.Length(min=1, max=100))


class FlierAnsweredSchema(EventSchema):
    battle = fields.Str(**ID)
    flier = fields.Str(**ID)
    attacker = fields.Str(**ID)


class AttackMadeSchema(EventSchema):
    battle = fields.Str(**ID)
    attacker = fields.Str(**ID)
    defender = fields.Str(**ID)
    rounds = AttackDice()


class BattleEndedSchema(EventSchema):
    battle = fields.Str(**ID)
    winner = fields.Str(required=True, allow_none=True)
    reason = fields.Str(required=True, validate=validate.OneOf(rules.REASONS))


EVENTS = {
    "BattleBegun": BattleBegunSchema,
    "FiguresChosen": FiguresChosenSchema,
    "FigurePlaced": FigurePlacedSchema,
    "FigureMoved": FigureMovedSchema,
    "FlierCameDown": FlierAnsweredSchema,
    "FlierStayedAloft": FlierAnsweredSchema,
    "AttackMade": AttackMadeSchema,
    "BattleEnded": BattleEndedSchema,
}
