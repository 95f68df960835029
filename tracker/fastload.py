"""A compiled fast path for marshmallow's `Schema.load`: the same results, several times cheaper.

`compile_schema` reads a schema's fields once and builds a checker from plain closures. For a
dict the checker either returns exactly what ``schema.load`` would (same keys, values, types
and defaults) or raises `_Unsure`, and the caller asks marshmallow, which accepts the data the
slow way or refuses it with its own messages. The checker is conservative: it accepts only
data of the exact JSON shape the schema declares (a ``str`` for a string, an ``int`` that is
not a bool for an integer, a ``list`` for a list) that passes every validator; anything
marshmallow would coerce, refuse or treat in a way not modelled here is left to marshmallow.

What is modelled: the fields String, Integer, Boolean, List, Dict and Nested of marshmallow,
with ``required``, ``allow_none`` and ``load_default``; the validators Length, Range, Regexp,
OneOf, Equal and And; and the list shape of `tracker.dice.Dice`. Any other field (the game
systems' own fields among them) is loaded by its own ``deserialize``, which is marshmallow's
per-field code and so right by construction. A schema with hooks (pre_load, post_load,
validates, validates_schema), another ``unknown`` than RAISE, ``many``, ``partial``, a
``data_key`` or ``attribute`` of its own, or overridden loading methods is not compiled.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from marshmallow import RAISE, Schema, fields, missing, validate

from tracker.dice import Dice

__all__ = ["compile_schema", "loader"]

Checker = Callable[[dict], dict]
#: a present value that is not None -> the value as marshmallow loads it, or `_Unsure`
Convert = Callable[[object], object]
#: the data of a schema -> one field's loaded value, `missing` when it stays out, or `_Unsure`
Take = Callable[[dict], object]


class _Unsure(Exception):
    """The fast path cannot vouch for this data: marshmallow must load it."""


class _Unsupported(Exception):
    """A schema or field uses something the compiler does not model."""


# Schema methods on the load path: a schema overriding any of them loads in its own way.
_LOAD_METHODS = (
    "load",
    "_do_load",
    "_deserialize",
    "_call_and_store",
    "_invoke_field_validators",
    "_invoke_schema_validators",
    "_invoke_load_processors",
    "_invoke_processors",
)


def compile_schema(schema: Schema) -> Checker | None:
    """A checker that loads `schema`'s data as ``schema.load`` does, or None.

    The checker returns the loaded dict or raises `_Unsure`; None means the schema uses
    something not modelled here, and marshmallow should always load it.
    """
    try:
        return _compile(schema, schema.unknown, frozenset())
    except _Unsupported:
        return None


def loader(schema: Schema | type[Schema]) -> Callable[[dict], dict]:
    """A drop-in for ``schema.load(data)``: the compiled checker first, marshmallow if unsure.

    It raises marshmallow's own ValidationError, with its messages, for data marshmallow
    refuses. Given a class, one instance of it is made and compiled once; given an instance,
    the loader is compiled once and kept on that instance.
    """
    if isinstance(schema, type):
        return _class_loader(schema)
    kept = schema.__dict__.get("_fastload")
    # a copied schema (Nested copies the instances it is given) carries its original's entry
    if kept is not None and kept[0] is schema:
        return kept[1]
    load = _loader(schema)
    schema.__dict__["_fastload"] = (schema, load)
    return load


@cache
def _class_loader(schema_cls: type[Schema]) -> Callable[[dict], dict]:
    return _loader(schema_cls())


def _loader(schema: Schema) -> Callable[[dict], dict]:
    check = compile_schema(schema)
    slow = schema.load
    if check is None:
        return slow

    def load(data):
        try:
            return check(data)
        except _Unsure:
            return slow(data)

    return load


# -- schemas -------------------------------------------------------------------------------


def _compile(schema: Schema, unknown, compiling: frozenset) -> Checker:
    """The checker of `schema` loaded with `unknown`; `compiling` holds the enclosing schemas."""
    cls = type(schema)
    if cls in compiling:
        raise _Unsupported("a schema nested in itself")
    if any(schema._hooks.values()):
        raise _Unsupported("schema hooks")
    if unknown != RAISE or schema.many or schema.partial not in (None, False):
        raise _Unsupported("unknown, many or partial")
    if schema.dict_class is not dict:
        raise _Unsupported("dict_class")
    if any(getattr(cls, name) is not getattr(Schema, name) for name in _LOAD_METHODS):
        raise _Unsupported("a schema that loads in its own way")
    compiling = compiling | {cls}
    takes: list[tuple[str, Take]] = []
    for name, field in schema.load_fields.items():
        if field.data_key not in (None, name) or field.attribute not in (None, name):
            raise _Unsupported("data_key or attribute")
        if "." in name:
            raise _Unsupported("a dotted name, which marshmallow sets as a path")
        takes.append((name, _take(name, field, compiling)))
    known = frozenset(name for name, _ in takes).issuperset
    takes_t = tuple(takes)

    def check(data):
        if type(data) is not dict or not known(data):
            raise _Unsure
        out = {}
        try:
            for name, take in takes_t:
                value = take(data)
                if value is not missing:
                    out[name] = value
        except _Unsure:
            raise
        except Exception:  # a validator or field that cannot judge: ask marshmallow
            raise _Unsure from None
        return out

    return check


def _take(name: str, field: fields.Field, compiling: frozenset) -> Take:
    """How a schema takes one field from its data, as ``Field.deserialize`` does.

    The usual case, a value present and of the declared type, is tested first.
    """
    try:
        convert = _convert(field, compiling)
    except _Unsupported:
        deserialize = field.deserialize
        return lambda data: deserialize(data.get(name, missing), name, data)
    absent = _absent(field)
    scalar = _SCALARS.get(type(field))
    if scalar is None:

        def take(data):
            value = data.get(name, missing)
            if value is missing or value is None:
                return absent(value)
            return convert(value)

        return take
    oks = _validators(field)
    if not oks:

        def take_scalar(data):
            value = data.get(name, missing)
            if type(value) is scalar:
                return value
            return absent(value)

        return take_scalar
    if len(oks) == 1:
        (ok,) = oks

        def take_checked(data):
            value = data.get(name, missing)
            if type(value) is scalar:
                if ok(value):
                    return value
                raise _Unsure
            return absent(value)

        return take_checked

    def take_all_checked(data):
        value = data.get(name, missing)
        if type(value) is scalar:
            for ok in oks:
                if not ok(value):
                    raise _Unsure
            return value
        return absent(value)

    return take_all_checked


def _absent(field: fields.Field) -> Convert:
    """What a field gives for a value missing or None, refusing any other value."""
    required = field.required
    allow_none = field.allow_none
    default = field.load_default
    make_default = callable(default)

    def absent(value):
        if value is missing and not required:
            return default() if make_default else default
        if value is None and allow_none:
            return None
        raise _Unsure

    return absent


def _element(field: fields.Field, compiling: frozenset) -> Convert:
    """An item of a list or a key or value of a dict, as ``field.deserialize(item)`` loads it."""
    try:
        convert = _convert(field, compiling)
    except _Unsupported:
        return field.deserialize
    if not field.allow_none:
        return convert  # every converter refuses None, as the field does

    def element(value):
        return None if value is None else convert(value)

    return element


# -- fields --------------------------------------------------------------------------------

# the fields whose value is a scalar of one type, taken as it is
_SCALARS = {fields.String: str, fields.Integer: int}


def _convert(field: fields.Field, compiling: frozenset) -> Convert:
    """The converter of a present, non-None value of `field`, or `_Unsupported`."""
    if field.pre_load or field.post_load:
        raise _Unsupported("field processors")
    oks = _validators(field)
    kind = type(field)
    if kind in _SCALARS:  # a str is not bytes; an int (strict or not) is not a bool
        return _typed(_SCALARS[kind], oks)
    if kind is fields.Boolean:
        return _boolean(field, oks)
    if kind is fields.List:
        return _list(_element(field.inner, compiling), oks)
    if kind is fields.Dict:
        return _dict(field, compiling, oks)
    if kind is fields.Nested:
        return _nested(field, compiling, oks)
    if kind is Dice:
        return _dice(field, oks)
    raise _Unsupported(f"field {kind.__name__}")


def _typed(kind: type, oks: tuple) -> Convert:
    """A scalar of exactly `kind`, kept as it is."""
    if not oks:

        def convert(value):
            if type(value) is not kind:
                raise _Unsure
            return value

        return convert
    if len(oks) == 1:
        (ok,) = oks

        def convert_checked(value):
            if type(value) is not kind or not ok(value):
                raise _Unsure
            return value

        return convert_checked

    def convert_all_checked(value):
        if type(value) is not kind:
            raise _Unsure
        _validate(oks, value)
        return value

    return convert_all_checked


def _boolean(field: fields.Boolean, oks: tuple) -> Convert:
    """Only True and False themselves; what the field makes of each is asked of it once."""
    outcomes = {}
    for value in (True, False):
        try:
            outcomes[value] = field._deserialize(value, None, None)
        except Exception:  # a boolean the field refuses goes to marshmallow
            continue
    when_true = outcomes.get(True, missing)
    when_false = outcomes.get(False, missing)

    def convert(value):
        if value is True:
            out = when_true
        elif value is False:
            out = when_false
        else:
            raise _Unsure
        if out is missing:
            raise _Unsure
        _validate(oks, out)
        return out

    return convert


def _list(item: Convert, oks: tuple) -> Convert:
    def convert(value):
        if type(value) is not list:
            raise _Unsure
        out = [item(each) for each in value]
        _validate(oks, out)
        return out

    return convert


def _dict(field: fields.Dict, compiling: frozenset, oks: tuple) -> Convert:
    if field.key_field is None and field.value_field is None:

        def copied(value):
            if type(value) is not dict:
                raise _Unsure
            out = dict(value)  # marshmallow copies the mapping, not what it holds
            _validate(oks, out)
            return out

        return copied
    key = _element(field.key_field, compiling) if field.key_field else _same
    item = _element(field.value_field, compiling) if field.value_field else _same

    def convert(value):
        if type(value) is not dict:
            raise _Unsure
        # in marshmallow's order: should two keys load the same, the later one wins there too
        out = {key(k): item(v) for k, v in value.items()}
        _validate(oks, out)
        return out

    return convert


def _same(value):
    return value


def _nested(field: fields.Nested, compiling: frozenset, oks: tuple) -> Convert:
    if field.many:
        raise _Unsupported("a nested list")
    try:
        schema = field.schema
    except Exception:  # a schema named but not found: the field raises it when loading
        raise _Unsupported("a nested schema not found") from None
    unknown = field.unknown if field.unknown is not None else schema.unknown
    check = _compile(schema, unknown, compiling)
    if not oks:
        return check

    def convert(value):
        out = check(value)
        _validate(oks, out)
        return out

    return convert


def _dice(field: Dice, oks: tuple) -> Convert:
    """A roll given as a list of dice; the bare number a form may send is left to the field."""
    count, sides = field.count, field.sides

    def convert(value):
        if type(value) is not list or len(value) != count:
            raise _Unsure
        for die in value:
            if type(die) is not int or not 1 <= die <= sides:
                raise _Unsure
        out = list(value)
        _validate(oks, out)
        return out

    return convert


# -- validators ----------------------------------------------------------------------------


def _validate(oks: tuple, value) -> None:
    """Raise `_Unsure` unless `value` passes every check.

    A check that raises instead (a comparison across types) is turned into `_Unsure` by the
    schema's checker.
    """
    for ok in oks:
        if not ok(value):
            raise _Unsure


def _validators(field: fields.Field) -> tuple:
    """The field's validators as predicates, or `_Unsupported` for one not modelled here."""
    found: list = []
    pending = list(field.validators)
    while pending:
        validator = pending.pop(0)
        if type(validator) is validate.And:
            pending[:0] = validator.validators
        else:
            found.append(_predicate(validator))
    return tuple(found)


def _predicate(validator) -> Callable[[object], bool]:
    """True where `validator` passes, written as its ``__call__`` tests."""
    kind = type(validator)
    if kind is validate.Length:
        return _length(validator)
    if kind is validate.Range:
        return _range(validator)
    if kind is validate.Regexp:
        if not isinstance(validator.regex.pattern, str):
            raise _Unsupported("a bytes pattern")
        # marshmallow uses match (anchored at the start only); a match object is truthy
        return validator.regex.match
    if kind is validate.OneOf:
        choices = validator.choices
        return lambda value: value in choices
    if kind is validate.Equal:
        comparable = validator.comparable
        return lambda value: not value != comparable
    raise _Unsupported(f"validator {kind.__name__}")


def _length(validator: validate.Length) -> Callable[[object], bool]:
    low, high, equal = validator.min, validator.max, validator.equal
    if equal is not None:
        return lambda value: len(value) == equal
    if low is not None and high is not None:
        return lambda value: low <= len(value) <= high
    if low is not None:
        return lambda value: len(value) >= low
    if high is not None:
        return lambda value: len(value) <= high
    return lambda value: True


def _range(validator: validate.Range) -> Callable[[object], bool]:
    low, high = validator.min, validator.max
    low_ok = validator.min_inclusive
    high_ok = validator.max_inclusive

    def ok(value):
        if low is not None and (value < low if low_ok else value <= low):
            return False
        return not (high is not None and (value > high if high_ok else value >= high))

    return ok
