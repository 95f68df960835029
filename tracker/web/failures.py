"""A refused form in the player's words: which form, each field's words (named as the form
labels it, never by its key) and the form's own, kept as messages so that they read in the
reader's language; and the limits the core's forms state on their inputs."""

from __future__ import annotations

import re

from marshmallow import fields

from tracker import accounts
from tracker.campaign import (
    CAMPAIGN_ID_LENGTH,
    CampaignStartedSchema,
    EventVoidedSchema,
)
from tracker.dice import Drawn
from tracker.systems import i18n
from tracker.systems.base import field_limits
from tracker.systems.i18n import N_, _, listed
from tracker.web.language import capitalised

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
