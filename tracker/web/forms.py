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
- dice as text, ``3 5``, ``35`` or ``4``;
- other chance typed in at the table as its field lays it out (`Drawn.typed_in`), such as a
  deal of cards as ``deal-hands[ann]`` and ``deal-stock``.

Text is converted by the field's type; marshmallow then validates the result exactly as it
validates the API's JSON, so forms and API share one set of rules and one set of messages.
"""

from __future__ import annotations

import re

from marshmallow import fields

from tracker.dice import Dice, Drawn

MISSING = object()


def form_data(schema, form, prefix: str = "") -> dict:
    """The event data that a submitted form describes, for `schema`."""
    data: dict = {}
    for name, field in schema.fields.items():
        value = _field(field, form, f"{prefix}{name}")
        if value is not MISSING:
            data[name] = value
    return data


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
    text = form.get(key, "").strip()
    return _dice(text) if text else MISSING


def _drawn_field(field, form, key: str):
    text = form.get(key, "").strip()
    if text:
        return text
    if field.typed_in is not None and any(k.startswith(f"{key}-") for k in form):
        # Boxes left blank are an empty value, for the rules to refuse: not one to draw.
        return field.from_typed(form_data(field.typed_in(), form, f"{key}-"))
    return MISSING


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
    """'3 4', '3+4', '3,4' or '34' (two dice) as a list of dice; anything else is passed on."""
    parts = [p for p in re.split(r"[\s+,;-]+", text) if p]
    if len(parts) == 1 and re.fullmatch(r"[1-9]{2,}", parts[0]):
        parts = list(parts[0])
    try:
        return [int(p) for p in parts]
    except ValueError:
        return text
