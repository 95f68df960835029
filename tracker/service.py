"""The one write path (load, fold, check, append) and the reads built on folding.

Every entry point (pages, API, command line, import) goes through `Service`. It folds a
campaign from its latest snapshot, applies new events through the game system's rules,
draws the dice an event asks for, and appends in one transaction only if the campaign is
still at the version the client saw.
"""

from __future__ import annotations

import gc
import hashlib
import json
import multiprocessing
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from marshmallow import ValidationError, fields, validate

from tracker import systems
from tracker.dice import Roller, SystemRoller
from tracker.errors import (
    BatchError,
    CampaignExists,
    Conflict,
    ImportFailed,
    InvalidEvent,
    KeyReused,
    NotFound,
    RuleViolation,
    TrackerError,
)
from tracker.events import (
    GENESIS,
    Event,
    NewEvent,
    canonical,
    canonical_meta,
    chain_hash,
    decode,
    utcnow,
)
from tracker.fastload import loader
from tracker.store import AppendResult, Store
from tracker.systems.base import EventSchema, GameSystem, _plain

# A fold leaves a snapshot at least this often (more seldom for big states).
SNAPSHOT_SPACING = 1000

CAMPAIGN_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,62}$")


class CampaignStartedSchema(EventSchema):
    system = fields.Str(required=True)
    name = fields.Str(required=True, validate=validate.Length(min=1, max=120))
    settings = fields.Dict(load_default=dict)


class EventVoidedSchema(EventSchema):
    version = fields.Integer(strict=True, required=True, validate=validate.Range(min=1))
    reason = fields.Str(required=True, validate=validate.Length(min=1, max=500))


CORE_EVENTS = {"CampaignStarted": CampaignStartedSchema, "EventVoided": EventVoidedSchema}


@dataclass
class View:
    """A campaign folded to a version: what every page and command shows."""

    campaign: str
    system: GameSystem
    name: str
    version: int
    head: str
    latest: int
    state: dict
    voided: dict[int, int] = field(default_factory=dict)

    @property
    def is_latest(self) -> bool:
        return self.version == self.latest

    def to_json(self) -> dict:
        return {
            "campaign": self.campaign,
            "name": self.name,
            "system": self.system.name,
            "version": self.version,
            "head": self.head,
            **self.system.public_state(self.state),
        }


@dataclass
class Entry:
    """One event of the audit log: the event, its words, and what voided it, if anything."""

    event: Event
    words: str
    voided_by: int | None


def slug(text: str) -> str:
    """A lower-case identifier made from a name."""
    made = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return made[:60] or "x"


class _States(threading.local):
    """The latest folded state of each campaign, kept by each thread: a cache, never the truth.

    A thread serves one request at a time, so the state it keeps is changed by nobody else:
    a page reads it as it is, and a write takes it over (the entry leaves the cache), applies
    its events to it and puts it back at the new version. When the log has moved on (another
    thread or process appended), the kept state is folded forward from where it stood, not
    from the start. An entry is trusted only while the event at its version still has the
    hash it had, so it is never stale, whichever database file it came from.
    """

    size = 8

    def __init__(self):
        self.entries: OrderedDict = OrderedDict()

    def get(self, key):
        entry = self.entries.get(key)
        if entry is not None:
            self.entries.move_to_end(key)
        return entry

    def take(self, key):
        return self.entries.pop(key, None)

    def put(self, key, entry) -> None:
        self.entries[key] = entry
        self.entries.move_to_end(key)
        while len(self.entries) > self.size:
            self.entries.popitem(last=False)

    def clear(self) -> None:
        self.entries.clear()


STATES = _States()


class Handover:
    """Things a process hands from one request to the next, whichever thread it comes on:
    a request takes an entry (nobody else can have it then), brings it up to date and puts
    it back. At most `size` entries; the oldest go first.
    """

    def __init__(self, size: int):
        self.size = size
        self.lock = threading.Lock()
        self.entries: OrderedDict = OrderedDict()

    def take(self, key):
        with self.lock:
            return self.entries.pop(key, None)

    def put(self, key, entry) -> None:
        with self.lock:
            self.entries[key] = entry
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()


# The state each campaign's last writer in this process left, for its next writer: the next
# append starts from it. Readers never see these states (a writer changes them); they keep
# their own (`STATES`).
WRITERS = Handover(64)
# A campaign's first event by its hash: (system, name). The first event never changes, and
# its hash names it whatever database it is in.
_FIRSTS: dict[str, tuple[str, str]] = {}


@dataclass
class _Kept:
    version: int
    head: str
    state: dict
    voided: dict


class Service:
    """Campaigns as the rules see them, over one store."""

    def __init__(self, store: Store, roller: Roller | None = None, snapshot_every: int = 200):
        self.store = store
        self.roller = roller or SystemRoller()
        self.snapshot_every = snapshot_every

    # -- reading ---------------------------------------------------------------------------

    def system_of(self, campaign: str) -> tuple[GameSystem, str]:
        """The campaign's game system and name, from its first event (which never changes)."""
        row = self.store.conn.execute(
            "SELECT hash FROM events WHERE campaign = ? AND version = 1", (campaign,)
        ).fetchone()
        if row is None:
            raise NotFound(f"there is no campaign {campaign!r}")
        return self._first(campaign, row[0])

    def _first(self, campaign: str, first_hash: str) -> tuple[GameSystem, str]:
        known = _FIRSTS.get(first_hash)
        if known is None:
            first = self.store.event(campaign, 1)
            known = _FIRSTS[first_hash] = (first.data["system"], first.data["name"])
        return systems.get(known[0]), known[1]

    def state(self, campaign: str, at: int | None = None, *, private: bool = False) -> View:
        """The campaign folded to version `at` (the latest when None): time travel.

        The latest state is kept by this thread and shared with its later readers: it must not
        be changed. With `private=True` the caller owns it (a writer) and may change it.
        """
        latest, head, first_hash = self.store.ends(campaign)
        if latest == 0:
            raise NotFound(f"there is no campaign {campaign!r}")
        upto = latest if at is None else at
        if isinstance(upto, bool) or not isinstance(upto, int) or not 1 <= upto <= latest:
            raise NotFound(f"campaign {campaign!r} has events 1 to {latest}, not {at}")
        system, name = self._first(campaign, first_hash)
        if upto != latest:
            # The past is folded afresh: the kept state stays the latest one.
            head = self.store.event(campaign, upto).hash
            voided = self.store.voids(campaign, upto)
            state, _ = self._fold(campaign, system, upto, voided)
            return View(campaign, system, name, upto, head, latest, state, voided)
        key = (system.fingerprint, campaign)
        if private:
            # A writer: the state the last writer of this process left, else this thread's.
            kept = WRITERS.take(key) or STATES.take(key)
        else:
            kept = STATES.get(key)
        if kept is not None and (kept.version, kept.head) != (upto, head):
            if not private:
                STATES.take(key)  # it is about to change: no later reader may see it half-way
            kept = self._forward(campaign, system, kept, upto, head)
            if kept is not None and not private:
                STATES.put(key, kept)
        if kept is None:
            voided = self.store.voids(campaign, upto)
            state, replayed = self._fold(campaign, system, upto, voided)
            if replayed >= self.snapshot_every:
                self.store.save_snapshot(campaign, system.fingerprint, upto, json.dumps(state))
            kept = _Kept(upto, head, state, voided)
            if not private:
                STATES.put(key, kept)
        return View(campaign, system, name, upto, head, latest, kept.state, dict(kept.voided))

    def _forward(self, campaign, system, kept: _Kept, upto: int, head: str) -> _Kept | None:
        """The kept state brought forward to `upto`, or None when it cannot be trusted."""
        if kept.version > upto:
            return None
        event = self.store.event(campaign, kept.version)
        if event is None or event.hash != kept.head:
            return None  # another log, or another database file
        voided = self.store.voids(campaign, upto)
        if any(target <= kept.version < version for target, version in voided.items()):
            return None  # a later void changes what the kept state already holds
        try:
            state = fold(
                system, self.store.read(campaign, after=kept.version, upto=upto), voided, kept.state
            )
        except TrackerError:
            return None  # half-applied: fold afresh instead
        return _Kept(upto, head, state, voided)

    def _fold(
        self, campaign, system, upto, voided, skip=frozenset(), progress=None
    ) -> tuple[dict, int]:
        """Fold from the latest usable snapshot; returns the state and events replayed.

        `progress(n)`, when given, hears of every stretch of n events folded.
        """
        after, state = 0, None
        snap = self.store.latest_snapshot(campaign, system.fingerprint, upto)
        if snap is not None and not skip:
            version, text = snap
            # A snapshot taken before a later void of an earlier event is stale.
            if not any(t <= version < v for t, v in voided.items()):
                with cycles_paused():  # a state is plain data: nothing for the collector
                    after, state = version, decode(text)
        skipped = set(voided) | set(skip)
        replayed, spacing, kept = 0, SNAPSHOT_SPACING, []
        while after < upto:
            # In stretches, leaving a snapshot at the end of each one: a later look at any
            # moment of the log then folds one stretch at most.
            end = min(upto, (after // spacing + 1) * spacing)
            counted = _Counted(self.store.read(campaign, after=after, upto=end))
            state = fold(system, counted, skipped, state)
            replayed += counted.count
            after = end
            if progress:
                progress(counted.count)
            # A state is kept only if it is the state as of its own event: no void recorded
            # later reaches back before it (and never while checking a void).
            if end < upto and not skip and not any(t <= end < v for t, v in voided.items()):
                text = json.dumps(state)
                kept.append((end, text))
                # Big states are kept further apart: at most ~256 bytes of snapshot an event.
                spacing = max(SNAPSHOT_SPACING, len(text) // 256 // 1000 * 1000)
        if kept:
            self.store.save_snapshots(campaign, system.fingerprint, kept)
        return state, replayed

    def history(self, campaign: str, upto: int | None = None) -> Iterator[Entry]:
        """Every event up to `upto` with its words, folded as it goes (the audit log)."""
        system, _ = self.system_of(campaign)
        voided = self.store.voids(campaign, upto)
        yield from self._worded(system, None, self.store.read(campaign, upto=upto), voided)

    def log_page(
        self, campaign: str, upto: int, count: int, as_of: int | None = None
    ) -> list[Entry]:
        """The `count` events up to `upto` with their words, oldest first: a page of the audit
        log of the campaign as of `as_of` (the latest when None), worded as `history(campaign,
        as_of)` words them.

        Folds to just before the page from a snapshot, skipping what is voided as of `as_of`,
        so the cost of a page does not grow with the log.
        """
        system, _ = self.system_of(campaign)
        voided = self.store.voids(campaign, as_of)
        first = max(1, upto - count + 1)
        state = None
        if first > 1:
            state, _ = self._fold(campaign, system, first - 1, voided)
        events = self.store.read(campaign, after=first - 1, upto=upto)
        return list(self._worded(system, state, events, voided))

    def recent(self, campaign: str, count: int = 10, upto: int | None = None) -> list[Entry]:
        """The last `count` events up to `upto` (the latest when None), newest first, worded
        as the campaign stood at `upto`: a page of the log, turned round."""
        upto = upto or self.store.version(campaign)
        return self.log_page(campaign, upto, count, as_of=upto)[::-1]

    def _worded(self, system, state, events, voided) -> Iterator[Entry]:
        """The events applied to `state` one by one, each with its words."""
        for event in events:
            state = apply_event(system, state, event, voided)
            yield Entry(event, self._words(system, state, event), voided.get(event.version))

    def _words(self, system, state, event) -> str:
        if event.type == "CampaignStarted":
            began = f"The campaign {event.data['name']!r} began ({system.title})"
            if "branched_from" in event.meta:
                began += (
                    f", playing on from campaign {event.meta['branched_from']!r} as it stood "
                    f"after its event {event.meta['branched_at']} "
                    f"(log hash {str(event.meta.get('branched_head'))[:12]})"
                )
            return began
        if event.type == "EventVoided":
            return f"Event {event.data['version']} was voided: {event.data['reason']}"
        try:
            return system.describe(state, event)
        except (KeyError, TypeError, ValueError):
            return event.type

    def campaigns(self):
        return self.store.campaigns()

    def verify(self, campaign: str | None = None):
        """The first broken event of one campaign (or of any), or None when all chains hold."""
        ids = [campaign] if campaign else [c.id for c in self.store.campaigns()]
        for cid in ids:
            if not self.store.exists(cid):
                raise NotFound(f"there is no campaign {cid!r}")
            broken = self.store.verify(cid)
            if broken:
                return broken
        return None

    def check_snapshots(self, campaign: str) -> list[int]:
        """Fold the log again and hold every kept snapshot of the campaign against it: the
        versions of those that differ, which are dropped (pages then fold from the log)."""
        system, _ = self.system_of(campaign)
        kept = [
            (version, text)
            for fingerprint, version, text in self.store.snapshots(campaign)
            if fingerprint == system.fingerprint
        ]
        voided = self.store.voids(campaign)
        state, after, differ = None, 0, []
        for version, text in kept:
            state = fold(
                system, self.store.read(campaign, after=after, upto=version), voided, state
            )
            after = version
            if any(t <= version < v for t, v in voided.items()):
                continue  # stale by a later void, and never used: nothing to hold against
            if canonical(decode(json.dumps(state))) != canonical(decode(text)):
                self.store.drop_snapshot(campaign, system.fingerprint, version)
                differ.append(version)
        if differ:
            STATES.clear()
            WRITERS.clear()
        return differ

    def witness(self, campaign: str, version: int, head: str) -> str | None:
        """Whether the log still holds `head` (the whole hash or its first 12 or more
        characters, spaces ignored) at event `version`: None, or what differs, in words."""
        head = "".join(head.split()).lower()
        if len(head) < 12 or any(c not in "0123456789abcdef" for c in head):
            raise InvalidEvent(
                "a witness's head is the hash as shown (at least its first 12 characters)",
                {"head": ["not a hash"]},
            )
        latest = self.store.version(campaign)
        if latest == 0:
            raise NotFound(f"there is no campaign {campaign!r}")
        if version > latest:
            return (
                f"the log holds only {latest} events, not {version}: events were removed "
                "since the witness was taken"
            )
        event = self.store.event(campaign, version)
        if event is None or not event.hash.startswith(head):
            actual = event.hash[:16] if event else "nothing"
            return (
                f"event {version} has the head {actual}, not {head[:16]}: the log was "
                "rewritten since the witness was taken"
            )
        return None

    def export(self, campaign: str, guard: Callable | None = None) -> Iterator[str]:
        """The campaign as JSON Lines, one event a line; `guard(event)` may refuse an event."""
        if not self.store.exists(campaign):
            raise NotFound(f"there is no campaign {campaign!r}")
        for event in self.store.read(campaign):
            if guard:
                guard(event)
            yield json.dumps(event.to_json(), ensure_ascii=False, sort_keys=True)

    # -- writing ---------------------------------------------------------------------------

    def start(
        self,
        campaign: str,
        system_name: str,
        name: str,
        settings: dict | None = None,
        *,
        actor: str = "anonymous",
        source: str = "api",
        idempotency_key: str | None = None,
    ) -> AppendResult:
        """Start a new campaign of a game system; its first event names the system."""
        if not isinstance(campaign, str) or not CAMPAIGN_ID.match(campaign):
            raise InvalidEvent(
                "a campaign id is 1 to 63 lower-case letters, digits and dashes, "
                "starting with a letter or digit",
                {"campaign": ["use lower-case letters, digits and dashes"]},
            )
        system = systems.get(system_name)
        unicode_only({"name": name, "settings": settings})
        data = self._load_core(
            "CampaignStarted", {"system": system_name, "name": name, "settings": settings or {}}
        )
        data["settings"] = system.load_settings(system.prepare_settings(data["settings"]))
        system.initial_state(data["settings"])  # content that cannot start a game fails here
        body = {"system": system_name, "name": name, "settings": settings or {}}
        meta = _meta(actor, source, idempotency_key, body)
        if self.store.exists(campaign):
            # Only the account that started it, retrying with its own key and the same
            # request, hears of its earlier start; anybody else learns only that it exists.
            try:
                earlier = self._earlier(campaign, meta, idempotency_key)
            except KeyReused:
                earlier = None
            if earlier is not None and earlier.first_version == 1:
                return earlier
            raise CampaignExists(campaign)
        return self.store.append(campaign, [NewEvent("CampaignStarted", data, meta)], 0)

    def _earlier(self, campaign: str, meta: dict, key: str | None) -> AppendResult | None:
        """The earlier append of this account's retry key, None; `KeyReused` when the key
        came with another request."""
        if "retry" not in meta:
            return None
        earlier = self.store.idempotent(campaign, meta["retry"])
        if earlier is not None and earlier.request != meta["request"]:
            raise KeyReused(key)
        return earlier

    def branch(
        self,
        source: str,
        upto: int,
        campaign: str,
        name: str,
        *,
        actor: str,
        visible: Callable | None = None,
    ) -> AppendResult:
        """Play on: a new campaign whose log starts as a copy of `source` up to event `upto`.

        Its first event names where it branched from (campaign, event, head hash); the copied
        events keep their data, who recorded them and when, and are checked by the rules again,
        as an import is (every die is there already). `visible(event)` gives an event's data as
        the maker may see it: the copy is the maker's, who reads all of it, so an event holding
        anything the maker may not see yet (a hand still hidden at the table) refuses it.
        """
        view = self.state(source, upto)
        if not isinstance(campaign, str) or not CAMPAIGN_ID.match(campaign):
            raise InvalidEvent(
                "a campaign id is 1 to 63 lower-case letters, digits and dashes, "
                "starting with a letter or digit",
                {"campaign": ["use lower-case letters, digits and dashes"]},
            )
        if self.store.exists(campaign):
            raise CampaignExists(campaign)
        first = self.store.event(source, 1)
        copied = list(self.store.read(source, after=1, upto=view.version))
        for event in copied if visible else ():
            if visible(event) != event.data:
                raise RuleViolation(
                    f"event {event.version} ({event.type}) holds what you may not see yet "
                    "(such as another player's hand), and the copy would show it to you: play "
                    f"on from before event {event.version}, or once the game under way is over"
                )
        data = {
            **first.data,
            "name": self._load_core("CampaignStarted", {**first.data, "name": name})["name"],
        }
        meta = {
            **_meta(actor, "play-on", None),
            "branched_from": source,
            "branched_at": view.version,
            "branched_head": view.head,
        }
        start = Event(None, campaign, 1, "CampaignStarted", data, meta, None, None)
        events, _ = self.check(
            campaign,
            view.system,
            view.system.initial_state(data["settings"]),
            1,
            [_copy(event) for event in copied],
            meta={},
            roller=None,
            pending=[start],
        )
        return self.store.append(campaign, [NewEvent("CampaignStarted", data, meta), *events], 0)

    def append(
        self,
        campaign: str,
        submissions: list[dict],
        expected_version: int | None,
        *,
        actor: str = "anonymous",
        source: str = "api",
        idempotency_key: str | None = None,
        roller: Roller | None = None,
        guard: Callable | None = None,
    ) -> AppendResult:
        """Check a batch of events against the rules and append it, or write nothing.

        `guard(system, state, type, data)`, when given, is asked about each event before its
        rules are applied and raises to refuse it (the permission check).

        Raises `Conflict` when the campaign is not at `expected_version`, `BatchError`
        (wrapping a `RuleViolation` or `InvalidEvent`) naming the event that failed.
        """
        meta = _meta(actor, source, idempotency_key, submissions)
        earlier = self._earlier(campaign, meta, idempotency_key)
        if earlier is not None:
            return earlier
        view = self.state(campaign, private=True)
        if expected_version is not None and expected_version != view.version:
            # Nothing was applied: the state goes back for the retry that usually follows.
            WRITERS.put(
                (view.system.fingerprint, campaign),
                _Kept(view.version, view.head, view.state, view.voided),
            )
            raise Conflict(campaign, expected_version, view.version)
        events, state = self.check(
            campaign,
            view.system,
            view.state,
            view.version,
            submissions,
            meta=meta,
            roller=roller or self.roller,
            guard=guard,
        )
        try:
            result = self.store.append(campaign, events, view.version)
        except KeyReused:
            raise KeyReused(idempotency_key) from None
        voids = [e.data["version"] for e in events if e.type == "EventVoided"]
        if voids and not result.replayed:
            self.store.drop_snapshots(campaign, min(voids))
        elif not result.replayed:
            if result.last_version // SNAPSHOT_SPACING > view.version // SNAPSHOT_SPACING:
                # A campaign that only grows by appends still leaves a snapshot now and then.
                self.store.save_snapshot(
                    campaign, view.system.fingerprint, result.last_version, json.dumps(state)
                )
            # The state the rules just checked is the state at the new head: keep it for the
            # next writer of this process, whichever thread it comes on, so that it need not
            # fold anything.
            WRITERS.put(
                (view.system.fingerprint, campaign),
                _Kept(result.last_version, result.head, state, view.voided),
            )
        return result

    def check(
        self,
        campaign: str,
        system: GameSystem,
        state: dict | None,
        version: int,
        submissions: Iterable[dict],
        *,
        meta: dict,
        roller: Roller | None,
        pending: list[Event] | None = None,
        guard: Callable | None = None,
    ) -> tuple[list[NewEvent], dict]:
        """Apply submitted events to `state` (which this changes) by the rules.

        Each submission is {"type", "data"}. Dice a submission leaves out are drawn with
        `roller`; with no roller (an import) they must be there. Returns the events to
        append and the state after them.
        """
        pending = [] if pending is None else pending
        out = []
        for index, submission in enumerate(submissions):
            type_ = submission.get("type") if isinstance(submission, dict) else None
            try:
                if not isinstance(type_, str):
                    raise InvalidEvent("every event needs a type", {"type": ["required"]})
                raw = submission.get("data")
                raw = {} if raw is None else raw
                if not isinstance(raw, dict):
                    raise InvalidEvent(
                        "an event's data is a JSON object", {"data": ["must be an object"]}
                    )
                unicode_only(raw)
                given_meta = submission.get("meta")
                event_meta = dict(given_meta) if given_meta else dict(meta)
                version += 1
                if type_ == "CampaignStarted":
                    raise RuleViolation("a campaign starts only once, with its first event")
                if type_ == "EventVoided":
                    data = self._load_core(type_, raw)
                    if guard:
                        guard(system, state, type_, data)
                    state = self._void(campaign, system, version, data["version"], pending)
                else:
                    data, how = _draw(system, type_, dict(raw), state, roller)
                    if guard:
                        guard(system, state, type_, data)
                    if how and not given_meta:
                        event_meta.setdefault("via", event_meta.get("source"))
                        event_meta["source"] = how
                    event = Event(None, campaign, version, type_, data, event_meta, None, None)
                    state = system.apply(state, event)
            except TrackerError as error:
                raise BatchError(index, str(type_), error) from None
            pending.append(Event(None, campaign, version, type_, data, event_meta, None, None))
            out.append(NewEvent(type_, data, event_meta, submission.get("recorded_at")))
        return out, state

    def _load_core(self, type_, raw) -> dict:
        try:
            return loader(CORE_EVENTS[type_])(raw)
        except ValidationError as err:
            raise InvalidEvent(_plain(type_, err.messages), err.messages) from None

    def _void(self, campaign, system, version, target, pending) -> dict:
        """The state with `target` voided, or RuleViolation naming what depends on it."""
        recorded = self.store.version(campaign)
        events = list(pending)
        by_version = {e.version: e for e in events}
        original = by_version.get(target) or (
            self.store.event(campaign, target) if target <= recorded else None
        )
        if original is None or target >= version:
            raise RuleViolation(f"there is no event {target} to void")
        if original.type == "CampaignStarted":
            raise RuleViolation("the event that starts a campaign cannot be voided")
        if original.type == "EventVoided":
            raise RuleViolation("a correction cannot itself be voided; record the event again")
        voided = self.store.voids(campaign) if recorded else {}
        voided.update({e.data["version"]: e.version for e in events if e.type == "EventVoided"})
        if target in voided:
            raise RuleViolation(f"event {target} was already voided by event {voided[target]}")
        skipped = set(voided) | {target}
        state = None
        stream = self.store.read(campaign) if recorded else iter(())
        for event in _chain(stream, events):
            try:
                state = apply_event(system, state, event, skipped)
            except RuleViolation as error:
                raise RuleViolation(
                    f"event {target} ({original.type}) cannot be voided: event {event.version} "
                    f"({event.type}) depends on it ({error.message})"
                ) from None
        return state

    # -- import ----------------------------------------------------------------------------

    def import_lines(self, lines: Iterable[str], *, actor: str = "import") -> list[AppendResult]:
        """Import JSON Lines: every event checked by its rules; all of the file or nothing.

        Each line is read (decoded, its shape and schema checked, made canonical: `_read_line`)
        and then checked by the rules and chained, in order; the rows are written a chunk at a
        time in one transaction, committed at the end. A long file is read by a helper process
        while this one applies the rules and writes (`_read_lines`). A line without its
        recorded_at is recorded now.
        """
        if not isinstance(lines, list):
            lines = list(lines)
        campaigns: dict[str, dict] = {}
        now = utcnow()
        one = self._import_one

        def checked():
            """The rows of each chunk of lines once the rules have passed them."""
            for chunk in _read_lines(lines, actor, now):
                rows = []
                keep = rows.append
                for line in chunk:
                    if line[_EARLY]:
                        raise ImportFailed(line[_NUMBER], line[_EARLY])
                    if line[_DATA_JSON] is None and rows:
                        # A correction folds its campaign again from the log: the rows
                        # passed so far are written first (the transaction sees its own).
                        yield rows
                        rows = []
                        keep = rows.append
                    try:
                        keep(one(campaigns, line, now))
                    except BatchError as err:
                        raise ImportFailed(line[_NUMBER], err.error.message) from None
                    except TrackerError as err:
                        raise ImportFailed(line[_NUMBER], err.message) from None
                yield rows
            if not campaigns:
                raise ImportFailed(0, "the file holds no event")

        with cycles_paused():  # events, rows and states: plain data, no cycles to find
            # Each chunk is written as soon as the rules have passed it, in one transaction
            # that the first fault undoes: this process writes while the helper reads.
            self.store.import_rows(checked())
        return [AppendResult(c, 1, run["version"], run["head"]) for c, run in campaigns.items()]

    def _import_one(self, campaigns, line: tuple, now: str) -> tuple:
        """One line as read, checked by the rules against its campaign so far, then chained."""
        (
            _,
            campaign,
            type_,
            meta_json,
            recorded_at,
            given,
            given_hash,
            data,
            data_json,
            _,
            late,
            text,
        ) = line
        run = campaigns.get(campaign)
        if run is None:
            if self.store.exists(campaign):
                raise RuleViolation(
                    f"campaign {campaign!r} already exists; import refuses to add to it"
                )
            if type_ != "CampaignStarted":
                raise RuleViolation(
                    f"campaign {campaign!r} must begin with CampaignStarted, not {type_}"
                )
            if late:
                raise InvalidEvent(late)
            data = decode(data_json) if data is None else data
            system = systems.get(data["system"])
            run = campaigns[campaign] = {
                "system": system,
                "state": system.initial_state(data["settings"]),
                "version": 1,
                "head": GENESIS,
            }
        elif data_json is not None:
            # The usual line: its data was loaded by its schema when the line was read.
            if late:
                raise InvalidEvent(late)
            data = decode(data_json) if data is None else data
            run["version"] += 1
            event = Event(None, campaign, run["version"], type_, data, meta_json, None, None)
            run["state"] = run["system"].apply(run["state"], event)
        else:  # a correction, an unknown type, a second start: the batch machinery says
            if late:
                raise InvalidEvent(late)
            [event], run["state"] = self.check(
                campaign,
                run["system"],
                run["state"],
                run["version"],
                [{"type": type_, "data": decode(text).get("data"), "meta": decode(meta_json)}],
                meta={},
                roller=None,
                pending=[],  # every earlier line is written already
            )
            data_json, meta_json = canonical(event.data), canonical_meta(event.meta)
            run["version"] += 1
        version = run["version"]
        if given is not None and given != version:
            raise RuleViolation(
                f"this is event {version} of {campaign!r}, but the line says version {given}"
            )
        if given_hash is not None and not recorded_at:
            raise InvalidEvent("a line with a hash needs its recorded_at")
        at = recorded_at or now
        head = chain_hash(run["head"], campaign, version, type_, data_json, meta_json, at)
        if given_hash is not None and head != given_hash:
            raise RuleViolation(
                "its hash does not match the events before it: the file "
                "was changed after it was exported"
            )
        run["head"] = head
        return (campaign, version, type_, data_json, meta_json, at, head)

    # -- upkeep ----------------------------------------------------------------------------

    def rebuild(self, progress: Callable[[int], None] | None = None) -> int:
        """Drop every snapshot and fold every campaign again; returns the campaigns folded.

        Each fold leaves its snapshots along the log and one at the head.
        """
        self.store.drop_snapshots()
        rows = self.store.campaigns()
        for row in rows:
            system = systems.get(row.system)
            voided = self.store.voids(row.id)
            state, _ = self._fold(row.id, system, row.version, voided, progress=progress)
            self.store.save_snapshot(row.id, system.fingerprint, row.version, json.dumps(state))
        return len(rows)


def fold(system: GameSystem, events: Iterable[Event], skipped=(), state=None) -> dict:
    """Apply events in order to `state` (None before the first): the loop of every fold.

    The states of the rules are plain JSON data, which holds no reference cycle, and so do
    the events: the cycle collector, which would walk the whole state again and again as a
    long fold allocates, is paused for the loop.
    """
    apply, start = system.apply, system.initial_state
    with cycles_paused():
        for event in events:
            kind = event.type
            if kind == "CampaignStarted":
                state = start(event.data["settings"])
            elif kind != "EventVoided" and event.version not in skipped:
                state = apply(state, event)
    return state


@contextmanager
def cycles_paused():
    """The cycle collector paused for a loop over plain data (it would find nothing to free,
    walking everything the loop keeps, again and again), and resumed after it."""
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


class _Counted:
    """An iterable of events that counts them as they go by."""

    def __init__(self, events):
        self.events, self.count = events, 0

    def __iter__(self):
        for event in self.events:
            self.count += 1
            yield event


def apply_event(system: GameSystem, state, event: Event, skipped) -> dict:
    """One step of a fold: core events handled here, the rest by the system's rules.

    `fold` does the same inline (a call less per event of a long fold)."""
    if event.type == "CampaignStarted":
        return system.initial_state(event.data["settings"])
    if event.type == "EventVoided" or event.version in skipped:
        return state
    return system.apply(state, event)


def _draw(system, type_, raw, state, roller):
    """Fill the dice an event leaves out; return its data and how its dice came.

    With no roller (an import) every die must be there.
    """
    how = None
    for name, spec in system.drawn_fields(type_).items():
        if raw.get(name) is None:
            if roller is None:
                raise InvalidEvent(
                    f"{type_}: {name}: an imported event carries its {spec.label} result",
                    {name: ["missing"]},
                )
            raw[name] = spec.draw(roller, raw, state)
            how = "server-roll"
        else:
            how = how or "table-roll"
    return system.load(type_, raw), how


# -- reading an import's lines ------------------------------------------------------------------

# A file this long is read by a helper process while this one applies the rules.
PARALLEL_IMPORT = 20_000
_CHUNK = 500
_LINE_FIELDS = frozenset(("campaign", "version", "type", "data", "meta", "recorded_at", "hash"))
# A line as read is a plain tuple (cheap to hand from one process to another):
# (number, campaign, type, meta_json, recorded_at, version, hash, data, data_json, early, late,
#  text). `early` is a fault of the line itself, reported at once; `late` one the rules' side
# would meet only after checking the campaign so far, reported then (so that the first fault
# of the file is the one named). `data_json` is the canonical data of a usual event (`data`
# itself too when read in this process); None leaves the line to the batch machinery, which
# reads its `text` again.
_NUMBER, _DATA_JSON, _EARLY = 0, 8, 9


def _read_line(number: int, text: str, actor: str, now: str, known: dict, keep_data: bool):
    """What can be known of a line without its campaign's state; None for a blank line.

    `known` maps each campaign started so far in the file to its game system. The rules'
    side numbers and chains the lines.
    """
    text = text.rstrip("\r\n")  # lines as a file gives them
    if not text or text.isspace():
        return None
    try:
        record = decode(text)
    except ValueError as err:
        return _fault(number, f"is not JSON ({err.msg})")
    except RecursionError:
        return _fault(number, "is not JSON the tracker reads (nested too deeply)")
    if not isinstance(record, dict):
        return _fault(number, "is not a JSON object")
    if "\\u" in text:
        try:
            unicode_only(record)
        except InvalidEvent as err:
            return _fault(number, err.message)
    if not _LINE_FIELDS.issuperset(record):
        unknown = record.keys() - _LINE_FIELDS
        return _fault(number, f"unknown fields {', '.join(sorted(unknown))}")
    campaign, type_ = record.get("campaign"), record.get("type")
    system = known.get(campaign) if type(campaign) is str else None
    if system is None and (not isinstance(campaign, str) or not CAMPAIGN_ID.match(campaign)):
        return _fault(
            number, "the campaign id is missing or is not lower-case letters, digits and dashes"
        )
    meta = record.get("meta") or {"source": "import"}
    if not isinstance(meta, dict):
        return _fault(number, "meta is a JSON object")
    if "actor" not in meta:
        meta = {"actor": actor, **meta}
    recorded_at = record.get("recorded_at")
    if recorded_at is not None and not isinstance(recorded_at, str):
        return _fault(number, "recorded_at is a time such as 2026-01-31T18:00:00.000000Z")
    data = late = None
    try:
        if system is None:
            if type_ == "CampaignStarted":
                data = loader(CampaignStartedSchema)(record.get("data") or {})
                system = systems.get(data["system"])
                data["settings"] = system.load_settings(system.prepare_settings(data["settings"]))
                known[campaign] = system
        else:
            if type_ in system.events:
                raw = record.get("data")
                raw = {} if raw is None else raw
                if not isinstance(raw, dict):
                    raise InvalidEvent("an event's data is a JSON object")
                data, _ = _draw(system, type_, raw, None, None)  # no roller: nothing written
    except ValidationError as err:
        data, late = None, _plain(type_, err.messages)
    except TrackerError as err:
        data, late = None, err.message
    meta_json = canonical_meta(meta)
    data_json = None if data is None else canonical(data)
    return (
        number,
        campaign,
        type_,
        meta_json,
        recorded_at,
        record.get("version"),
        record.get("hash"),
        data if keep_data else None,
        data_json,
        None,
        late,
        None if data is not None else text,
    )


def _fault(number: int, words: str) -> tuple:
    return (number, "", None, None, None, None, None, None, None, words, None, None)


def _read_lines(lines: list[str], actor: str, now: str) -> Iterator[list[tuple]]:
    """The lines that are not blank, as read (see `_read_line`), in order, a chunk at a time.

    A long file is read by a helper process, a chunk at a time and in order, while this one
    applies the rules to the lines already read, chains them and writes them: the two sides
    cost about the same, and the machine has a second core.
    """
    if len(lines) >= PARALLEL_IMPORT and _may_fork():
        # The helper is forked: it has the lines already, and is told only where each
        # chunk starts (sending the text through a pipe would cost both sides).
        starts = range(0, len(lines), _CHUNK)
        forked = multiprocessing.get_context("fork")
        with forked.Pool(1, _reader_starts, (lines, actor, now)) as pool:
            yield from pool.imap(_read_chunk, starts)
        return
    known: dict = {}
    chunk: list[tuple] = []
    for number, text in enumerate(lines, start=1):
        line = _read_line(number, text, actor, now, known, True)
        if line is not None:
            chunk.append(line)
            if len(chunk) == _CHUNK:
                yield chunk
                chunk = []
    yield chunk


def _may_fork() -> bool:
    """Only a process with one thread forks safely, and only a second core makes it pay."""
    return hasattr(os, "fork") and threading.active_count() == 1 and (os.cpu_count() or 1) > 1


_READER: dict = {}


def _reader_starts(lines: list[str], actor: str, now: str) -> None:
    """In the helper process: what it keeps from one chunk to the next."""
    _READER.update(lines=lines, actor=actor, now=now, known={})


def _read_chunk(start: int) -> list[tuple]:
    """In the helper process: the lines of the chunk from `start`, as read."""
    actor, now, known = _READER["actor"], _READER["now"], _READER["known"]
    out = []
    for offset, text in enumerate(_READER["lines"][start : start + _CHUNK], start=1):
        line = _read_line(start + offset, text, actor, now, known, False)
        if line is not None:
            out.append(line)
    return out


def _chain(*iterables):
    for iterable in iterables:
        yield from iterable


def _copy(event: Event) -> dict:
    """An event as a submission of its own data, meta and time (its retry key left
    behind: that belongs to the campaign it was first recorded in)."""
    meta = {k: v for k, v in event.meta.items() if k not in ("idempotency_key", "retry", "request")}
    return {"type": event.type, "data": event.data, "meta": meta, "recorded_at": event.recorded_at}


def _meta(actor: str, source: str, idempotency_key: str | None, request=None) -> dict:
    """Who appends, from where; with a retry key, `retry` (the key scoped to the account: a
    digest of both, so that neither another account's key nor anybody reading the log can
    match it) and `request` (a digest of what was asked, so that a key used again for
    something else is refused, not answered with the first result)."""
    meta = {"actor": actor, "source": source}
    if idempotency_key:
        meta["retry"] = _digest(f"{actor}\n{idempotency_key}")
        try:
            meta["request"] = _digest(canonical(request))
        except (TypeError, ValueError):
            meta["request"] = _digest(repr(request))
    return meta


def unicode_only(value) -> None:
    """Refuse text that is not Unicode: JSON may spell a lone surrogate ("\\ud800"), which
    no UTF-8 file, database or hash can hold."""
    try:
        canonical(value).encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidEvent(
            "the text holds a character that is not Unicode (a lone surrogate such as "
            "\\ud800); nothing was written",
            {"data": ["not Unicode text"]},
        ) from None
    except (TypeError, ValueError):
        pass  # not JSON data: the schema says what is wrong with it


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
