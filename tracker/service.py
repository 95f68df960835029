"""The use cases of a campaign: reading it as the rules fold it, and the one write path.

Every entry point (pages, API, command line, import) goes through `Service`. Reading folds a
campaign (`tracker.fold`) from the state a process keeps (`tracker.cache`) or from a
snapshot. Writing reads top to bottom: load the state, check the new events by the rules
(drawing the dice they ask for), append them in one transaction if the campaign is still at
the version the client saw, and hand the new state on.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator

from marshmallow import ValidationError

from tracker import systems, wording
from tracker.cache import Kept, StateCache
from tracker.campaign import CAMPAIGN_ID, CORE_EVENTS, SEAT_EVENTS, Entry, View, seat_words, slug
from tracker.checks import draw, unicode_only
from tracker.dice import Roller, SystemRoller
from tracker.errors import (
    BatchError,
    CampaignExists,
    Conflict,
    InvalidEvent,
    KeyReused,
    NotFound,
    RuleViolation,
    TrackerError,
)
from tracker.events import Event, NewEvent, canonical, copied, decode
from tracker.fold import SNAPSHOT_SPACING, Folder, apply_event, fold, stale
from tracker.importer import Importer
from tracker.store import AppendResult, Store
from tracker.systems.base import GameSystem, _plain

__all__ = ["Service", "View", "Entry", "CAMPAIGN_ID", "CORE_EVENTS", "slug", "fold"]


# Per side, at most this many events appended meanwhile are looked through; past that the
# submission is refused as under the strict condition (a form left open for hours).
MEANWHILE = 200
# Per side, an append that loses the race to the log's write to another writer is checked
# again against the log as it then stands, up to this many times in all.
RACES = 4


class Service:
    """Campaigns as the rules see them, over one store."""

    def __init__(
        self,
        store: Store,
        roller: Roller | None = None,
        snapshot_every: int = 200,
        cache: StateCache | None = None,
    ):
        self.store = store
        self.roller = roller or SystemRoller()
        self.snapshot_every = snapshot_every
        self.cache = cache if cache is not None else StateCache()
        self.folder = Folder(store)

    # -- reading ---------------------------------------------------------------------------

    def system_of(self, campaign: str) -> tuple[GameSystem, str]:
        """The campaign's game system and name, from its first event (which never changes)."""
        _, _, first_hash = self._ends(campaign)
        return self._first(campaign, first_hash)

    def _ends(self, campaign: str) -> tuple[int, str, str]:
        """The campaign's version, head hash and first event's hash; NotFound when the log
        holds none of its events."""
        latest, head, first_hash = self.store.ends(campaign)
        if latest == 0:
            raise NotFound(f"there is no campaign {campaign!r}")
        return latest, head, first_hash

    def _first(self, campaign: str, first_hash: str) -> tuple[GameSystem, str]:
        known = self.cache.first(first_hash)
        if known is None:
            first = self.store.event(campaign, 1)
            known = (first.data["system"], first.data["name"])
            self.cache.remember_first(first_hash, *known)
        return systems.get(known[0]), known[1]

    def state(self, campaign: str, at: int | None = None) -> View:
        """The campaign folded to version `at` (the latest when None): time travel.

        The latest state is held by this thread until its request ends (tracker.cache): it
        must not be changed.
        """
        latest, head, first_hash = self._ends(campaign)
        upto = latest if at is None else at
        if isinstance(upto, bool) or not isinstance(upto, int) or not 1 <= upto <= latest:
            raise NotFound(f"campaign {campaign!r} has events 1 to {latest}, not {at}")
        system, name = self._first(campaign, first_hash)
        if upto != latest:
            # The past is folded afresh: the kept state stays the latest one.
            head = self.store.event(campaign, upto).hash
            voided = self.store.voids(campaign, upto)
            state, _ = self.folder.fold(campaign, system, upto, voided)
            return View(campaign, system, name, upto, head, latest, state, voided)
        key = (system.fingerprint, campaign)
        kept = self.cache.read(key)
        if kept is not None and at is None and kept.version > upto:
            # A writer of this process appended after the ends were read and handed on its
            # state: the log has moved on, and that state may be the latest one.
            latest, head, _ = self._ends(campaign)
            upto = latest
        if kept is None or (kept.version, kept.head) != (upto, head):
            self.cache.forget(key)  # about to change: no later reader may see it half-way
            kept = self._latest(campaign, system, kept, upto, head)
            self.cache.keep(key, kept)
        return View(campaign, system, name, upto, head, latest, kept.state, dict(kept.voided))

    def _latest(self, campaign, system, kept: Kept | None, upto: int, head: str) -> Kept:
        """The state at the head: a kept one brought forward, else folded (from a snapshot),
        leaving a snapshot at the head when the fold was long."""
        if kept is not None:
            kept = self.folder.forward(campaign, system, kept, upto, head)
        if kept is None:
            voided = self.store.voids(campaign, upto)
            state, replayed = self.folder.fold(campaign, system, upto, voided)
            if replayed >= self.snapshot_every:
                self.store.save_snapshot(campaign, system.fingerprint, upto, json.dumps(state))
            kept = Kept(upto, head, state, voided)
        return kept

    def _for_writing(
        self, campaign: str, latest: int, head: str, first_hash: str
    ) -> tuple[View, Kept]:
        """The latest state (at `latest`, whose event has the hash `head`), owned by the
        caller (a writer), who may change it."""
        system, name = self._first(campaign, first_hash)
        kept = self.cache.take((system.fingerprint, campaign))
        if kept is None or (kept.version, kept.head) != (latest, head):
            kept = self._latest(campaign, system, kept, latest, head)
        view = View(campaign, system, name, latest, head, latest, kept.state, dict(kept.voided))
        return view, kept

    def history(self, campaign: str, upto: int | None = None) -> Iterator[Entry]:
        """Every event up to `upto` with its words, folded as it goes (the audit log)."""
        system, _ = self.system_of(campaign)
        voided = self.store.voids(campaign, upto)
        yield from self.worded(system, None, self.store.read(campaign, upto=upto), voided)

    def log_page(
        self, campaign: str, upto: int, count: int, as_of: int | None = None
    ) -> list[Entry]:
        """The `count` events up to `upto` with their words, oldest first: a page of the audit
        log of the campaign as of `as_of` (the latest when None), worded as `history(campaign,
        as_of)` words them.

        Read from the campaign's worded tail where it holds the page, else folded to just
        before the page from a snapshot, skipping what is voided as of `as_of` (see
        tracker.wording), so the cost of a page does not grow with the log; a long fold leaves
        a snapshot where it ended.
        """
        voided = self.store.voids(campaign, as_of)
        return wording.page(self, campaign, upto, count, voided)

    def recent(self, campaign: str, count: int = 10, upto: int | None = None) -> list[Entry]:
        """The last `count` events up to `upto` (the latest when None), newest first, worded
        as the campaign stood at `upto`: a page of the log, turned round."""
        upto = upto or self.store.version(campaign)
        return self.log_page(campaign, upto, count, as_of=upto)[::-1]

    def worded(self, system, state, events, voided) -> Iterator[Entry]:
        """The events applied to `state` one by one, each with its words."""
        for event in events:
            state, words = self.worded_step(system, state, event, voided)
            yield Entry(event, words, voided.get(event.version))

    def worded_step(self, system, state, event, voided) -> tuple[dict, str]:
        """One step of a worded fold: the state after `event` and the event's words. A voided
        event is skipped by the fold, and worded as it read when it was recorded: applied to
        a copy of the state before it (as the rules take it now, if they still do)."""
        if event.version not in voided or event.type in ("CampaignStarted", "EventVoided"):
            state = apply_event(system, state, event, voided)
            return state, self._words(system, state, event)
        try:
            as_recorded = system.apply(copied(state), system.upcast(event))
        except TrackerError:
            as_recorded = state
        return state, self._words(system, as_recorded, event)

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
        if event.type in SEAT_EVENTS:
            return seat_words(event, system.sides(state) if state is not None else {})
        try:
            return system.describe(state, system.upcast(event))
        except (KeyError, TypeError, ValueError, AttributeError):
            return event.type

    def campaigns(self):
        return self.store.campaigns()

    def campaign_page(self, among: list[tuple[str, tuple]], **page):
        """A page of campaigns (`Store.campaign_page`), their games and names taken from the
        first events this process has read already."""
        return self.store.campaign_page(among, firsts=self.cache, **page)

    def campaign_row(self, campaign: str):
        """One campaign's row (`Store.campaign`), or None, the same way."""
        return self.store.campaign(campaign, firsts=self.cache)

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
            if stale(version, voided):
                continue  # stale by a later void, and never used: nothing to hold against
            if canonical(decode(json.dumps(state))) != canonical(decode(text)):
                self.store.drop_snapshot(campaign, system.fingerprint, version)
                differ.append(version)
        if differ:
            self.cache.clear()
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
        events keep their data (an older shape brought to the current one, as the rules read it),
        who recorded them and when, and are checked by the rules again,
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
            [_copy(view.system.upcast(event)) for event in copied],
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
        strict: bool = True,
    ) -> AppendResult:
        """Check a batch of events against the rules and append it, or write nothing.

        `guard(system, state, type, data)`, when given, is asked about each event before its
        rules are applied and raises to refuse it (the permission check).

        The consistency condition: with `strict`, the campaign must still be at
        `expected_version`. Without it (per side), events appended since that version are
        no obstacle unless one of them concerns a side the new events concern: the new events
        are then checked by the rules against the latest state, as always; and an append
        that another writer's beats to the log is looked at again the same way.

        Raises `Conflict` when the condition does not hold (naming, per side, what changed
        meanwhile), `BatchError` (wrapping a `RuleViolation` or `InvalidEvent`) naming the
        event that failed.
        """
        meta = _meta(actor, source, idempotency_key, submissions)
        earlier = self._earlier(campaign, meta, idempotency_key)
        if earlier is not None:
            return earlier
        with self.cache.writing((self.store.path, campaign)):  # this process's writers in turn
            for race in range(RACES):
                try:
                    result = self._append_at_head(
                        campaign,
                        submissions,
                        expected_version,
                        meta,
                        roller=roller or self.roller,
                        guard=guard,
                        strict=strict,
                        last=race == RACES - 1,
                    )
                except KeyReused:
                    raise KeyReused(idempotency_key) from None
                if result is not None:
                    return result
        raise AssertionError("unreachable: the last race raises")

    def _append_at_head(
        self, campaign, submissions, expected_version, meta, *, roller, guard, strict, last
    ) -> AppendResult | None:
        """One try of `append` at the head of the log as it stands now; None when another
        writer appended between our look and our write and the submission, per side, may be
        looked at again (unless this is the `last` try)."""
        latest, head, first_hash = self._ends(campaign)
        if strict and expected_version is not None and expected_version != latest:
            # Refused as it stands: no state is taken or brought forward for it.
            raise Conflict(campaign, expected_version, latest, [])
        view, kept = self._for_writing(campaign, latest, head, first_hash)
        if expected_version is not None and expected_version != view.version:
            changed = self._meanwhile(view, expected_version, submissions)
            if changed is not None:
                key = (view.system.fingerprint, campaign)
                self.cache.hand_on(key, kept)  # nothing was applied: kept for the retry
                raise Conflict(campaign, expected_version, view.version, changed)
        events, state = self.check(
            campaign,
            view.system,
            view.state,
            view.version,
            submissions,
            meta=meta,
            roller=roller,
            guard=guard,
        )
        try:
            result = self.store.append(campaign, events, view.version)
        except Conflict:
            # Under the strict condition the client's conflict; per side, the events are
            # looked at again against the log as it then stands.
            if strict or expected_version is None or last:
                raise
            return None
        if not result.replayed:
            self._after_append(view, events, state, result)
        return result

    def _meanwhile(self, view: View, seen: int, submissions) -> list[str] | None:
        """Per side: None when events appended since version `seen` leave the submission
        free to go on (none of them concerns a side it concerns); else the words of those
        that do (empty when `seen` is no version of the log, or too far back)."""
        if not 1 <= seen < view.version or view.version - seen > MEANWHILE:
            return []
        mine = self._concerns(view, submissions)
        since = self.log_page(view.campaign, view.version, view.version - seen, view.version)
        clashing = [
            entry.words for entry in since if _overlap(mine, self._concerns(view, [entry.event]))
        ]
        return clashing or None

    def _concerns(self, view: View, events) -> set[str] | None:
        """The sides a batch concerns (None: everyone, as a campaign-wide or core event does).
        Each item is a submission ({"type", "data"}) or an event."""
        sides: set[str] = set()
        for item in events:
            type_ = item.get("type") if isinstance(item, dict) else item.type
            data = item.get("data") if isinstance(item, dict) else item.data
            if type_ not in view.system.events or not isinstance(data, dict):
                return None
            try:
                touched = view.system.sides_of(view.state, type_, data)
            except (KeyError, TypeError, AttributeError, ValueError):
                return None
            if not touched:
                return None
            sides |= {side for side in touched if side is not None}
        return sides

    def _after_append(self, view: View, events, state: dict, result: AppendResult) -> None:
        """Snapshots kept in step with the log, and the new state handed on to the next
        writer of this process (the rules just checked it: it is the state at the new head)."""
        campaign, fingerprint = view.campaign, view.system.fingerprint
        voids = [e.data["version"] for e in events if e.type == "EventVoided"]
        if voids:
            self.store.drop_snapshots(campaign, min(voids))
            return
        if result.last_version // SNAPSHOT_SPACING > view.version // SNAPSHOT_SPACING:
            # A campaign that only grows by appends still leaves a snapshot now and then.
            self.store.save_snapshot(campaign, fingerprint, result.last_version, json.dumps(state))
        self.cache.hand_on(
            (fingerprint, campaign), Kept(result.last_version, result.head, state, view.voided)
        )

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
                if type_ == "EventVoided" or type_ in SEAT_EVENTS:  # the core's own
                    data = self._load_core(type_, raw)
                    if guard:
                        guard(system, state, type_, data)
                    if type_ == "EventVoided":
                        state = self._void(campaign, system, version, data["version"], pending)
                    event = Event(None, campaign, version, type_, data, event_meta, None, None)
                else:
                    data, how = draw(system, type_, dict(raw), state, roller)
                    if guard:
                        guard(system, state, type_, data)
                    if how and not given_meta:
                        event_meta.setdefault("via", event_meta.get("source"))
                        event_meta["source"] = how
                    event = Event(None, campaign, version, type_, data, event_meta, None, None)
                    state = system.apply(state, event)
            except TrackerError as error:
                raise BatchError(index, str(type_), error) from None
            pending.append(event)
            out.append(NewEvent(type_, data, event_meta, submission.get("recorded_at")))
        return out, state

    def _load_core(self, type_, raw) -> dict:
        try:
            return CORE_EVENTS[type_]().load(raw)
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
        if original.type in SEAT_EVENTS:
            raise RuleViolation(
                "a seat taken or left cannot be voided: change the seat again on the Members page"
            )
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
                    f"({event.type}) depends on it ({error.message})",
                    depends_on=event.version,
                    reason=error.message,
                ) from None
        return state

    # -- import ----------------------------------------------------------------------------

    # -- import and upkeep -----------------------------------------------------------------

    def import_lines(self, lines: Iterable[str], *, actor: str = "import") -> list[AppendResult]:
        """Import JSON Lines: every event checked by its rules; all of the file or nothing
        (see `tracker.importer`). A line without its recorded_at is recorded now."""
        return Importer(self).run(lines, actor)

    def rebuild(self, progress: Callable[[int], None] | None = None) -> int:
        """Drop every snapshot and fold every campaign again; returns the campaigns folded.

        Each fold leaves its snapshots along the log and one at the head.
        """
        self.store.drop_snapshots()
        rows = self.store.campaigns()
        for row in rows:
            system = systems.get(row.system)
            voided = self.store.voids(row.id)
            state, _ = self.folder.fold(row.id, system, row.version, voided, progress=progress)
            self.store.save_snapshot(row.id, system.fingerprint, row.version, json.dumps(state))
        return len(rows)


def _chain(*iterables):
    for iterable in iterables:
        yield from iterable


def _overlap(ours: set[str] | None, theirs: set[str] | None) -> bool:
    """Whether two batches concern a side in common (None concerns every side)."""
    return ours is None or theirs is None or bool(ours & theirs)


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


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
