"""The event envelope, its canonical JSON form and the hash chain that links a campaign's log."""

from __future__ import annotations

import hashlib
import json
import json.encoder
import time
from dataclasses import dataclass, field
from typing import Any

import msgspec

from tracker.systems import i18n

GENESIS = "0" * 64


# One encoder, built once: json.dumps with these options would build a new one per call.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _unencodable(value):
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


# The C encoder that _CANONICAL.encode builds on every call, built once and without the
# check for reference cycles (values here are plain JSON data): the same text, for about
# half the time of a small event's data. None where the C accelerator is missing.
_C_CANONICAL = (
    None
    if json.encoder.c_make_encoder is None
    else json.encoder.c_make_encoder(
        None, _unencodable, json.encoder.encode_basestring, None, ":", ",", True, False, True
    )
)


# msgspec's decoder, built once: the same values as json.loads for every text it accepts
# (integers of any size stay integers), in about a third of the time (a fold decodes every
# event, and a snapshot is megabytes). What it refuses json.loads may still take (NaN, 1e400,
# a lone surrogate), or refuses in its own words: those texts go to json.loads.
_DECODE = msgspec.json.Decoder().decode


def decode(text: str):
    """A JSON text's value, exactly as json.loads gives it (and its errors when it is not)."""
    try:
        return _DECODE(text)
    except (ValueError, RecursionError):  # msgspec's errors are ValueErrors
        return json.loads(text)


# A state may keep words to show (a rule's message, a pack's name in several languages:
# tracker.i18n's Said and Texts, strings that remember their msgid or their versions). A copy
# or a snapshot keeps each as a tagged object, so that it still reads in each reader's
# language once read back, not as the English it is as a plain string.
_WORDS = "\u0000words"


def _kept_words(value):
    if isinstance(value, i18n.Said):
        return {_WORDS: ["said", value.msgid, value.plural, value.params, value.braced]}
    if isinstance(value, i18n.Texts):
        return {_WORDS: ["texts", str(value), value.versions]}
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _words_back(obj: dict):
    kept = obj.get(_WORDS) if len(obj) == 1 else None
    if not isinstance(kept, list):
        return obj
    if kept[0] == "said":
        return i18n.Said(kept[1], kept[2], kept[3], kept[4])
    return i18n.Texts(kept[1], kept[2])


_STATE = msgspec.json.Encoder(enc_hook=_kept_words)
_TAG = json.dumps(_WORDS)[1:-1]  # as the JSON text spells it


def state_text(state) -> str:
    """A state as the JSON text of a snapshot, its words kept as words (`decode_state`)."""
    try:
        return _STATE.encode(state).decode()
    except (TypeError, ValueError, OverflowError, RecursionError):
        return json.dumps(state)


def decode_state(text):
    """A state from its snapshot's text (str or bytes), its words read back as words."""
    tag = _TAG.encode() if isinstance(text, bytes) else _TAG
    if tag in text:
        return json.loads(text, object_hook=_words_back)
    return decode(text)


def copied(value):
    """A copy of a JSON value of one's own: its dicts and lists new, its words (which cannot
    change) shared; a tuple becomes a list, as a snapshot would read it back.

    msgspec writes it as MessagePack and reads it back, each word an extension that names
    it by its place in a list kept beside: 1.5x as quick as a copy made in Python (a
    campaign's state is copied for each write and each trial of the rules)."""
    words: list = []

    def kept(word):
        if type(word) not in _WORDS_SHARED:
            raise TypeError(type(word).__name__)
        words.append(word)
        return msgspec.msgpack.Ext(1, (len(words) - 1).to_bytes(4, "little"))

    try:
        packed = msgspec.msgpack.Encoder(enc_hook=kept).encode(value)
    except (TypeError, OverflowError, RecursionError):  # not a JSON value: copied in Python
        return _copied(value)
    decoder = msgspec.msgpack.Decoder(
        ext_hook=lambda _code, at: words[int.from_bytes(at, "little")]
    )
    return decoder.decode(packed)


def _copied(value):
    kind = type(value)
    if kind is dict or isinstance(value, dict):
        return {key: _copied(item) for key, item in value.items()}
    if kind is list or isinstance(value, list | tuple):
        return [_copied(item) for item in value]
    return value


_WORDS_SHARED = {i18n.Said, i18n.Texts}


def canonical(value) -> str:
    """The one JSON text of a value: sorted keys, no spaces, UTF-8 kept as is."""
    if _C_CANONICAL is None:
        return _CANONICAL.encode(value)
    return "".join(_C_CANONICAL(value, 0))


_METAS: dict = {}


def canonical_meta(meta: dict) -> str:
    """canonical(meta), remembered: the same few metas (who, from where) come again and again."""
    try:
        key = tuple(meta.items())
        known = _METAS.get(key)
    except TypeError:  # a value that cannot be a key: made each time
        return canonical(meta)
    if known is None:
        if len(_METAS) >= 512:
            _METAS.clear()
        known = _METAS[key] = canonical(meta)
    return known


def _text(value: str, ascii_only: bool = False) -> str:
    """A string as JSON: quoted as it is when nothing in it needs escaping (ids, types, times)."""
    if value.isascii() and value.isprintable() and '"' not in value and "\\" not in value:
        return f'"{value}"'
    return json.dumps(value, ensure_ascii=ascii_only)


_SECOND = (-1, "")  # the last second written out, and its text (swapped whole: threads)


def utcnow() -> str:
    """The current UTC time as an ISO 8601 text ending in Z, to the microsecond."""
    global _SECOND
    seconds, nanoseconds = divmod(time.time_ns(), 1_000_000_000)
    known = _SECOND
    if known[0] != seconds:  # a new second: written out once (appends come many a second)
        known = _SECOND = (seconds, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)))
    return "%s.%06dZ" % (known[1], nanoseconds // 1000)


_QUOTED: dict[tuple[str, str], tuple[str, str]] = {}


def chain_hash(
    previous: str,
    campaign: str,
    version: int,
    type_: str,
    data_json: str,
    meta_json: str,
    recorded_at: str,
) -> str:
    """sha256 over the canonical JSON of an event and the hash of the event before it.

    The JSON is assembled from already-canonical parts, which gives the same text as
    `canonical()` of the whole object without serialising data and meta twice.
    """
    quoted = _QUOTED.get((campaign, type_))
    if quoted is None:  # campaigns and types come again and again: quoted once
        if len(_QUOTED) >= 1024:
            _QUOTED.clear()
        quoted = _QUOTED[campaign, type_] = (_text(campaign), _text(type_))
    text = (
        '{"campaign":%s,"data":%s,"meta":%s,"previous":"%s","recorded_at":%s,"type":%s,"version":%d}'
        % (
            quoted[0],
            data_json,
            meta_json,
            previous,
            _text(recorded_at, ascii_only=True),
            quoted[1],
            version,
        )
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class NewEvent:
    """An event on its way into the log: version, time and hash are assigned on append."""

    type: str
    data: dict
    meta: dict = field(default_factory=dict)
    recorded_at: str | None = None


class Event(msgspec.Struct, gc=False):
    """An event of a campaign's log as the rules see it (recorded, or about to be).

    The store reads one positionally, `Event(position, campaign, version, type, data, meta,
    recorded_at, hash)`; an event not yet in the log is made by `unrecorded`. Compared by
    identity. A msgspec Struct rather than a class with slots: a fold makes one for every
    event it reads, and a Struct is made faster and is smaller. It holds plain data and
    nothing that refers back to it, so the cycle collector need not track it.
    """

    position: int | None
    campaign: str
    version: int
    type: str
    data: Any
    _meta: Any  # the meta's JSON text as read, or the meta itself
    recorded_at: str | None
    hash: str | None

    # Two events are the same event (one line of one log), not two equal values.
    __eq__ = object.__eq__
    __hash__ = object.__hash__

    @property
    def meta(self) -> dict:
        # Meta is kept as text until asked for: a fold never needs it.
        if isinstance(self._meta, str):
            self._meta = decode(self._meta)
        return self._meta

    def to_json(self) -> dict:
        """The event as one line of an export."""
        return {
            "campaign": self.campaign,
            "version": self.version,
            "type": self.type,
            "data": self.data,
            "meta": self.meta,
            "recorded_at": self.recorded_at,
            "hash": self.hash,
        }

    def __repr__(self) -> str:
        return f"<Event {self.campaign}#{self.version} {self.type}>"


def unrecorded(*, campaign: str, version: int, type: str, data, meta=None) -> Event:
    """An event about to be applied or appended: no position, time or hash yet."""
    return Event(None, campaign, version, type, data, {} if meta is None else meta, None, None)
