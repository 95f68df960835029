"""HTML form fields turned into an event's data, guided by the event's own schema.

Field names follow the schema:

- a plain field by its name: ``warband``;
- a list field repeated (``fighters`` checkboxes, ``path`` boxes each holding ``q, r``), or as
  one text box ``runemarks-text`` with items separated by commas; a list of numbers (a space
  ``[q, r]``) may also be one box holding ``q, r``;
- a nested object as ``side-warband``; a list of nested objects as ``sides-0-warband``, rows
  left wholly blank being dropped;
- a dictionary as ``heroes[ann]``, or nested, ``hoplites[ann][korythos]``;
- a checkbox also sends ``<name>-present``, so that "none ticked" is seen;
- dice die by die, one box (or group of face buttons) for each: ``dice-0``, ``dice-1`` (a
  D66's tens die, then its units die); or as one text that names every die, ``3 5`` or ``4``.
  A bare number for a roll of two or more dice (``12``: a total, or the dice 1 and 2?) is
  never read as dice: `dice_problems` refuses it in words that say how to type it;
- other chance typed in at the table as its field lays it out (`Drawn.typed_in`), such as a
  deal of cards as ``deal-hands[ann]`` and ``deal-stock``; or, without one, die by die in
  boxes named by where each die sits in the value (``rounds-0-attacker-0``: the first round,
  the attacker's first die).

Text is converted by the field's type; marshmallow then validates the result exactly as it
validates the API's JSON, so forms and API share one set of rules and one set of messages.
"""

from __future__ import annotations

import re
from functools import lru_cache

from marshmallow import fields

from tracker.campaign import (
    slug,
)
from tracker.dice import Dice, Drawn
from tracker.systems.base import field_limits
from tracker.systems.i18n import N_, _, ngettext

MISSING = object()


def form_data(schema, form, prefix: str = "") -> dict:
    """The event data that a submitted form describes, for `schema`. An id made from
    another field (``made_from`` metadata) and left empty is made from that field's text."""
    data: dict = {}
    for name, field in schema.fields.items():
        value = _field(field, form, f"{prefix}{name}")
        if value is not MISSING:
            data[name] = value
    for name, field in schema.fields.items():
        source = data.get(field.metadata.get("made_from"))
        if data.get(name) in (None, "") and isinstance(source, str) and source.strip():
            data[name] = _made_id(field, source)
    return data


def _made_id(field, text: str) -> str:
    """An id made from a name by the one transliteration every id uses (`slug`), cut to
    the field's length so that a long name still gives an id the field takes."""
    made = slug(text)
    length = field_limits(field).get("maxlength")
    return made[:length].rstrip("-") if length else made


def _field(field, form, key: str):
    """The value a form gives for one field of a schema, or MISSING when it gives none."""
    for kind, read in _READERS:
        if isinstance(field, kind) and (kind is not fields.Nested or not field.many):
            return read(field, form, key)
    if key not in form:
        return MISSING
    text = form.get(key, "").strip()
    if text == "":
        return None if field.allow_none else MISSING
    return _convert(field, text)


def _dice_field(field, form, key: str):
    boxes = _die_boxes(field, form, key)
    if boxes is not None:
        if not any(boxes):
            return MISSING
        return [_die(v) for v in boxes]
    text = form.get(key, "").strip()
    return _dice(text) if text else MISSING


def _die_boxes(field, form, key: str) -> list[str] | None:
    """What each die's box of a dice field holds (blank: ""), or None when the form has none."""
    names = [f"{key}-{i}" for i in range(field.count)]
    if not any(name in form for name in names):
        return None
    return [form.get(name, "").strip() for name in names]


def _die(text: str):
    return int(text) if re.fullmatch(r"\d", text) else text


def _drawn_field(field, form, key: str):
    text = form.get(key, "").strip()
    if text:
        return text
    if field.typed_in is not None and any(k.startswith(f"{key}-") for k in form):
        # Boxes left blank are an empty value, for the rules to refuse: not one to draw.
        return field.from_typed(form_data(field.typed_in(), form, f"{key}-"))
    if field.typed_in is None:
        value = _die_paths(form, key)
        if value:
            return value
    return MISSING


def _die_paths(form, key: str):
    """Dice typed die by die into boxes named by where each sits in the value, a list:
    ``rounds-0-attacker-1`` is the second die of the attacker in the first round (a box of
    another name, ``cards-present``, is none of them). A number in a path
    is a place in a list (lists keep their order, a gap closes up), a word a key; boxes left
    blank are left out, and so is a part that holds nothing."""
    pattern = re.compile(rf"^{re.escape(key)}(-\d+(?:-[A-Za-z0-9_]+)*)$")  # a list's places
    tree: dict = {}
    for name in form:
        match = pattern.match(name)
        text = form.get(name, "").strip()
        if not match or text == "":
            continue
        node, steps = tree, match.group(1)[1:].split("-")
        for step in steps[:-1]:
            node = node.setdefault(step, {})
            if not isinstance(node, dict):  # a box inside a die (hand-made): not read
                break
        else:
            node[steps[-1]] = _die(text)
    return _as_lists(tree) if tree else None


def _as_lists(node):
    if not isinstance(node, dict):
        return node
    if node and all(k.isdigit() for k in node):
        return [_as_lists(node[k]) for k in sorted(node, key=int)]
    return {k: _as_lists(v) for k, v in node.items()}


def dice_problems(schema, form, prefix: str = "") -> dict[str, list[str]]:
    """Words for each dice field of `schema` the form holds but does not say die by die: a
    bare number for a roll of two or more dice (``12``, a total or the dice 1 and 2?), or some
    of a roll's dice chosen and some not. Such a form is refused as it stands, and nothing is
    recorded: the tracker never guesses which dice a player meant. {} when there are none."""
    problems: dict[str, list[str]] = {}
    for name, field in schema.fields.items():
        if not isinstance(field, Dice):
            continue
        key = f"{prefix}{name}"
        boxes = _die_boxes(field, form, key)
        if boxes is not None:
            blank = [die_name(field, i) for i, v in enumerate(boxes) if v == ""]
            if any(boxes) and blank:
                problems[key] = [_unchosen(blank)]
            continue
        text = form.get(key, "").strip()
        if field.count > 1 and text and not re.search(r"[^\d]", text):
            problems[key] = [_bare_number(field, text)]
    return problems


def _unchosen(blank: list) -> str:
    """Dice of a roll left without a face, in words ("the tens die is not chosen")."""
    if len(blank) == 1:
        return _("Choose the face of every die: the %(die)s is not chosen.", die=blank[0])
    dice = blank[0]
    for die in blank[1:]:
        dice = _("%(dice)s and the %(die)s", dice=dice, die=die)
    return _("Choose the face of every die: the %(dice)s are not chosen.", dice=dice)


# What a player calls each die of a roll of several (a D66's are its tens and units dice).
_DIE_NAMES = (
    N_("first die"),
    N_("second die"),
    N_("third die"),
    N_("fourth die"),
    N_("fifth die"),
    N_("sixth die"),
)


def die_name(field: Dice, index: int) -> str:
    """What a player calls die `index` of a roll: "tens die" and "units die" for a D66."""
    if field.spec == "D66":
        return (_("tens die"), _("units die"))[index]
    if field.count == 1:
        return _("die")
    return _(_DIE_NAMES[index])


@lru_cache(maxsize=32)
def dice_boxes(spec: str) -> tuple[dict, ...]:
    """The boxes of a roll's form, one for each die: its index (the box is ``<field>-<index>``),
    its name for a player and its faces, for the template's face buttons."""
    field = Dice(spec)
    return tuple(
        {"index": i, "name": die_name(field, i), "faces": tuple(range(1, field.sides + 1))}
        for i in range(field.count)
    )


def _bare_number(field: Dice, text: str) -> str:
    if field.spec == "D66":
        how = _("the tens die, then the units die: 2 4")
    else:
        how = " ".join(["6"] * field.count)
    return ngettext(
        "“%(text)s” could be a total or %(num)d die: nothing is recorded. "
        "Choose each die's face, or type each die: %(how)s.",
        "“%(text)s” could be a total or %(num)d dice: nothing is recorded. "
        "Choose each die's face, or type each die: %(how)s.",
        field.count,
        text=text,
        how=how,
    )


def _nested_field(field, form, key: str):
    if key in form:  # an object named by one value (a board by its id): pass it on
        text = form.get(key, "").strip()
        return text if text else MISSING
    if not any(k.startswith(f"{key}-") for k in form):
        return MISSING
    return form_data(field.schema, form, f"{key}-")


def _list_field(field, form, key: str):
    present = f"{key}-present" in form
    if isinstance(field.inner, fields.Nested):
        indices = sorted(
            {int(m.group(1)) for k in form if (m := re.match(rf"^{re.escape(key)}-(\d+)-", k))}
        )
        rows = [form_data(field.inner.schema, form, f"{key}-{i}-") for i in indices]
        rows = [row for row in rows if not _blank(row)]
        return rows if rows or present else MISSING
    if f"{key}-text" in form:  # one text box: items separated by commas
        return [v.strip() for v in form[f"{key}-text"].split(",") if v.strip()]
    if key not in form and not present:
        return MISSING
    values = [v for v in form.getlist(key) if v.strip() != ""]
    if isinstance(field.inner, fields.Integer) and len(values) == 1:
        return _numbers(values[0])  # one box holding "q, r"
    return [_convert(field.inner, v) for v in values]


def _dict_field(field, form, key: str):
    value = _dict(field, form, key)
    return value if value or f"{key}-present" in form else MISSING


def _boolean_field(field, form, key: str):
    if key not in form and f"{key}-present" not in form:
        return MISSING
    if form.get(key, "x") == "":  # a select left at "as the rules say"
        return None if field.allow_none else MISSING
    return form.get(key) in ("on", "true", "1", "yes")


# Each kind of field and how its boxes are read, the first that fits (Dice is a Drawn).
_READERS = (
    (Dice, _dice_field),
    (Drawn, _drawn_field),
    (fields.Nested, _nested_field),
    (fields.List, _list_field),
    (fields.Dict, _dict_field),
    (fields.Boolean, _boolean_field),
)


def _dict(field, form, key: str) -> dict:
    """``key[a]`` and ``key[a][b]`` boxes as {a: value} and {a: {b: value}}."""
    result: dict = {}
    pattern = re.compile(rf"^{re.escape(key)}\[([^\]]+)\](.*)$")
    for name in form:
        match = pattern.match(name)
        if not match:
            continue
        inner, rest = match.group(1), match.group(2)
        if inner in result:
            continue
        if rest and isinstance(field.value_field, fields.Dict):
            value = _dict(field.value_field, form, f"{key}[{inner}]")
            if value:
                result[inner] = value
        elif not rest:
            text = form.get(name, "").strip()
            if text != "":
                result[inner] = _convert(field.value_field, text)
    return result


def _blank(row) -> bool:
    return all(
        value in (None, "", [], {}) or (isinstance(value, dict) and _blank(value))
        for value in row.values()
    )


def _convert(field, text: str):
    """One submitted value as the field would have it in JSON."""
    text = text.strip()
    if isinstance(field, fields.Integer):
        return int(text) if re.fullmatch(r"-?\d+", text) else text
    if isinstance(field, fields.List) and isinstance(field.inner, fields.Integer):
        return _numbers(text)
    return text


def _numbers(text: str):
    """'1, -2' or '1 -2' as [1, -2]; anything else is passed on for the schema to refuse."""
    parts = [p for p in re.split(r"[\s,;]+", text.strip()) if p]
    if parts and all(re.fullmatch(r"-?\d+", p) for p in parts):
        return [int(p) for p in parts]
    return text


def _dice(text: str):
    """'3 4', '3+4' or '3,4' as a list of dice; anything else is passed on. '34' is one
    number, never two dice (`dice_problems` says so before it gets this far)."""
    parts = [p for p in re.split(r"[\s+,;-]+", text) if p]
    try:
        return [int(p) for p in parts]
    except ValueError:
        return text
