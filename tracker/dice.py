"""Dice and other chance: schema fields that declare what they hold, and the rollers that fill them.

A system's event schema declares a field such as ``Dice("2D6")``. When an event arrives
without that field, the service draws it with the server's roller (secrets-grade randomness)
and marks the event ``server-roll``; a result typed in from the table is range-checked by the
field and marked ``table-roll``. A fold never rolls: results are stored in the event.
"""

from __future__ import annotations

import random
import re
import secrets

from marshmallow import ValidationError, fields

from tracker.systems.i18n import _, ngettext


class Roller:
    """Where chance comes from. Production uses `SystemRoller`; tests may pass a `SeededRoller`."""

    def __init__(self, rng: random.Random):
        self._rng = rng

    def die(self, sides: int) -> int:
        return self._rng.randint(1, sides)

    def shuffle(self, items: list) -> list:
        """A shuffled copy of `items`."""
        items = list(items)
        self._rng.shuffle(items)
        return items

    def choice(self, items):
        return self._rng.choice(list(items))


class SystemRoller(Roller):
    """The operating system's randomness, the kind fit for secrets: never seeded."""

    def __init__(self):
        super().__init__(secrets.SystemRandom())


class SeededRoller(Roller):
    """Repeatable chance for tests and benchmarks only."""

    def __init__(self, seed: int):
        super().__init__(random.Random(seed))


class Drawn(fields.Field):
    """A field the server may draw by chance when the event arrives without it."""

    #: the name a user sees for what the field holds, such as "2D6"
    label = _("chance")
    #: How a form lays out a value typed in at the table when one box will not hold it: a
    #: schema of its boxes (named `<field>-<box>`, see tracker/web/forms.py), whose data
    #: `from_typed` turns into the value. None: one box, its text passed on as it is.
    typed_in: type | None = None

    def draw(self, roller: Roller, data: dict, state) -> object:
        """A value for this field, drawn from `roller`; `data` is the rest of the event."""
        raise NotImplementedError

    def from_typed(self, boxes: dict) -> object:
        """The value that a form's boxes laid out by `typed_in` describe."""
        return boxes


class PlayerByLot(Drawn):
    """One of the campaign's players (the ids in ``state["players"]``), drawn by lot.

    A value typed in must be a player id; whether that player may be chosen is the rules'
    to say.
    """

    label = _("player drawn by lot")

    def __init__(self, what: str = "player drawn by lot", **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("allow_none", True)
        super().__init__(**kwargs)
        self.label = what

    def draw(self, roller, data, state):
        players = (state or {}).get("players", [])
        return roller.choice([p["id"] if isinstance(p, dict) else p for p in players])

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, str) or not value:
            raise ValidationError(_("the %(what)s is a player's id", what=self.label))
        return value

    def _serialize(self, value, attr, obj, **kwargs):
        return value


_SPEC = re.compile(r"^(?:(?P<count>[1-9])?D(?P<sides>3|6|66))$")


class Dice(Drawn):
    """The dice of one roll: a list of die results.

    Specs: ``D3``, ``D6``, ``2D6`` (any count up to 9 before the D), and ``D66``, which is two
    D6 read as tens and units (11 to 66) and held as ``[tens, units]``.
    """

    def __init__(self, spec: str, **kwargs):
        match = _SPEC.match(spec)
        if not match:
            raise ValueError(f"unknown dice {spec!r}")
        kwargs.setdefault("required", False)
        kwargs.setdefault("allow_none", True)
        super().__init__(**kwargs)
        self.spec = spec
        self.label = spec
        sides = int(match["sides"])
        if sides == 66:
            self.count, self.sides = 2, 6
        else:
            self.count, self.sides = int(match["count"] or 1), sides
        self.metadata.setdefault("dice", spec)

    def draw(self, roller, data, state):
        return [roller.die(self.sides) for __ in range(self.count)]

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, int) and not isinstance(value, bool) and self.count == 1:
            value = [value]
        if self.spec == "D66" and isinstance(value, int) and not isinstance(value, bool):
            value = [value // 10, value % 10]
        if not isinstance(value, list | tuple) or len(value) != self.count:
            raise ValidationError(
                _("a %(dice)s roll is %(shape)s", dice=self.spec, shape=self._shape())
            )
        for die in value:
            if isinstance(die, bool) or not isinstance(die, int):
                raise ValidationError(
                    _("a %(dice)s roll is %(shape)s", dice=self.spec, shape=self._shape())
                )
            if not 1 <= die <= self.sides:
                raise ValidationError(
                    _(
                        "a die of a %(dice)s roll shows 1 to %(sides)s, not %(die)s",
                        dice=self.spec,
                        sides=self.sides,
                        die=die,
                    )
                )
        return list(value)

    def _serialize(self, value, attr, obj, **kwargs):
        return value

    def _shape(self):
        if self.spec == "D66":
            return _("two dice, tens then units, each 1 to 6 (such as [3, 5])")
        if self.count == 1:
            return _("one die from 1 to %(sides)s", sides=self.sides)
        return ngettext(
            "%(num)d die, each 1 to %(sides)s",
            "%(num)d dice, each 1 to %(sides)s",
            self.count,
            sides=self.sides,
        )


def total(dice: list[int]) -> int:
    """The sum of a roll's dice."""
    return sum(dice)


def d66(dice: list[int]) -> int:
    """A D66 roll read as a number from 11 to 66."""
    return dice[0] * 10 + dice[1]
