"""The events of monster battles and their schemas, with the chance the server may draw."""

from __future__ import annotations

from marshmallow import ValidationError, fields, validate

from tracker.dice import Drawn
from tracker.systems.base import EventSchema
from tracker.systems.i18n import N_, _

from . import formtext, rules

ID = {"required": True, "validate": validate.Length(min=1, max=80)}


class Space(fields.List):
    """A space as [q, r], two strict integers; a form's text "q,r" is read into that."""

    def __init__(self, **kwargs):
        super().__init__(fields.Integer(strict=True), validate=validate.Length(equal=2), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            value = ",".join(value)  # a form's ["3,2"], or ["3", "2"] from "3,2" split
        if isinstance(value, str):
            try:
                value = formtext.space(value)
            except ValueError as err:
                raise ValidationError(err.args[0]) from None
        return super()._deserialize(value, attr, data, **kwargs)


class Path(fields.List):
    """Spaces one after another; a form's text "3,2 3,3" is read as two spaces."""

    def __init__(self, **kwargs):
        super().__init__(Space(), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str):
            value = [value]
        if isinstance(value, list) and any(isinstance(v, str) or _flat(v) for v in value):
            read = []
            for item in value:
                if _flat(item):  # one box of several spaces, read as numbers: [3, 2, 3, 3]
                    read.extend([item[i], item[i + 1]] for i in range(0, len(item), 2))
                    continue
                if not isinstance(item, str):
                    read.append(item)
                    continue
                try:
                    read.extend(formtext.path(item))
                except ValueError as err:
                    raise ValidationError(err.args[0]) from None
            value = read
        return super()._deserialize(value, attr, data, **kwargs)


def _flat(item) -> bool:
    """True for a list of an even number (4 or more) of integers: several spaces in a row."""
    return (
        isinstance(item, list)
        and len(item) > 2
        and len(item) % 2 == 0
        and all(isinstance(v, int) and not isinstance(v, bool) for v in item)
    )


def coordinate(**kwargs) -> fields.List:
    """A space as [q, r], two strict integers (or a form's "q,r")."""
    return Space(**kwargs)


class FirstPlayer(Drawn):
    """The player who moves first in a battle, drawn at random when not given."""

    label = N_("first player")

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("allow_none", True)
        super().__init__(**kwargs)

    def draw(self, roller, data, state):
        return roller.choice(state["order"])

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, str) or not value:
            raise ValidationError(_("the first player is named by the player's id"))
        return value

    def _serialize(self, value, attr, obj, **kwargs):
        return value


class AttackDice(Drawn):
    """Every die of an attack: rounds of {"attacker": [...], "defender": [...]}.

    Each side rolls one die; a first 6 may be followed by a second die, which is not added.
    A round with equal totals is followed by another.
    """

    label = N_("attack dice")

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("allow_none", True)
        super().__init__(**kwargs)

    def draw(self, roller, data, state):
        return rules.roll_attack(roller, data, state)

    def _deserialize(self, value, attr, data, **kwargs):
        shape = _(
            'the attack dice are a list of rounds, each {"attacker": [die], "defender": [die]}, '
            "a second die only after a first 6"
        )
        if isinstance(value, str):  # typed in a form: "1 / 6 3; 4 / 5"
            try:
                value = formtext.rounds(value)
            except ValueError as err:
                raise ValidationError(err.args[0]) from None
        elif isinstance(value, list) and value and not isinstance(value[0], dict):
            raise ValidationError(_(formtext.ROUNDS_HELP))  # a form's "4 5", read as bare dice
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
                        raise ValidationError(_("a die shows 1 to 6, not %(die)s", die=repr(die)))
                if len(dice) == 2 and dice[0] != 6:
                    raise ValidationError(
                        _(
                            "a second die is rolled only after a first 6 (not after %(die)s)",
                            die=dice[0],
                        )
                    )
            rounds.append(
                {"attacker": list(rolled["attacker"]), "defender": list(rolled["defender"])}
            )
        return rounds

    def _serialize(self, value, attr, obj, **kwargs):
        return value


class BattleBegun(EventSchema):
    # Left empty on a form, the next free id (b1, b2, ...): `views.next_free`.
    battle = fields.Str(**ID, metadata={"next_free": True})
    map = fields.Str(**ID)
    first = FirstPlayer()


class FiguresChosen(EventSchema):
    battle = fields.Str(**ID)
    figures = fields.List(fields.Str(**ID), required=True, validate=validate.Length(min=1, max=30))
    king = fields.Str(**ID)


class FigurePlaced(EventSchema):
    battle = fields.Str(**ID)
    piece = fields.Str(**ID)
    at = coordinate(required=True)


class FigureMoved(EventSchema):
    battle = fields.Str(**ID)
    piece = fields.Str(**ID)
    path = Path(required=True, validate=validate.Length(min=1, max=100))


class FlierCameDown(EventSchema):
    battle = fields.Str(**ID)
    flier = fields.Str(**ID)
    attacker = fields.Str(**ID)


class FlierStayedAloft(FlierCameDown):
    """The same fields as `FlierCameDown`: the flier, and the attacker it answers."""


class AttackMade(EventSchema):
    battle = fields.Str(**ID)
    attacker = fields.Str(**ID)
    defender = fields.Str(**ID)
    rounds = AttackDice()


class BattleEnded(EventSchema):
    battle = fields.Str(**ID)
    winner = fields.Str(required=True, allow_none=True)
    reason = fields.Str(required=True, validate=validate.OneOf(rules.REASONS))


EVENTS = {
    "BattleBegun": BattleBegun,
    "FiguresChosen": FiguresChosen,
    "FigurePlaced": FigurePlaced,
    "FigureMoved": FigureMoved,
    "FlierCameDown": FlierCameDown,
    "FlierStayedAloft": FlierStayedAloft,
    "AttackMade": AttackMade,
    "BattleEnded": BattleEnded,
}
