"""The use cases that write a campaign's log: start, record (and void, which is recorded), and
play on. Each reads top to bottom: take the head from the repository, check the submission
by the rules (drawing the dice it asks for), append under the consistency condition, and
leave the new head for the next reader. The store announces each append.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable

from marshmallow import ValidationError

from tracker import systems
from tracker.campaign import (
    CAMPAIGN_ID,
    CORE_EVENTS,
    Entry,
    View,
    language_chosen,
    never_voided,
)
from tracker.dice import Roller
from tracker.errors import (
    BatchError,
    CampaignExists,
    Conflict,
    InvalidEvent,
    KeyReused,
    RuleViolation,
    TrackerError,
)
from tracker.events import Event, NewEvent, canonical, unrecorded
from tracker.fold import apply_event
from tracker.repository import CampaignRepository, words
from tracker.store import AppendResult
from tracker.systems.base import GameSystem, _plain
from tracker.systems.i18n import _

# Per side, at most this many events appended meanwhile are looked through; past that the
# submission is refused as under the strict condition (a form left open for hours).
MEANWHILE = 200
# Per side, an append that loses the race to the log's write to another writer is checked
# again against the log as it then stands, up to this many times in all.
RACES = 4


def unicode_only(value) -> None:
    """Refuse text that is not Unicode: JSON may spell a lone surrogate ("\\ud800"), which
    no UTF-8 file, database or hash can hold."""
    try:
        canonical(value).encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidEvent(
            _(
                "the text holds a character that is not Unicode (a lone surrogate such as "
                "\\ud800); nothing was written"
            ),
            {"data": [_("not Unicode text")]},
        ) from None
    except (TypeError, ValueError):
        pass  # not JSON data: the schema says what is wrong with it


def draw(system, type_: str, raw: dict, state, roller):
    """Fill the dice an event leaves out; return its data, loaded by its schema, and how its
    dice came ("server-roll", "table-roll" or None). With no roller (an import) every die
    must be there."""
    how = None
    for name, spec in system.drawn_fields(type_).items():
        if raw.get(name) is None:
            if roller is None:
                raise InvalidEvent(
                    _(
                        "%(type)s: %(field)s: an imported event carries its %(dice)s result",
                        type=type_,
                        field=name,
                        dice=spec.label,
                    ),
                    {name: [_("missing")]},
                )
            raw[name] = spec.draw(roller, raw, state)
            how = "server-roll"
        else:
            how = how or "table-roll"
    return system.load(type_, raw), how


def start(
    repo: CampaignRepository,
    campaign: str,
    system_name: str,
    name: str,
    settings: dict | None,
    *,
    actor: str,
    source: str,
    idempotency_key: str | None,
) -> AppendResult:
    """A new campaign of a game system; its first event names the system."""
    _check_id(campaign)
    systems.get(system_name)
    unicode_only({"name": name, "settings": settings})
    data = started(system_name, name, settings or {})
    body = {"system": system_name, "name": name, "settings": settings or {}}
    meta = event_meta(actor, source, idempotency_key, body)
    if repo.store.exists(campaign):
        # Only the account that started it, retrying with its own key and the same
        # request, hears of its earlier start; anybody else learns only that it exists.
        try:
            earlier = _earlier(repo, campaign, meta, idempotency_key)
        except KeyReused:
            earlier = None
        if earlier is not None and earlier.first_version == 1:
            return earlier
        raise CampaignExists(campaign)
    return repo.store.append(campaign, [NewEvent("CampaignStarted", data, meta)], 0)


def started(system_name: str, name: str, settings: dict) -> dict:
    """A campaign's first event's data, its settings prepared by its game: the one place a
    campaign's settings are made (a start and an import alike). Content that cannot start
    a game is refused here."""
    system = systems.get(system_name)
    data = load_core("CampaignStarted", {"system": system_name, "name": name, "settings": settings})
    data["settings"] = system.load_settings(system.prepare_settings(data["settings"]))
    system.initial_state(data["settings"])
    return data


def record(
    repo: CampaignRepository,
    campaign: str,
    submissions: list[dict],
    expected_version: int | None,
    *,
    actor: str,
    source: str,
    idempotency_key: str | None,
    roller: Roller,
    guard: Callable | None,
    strict: bool,
) -> AppendResult:
    """Check a batch of events against the rules and append it, or write nothing.

    `guard(system, state, type, data)`, when given, is asked about each event before its
    rules are applied and raises to refuse it (the permission check). With `strict`, the
    campaign must still be at `expected_version`; without it (per side), events appended
    since are no obstacle unless one concerns a side the new events concern, and an append
    that another writer's beats to the log is looked at again the same way.
    """
    meta = event_meta(actor, source, idempotency_key, submissions)
    earlier = _earlier(repo, campaign, meta, idempotency_key)
    if earlier is not None:
        return earlier
    with repo.writing(campaign):  # this process's writers of the campaign take turns
        for race in range(RACES):
            try:
                result = _record_at_head(
                    repo, campaign, submissions, expected_version, meta, roller, guard, strict,
                    last=race == RACES - 1,
                )  # fmt: skip
            except KeyReused:
                raise KeyReused(idempotency_key) from None
            if result is not None:
                return result
    raise AssertionError("unreachable: the last race raises")


def _record_at_head(
    repo, campaign, submissions, expected, meta, roller, guard, strict, *, last
) -> AppendResult | None:
    """One try at the head of the log as it stands now; None when another writer appended
    between our look and our write and the submission, per side, may be looked at again."""
    ends = repo.ends(campaign)
    if strict and expected is not None and expected != ends[0]:
        raise Conflict(campaign, expected, ends[0], [])
    view = repo.for_writing(campaign, ends)
    if expected is not None and expected != view.version:
        changed = _meanwhile(repo, view, expected, submissions)
        if changed is not None:
            raise Conflict(campaign, expected, view.version, changed)
    said: list[str] = []  # each event's words, as the campaign stood just after it
    events, view.state = check(
        repo, view, submissions, meta=meta, roller=roller, guard=guard,
        each=lambda event, state: said.append(words(view.system, state, event)),
    )  # fmt: skip
    try:
        result = repo.store.append(campaign, events, view.version)
    except Conflict:
        if strict or expected is None or last:
            raise
        return None
    if not result.replayed:
        written = list(repo.store.read(campaign, view.version, result.last_version))
        repo.appended(view, written, said)
    return result


def branch(
    repo: CampaignRepository,
    source: str,
    upto: int,
    campaign: str,
    name: str,
    *,
    actor: str,
    visible: Callable | None,
) -> AppendResult:
    """Play on: a new campaign whose log starts as a copy of `source` up to event `upto`.

    Its first event names where it branched from (campaign, event, head hash); the copied
    events keep their data (an older shape brought to the current one), who recorded them
    and when, and are checked by the rules again, as an import is. `visible(event)` gives an
    event's data as the maker may see it: an event holding anything the maker may not see
    yet (a hand still hidden at the table) refuses the copy.
    """
    view = repo.state(source, upto)
    _check_id(campaign)
    if repo.store.exists(campaign):
        raise CampaignExists(campaign)
    first = repo.store.event(source, 1)
    copies = list(repo.store.read(source, after=1, upto=view.version))
    for event in copies if visible else ():
        if visible(event) != event.data:
            raise RuleViolation(
                _(
                    "event %(version)s (%(type)s) holds what you may not see yet (such as "
                    "another player's hand), and the copy would show it to you: play on from "
                    "before event %(version)s, or once the game under way is over",
                    version=event.version,
                    type=event.type,
                )
            )
    data = {
        **first.data,
        "name": load_core("CampaignStarted", {**first.data, "name": name})["name"],
    }
    meta = {
        **event_meta(actor, "play-on", None),
        "branched_from": source,
        "branched_at": view.version,
        "branched_head": view.head,
    }
    begun = unrecorded(campaign=campaign, version=1, type="CampaignStarted", data=data, meta=meta)
    fresh = View(campaign, view.system, name, 1, "", 1, view.system.initial_state(data["settings"]))
    submissions = [_as_submission(view.system.upcast(event)) for event in copies]
    events, __ = check(repo, fresh, submissions, meta={}, roller=None, unwritten=[begun])
    return repo.store.append(campaign, [NewEvent("CampaignStarted", data, meta), *events], 0)


def check(
    repo: CampaignRepository,
    view: View,
    submissions: Iterable[dict],
    *,
    meta: dict,
    roller: Roller | None,
    unwritten: list[Event] | None = None,
    guard: Callable | None = None,
    each: Callable | None = None,
    as_recorded: bool = False,
) -> tuple[list[NewEvent], dict]:
    """Apply submitted events to `view.state` (which this changes) by the rules.

    Each submission is {"type", "data"} (and, copied from a log, "meta" and "recorded_at").
    Dice a submission leaves out are drawn with `roller`; with no roller (an import) they
    must be there. With `as_recorded` (an import), data in an older shape is read in the
    current one and kept as recorded, so its hash is the one it was given. `each(event,
    state)` hears of each event applied. Returns the events to append and the state after.
    """
    campaign, system, state, version = view.campaign, view.system, view.state, view.version
    unwritten = [] if unwritten is None else unwritten  # checked, not yet in the log
    out = []
    submissions = list(submissions)
    for index, submission in enumerate(submissions):
        type_ = submission.get("type") if isinstance(submission, dict) else None
        try:
            raw = _raw(type_, submission)
            given_meta = submission.get("meta")
            this_meta = dict(given_meta) if given_meta else dict(meta)
            version += 1
            if type_ == "CampaignStarted":
                raise RuleViolation(_("a campaign starts only once, with its first event"))
            if type_ in CORE_EVENTS:  # a void or a seat: the core's own
                data = load_core(type_, raw)
                if guard:
                    guard(system, state, type_, data)
                if type_ == "EventVoided":
                    together = _voids_after(submissions, index)
                    state = _voided(
                        repo, campaign, system, version, data["version"], unwritten, together
                    )
            else:
                shaped = system.upcast_data(type_, raw) if as_recorded else raw
                data, how = draw(system, type_, dict(shaped), state, roller)
                if guard:
                    guard(system, state, type_, data)
                if how and not given_meta:
                    this_meta.setdefault("via", this_meta.get("source"))
                    this_meta["source"] = how
                if shaped is not raw:
                    data = system.as_recorded(raw, shaped, data)
            event = unrecorded(
                campaign=campaign, version=version, type=type_, data=data, meta=this_meta
            )
            if type_ not in CORE_EVENTS:
                state = system.apply(state, system.upcast(event) if as_recorded else event)
            elif type_ == "LanguageChosen":
                state = language_chosen(state, event)
        except TrackerError as error:
            raise BatchError(index, str(type_), error) from None
        unwritten.append(event)
        if each:
            each(event, state)
        out.append(NewEvent(type_, data, this_meta, submission.get("recorded_at")))
    return out, state


def _raw(type_, submission: dict) -> dict:
    if not isinstance(type_, str):
        raise InvalidEvent(_("every event needs a type"), {"type": [_("required")]})
    raw = submission.get("data")
    raw = {} if raw is None else raw
    if not isinstance(raw, dict):
        raise InvalidEvent(
            _("an event's data is a JSON object"), {"data": [_("must be an object")]}
        )
    unicode_only(raw)
    return raw


def load_core(type_: str, raw) -> dict:
    """The data of one of the core's own events, loaded by its schema."""
    try:
        return CORE_EVENTS[type_]().load(raw)
    except ValidationError as err:
        raise InvalidEvent(_plain(type_, err.messages), err.messages, type_) from None


def _voids_after(submissions: list, index: int) -> set[int]:
    """The events voided by the voids that follow submission `index` in a row: a chain voided
    in one batch is checked as one (each void of it may be refused alone: a step that owed
    a roll of the artefact given stands once both the gift and the roll are gone)."""
    together = set()
    for submission in submissions[index + 1 :]:
        if not isinstance(submission, dict) or submission.get("type") != "EventVoided":
            break
        data = submission.get("data")
        if not isinstance(data, dict):
            break
        if isinstance(data.get("version"), int):
            together.add(data["version"])
    return together


def _voided(
    repo, campaign: str, system: GameSystem, version: int, target: int, unwritten, together=()
) -> dict:
    """The state with `target` voided (and the events voided `together` with it in the same
    batch), or RuleViolation naming what depends on it."""
    store = repo.store
    recorded = store.version(campaign)
    events = list(unwritten)
    by_version = {e.version: e for e in events}
    original = by_version.get(target) or (
        store.event(campaign, target) if target <= recorded else None
    )
    if original is None or target >= version:
        raise RuleViolation(_("there is no event %(version)s to void", version=target))
    if why := never_voided(original):
        raise RuleViolation(why)
    voided = store.voids(campaign) if recorded else {}
    voided.update({e.data["version"]: e.version for e in events if e.type == "EventVoided"})
    if target in voided:
        raise _already_voided(repo, campaign, original, voided[target], by_version)
    skipped = set(voided) | {target} | set(together)
    state = None
    for event in [*(store.read(campaign) if recorded else ()), *events]:
        try:
            state = apply_event(system, state, event, skipped)
        except RuleViolation as error:
            raise RuleViolation(
                _(
                    "“%(words)s” cannot be voided on its own: “%(later)s”, recorded after it, "
                    "depends on it (without it, %(reason)s)",
                    words=_said(repo, campaign, original),
                    later=_said(repo, campaign, event),
                    reason=error.message,
                ),
                depends_on=event.version,
                reason=error.message,
            ) from None
    return state


def _said(repo, campaign: str, event: Event) -> str:
    """What an event of the log says in the audit log (one checked in the same batch, not yet
    in the log, by its rules' words as far as they go)."""
    if event.version <= repo.store.version(campaign):
        [entry] = repo.log_page(campaign, event.version, 1)
        return entry.words
    system = repo.system_of(campaign)[0]
    return words(system, None, event)


def _already_voided(repo, campaign: str, original: Event, void: int, unwritten) -> RuleViolation:
    """The refusal of a second void of `original`, with the first void's reason."""
    first = unwritten.get(void) or repo.store.event(campaign, void)
    return RuleViolation(
        _(
            "“%(words)s” is already voided (%(reason)s)",
            words=_said(repo, campaign, original),
            reason=first.data.get("reason", ""),
        )
    )


def chain(repo, campaign: str, target: int) -> list[Entry]:
    """What voiding `target` takes with it: `target` and every later event that the rules
    refuse without it (or without another event of the chain), newest first, each as the
    audit log words it. The voids of them in that order are one batch the rules accept, as
    the log stands now. RuleViolation when `target` cannot be voided at all."""
    view = repo.state(campaign)
    store, system = repo.store, view.system
    original = store.event(campaign, target) if 1 <= target <= view.version else None
    if original is None:
        raise RuleViolation(_("there is no event %(version)s to void", version=target))
    if why := never_voided(original):
        raise RuleViolation(why)
    voided = store.voids(campaign)
    if target in voided:
        raise _already_voided(repo, campaign, original, voided[target], {})
    going = [target]
    # A refusing rule may have changed the state before it refused: the state is folded
    # again, without the chain so far, after each event found to depend on it.
    state = repo.fold(campaign, system, target - 1, voided, skip=going)
    for event in store.read(campaign, after=target, upto=view.version):
        if event.version in voided:
            continue
        try:
            state = apply_event(system, state, event, voided)
        except RuleViolation:
            going.append(event.version)
            state = repo.fold(campaign, system, event.version, voided, skip=going)
            continue
    shown = repo.log_page(campaign, view.version, view.version - target + 1)
    said = {entry.event.version: entry for entry in shown}
    return [said[version] for version in reversed(going)]


def _meanwhile(repo, view: View, seen: int, submissions) -> list[str] | None:
    """Per side: None when events appended since version `seen` leave the submission free to
    go on (none of them concerns a side it concerns); else the words of those that do (empty
    when `seen` is no version of the log, or too far back)."""
    if not 1 <= seen < view.version or view.version - seen > MEANWHILE:
        return []
    mine = _concerns(view, submissions)
    since = repo.log_page(view.campaign, view.version, view.version - seen, view.version)
    clashing = [e.words for e in since if _overlap(mine, _concerns(view, [e.event]))]
    return clashing or None


def _concerns(view: View, events) -> set[str] | None:
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


def _overlap(ours: set[str] | None, theirs: set[str] | None) -> bool:
    """Whether two batches concern a side in common (None concerns every side)."""
    return ours is None or theirs is None or bool(ours & theirs)


def _check_id(campaign) -> None:
    if not isinstance(campaign, str) or not CAMPAIGN_ID.match(campaign):
        raise InvalidEvent(
            _(
                "a campaign id is 1 to 63 lower-case letters, digits and dashes, "
                "starting with a letter or digit"
            ),
            {"campaign": [_("use lower-case letters, digits and dashes")]},
        )


def _earlier(repo, campaign: str, meta: dict, key: str | None) -> AppendResult | None:
    """The earlier append of this account's retry key, or None; `KeyReused` when the key
    came with another request."""
    if "retry" not in meta:
        return None
    earlier = repo.store.idempotent(campaign, meta["retry"])
    if earlier is not None and earlier.request != meta["request"]:
        raise KeyReused(key)
    return earlier


def _as_submission(event: Event) -> dict:
    """An event as a submission of its own data, meta and time (its retry key left behind:
    that belongs to the campaign it was first recorded in)."""
    meta = {k: v for k, v in event.meta.items() if k not in ("idempotency_key", "retry", "request")}
    return {"type": event.type, "data": event.data, "meta": meta, "recorded_at": event.recorded_at}


def event_meta(actor: str, source: str, idempotency_key: str | None, request=None) -> dict:
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
