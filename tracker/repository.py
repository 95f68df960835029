"""The campaign repository: the one owner of everything kept of a campaign between requests.

It reads a campaign's log, folds it from the latest good snapshot, decides when to leave a
snapshot, and keeps projections of each campaign's head: its state, the worded end of its
log and its dice tally (a projection is an initial value and a step per event). What it
keeps is a cache, never the truth: a head is used only while the log still has the version
and head hash it was built at, and it sits in one bounded store (`Projections`) that a process
shares between its requests.

Readers share a kept head and never change it: bringing a head forward makes a new one (a
copy of the state, then the new events' steps). A writer works on its own copy of the state,
and once its events are in the log the head it leaves is the next reader's.
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict, defaultdict, deque
from collections.abc import Iterator
from dataclasses import dataclass, field

from tracker import stats, systems
from tracker.campaign import SEAT_EVENTS, Entry, View, language_words, seat_words
from tracker.dice import Dice
from tracker.errors import NotFound, TrackerError
from tracker.events import Event, decode_state, state_text
from tracker.fold import apply_event, fold, fold_from, stale
from tracker.store import Store
from tracker.systems.base import GameSystem, copy_for_rules, settled
from tracker.systems.i18n import _

# Campaigns (and first events) a process keeps: the oldest looked at go first.
KEPT = 64
# Events whose words a head keeps: the dashboard's latest few and a few pages of the audit log.
TAIL = 100
# Rolls a dice tally lists (its counts cover every roll).
LATEST_ROLLS = 50
# A fold that replays at least this many events leaves a snapshot where it ended; appends
# leave one at each multiple of SNAPSHOT_SPACING, and a long fold one at the end of each
# stretch of that many events (more seldom for big states: at most ~256 bytes an event).
SNAPSHOT_EVERY = 200
SNAPSHOT_SPACING = 1000


class Projections:
    """The bounded store of what a process keeps of campaigns, shared by every request: at
    most `size` entries, the least recently asked for going first."""

    def __init__(self, size: int = KEPT):
        self.size = size
        self._lock = threading.Lock()
        self._entries: OrderedDict = OrderedDict()
        self._turns: dict = {}

    def get(self, key):
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key, value, newer=None) -> None:
        """Keep `value` under `key`; with `newer(old, new)`, only if it says the new one is."""
        with self._lock:
            old = self._entries.get(key)
            if old is not None and newer is not None and not newer(old, value):
                return
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def turn(self, key) -> threading.RLock:
        """A lock for `key`, the same one each time (the writers' turns; never dropped)."""
        with self._lock:
            return self._turns.setdefault(key, threading.RLock())

    def drop(self, key) -> None:
        with self._lock:
            self._entries.pop(key, None)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


@dataclass
class DiceTally:
    """The dice of a log up to an event: counts by table and by player, the latest rolls
    (version, type, spec, dice, who, how) and how many rolls in all."""

    by_table: dict = field(default_factory=lambda: defaultdict(Counter))
    by_player: dict = field(default_factory=lambda: defaultdict(Counter))
    rolls: deque = field(default_factory=lambda: deque(maxlen=LATEST_ROLLS))
    count: int = 0

    def copy(self) -> DiceTally:
        return DiceTally(
            defaultdict(Counter, {s: Counter(c) for s, c in self.by_table.items()}),
            defaultdict(Counter, {p: Counter(c) for p, c in self.by_player.items()}),
            deque(self.rolls, maxlen=LATEST_ROLLS),
            self.count,
        )

    def step(self, system: GameSystem, event: Event) -> None:
        if event.type not in system.events:
            return
        for name, spec in system.drawn_fields(event.type).items():
            dice = event.data.get(name)
            if not isinstance(spec, Dice) or not isinstance(dice, list):
                continue
            self.by_table[spec.spec][stats.value(spec.spec, dice)] += 1
            player = event.meta.get("actor", "?")
            if spec.sides == 6:
                self.by_player[player].update(dice)
            source = event.meta.get("source", "?")
            self.rolls.append((event.version, event.type, spec.spec, dice, player, source))
            self.count += 1


@dataclass
class Head:
    """A campaign as folded to `version` (whose event has the hash `hash`), skipping `voided`:
    its state, and once asked for, the worded end of its log (`tail`: an `Entry` per event
    up to `version`, the oldest first) and its dice tally. Shared by readers: never changed
    once kept, but for a projection filled in the first time it is asked for."""

    version: int
    hash: str
    state: dict
    voided: dict
    tail: deque | None = None
    tally: DiceTally | None = None

    def advanced(self, system: GameSystem, events, voided: dict) -> Head:
        """A new head: this one's projections, each a copy, stepped through `events`."""
        head = Head(
            self.version,
            self.hash,
            copy_for_rules(self.state),
            voided,
            None if self.tail is None else deque(self.tail, maxlen=TAIL),
            None if self.tally is None else self.tally.copy(),
        )
        for event in events:
            head.state, words = worded_step(system, head.state, event, voided)
            head.record(system, event, words)
        head.state = settled(head.state)
        return head

    def record(self, system: GameSystem, event: Event, words: str) -> None:
        """The projections' step past `event`, whose state the caller has applied."""
        if self.tail is not None:
            self.tail.append(Entry(event, words, None))
        if self.tally is not None:
            self.tally.step(system, event)
        self.version, self.hash = event.version, event.hash


class CampaignRepository:
    """The campaigns of one store, read, folded and kept (in `kept`, shared by a process)."""

    def __init__(
        self, store: Store, kept: Projections | None = None, snapshot_every: int = SNAPSHOT_EVERY
    ):
        self.store = store
        self.kept = kept if kept is not None else Projections()
        self.snapshot_every = snapshot_every

    def writing(self, campaign: str) -> threading.RLock:
        """The turn of this process's writers of one campaign: each then meets the head the
        one before left, instead of racing it to the log with a state of its own."""
        return self.kept.turn((self.store.path, campaign))

    # -- the log's ends and a campaign's game ------------------------------------------------

    def ends(self, campaign: str) -> tuple[int, str, str]:
        """The campaign's version, head hash and first event's hash; NotFound when the log
        holds none of its events."""
        latest, head, first_hash = self.store.ends(campaign)
        if latest == 0:
            raise NotFound(_("there is no campaign %(campaign)r", campaign=campaign))
        return latest, head, first_hash

    def system_of(self, campaign: str, first_hash: str | None = None) -> tuple[GameSystem, str]:
        """The campaign's game system and name, from its first event (which never changes)."""
        if first_hash is None:
            first_hash = self.ends(campaign)[2]
        known = self.kept.get(("first", first_hash))
        if known is None:
            first = self.store.event(campaign, 1)
            known = (first.data["system"], first.data["name"])
            self.kept.put(("first", first_hash), known)
        return systems.get(known[0]), known[1]

    # -- states ------------------------------------------------------------------------------

    def state(self, campaign: str, at: int | None = None) -> View:
        """The campaign folded to version `at` (the latest when None): time travel. The
        latest state is shared with other readers: it must not be changed."""
        latest, hash_, first_hash = self.ends(campaign)
        upto = latest if at is None else at
        if isinstance(upto, bool) or not isinstance(upto, int) or not 1 <= upto <= latest:
            raise NotFound(
                _(
                    "campaign %(campaign)r has events 1 to %(latest)s, not %(at)s",
                    campaign=campaign,
                    latest=latest,
                    at=at,
                )
            )
        system, name = self.system_of(campaign, first_hash)
        if upto != latest:  # the past is folded afresh: the kept head stays the latest
            hash_ = self.store.event(campaign, upto).hash
            voided = self.store.voids(campaign, upto)
            state = self.fold(campaign, system, upto, voided)
            return View(campaign, system, name, upto, hash_, latest, state, voided)
        head = self.head(campaign, system, latest, hash_)
        if at is not None and head.version != at:  # asked for the version it looked at
            state = self.fold(campaign, system, upto, head.voided)
            return View(campaign, system, name, upto, hash_, latest, state, dict(head.voided))
        latest = max(latest, head.version)
        voided = dict(head.voided)
        return View(campaign, system, name, head.version, head.hash, latest, head.state, voided)

    def for_writing(self, campaign: str, ends: tuple | None = None) -> View:
        """The latest state as a copy of the caller's own (a writer applies events to it);
        `ends`: the log's ends (`ends`) as the caller just read them."""
        latest, hash_, first_hash = ends or self.ends(campaign)
        system, name = self.system_of(campaign, first_hash)
        head = self.head(campaign, system, latest, hash_)
        state, voided = copy_for_rules(head.state), dict(head.voided)
        return View(campaign, system, name, head.version, head.hash, head.version, state, voided)

    def head(self, campaign: str, system: GameSystem, version: int, hash_: str) -> Head:
        """The kept head at (version, hash), brought forward or folded and kept as needed."""
        key = self._key(campaign, system)
        head = self.kept.get(key)
        if head is not None and (head.version, head.hash) == (version, hash_):
            return head
        if head is not None and head.version > version:
            # Another thread of this process brought it further since the ends were read:
            # still the newest, if it is of this log (not another under the same name).
            event = self.store.event(campaign, head.version)
            if event is not None and event.hash == head.hash:
                return head
            self.kept.drop(key)
            head = None
        made = self._forward(campaign, system, head, version) if head is not None else None
        if made is None:
            made = self._fold_head(campaign, system, version, hash_)
        self.kept.put(key, made, newer=_newer)
        return made

    def _fold_head(self, campaign, system, version: int, hash_: str) -> Head:
        """A head folded afresh, the end of its log worded on the way: one pass gives the
        state and the words the dashboard and the audit log's last page show."""
        voided = self.store.voids(campaign, version)
        first = max(1, version - TAIL + 1)
        state, replayed = self._fold(campaign, system, first - 1, voided, keep_end=False)
        tail: deque = deque(maxlen=TAIL)
        for event in self.store.read(campaign, after=first - 1, upto=version):
            state, said = worded_step(system, state, event, voided)
            tail.append(Entry(event, said, None))
        if replayed + len(tail) >= self.snapshot_every and not stale(version, voided):
            self.store.save_snapshot(campaign, system.fingerprint, version, state_text(state))
        return Head(version, hash_, state, voided, tail)

    def _forward(self, campaign, system, head: Head, version: int) -> Head | None:
        """`head` brought forward to `version`, or None when it cannot be trusted: the log no
        longer holds its last event, or a void since reaches back into it."""
        if head.version > version:
            return None
        event = self.store.event(campaign, head.version)
        if event is None or event.hash != head.hash:
            return None  # another log, or another database file
        voided = self.store.voids(campaign, version)
        if stale(head.version, voided):
            return None
        try:
            return head.advanced(system, self.store.read(campaign, head.version, version), voided)
        except TrackerError:
            return None  # the rules changed under it: fold afresh instead

    def appended(self, view: View, events: list[Event], words: list[str]) -> None:
        """A writer's events are in the log: the state it applied them to (the rules have just
        checked it) becomes the head the next reader shares. A void drops the snapshots it
        reaches back into and the head, which the next reader folds afresh."""
        campaign, system = view.campaign, view.system
        key = self._key(campaign, system)
        voids = [e.data["version"] for e in events if e.type == "EventVoided"]
        if voids:
            self.store.drop_snapshots(campaign, min(voids))
            self.kept.drop(key)
            return
        old = self.kept.get(key)
        if old is not None and (old.version, old.hash) == (events[-1].version, events[-1].hash):
            return  # a reader of this process brought the head past them first
        head = Head(view.version, view.head, settled(view.state), view.voided)
        if old is not None and (old.version, old.hash) == (view.version, view.head):
            head.tail = None if old.tail is None else deque(old.tail, maxlen=TAIL)
            head.tally = None if old.tally is None else old.tally.copy()
        for event, said in zip(events, words):
            head.record(system, event, said)  # the state is the one the rules' check stepped
        self.snapshot_after_append(campaign, system, view.version, head)
        self.kept.put(key, head, newer=_newer)

    def _key(self, campaign: str, system: GameSystem) -> tuple:
        return ("head", self.store.path, system.fingerprint, campaign)

    # -- folding and snapshots: the one place that decides when to keep one ------------------

    def fold(self, campaign, system, upto: int, voided: dict, skip=(), progress=None) -> dict:
        """The state at `upto`, folded from the latest usable snapshot (`skip`: a void being
        checked, folded from the start and leaving nothing)."""
        return self._fold(campaign, system, upto, voided, skip, progress)[0]

    def _fold(self, campaign, system, upto, voided, skip=(), progress=None, keep_end=True):
        """The state at `upto` and how many events were replayed for it. A long fold leaves
        snapshots along the log, and (`keep_end`) one where it ends."""
        snap = None if skip else self.store.latest_snapshot(campaign, system.fingerprint, upto)
        after, state = 0, None
        if snap is not None and not stale(snap[0], voided):
            after, state = snap[0], decode_state(snap[1])
        skipped = set(voided) | set(skip)
        along: list[tuple[int, str]] = []
        spacing, replayed = SNAPSHOT_SPACING, 0
        while after < upto:
            end = min(upto, (after // spacing + 1) * spacing)
            state, count = fold_from(self.store, campaign, system, after, end, skipped, state)
            replayed += count
            after = end
            if progress:
                progress(count)
            if end < upto and not skip and not stale(end, voided):
                text = state_text(state)
                along.append((end, text))
                spacing = max(SNAPSHOT_SPACING, len(text) // 256 // 1000 * 1000)
        if along:
            self.store.save_snapshots(campaign, system.fingerprint, along)
        end_kept = keep_end and not skip and upto and not stale(upto, voided)
        if end_kept and replayed >= self.snapshot_every:
            self.store.save_snapshot(campaign, system.fingerprint, upto, state_text(state))
        return state, replayed

    def snapshot_after_append(self, campaign, system, before: int, head: Head) -> None:
        """A campaign that only grows by appends still leaves a snapshot now and then."""
        if head.version // SNAPSHOT_SPACING > before // SNAPSHOT_SPACING:
            text = state_text(head.state)
            self.store.save_snapshot(campaign, system.fingerprint, head.version, text)

    # -- the worded log and the dice ----------------------------------------------------------

    def log_page(self, campaign: str, upto: int, count: int, as_of: int | None = None):
        """The `count` events up to `upto` with their words, oldest first, as the campaign
        stood at `as_of` (the latest when None): from the head's worded tail where it holds
        the page, else folded to just before the page from a snapshot."""
        voided = self.store.voids(campaign, as_of)
        latest, hash_, first_hash = self.ends(campaign)
        system, __ = self.system_of(campaign, first_hash)
        first = max(1, upto - count + 1)
        if upto == latest:
            head = self.head(campaign, system, latest, hash_)
        else:  # a page short of the head is read from a kept head, never folds one
            head = self.kept.get(self._key(campaign, system))
            if head is not None and first > latest - TAIL:
                # Within its worded tail's reach (a page read at a version the log has
                # since passed): the kept head brought to the latest holds it.
                head = self.head(campaign, system, latest, hash_)
            elif head is None or (head.version, head.hash) != (latest, hash_):
                return self.simple_page(campaign, upto, count, voided, system)
        tail = head.tail
        if tail is None and first > head.version - TAIL:  # worded once, when first shown
            tail = head.tail = self._tail(campaign, system, head)
        oldest = head.version - len(tail or ()) + 1
        if (
            tail
            and first >= oldest
            and upto <= head.version
            and _same_voids(head.voided, voided, upto)
        ):
            shown = list(tail)[first - oldest : upto - oldest + 1]
            return [Entry(e.event, e.words, voided.get(e.event.version)) for e in shown]
        return self.simple_page(campaign, upto, count, voided, system)

    def simple_page(self, campaign: str, upto: int, count: int, voided: dict, system=None):
        """The page folded to just before its first event from a snapshot, skipping `voided`
        (a long fold leaves a snapshot where it ended)."""
        system = system or self.system_of(campaign)[0]
        first = max(1, upto - count + 1)
        state = self.fold(campaign, system, first - 1, voided) if first > 1 else None
        events = self.store.read(campaign, after=first - 1, upto=upto)
        return list(worded(system, state, events, voided))

    def _tail(self, campaign, system, head: Head) -> deque:
        first = max(1, head.version - TAIL + 1)
        state = self.fold(campaign, system, first - 1, head.voided) if first > 1 else None
        events = self.store.read(campaign, after=first - 1, upto=head.version)
        return deque(worded(system, state, events, head.voided), maxlen=TAIL)

    def dice(self, campaign: str, version: int) -> DiceTally:
        """The dice up to `version`: the head's tally (counted once, then stepped with each
        event), or counted from the start for an earlier moment. Not to be changed."""
        latest, hash_, first_hash = self.ends(campaign)
        system, __ = self.system_of(campaign, first_hash)
        if version != latest:
            return _counted(system, self.store.read(campaign, upto=version))
        head = self.head(campaign, system, latest, hash_)
        if head.tally is None:
            head.tally = _counted(system, self.store.read(campaign, upto=latest))
        return head.tally

    def forget(self) -> None:
        """Drop everything kept (snapshots found wrong; a bench starting cold)."""
        self.kept.clear()


def _counted(system: GameSystem, events) -> DiceTally:
    tally = DiceTally()
    for event in events:
        tally.step(system, event)
    return tally


def _newer(old: Head, new: Head) -> bool:
    """Whether to keep `new` over `old`: never a head behind the one kept."""
    return new.version >= old.version


def _same_voids(kept: dict, asked: dict, upto: int) -> bool:
    """Whether words folded skipping `kept` read as those folded skipping `asked`, up to
    `upto`."""
    return {t for t in asked if t <= upto} == {t for t in kept if t <= upto}


# -- what each event says: the core's own events worded here, the rest by the game's rules ---


def worded(system, state, events, voided) -> Iterator[Entry]:
    """The events applied to `state` one by one, each with its words."""
    for event in events:
        state, words = worded_step(system, state, event, voided)
        yield Entry(event, words, voided.get(event.version))


def worded_step(system, state, event, voided) -> tuple[dict, str]:
    """One step of a worded fold: the state after `event` and the event's words. A voided
    event is skipped by the fold, and worded as it read when it was recorded: applied to a
    copy of the state before it (as the rules take it now, if they still do)."""
    if event.version not in voided or event.type in ("CampaignStarted", "EventVoided"):
        state = apply_event(system, state, event, voided)
        return state, words(system, state, event)
    try:
        as_recorded = system.apply(copy_for_rules(state), system.upcast(event))
    except TrackerError:
        as_recorded = state
    return state, words(system, as_recorded, event)


def words(system, state, event) -> str:
    """What `event` says in the audit log, `state` being the campaign just after it."""
    if event.type == "CampaignStarted":
        if "branched_from" in event.meta:
            return _(
                "The campaign %(name)r began (%(game)s), playing on from campaign %(source)r "
                "as it stood after its event %(version)s (log hash %(head)s)",
                name=event.data["name"],
                game=system.title,
                source=event.meta["branched_from"],
                version=event.meta["branched_at"],
                head=str(event.meta.get("branched_head"))[:12],
            )
        return _(
            "The campaign %(name)r began (%(game)s)", name=event.data["name"], game=system.title
        )
    if event.type == "EventVoided":
        return _(
            "Event %(version)s was voided: %(reason)s",
            version=event.data["version"],
            reason=event.data["reason"],
        )
    if event.type in SEAT_EVENTS:
        return seat_words(event, system.sides(state) if state is not None else {})
    if event.type == "LanguageChosen":
        return language_words(event)
    try:
        return system.describe(state, system.upcast(event))
    except (KeyError, TypeError, ValueError, AttributeError):
        return event.type


__all__ = [
    "CampaignRepository",
    "DiceTally",
    "Head",
    "Projections",
    "fold",
    "worded",
    "worded_step",
    "words",
]
