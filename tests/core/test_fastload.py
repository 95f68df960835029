"""The compiled fast path of loading event data: marshmallow's results exactly, or it steps aside."""

from __future__ import annotations

import collections
import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from marshmallow import (
    EXCLUDE,
    Schema,
    ValidationError,
    fields,
    post_load,
    pre_load,
    validate,
    validates,
    validates_schema,
)

from tracker import config, systems
from tracker.dice import Dice
from tracker.errors import InvalidEvent
from tracker.fastload import _Unsure, compile_schema, loader
from tracker.service import CORE_EVENTS
from tracker.systems.base import EventSchema, _plain

UNSURE = "unsure"
REFUSED = "refused"


def _event_schemas() -> list[tuple[str, type[Schema]]]:
    """Every event schema of every game system and of the core, each class once."""
    found: dict[type[Schema], str] = {}
    for system in systems.registry().values():
        for type_, cls in system.events.items():
            found.setdefault(cls, f"{system.name}.{type_}")
    for type_, cls in CORE_EVENTS.items():
        found.setdefault(cls, f"core.{type_}")
    return [(name, cls) for cls, name in found.items()]


SCHEMAS = _event_schemas()


# -- comparing -----------------------------------------------------------------------------


def same(a, b) -> bool:
    """Equal, and of the same types all the way down (True is not 1, keys in the same order)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[key], b[key]) for key in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def outcome(schema: Schema, check, data) -> str:
    """Load `data` both ways and check they agree: "fast", UNSURE or REFUSED."""
    before = copy.deepcopy(data)
    try:
        expected = schema.load(data)
    except ValidationError:
        expected = REFUSED
    try:
        got = check(data)
    except _Unsure:
        got = UNSURE
    assert same(data, before), "loading must not change its input"
    if expected is REFUSED:
        assert got is UNSURE, f"marshmallow refuses {data!r}, the fast path gave {got!r}"
        return REFUSED
    if got is UNSURE:
        return UNSURE
    assert same(got, expected), f"{data!r}: fast {got!r} != marshmallow {expected!r}"
    assert got is not data
    return "fast"


# -- generating data from the schemas ------------------------------------------------------

ID = st.from_regex(r"\A[a-z][a-z0-9-]{0,10}\Z")
CARD = st.from_regex(r"\A[a-z]{1,8}-[0-9]{1,2}\Z")
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 70) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=6,
)
ATTACKER = st.one_of(
    st.integers(1, 5).map(lambda die: [die]),
    st.integers(1, 6).map(lambda die: [6, die]),
)

# the game systems' own fields of chance, by class name: values they take
DRAWN = {
    "PlayerByLot": ID,
    "FirstPlayer": ID,
    "EventCard": ID,
    "TopCard": CARD,
    "ShuffledDeck": st.lists(ID, unique=True, max_size=5),
    "ShuffledDeal": st.fixed_dictionaries(
        {
            "hands": st.dictionaries(ID, st.lists(CARD, max_size=3), max_size=2),
            "stock": st.lists(CARD, max_size=3),
        }
    ),
    "AttackDice": st.lists(
        st.fixed_dictionaries({"attacker": ATTACKER, "defender": ATTACKER}),
        min_size=1,
        max_size=3,
    ),
}

# values a mutation puts in place of another: wrong types, edge cases, what forms send
WEIRD = [None, True, False, 0, -1, 7, 66, 10**6, 1.5, "", "x" * 300, "Not An Id", "3,2", "7"]
WEIRD += ["true", "knights-7", b"bytes", [], [None], ["x"], [1, 2], [True], {}, {"x": 1}]


def _validators(field) -> list:
    found, pending = [], list(field.validators)
    while pending:
        each = pending.pop(0)
        if isinstance(each, validate.And):
            pending[:0] = each.validators
        else:
            found.append(each)
    return found


def _bounds(field, kind, low=0, high=None) -> tuple:
    for each in _validators(field):
        if type(each) is kind:
            if getattr(each, "equal", None) is not None:
                return each.equal, each.equal
            low = each.min if each.min is not None else low
            high = each.max if each.max is not None else high
    return low, high


def valid(field) -> st.SearchStrategy:
    """Values `field` most likely accepts, read from its declaration."""
    checks = _validators(field)
    if isinstance(field, fields.Nested):
        return payload(field.schema)
    if isinstance(field, Dice):
        roll = st.lists(st.integers(1, field.sides), min_size=field.count, max_size=field.count)
        if field.spec == "D66":
            return roll | st.integers(11, 66)
        return roll | st.integers(1, field.sides) if field.count == 1 else roll
    if type(field).__name__ in DRAWN:
        return DRAWN[type(field).__name__]
    if isinstance(field, fields.List):
        low, high = _bounds(field, validate.Length)
        high = low + 2 if high is None else min(high, low + 2)
        return st.lists(valid(field.inner), min_size=low, max_size=high)
    if isinstance(field, fields.Dict):
        keys = valid(field.key_field) if field.key_field else st.text(max_size=6)
        values = valid(field.value_field) if field.value_field else JSON
        return st.dictionaries(keys, values, max_size=3)
    if isinstance(field, fields.Integer):
        low, high = _bounds(field, validate.Range, low=-3)
        return st.integers(low, low + 20 if high is None else high)
    if isinstance(field, fields.Boolean):
        return st.booleans()
    if isinstance(field, fields.String):
        for each in checks:
            if isinstance(each, validate.OneOf):
                return st.sampled_from(list(each.choices))
        low, high = _bounds(field, validate.Length)
        high = low + 8 if high is None else min(high, low + 8)
        for each in checks:
            if isinstance(each, validate.Regexp):
                return st.from_regex(each.regex).filter(lambda s: low <= len(s) <= high)
        return st.text(min_size=low, max_size=high)
    return JSON


def payload(schema: Schema) -> st.SearchStrategy[dict]:
    """Data `schema` most likely accepts: every required key, some of the optional ones."""
    required, optional = {}, {}
    for name, field in schema.load_fields.items():
        values = valid(field) | st.none() if field.allow_none else valid(field)
        (required if field.required else optional)[name] = values
    return st.fixed_dictionaries(required, optional=optional)


def _containers(value):
    if isinstance(value, dict | list):
        yield value
        for each in value.values() if isinstance(value, dict) else value:
            yield from _containers(each)


def inputs(schema: Schema) -> st.SearchStrategy[dict]:
    """Mostly valid data, about half of it then broken in one or two places."""
    return st.builds(_break, payload(schema), st.randoms(use_true_random=False))


def _break(data: dict, chance) -> dict:
    data = copy.deepcopy(data)
    for _ in range(chance.choice([0, 0, 1, 1, 2])):
        container = chance.choice(list(_containers(data)))
        keys = list(container) if isinstance(container, dict) else list(range(len(container)))
        weird = copy.deepcopy(chance.choice(WEIRD))
        action = chance.choice(["replace", "drop", "add"]) if keys else "add"
        if action == "add" and isinstance(container, dict):
            container[chance.choice(["extra", "Warband", "1"])] = weird
        elif action == "add":
            container.append(weird)
        elif action == "drop":
            del container[chance.choice(keys)]
        else:
            container[chance.choice(keys)] = weird
    return data


# -- every event schema --------------------------------------------------------------------


def test_every_event_schema_is_compiled():
    assert [name for name, cls in SCHEMAS if compile_schema(cls()) is None] == []


@pytest.mark.parametrize("schema_cls", [cls for _, cls in SCHEMAS], ids=[n for n, _ in SCHEMAS])
def test_the_fast_path_loads_as_marshmallow_does_or_steps_aside(schema_cls):
    schema = schema_cls()
    check = compile_schema(schema)
    tally = collections.Counter()

    @settings(
        max_examples=100,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    @given(inputs(schema))
    def agrees(data):
        tally[outcome(schema, check, data)] += 1

    agrees()
    assert tally["fast"] and tally[REFUSED], f"both ways must be tried: {dict(tally)}"


def test_the_sample_campaigns_load_through_the_fast_path(capsys):
    tally = collections.Counter()
    for path in sorted(config.SAMPLES.glob("*.jsonl")):
        system = None
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            type_, data = record["type"], record.get("data") or {}
            if type_ in CORE_EVENTS:
                schema = CORE_EVENTS[type_]()
                if type_ == "CampaignStarted":
                    system = systems.get(data["system"])
            else:
                schema = system.schema(type_)
            check = compile_schema(schema)
            tally[outcome(schema, check, data)] += 1
    assert tally[REFUSED] == 0
    with capsys.disabled():
        print(f"\nsample events: {tally['fast']} fast, {tally[UNSURE]} through marshmallow")
    assert tally["fast"] >= 0.95 * sum(tally.values()), dict(tally)


# -- what the fast path models, and what it leaves to marshmallow --------------------------


class Sample(EventSchema):
    name = fields.Str(required=True, validate=validate.Length(min=1, max=5))
    count = fields.Integer(strict=True, load_default=1, validate=validate.Range(1, 9))
    loose = fields.Integer(load_default=None)
    tags = fields.List(fields.Str(), load_default=list)
    flag = fields.Bool()
    extra = fields.Dict()
    kind = fields.Str(validate=validate.OneOf(["a", "b"]))


def test_what_marshmallow_would_coerce_or_refuse_is_left_to_it():
    check = compile_schema(Sample())
    for data in (
        {"name": b"abc"},
        {"name": "abc", "count": True},
        {"name": "abc", "count": "7"},
        {"name": "abc", "count": 7.0},
        {"name": "abc", "count": 10},
        {"name": "abc", "loose": "7"},
        {"name": "abc", "flag": 1},
        {"name": "abc", "flag": "true"},
        {"name": "abc", "tags": ("x",)},
        {"name": "abc", "kind": "c"},
        {"name": ""},
        {"name": None},
        {"count": 1},
        {"name": "abc", "other": 1},
        ["name"],
    ):
        with pytest.raises(_Unsure):
            check(data)


def test_defaults_are_filled_as_marshmallow_fills_them():
    schema = Sample()
    check = compile_schema(schema)
    first, second = check({"name": "abc"}), check({"name": "abc"})
    assert same(first, schema.load({"name": "abc"}))
    assert first == {"name": "abc", "count": 1, "loose": None, "tags": []}
    assert first["tags"] is not second["tags"], "a callable default is called each time"
    assert same(check({"name": "abc", "loose": None}), schema.load({"name": "abc", "loose": None}))
    data = {"name": "abc", "extra": {"x": [1]}, "flag": False, "kind": "a"}
    assert same(check(data), schema.load(data))
    assert check(data)["extra"] is not data["extra"], "a dict is copied, as marshmallow does"


class WithPostLoad(EventSchema):
    name = fields.Str()

    @post_load
    def upper(self, data, **kwargs):
        return data


class WithPreLoad(EventSchema):
    name = fields.Str()

    @pre_load
    def strip(self, data, **kwargs):
        return data


class WithFieldCheck(EventSchema):
    name = fields.Str()

    @validates("name")
    def check_name(self, value, **kwargs):
        pass


class WithSchemaCheck(EventSchema):
    name = fields.Str()

    @validates_schema
    def check_all(self, data, **kwargs):
        pass


class Renamed(EventSchema):
    name = fields.Str(data_key="Name")


class Moved(EventSchema):
    name = fields.Str(attribute="title")


class Lenient(Schema):
    class Meta:
        unknown = EXCLUDE

    name = fields.Str()


@pytest.mark.parametrize(
    "schema_cls",
    [WithPostLoad, WithPreLoad, WithFieldCheck, WithSchemaCheck, Renamed, Moved, Lenient],
)
def test_a_schema_with_hooks_renamed_fields_or_other_unknowns_is_not_compiled(schema_cls):
    assert compile_schema(schema_cls()) is None
    data = {"Name" if schema_cls is Renamed else "name": "abc"}
    assert loader(schema_cls)(data) == schema_cls().load(data)


class Shout(fields.Str):
    def _deserialize(self, value, attr, data, **kwargs):
        return super()._deserialize(value, attr, data, **kwargs).upper()


def _not_bob(value):
    if value == "bob":
        raise ValidationError("not bob")


class Custom(EventSchema):
    shout = Shout()
    named = fields.Str(validate=_not_bob)
    inner = fields.List(Shout())
    later = fields.Nested(WithPostLoad)
    processed = fields.Str(post_load=str.strip)


def test_fields_and_validators_it_does_not_model_are_loaded_by_their_own_code():
    schema = Custom()
    check = compile_schema(schema)
    assert check is not None
    data = {
        "shout": "hey",
        "named": "al",
        "inner": ["a", "b"],
        "later": {"name": "x"},
        "processed": " x ",
    }
    assert same(check(data), schema.load(data))
    assert check(data)["shout"] == "HEY"
    for bad in ({"named": "bob"}, {"shout": 1}, {"inner": [1]}, {"later": {"other": 1}}):
        with pytest.raises(_Unsure):
            check(bad)
        with pytest.raises(ValidationError):
            schema.load(bad)


class Tree(EventSchema):
    name = fields.Str(required=True)
    children = fields.List(fields.Nested(lambda: Tree()), load_default=list)


def test_a_schema_nested_in_itself_is_loaded_by_marshmallow_below_the_top():
    schema = Tree()
    check = compile_schema(schema)
    data = {"name": "root", "children": [{"name": "leaf", "children": [{"name": "deep"}]}]}
    assert same(check(data), schema.load(data))
    with pytest.raises(_Unsure):
        check({"name": "root", "children": [{"name": 1}]})


def test_a_loader_is_made_once_and_answers_with_marshmallows_own_errors():
    assert loader(Sample) is loader(Sample)
    schema = Sample()
    assert loader(schema) is loader(schema)
    assert loader(Sample)({"name": "abc", "count": 2})["count"] == 2
    with pytest.raises(ValidationError) as fast:
        loader(Sample)({"name": "", "count": True, "other": 1})
    with pytest.raises(ValidationError) as slow:
        Sample().load({"name": "", "count": True, "other": 1})
    assert fast.value.messages == slow.value.messages


# -- GameSystem.load -----------------------------------------------------------------------

BAD = [
    ("warcry", "DestinyRolled", {"warband": "ironjaws", "fighter": "varka", "dice": [7]}),
    ("warcry", "FighterAdded", {"warband": "Iron Jaws", "fighter": "v", "points": True}),
    ("warcry", "BattleFought", {"battle": "b1", "sides": [{"warband": "a", "fighters": []}]}),
    ("hellas", "HoplitesMoved", {"player": "p", "moves": [{"origin": "a", "count": 99}]}),
    ("leaders", "AbilityUsed", {"player": "p", "character": "c", "form": "jump", "x": 1}),
    ("claim", "CardPlayed", {"game": 0, "player": "mara", "card": "knights"}),
    ("monsters", "FigurePlaced", {"battle": "b", "piece": "p", "at": "three"}),
]


@pytest.mark.parametrize("system_name, type_, data", BAD, ids=[b[1] for b in BAD])
def test_game_system_load_refuses_bad_data_in_the_same_words_as_before(system_name, type_, data):
    system = systems.get(system_name)
    with pytest.raises(ValidationError) as slow:
        system.schema(type_).load(copy.deepcopy(data))
    with pytest.raises(InvalidEvent) as caught:
        system.load(type_, data)
    assert caught.value.message == _plain(type_, slow.value.messages)
    assert caught.value.errors == slow.value.messages


def test_game_system_load_names_the_rule_of_a_die_out_of_range():
    data = {"warband": "ironjaws", "fighter": "varka", "dice": [7]}
    with pytest.raises(InvalidEvent) as caught:
        systems.get("warcry").load("DestinyRolled", data)
    assert caught.value.message == "DestinyRolled: dice: a die of a D6 roll shows 1 to 6, not 7"


def test_game_system_load_still_names_the_events_it_knows():
    with pytest.raises(InvalidEvent, match="has no event called 'Nope'"):
        systems.get("warcry").load("Nope", {})


def test_game_system_load_takes_the_bare_number_of_one_die():
    data = {"warband": "ironjaws", "fighter": "varka", "dice": 4}
    assert systems.get("warcry").load("DestinyRolled", data)["dice"] == [4]
