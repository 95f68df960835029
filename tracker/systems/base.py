"""The contract every game system keeps with the core.

A system is a package under ``tracker/systems/`` whose ``system`` attribute is an instance of
a `GameSystem` subclass. It imports nothing from Flask, SQLite, the store or the web layer.

State is plain JSON data (dicts, lists, strings, numbers, booleans, None): it is copied,
snapshotted and shown as JSON without any conversion. ``apply`` hands each event to the
rules' handler for its type (`Handlers`), which checks every rule *before* changing anything,
raises `RuleViolation` with the rule in plain words when the event would break one, and
changes the state in place. docs/systems.md describes every member.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from functools import cached_property
from pathlib import Path

import msgspec
from marshmallow import RAISE, Schema, ValidationError, fields, pre_load, validate

from tracker.dice import Drawn
from tracker.errors import InvalidEvent, RuleViolation, joined
from tracker.events import Event, copied, unrecorded
from tracker.systems import names
from tracker.systems.i18n import Said, _

__all__ = ["GameSystem", "EventSchema", "Handlers", "IdPattern", "RuleViolation", "Event"]


# marshmallow's own words, as messages: every system's schemas are made after this module,
# so each field and validator they hold refuses in words the reader's language shows. The
# English is marshmallow's; a message filled as marshmallow fills it ("{min}") stays one.
fields.Field.default_error_messages = {
    "required": _("Missing data for required field."),
    "null": _("Field may not be null."),
    "validator_failed": _("Invalid value."),
}
fields.String.default_error_messages = {
    "invalid": _("Not a valid string."),
    "invalid_utf8": _("Not a valid utf-8 string."),
}
fields.Number.default_error_messages = {
    "invalid": _("Not a valid number."),
    "too_large": _("Number too large."),
}
fields.Integer.default_error_messages = {"invalid": _("Not a valid integer.")}
fields.Float.default_error_messages = {
    "special": _("Special numeric values (nan or infinity) are not permitted.")
}
fields.Decimal.default_error_messages = {
    "special": _("Special numeric values (nan or infinity) are not permitted.")
}
fields.Boolean.default_error_messages = {"invalid": _("Not a valid boolean.")}
fields.List.default_error_messages = {"invalid": _("Not a valid list.")}
fields.Tuple.default_error_messages = {"invalid": _("Not a valid tuple.")}
fields.Mapping.default_error_messages = {"invalid": _("Not a valid mapping type.")}
fields.Nested.default_error_messages = {"type": _("Invalid type.")}
fields.Email.default_error_messages = {"invalid": _("Not a valid email address.")}
fields.Url.default_error_messages = {"invalid": _("Not a valid URL.")}
fields.UUID.default_error_messages = {"invalid_uuid": _("Not a valid UUID.")}
fields.Enum.default_error_messages = {"unknown": _("Must be one of: {choices}.")}
fields.Date.default_error_messages = {
    "invalid": _("Not a valid date."),
    "format": _('"{input}" cannot be formatted as a date.'),
}
fields.TimeDelta.default_error_messages = {
    "invalid": _("Not a valid period of time."),
    "format": _("{input!r} cannot be formatted as a timedelta."),
}
Schema._default_error_messages = {
    "type": _("Invalid input type."),
    "unknown": _("Unknown field."),
}
validate.Length.message_min = _("Shorter than minimum length {min}.")
validate.Length.message_max = _("Longer than maximum length {max}.")
validate.Length.message_all = _("Length must be between {min} and {max}.")
validate.Length.message_equal = _("Length must be {equal}.")
validate.OneOf.default_message = _("Must be one of: {choices}.")
validate.Regexp.default_message = _("String does not match expected pattern.")
validate.Equal.default_message = _("Must be equal to {other}.")
validate.ContainsOnly.default_message = _(
    "One or more of the choices you made was not in: {choices}."
)
validate.ContainsNoneOf.default_message = _("One or more of the choices you made was in: {values}.")
validate.NoneOf.default_message = _("Invalid input.")
validate.Predicate.default_message = _("Invalid input.")
validate.Email.default_message = _("Not a valid email address.")
validate.URL.default_message = _("Not a valid URL.")
_range_made = validate.Range.__init__


def _range_init(self, *args, **kwargs):
    """marshmallow's Range, its sentences whole (one message for each bound and way of
    holding it) instead of an operator's words formatted into a sentence."""
    _range_made(self, *args, **kwargs)
    lower = self.min_inclusive
    upper = self.max_inclusive
    if lower:
        self.message_min = _("Must be greater than or equal to {min}.")
    else:
        self.message_min = _("Must be greater than {min}.")
    if upper:
        self.message_max = _("Must be less than or equal to {max}.")
    else:
        self.message_max = _("Must be less than {max}.")
    if lower and upper:
        self.message_all = _(
            "Must be greater than or equal to {min} and less than or equal to {max}."
        )
    elif lower:
        self.message_all = _("Must be greater than or equal to {min} and less than {max}.")
    elif upper:
        self.message_all = _("Must be greater than {min} and less than or equal to {max}.")
    else:
        self.message_all = _("Must be greater than {min} and less than {max}.")


validate.Range.__init__ = _range_init


#: What a webhook may tell (tracker/webhooks.py), each with the words its page shows. A
#: system names the first three from its events (`happening`); the core adds "member".
HAPPENINGS = {
    "battle": _("a battle recorded"),
    "aftermath": _("an aftermath finished"),
    "game-over": _("a game over"),
    "member": _("a new member"),
}


class EventSchema(Schema):
    """Base of every event schema: unknown fields are refused, and every text is taken in
    one form (NFC, so a name's length counts its letters) with no character nobody sees."""

    class Meta:
        unknown = RAISE

    @pre_load
    def _written_plainly(self, data, **kwargs):
        return _plainly_written(data) if isinstance(data, dict) else data


def _plainly_written(data, path: str = ""):
    """`data` with each string composed (NFC); `ValidationError` naming the field of the
    first string that holds a control or invisible character."""
    if isinstance(data, str):
        refused = names.refusal(path, data)
        if refused is not None:
            raise ValidationError(refused, field_name=path.partition(".")[0])
        return names.normal(data)
    if isinstance(data, dict):
        return {
            key: _plainly_written(value, f"{path}.{key}" if path else str(key))
            for key, value in data.items()
        }
    if isinstance(data, list):
        return [_plainly_written(value, f"{path}.{i}") for i, value in enumerate(data)]
    return data


class IdPattern(validate.Regexp):
    """An id: lower-case letters, digits and dashes, not beginning with a dash, at most
    `length` characters. The pattern bounds the length; the length is kept whole so that a
    form is told it (`field_limits`)."""

    def __init__(self, length: int, error: str | None = None):
        error = error or _("use lower-case letters, digits and dashes")
        super().__init__(rf"^[a-z0-9][a-z0-9-]{{0,{length - 1}}}$", error=error)
        self.length = length


class Handlers(dict):
    """A game's rules: event type -> handler, each of one signature, `handler(state, event)`.

    A handler checks every rule first (raising `RuleViolation`), then changes `state` in
    place and returns None, or returns a new state. Filled in rules.py with
    ``@handlers.on("FighterAdded")``.
    """

    def on(self, event_type: str) -> Callable:
        def register(handler: Callable) -> Callable:
            self[event_type] = handler
            return handler

        return register


class GameSystem:
    """One game's rules: its events, its initial state, its fold, its content and its words."""

    #: short identifier, stored in each campaign's first event
    name: str = ""
    #: the game's name as users read it
    title: str = ""
    #: event type -> marshmallow schema class for its data
    events: dict[str, type[Schema]] = {}
    #: the event types only a campaign's organiser records (its own content, say)
    organiser_events: frozenset[str] = frozenset()
    #: schema of the settings a campaign of this game starts with
    settings_schema: type[Schema] = EventSchema
    #: each side of a campaign (warband, player seat) is named by this field of an event
    side_field: str | None = None
    #: event type -> the steps that bring an older event's data to its current shape, in
    #: order; each takes the data as recorded and returns it as the schema now reads it, and
    #: leaves data already in the current shape as it is. The log is never rewritten.
    upcasters: dict[str, tuple[Callable[[dict], dict], ...]] = {}
    #: the rules (rules.py): one handler for every event type in `events`
    handlers: Handlers = Handlers()
    #: the system's page helpers (its views.py): what a side may see and choose next, as its
    #: own templates ask for it. Shared templates and the web layer call only this class.
    views = None
    #: pages that show one side's hidden hand, and the query argument naming the side: the
    #: web refuses such a page to a reader who may not see that side
    side_pages: dict[str, str] = {}

    # -- content ---------------------------------------------------------------------------

    @property
    def package_dir(self) -> Path:
        import sys

        return Path(sys.modules[type(self).__module__].__file__).parent

    @property
    def content_dir(self) -> Path:
        return self.package_dir / "content"

    def content_packs(self) -> dict[str, str]:
        """The content packs a new campaign may start with: id -> title."""
        return {}

    def prepare_settings(self, settings: dict) -> dict:
        """Settings for a new campaign, with the content it needs copied in.

        A campaign carries its content (tables, maps) in its first event, so that editing a
        content file later never changes a campaign already under way.
        """
        return settings

    def content_events(self, document, source: str = "") -> list[dict]:
        """The events (`{"type", "data"}`) that bring a content file (parsed JSON, such as
        the community's fighter data) into a campaign; `InvalidEvent` in words when the file
        is wrong. The default: the game takes no content files."""
        raise InvalidEvent(_("%(game)s takes no content files", game=self.title))

    def roster_events(self, state: dict, roster: dict, founding: dict) -> list[dict]:
        """The events that found a side from a roster file (`tracker.rosters.read_roster`),
        with `founding` the form's fields (its id, name, player ...). The default: the game
        takes no roster files."""
        raise InvalidEvent(_("%(game)s takes no roster files", game=self.title))

    # -- the fold --------------------------------------------------------------------------

    def initial_state(self, settings: dict) -> dict:
        raise NotImplementedError

    def apply(self, state: dict, event: Event) -> dict:
        """`state` after `event`, by the rules' handler for its type."""
        try:
            handler = self.handlers[event.type]
        except KeyError:
            raise InvalidEvent(
                _("%(game)s has no rule for %(type)r", game=self.title, type=event.type)
            ) from None
        changed = handler(state, event)
        return state if changed is None else changed

    def upcast(self, event: Event) -> Event:
        """`event` with its data brought to the current shape (the same event if unchanged)."""
        data = self.upcast_data(event.type, event.data)
        if data is event.data:
            return event
        return msgspec.structs.replace(event, data=data)

    def upcast_data(self, event_type: str, data: dict) -> dict:
        """An event's data, as recorded, in the shape its schema reads now (`data` itself when
        it is in that shape already)."""
        for step in self.upcasters.get(event_type, ()):
            data = step(data)
        return data

    def as_recorded(self, recorded: dict, shaped: dict, loaded: dict) -> dict:
        """What is stored of an event imported in an older shape: its data as recorded, with
        the defaults its schema filled in (`shaped` is `recorded` upcast, `loaded` that
        loaded). Its hash is then the one the tracker gave it when that shape was current."""
        return {**recorded, **{key: v for key, v in loaded.items() if key not in shaped}}

    def allows(self, state: dict, event_type: str, data: dict) -> str | None:
        """May this event be recorded now? None if the rules accept it, else why not, in words.

        The rules themselves answer, run on a copy of the state: a page asks this instead of
        restating a rule.
        """
        try:
            self._trial(state, event_type, data)
        except (RuleViolation, InvalidEvent) as refused:
            return str(refused)
        return None

    def final_outcome(
        self, state: dict, event_type: str, data: dict, version: int = 0
    ) -> str | None:
        """What recording this event would lose for good (a fighter slain, a figure off the
        board), in the words the audit log would give it; None when it loses nothing, or when
        the rules refuse it (the refusal is theirs to say when it is recorded).

        The rules decide: the event is applied to a copy of `state`, and the system's views
        compare the two states (`views.lost_for_good(before, after)`, a list of what is gone;
        a system without it loses nothing a page need ask about). A page asks this before
        recording dice typed at the table, so that no misread roll takes a fighter unasked.
        """
        lost_for_good = getattr(self.views, "lost_for_good", None)
        if lost_for_good is None:
            return None
        try:
            after, event = self._trial(state, event_type, data, version)
        except (RuleViolation, InvalidEvent):
            return None
        if not lost_for_good(state, after):
            return None
        return self.describe(after, event)

    def _trial(self, state: dict, event_type: str, data: dict, version: int = 0):
        """The state after the event, applied to a deep copy of `state`, and the event."""
        loaded = self.load(event_type, data)
        trial = copy_for_rules(state)
        event = unrecorded(campaign="", version=version, type=event_type, data=loaded)
        return self.apply(trial, event), event

    # -- reading ---------------------------------------------------------------------------

    def visible_state(self, state: dict, side: str | None) -> dict:
        """The state as `side` may see it (None: a reader who holds no side).

        A game with hidden information (cards in hand, secret orders) hides here what that
        side may not see; whoever may see everything is shown `state` itself.
        """
        return state

    def public_state(self, state: dict) -> dict:
        """The state as `manage.py state` prints it (without system, version and head)."""
        return state

    def describe(self, state: dict, event: Event) -> str:
        """One line of words for an event; `state` is the state just after it."""
        return event.type

    def happening(self, state: dict, event: Event) -> str | None:
        """What an event makes happen that a campaign's webhook may tell, one of `HAPPENINGS`
        ("battle", "aftermath", "game-over"), or None; `state` is the state just after it."""
        return None

    def visible_event_data(
        self, state: dict, event_type: str, data: dict, version: int, viewer: str | None
    ) -> dict:
        """An event's data as `viewer` (a side, or None for any reader) may read it now.

        `state` is the latest state. A game with hidden cards hides them here while they are
        hidden at the table; the organiser and the log itself always hold everything.
        """
        return data

    def sides_of(self, state: dict, event_type: str, data: dict) -> set[str]:
        """The sides (warbands, seats) an event acts for, for permission checks."""
        if self.side_field and self.side_field in data:
            return {data[self.side_field]}
        return set()

    def sides(self, state: dict) -> dict[str, str]:
        """Every side of the campaign: id -> name."""
        return {}

    # -- schemas ---------------------------------------------------------------------------

    def schema(self, event_type: str) -> Schema:
        try:
            return self._schemas[event_type]
        except KeyError:
            known = ", ".join(sorted(self.events))
            raise InvalidEvent(
                _(
                    "%(game)s has no event called %(type)r (it knows: %(known)s)",
                    game=self.title,
                    type=event_type,
                    known=known,
                ),
                {"type": [_("unknown event type %(type)r", type=event_type)]},
            ) from None

    def limits(self, event_type: str, path: str) -> dict[str, int]:
        """The limits the schema of `event_type` sets on its field at `path` ("name", or
        "map.name" for a field of each item of a nested list), as a form's input states
        them (`maxlength`, `min`, `max`), so a form never restates a number."""
        return field_limits(field_at(self.schema(event_type), path))

    def settings_limits(self, path: str) -> dict[str, int]:
        """The limits the settings' schema sets on its field at `path` ("players.name")."""
        return field_limits(field_at(self._settings_schema, path))

    @cached_property
    def _settings_schema(self) -> Schema:
        return self.settings_schema()

    @cached_property
    def _schemas(self) -> dict[str, Schema]:
        return {name: cls() for name, cls in self.events.items()}

    def drawn_fields(self, event_type: str) -> dict[str, Drawn]:
        """The fields of an event type that the server may fill by chance."""
        drawn = self._drawn.get(event_type)
        if drawn is None:
            drawn = self._drawn[event_type] = {
                name: field
                for name, field in self.schema(event_type).fields.items()
                if isinstance(field, Drawn)
            }
        return drawn

    @cached_property
    def _drawn(self) -> dict[str, dict[str, Drawn]]:
        return {}

    def load(self, event_type: str, data: dict) -> dict:
        """Validate an event's data against its schema; raise `InvalidEvent` in plain words."""
        try:
            return self.schema(event_type).load(data)
        except ValidationError as err:
            messages = err.messages
            raise InvalidEvent(_plain(event_type, messages), messages, event_type) from None

    def load_settings(self, settings: dict) -> dict:
        try:
            return self.settings_schema().load(settings)
        except ValidationError as err:
            raise InvalidEvent(_plain(_("settings"), err.messages), err.messages) from None

    # -- identity --------------------------------------------------------------------------

    @cached_property
    def fingerprint(self) -> str:
        """A digest of the rules' code: snapshots folded by other rules are not reused."""
        digest = hashlib.sha256(self.name.encode())
        for path in sorted(self.package_dir.rglob("*.py")):
            digest.update(path.relative_to(self.package_dir).as_posix().encode())
            digest.update(path.read_bytes())
        return digest.hexdigest()[:16]


def next_step(side, do, waits, page: str, anchor: str = "", watch=None, **args) -> dict:
    """One thing a campaign waits for, as a system's `views.next_steps` gives it to the part
    that opens every campaign page: the side who acts (a side's id, a list of sides any of
    whom may, or None for any member), the words for whoever may record it (`do`) and for
    everyone else (`waits`: who is awaited, and for what), and the page where it is done
    (`page`, its query `args`, the `anchor` of its form). `watch` is the page and query
    where the others follow it, when that is another page (a seat they may not sit at)."""
    return {
        "side": side,
        "do": do,
        "waits": waits,
        "page": page,
        "args": args,
        "anchor": anchor,
        "watch": watch or (page, args),
    }


def free_id(prefix: str, taken) -> str:
    """The first id `prefix` + 1, 2, 3 ... that `taken` does not hold: what a form left empty
    is given where a system makes the id itself (`views.next_free`)."""
    taken = set(taken)
    number = 1
    while f"{prefix}{number}" in taken:
        number += 1
    return f"{prefix}{number}"


def field_at(schema: Schema, path: str) -> fields.Field:
    """The field at a dotted path through nested schemas, a list of them standing for each
    of its items ("map.name": the name of each point of a quest's map)."""
    first, _, rest = path.partition(".")
    field = schema.fields[first]
    if not rest:
        return field
    while isinstance(field, fields.List):
        field = field.inner
    return field_at(field.schema, rest)


def field_limits(field: fields.Field) -> dict[str, int]:
    """A field's limits as an input states them: `maxlength` from its Length validator or
    its id's pattern (`IdPattern`), `min` and `max` from its Range. The schema still checks
    every submission: these only let a browser refuse early."""
    limits = {}
    checks = list(field.validators)
    while checks:
        check = checks.pop()
        if isinstance(check, validate.And):
            checks += check.validators
        elif isinstance(check, validate.Length) and check.max is not None:
            limits["maxlength"] = check.max
        elif isinstance(check, IdPattern):
            limits["maxlength"] = check.length
        elif isinstance(check, validate.Range):
            limits.update(
                (key, value)
                for key, value in (("min", check.min), ("max", check.max))
                if value is not None
            )
    return limits


def copy_for_rules(state):
    """A copy of `state` for the rules to apply events to (a trial, or a writer's own), its
    content shared: the rules never change it in place (docs/systems.md).

    The copy is made as the rules reach into it: in each part of the state that is a mapping
    or a list (Warcry's warbands, its battles), an entry is copied the first time a rule
    takes it, and the rest stay shared with `state` (`settled` then gives the copy as plain
    data). An event about one warband copies that warband, not a campaign's six."""
    if not isinstance(state, dict):
        return copied(state)
    return {key: value if key == "content" else _copy_part(value) for key, value in state.items()}


def settled(state):
    """A state the rules have finished changing, as plain data: from here on it may be shared
    with readers (its entries the rules never took are still those of the state it was
    copied from, which nobody changes either)."""
    if not isinstance(state, dict):
        return state
    return {key: _plain_part(value) for key, value in state.items()}


def _copy_part(value):
    # A part of a copy not yet settled is copied as lazily: its entries as they stand.
    if type(value) is dict or type(value) is _OnFirstTouchDict:
        return _OnFirstTouchDict(dict.copy(value))
    if type(value) is list or type(value) is _OnFirstTouchList:
        return _OnFirstTouchList(list.copy(value))
    return copied(value)


def _plain_part(value):
    if type(value) is _OnFirstTouchDict:
        return dict.copy(value)
    if type(value) is _OnFirstTouchList:
        return list.copy(value)
    return value


class _OnFirstTouch:
    """What the two lazy parts share: the entries still shared with the state copied from
    (by identity: the rules' own entries are never copied again)."""

    __slots__ = ()

    def _shared_of(self, values) -> dict:
        return {id(v): v for v in values if type(v) is dict or type(v) is list}

    def _own(self, value, put):
        """`value` as the rules may change it: a copy (put in its place) if it is shared (an
        id found is that very object: the entries shared are kept alive here)."""
        if self._shared.pop(id(value), None) is not None:
            value = copied(value)
            put(value)
        return value


class _OnFirstTouchDict(_OnFirstTouch, dict):
    """A mapping whose entries are copied the first time a rule takes one, by any way a rule
    can (`[]`, `get`, `values`, `items`, `setdefault`, `pop`)."""

    __slots__ = ("_shared",)

    def __init__(self, source: dict):
        dict.__init__(self, source)
        self._shared = self._shared_of(source.values())

    def _take(self, key):
        return self._own(
            dict.__getitem__(self, key), lambda copy: dict.__setitem__(self, key, copy)
        )

    def __getitem__(self, key):
        return self._take(key)

    def get(self, key, default=None):
        return self._take(key) if key in self else default

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return self._take(key)

    def pop(self, key, *default):
        if key not in self:
            return dict.pop(self, key, *default)
        value = self._take(key)
        dict.__delitem__(self, key)
        return value

    def popitem(self):
        key = next(reversed(self))
        return key, self.pop(key)

    def values(self):
        return [self._take(key) for key in list(self)]

    def items(self):
        return [(key, self._take(key)) for key in list(self)]

    def copy(self) -> dict:
        return dict(self.items())

    def __or__(self, other):
        return self.copy() | other

    def __ror__(self, other):
        return other | self.copy()


class _OnFirstTouchList(_OnFirstTouch, list):
    """A list whose items are copied the first time a rule takes one (by index, slice,
    iteration either way, or `pop`)."""

    __slots__ = ("_shared",)

    def __init__(self, source: list):
        list.__init__(self, source)
        self._shared = self._shared_of(source)

    def _take(self, index: int):
        return self._own(
            list.__getitem__(self, index), lambda copy: list.__setitem__(self, index, copy)
        )

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self._take(at) for at in range(*index.indices(len(self)))]
        return self._take(index)

    def __iter__(self):
        at = 0
        while at < len(self):
            yield self._take(at)
            at += 1

    def __reversed__(self):
        at = len(self) - 1
        while at >= 0:
            if at < len(self):
                yield self._take(at)
            at -= 1

    def pop(self, index: int = -1):
        value = self._take(index)
        list.pop(self, index)
        return value

    def copy(self) -> list:
        return list(self)

    def __add__(self, other):
        return list(self) + other

    def __radd__(self, other):
        return other + list(self)


def _plain(what: str, messages) -> Said:
    """Marshmallow's nested messages as one line of words: one message, each field's own
    messages in it, so that the line reads in the reader's language."""
    parts = []

    def walk(prefix, value):
        if isinstance(value, dict):
            for key, sub in value.items():
                walk(f"{prefix}.{key}" if prefix else str(key), sub)
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, dict | list):
                    walk(prefix, item)
                else:
                    parts.append(
                        _("%(field)s: %(error)s", field=prefix, error=item) if prefix else item
                    )
        else:
            parts.append(_("%(field)s: %(error)s", field=prefix, error=value))

    walk("", messages)
    return _("%(what)s: %(errors)s", what=what, errors=joined(parts))


def load_json(path: Path):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)
