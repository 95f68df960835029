"""HTML form fields turned into an event's data, guided by the event's own schema.

Field names follow the schema: ``warband``, a list field repeated (``fighters`` checkboxes),
a nested list as ``sides-0-warband``. Text is converted by the field's type; marshmallow then
validates the result exactly as it validates the API's JSON, so forms and API share one set
of rules and one set of error messages.
"""

from __future__ import annotations

import re

from marshmallow import fields

from tracker.dice import Drawn


def form_data(schema, form, prefix: str = "") -> dict:
    """The event data that a submitted form describes, for `schema`."""
    data: dict = {}
    for name, field in schema.fields.items():
        key = f"{prefix}{name}"
        if isinstance(field, Drawn):
            text = form.get(key, "").strip()
            if text:
                data[name] = _dice(text)
        elif isinstance(field, fields.List) and isinstance(field.inner, fields.Nested):
            indices = sorted({int(m.group(1)) for k in form
                              if (m := re.match(rf"^{re.escape(key)}-(\d+)-", k))})
            data[name] = [form_data(field.inner.schema, form, f"{key}-{i}-") for i in indices]
        elif isinstance(field, fields.List):
            if f"{key}-text" in form:  # one text box: items separated by commas
                data[name] = [v.strip() for v in form[f"{key}-text"].split(",") if v.strip()]
            elif key in form or f"{key}-present" in form:
                data[name] = [v for v in form.getlist(key) if v != ""]
        elif isinstance(field, fields.Boolean):
            if key in form or f"{key}-present" in form:
                data[name] = form.get(key) in ("on", "true", "1", "yes")
        elif key in form:
            text = form.get(key, "").strip()
            if text == "":
                if field.allow_none:
                    data[name] = None
                continue
            if isinstance(field, fields.Integer):
                data[name] = int(text) if re.fullmatch(r"-?\d+", text) else text
            else:
                data[name] = text
    return data


def _dice(text: str):
    """'3 4', '3+4', '3,4' or '34' (two dice) as a list of dice; anything else is passed on."""
    parts = [p for p in re.split(r"[\s+,;-]+", text) if p]
    if len(parts) == 1 and re.fullmatch(r"[1-9]{2,}", parts[0]):
        parts = list(parts[0])
    try:
        return [int(p) for p in parts]
    except ValueError:
        return text
