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

from tracker import accounts
from tracker.campaign import (
    CAMPAIGN_ID_LENGTH,
    CampaignStartedSchema,
    EventVoidedSchema,
    slug,
)
from tracker.dice import Dice, Drawn
from tracker.systems import i18n
from tracker.systems.base import field_limits
from tracker.systems.i18n import N_, _, listed, ngettext
from tracker.web.language import capitalised

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


# -- a refused form, in words ---------------------------------------------------------------


class Failure(dict):
    """A refused form, for its page: which form (`form`), the words for each field
    (`fields`) and for the form as a whole (`message`), kept as messages (`tracker.systems.i18n`).

    Each piece of words is shown once, in the reader's language: beside its field or its
    form when the page shows them (the macros ask `at_field` and `at_form`), and whatever no
    form took, at the top (`rest`), after the page's body is made.
    """

    def __init__(
        self, form: str, fields: dict | None = None, message: str = "", labels: dict | None = None
    ):
        super().__init__(form=form, fields=fields or {}, message=message)
        self.labels = labels or {}  # what the page's top calls each field
        self.shown: set = set()

    def at_form(self, form_id: str) -> str:
        if form_id != self["form"] or not self["message"] or "" in self.shown:
            return ""
        self.shown.add("")
        return self["message"]

    def at_field(self, form_id: str, name: str) -> str:
        words = self["fields"].get(name)
        if form_id != self["form"] or not words or name in self.shown:
            return ""
        self.shown.add(name)
        return " ".join(_read(w) for w in _flat(words))

    def fields_of(self, names) -> bool:
        """Whether any of the fields `names` has words (a part of the form to open)."""
        return any(self["fields"].get(name) for name in names)

    def rest(self) -> list[str]:
        """The words no form or field of the page took: the page shows them at its top."""
        out = [] if "" in self.shown or not self["message"] else [self["message"]]
        for name, words in self["fields"].items():
            if name not in self.shown:
                named = capitalised(self.labels.get(name, ""))
                out += [
                    w
                    if _read(w).startswith(named)
                    else _("%(label)s: %(words)s", label=named, words=w)
                    for w in _flat(words)
                ]
        self.shown.update([""], self["fields"])
        return out


def _flat(words) -> list:
    if isinstance(words, dict):
        return [w for sub in words.values() for w in _flat(sub)]
    if isinstance(words, list):
        return [w for sub in words for w in _flat(sub)]
    return [words if isinstance(words, str) else str(words)]


def _read(words) -> str:
    """Words in the reader's language (a message translated; any other text as it is)."""
    return str(i18n.translate(words, i18n.reader()))


# Marshmallow's own messages, as a player says them (`label`: the field's label; `a`, `b`:
# what marshmallow's message holds, such as a length).
_SAYINGS = [
    (r"Not a valid integer\.", N_("%(label)s must be a whole number.")),
    (r"Not a valid number\.", N_("%(label)s must be a number.")),
    (r"Missing data for required field\.", N_("%(label)s is needed.")),
    (r"Field may not be null\.", N_("%(label)s is needed.")),
    (r"Not a valid string\.", N_("%(label)s must be text.")),
    (r"Not a valid boolean\.", N_("%(label)s must be yes or no.")),
    (r"Not a valid list\.", N_("%(label)s must be a list.")),
    (r"Not a valid mapping type\.", N_("%(label)s is not filled in as the form asks.")),
    (r"Invalid input type\.", N_("%(label)s is not filled in as the form asks.")),
    (r"Unknown field\.", N_("%(label)s is not part of this form.")),
    (
        r"Length must be between (\d+) and (\d+)\.",
        N_("%(label)s must be %(a)s to %(b)s characters in length."),
    ),
    (r"Shorter than minimum length (\d+)\.", N_("%(label)s needs a length of at least %(a)s.")),
    (r"Longer than maximum length (\d+)\.", N_("%(label)s may have a length of %(a)s at most.")),
    (r"Length must be (\d+)\.", N_("%(label)s must have a length of %(a)s.")),
    (
        r"Must be greater than or equal to (\S+) and less than or equal to (\S+)\.",
        N_("%(label)s must be from %(a)s to %(b)s."),
    ),
    (r"Must be greater than or equal to (\S+)\.", N_("%(label)s must be at least %(a)s.")),
    (r"Must be less than or equal to (\S+)\.", N_("%(label)s must be at most %(a)s.")),
    (r"Must be one of: (.*)\.", N_("%(label)s must be one of: %(a)s.")),
    (r"String does not match expected pattern\.", N_("%(label)s is not written as the form asks.")),
]


def player_words(schema, errors: dict) -> dict[str, list[str]]:
    """Marshmallow's messages for the fields of `schema` as a player would read them: each
    names its field by its label (the field's ``label`` metadata, else its name in words),
    never as the event's data calls it."""
    return {
        name: _said(_label(name, schema), _inner(schema, name), messages)
        for name, messages in errors.items()
    }


def field_labels(schema, errors: dict) -> dict[str, str]:
    """What a page calls each field of `errors` when it names it on its own."""
    return {name: _label(name, schema) for name in errors}


def _label(name, schema) -> str:
    if isinstance(name, int) or str(name).isdigit():
        return _("number %(number)s", number=int(name) + 1)
    field = schema.fields.get(name) if schema is not None else None
    label = field.metadata.get("label") if field is not None else None
    if name == "_schema":
        return ""
    return _words(label or str(name).replace("_", " ").replace("-", " "))


def _words(label):
    """A label as a message: one the catalogue has (marked where it is made, `N_`) reads
    in the reader's language; a field's name in words, as it is."""
    return label if isinstance(label, i18n.Said | i18n.Texts) or not label else _(label)


def _inner(schema, name):
    """The schema of the objects a field holds (a nested object or a list of them), or None."""
    field = schema.fields.get(name) if schema is not None else None
    if isinstance(field, fields.List):
        field = field.inner
    return field.schema if isinstance(field, fields.Nested) else None


def _said(label: str, inner, messages, nested: str = "") -> list[str]:
    """Words for `messages` of the field `label`; `nested` names the part of the field they
    are about (an item of a list, a field of a nested object), which a message of the
    field's own words is prefixed with (beside its field a field's own words need no name)."""
    if isinstance(messages, dict):
        out = []
        for key, sub in messages.items():
            if isinstance(key, int) or str(key).isdigit():
                number = int(key) + 1
                part = (
                    _("%(label)s %(number)s", label=label, number=number) if label else str(number)
                )
                out += _said(part, inner, sub, part)
            else:
                named = _label(key, inner)
                part = _("%(label)s: %(part)s", label=label, part=named) if label else named
                out += _said(part, _inner(inner, key), sub, part)
        return out
    if isinstance(messages, list):
        return [w for m in messages for w in _said(label, inner, m, nested)]
    return [_saying(label, messages, nested)]


def _saying(label: str, message, nested: str = "") -> str:
    """One message of marshmallow's as a player says it, naming the field by `label`, in
    the reader's language; another message (a rule's) as it is, or after `nested`."""
    for pattern, words in _SAYINGS:
        match = re.fullmatch(pattern, str(message))
        if match:
            found = dict(zip(("a", "b"), match.groups(), strict=False))
            return capitalised(_(words, label=label or _("this"), **found))
    if not nested:
        return message
    return capitalised(_("%(label)s: %(words)s", label=nested, words=message))


def typed(schema, form) -> str:
    """What a form held for the fields of `schema`, in words (each field by its label): kept
    for a player who may not send it, so that nothing typed is lost."""
    parts = []
    for name in schema.fields:
        values = [v.strip() for v in form.getlist(name) if v.strip()]
        values += [v.strip() for v in form.getlist(f"{name}-text") if v.strip()]
        if isinstance(schema.fields[name], Drawn):  # dice chosen die by die
            boxes = sorted(k for k in form if re.fullmatch(rf"{re.escape(name)}-\d+(-\w+)*", k))
            values += [form[k].strip() for k in boxes if form[k].strip()]
        if values:
            parts.append(
                _(
                    "%(label)s “%(values)s”",
                    label=capitalised(_label(name, schema)),
                    values=", ".join(values),
                )
            )
    return _("What you typed: %(fields)s.", fields=listed(parts, "; ")) if parts else ""


# -- the start of a campaign ----------------------------------------------------------------

# What the start form calls a campaign's own fields and the settings every game shares (a
# game's own settings may name theirs by their ``label`` metadata).
_START_LABELS = {
    "name": N_("the campaign's name"),
    "campaign": N_("the short id for links"),
    "upto": N_("the event to play on from"),
    "system": N_("the game"),
    "players": N_("the list of players"),
    "pack": N_("the content pack"),
    "board": N_("the board"),
    "deck": N_("the deck"),
    "quest": N_("the quest"),
    "own_figures": N_("your own figures"),
    "own_map": N_("your own map"),
    "figures": N_("the figures"),
    "maps": N_("the maps"),
}
_PLAYER_LABELS = {"id": N_("player %(number)s's short id"), "name": N_("player %(number)s's name")}


def start_failure(form_id: str, schema, errors: dict, message: str = "", boxes=()) -> Failure:
    """A refused start of a campaign, for its form (`form_id`): marshmallow's messages for
    the campaign's own fields and its settings (`schema`, the game's settings schema) in a
    player's words, each under the name of the box it is about (``settings-players-1-id``),
    named by the box's label where it is shown on its own (at the top).

    A setting the form has no box for (of the form's `boxes`), missing beside another error,
    is missing for that error (a content pack not found brings none of its figures): it is
    not said again."""
    words: dict[str, list[str]] = {}
    labels: dict[str, str] = {}
    for name, messages in errors.items():
        if (
            len(errors) > 1
            and _flat(messages) == ["Missing data for required field."]
            and f"settings-{name}" not in boxes
            and name not in ("players", "name")
        ):
            continue
        if name == "_schema":  # the settings as a whole
            words["settings"], labels["settings"] = [_saying("", m) for m in _flat(messages)], ""
            continue
        prefix = "" if name in ("name", "campaign", "system", "upto") else "settings-"
        label = _start_label(schema, name)
        if isinstance(messages, dict) and name == "players":
            for row, sub in messages.items():
                for inner, said in sub.items() if isinstance(sub, dict) else [("", sub)]:
                    key = f"{prefix}{name}-{row}-{inner}".rstrip("-")
                    if inner in _PLAYER_LABELS:
                        labels[key] = _(_PLAYER_LABELS[inner], number=int(row) + 1)
                    elif inner:
                        labels[key] = _(
                            "player %(number)s's %(field)s", number=int(row) + 1, field=inner
                        )
                    else:
                        labels[key] = _("player %(number)s", number=int(row) + 1)
                    words[key] = [_saying(labels[key], m) for m in _flat(said)]
            continue
        key = f"{prefix}{name}"
        labels[key] = label
        words[key] = [_said_within(w) for w in _said(label, None, messages)]
    return Failure(form_id, words, "" if words else message, labels)


def _said_within(message: str) -> str:
    """A message a game's settings made of a part of a box (``eel: movement: Not a valid
    string.``, a figure typed in) with marshmallow's words at its end said as a player would
    (``Eel: movement must be text.``)."""
    for pattern, _sense in _SAYINGS:
        match = re.fullmatch(rf"(.+?): ({pattern})", str(message))
        if match:
            return _saying(match.group(1), match.group(2))
    return message


def _start_label(schema, name: str) -> str:
    field = schema.fields.get(name) if schema is not None else None
    label = field.metadata.get("label") if field is not None else None
    return _words(label or _START_LABELS.get(name) or str(name).replace("_", " "))


# The limits the core's forms state on their inputs, as attributes (`m.core`), from the
# core's schemas and the accounts' rules: a form restates no number. A search finds words in
# a campaign's name, so it is never longer than a name.
CORE_LIMITS = {
    "campaign-name": field_limits(CampaignStartedSchema().fields["name"]),
    "campaign-id": {"maxlength": CAMPAIGN_ID_LENGTH},
    "search": field_limits(CampaignStartedSchema().fields["name"]),
    "void-reason": field_limits(EventVoidedSchema().fields["reason"]),
    "password": {"minlength": accounts.PASSWORD_LENGTH},
    "token-label": {"maxlength": accounts.TOKEN_LABEL_LENGTH},
}
