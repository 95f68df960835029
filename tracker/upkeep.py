"""The use cases that read a whole log to check or copy it: verify, witness, export, hold the
snapshots against the log, and rebuild them."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

from tracker import systems
from tracker.errors import InvalidEvent, NotFound
from tracker.events import canonical, decode, state_text
from tracker.fold import fold, stale
from tracker.repository import CampaignRepository
from tracker.systems.i18n import _


def verify(repo: CampaignRepository, campaign: str | None = None):
    """The first broken event of one campaign (or of any), or None when all chains hold."""
    store = repo.store
    for cid in [campaign] if campaign else [c.id for c in store.campaigns()]:
        if not store.exists(cid):
            raise NotFound(_("there is no campaign %(campaign)r", campaign=cid))
        broken = store.verify(cid)
        if broken:
            return broken
    return None


def check_snapshots(repo: CampaignRepository, campaign: str) -> list[int]:
    """Fold the log again and hold every kept snapshot of the campaign against it: the
    versions of those that differ, which are dropped (pages then fold from the log)."""
    store = repo.store
    system, __ = repo.system_of(campaign)
    kept = [
        (version, text)
        for fingerprint, version, text in store.snapshots(campaign)
        if fingerprint == system.fingerprint
    ]
    voided = store.voids(campaign)
    state, after, differ = None, 0, []
    for version, text in kept:
        state = fold(system, store.read(campaign, after=after, upto=version), voided, state)
        after = version
        if stale(version, voided):
            continue  # stale by a later void, and never used: nothing to hold against
        if canonical(decode(state_text(state))) != canonical(decode(text)):
            store.drop_snapshot(campaign, system.fingerprint, version)
            differ.append(version)
    if differ:
        repo.forget()
    return differ


def witness(repo: CampaignRepository, campaign: str, version: int, head: str) -> str | None:
    """Whether the log still holds `head` (the whole hash or its first 12 or more
    characters, spaces ignored) at event `version`: None, or what differs, in words."""
    head = "".join(head.split()).lower()
    if len(head) < 12 or any(c not in "0123456789abcdef" for c in head):
        raise InvalidEvent(
            _("a witness's head is the hash as shown (at least its first 12 characters)"),
            {"head": [_("not a hash")]},
        )
    latest = repo.store.version(campaign)
    if latest == 0:
        raise NotFound(_("there is no campaign %(campaign)r", campaign=campaign))
    if version > latest:
        return _(
            "the log holds only %(latest)s events, not %(version)s: events were removed "
            "since the witness was taken",
            latest=latest,
            version=version,
        )
    event = repo.store.event(campaign, version)
    if event is None or not event.hash.startswith(head):
        actual = event.hash[:16] if event else _("nothing")
        return _(
            "event %(version)s has the head %(actual)s, not %(head)s: the log was "
            "rewritten since the witness was taken",
            version=version,
            actual=actual,
            head=head[:16],
        )
    return None


def export(repo: CampaignRepository, campaign: str, guard: Callable | None = None) -> Iterator[str]:
    """The campaign as JSON Lines, one event a line; `guard(event)` may refuse an event."""
    if not repo.store.exists(campaign):
        raise NotFound(_("there is no campaign %(campaign)r", campaign=campaign))
    for event in repo.store.read(campaign):
        if guard:
            guard(event)
        yield json.dumps(event.to_json(), ensure_ascii=False, sort_keys=True)


def rebuild(repo: CampaignRepository, progress: Callable[[int], None] | None = None) -> int:
    """Drop every snapshot and fold every campaign again, leaving its snapshots along the log
    and one at the head; returns the campaigns folded."""
    store = repo.store
    store.drop_snapshots()
    repo.forget()
    rows = store.campaigns()
    for row in rows:
        system = systems.get(row.system)
        voided = store.voids(row.id)
        state = repo.fold(row.id, system, row.version, voided, progress=progress)
        store.save_snapshot(row.id, system.fingerprint, row.version, state_text(state))
    return len(rows)
