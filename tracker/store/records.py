"""What the log holds, row by row: an append made into chained rows, a chain checked, rows
read back into events and campaign rows. The same on every engine."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import NamedTuple
from urllib.parse import urlsplit

from tracker.errors import TrackerError
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
from tracker.systems.i18n import Said, _


class AppendResult(NamedTuple):
    """What an append wrote: the versions from first to last and the new head hash."""

    campaign: str
    first_version: int
    last_version: int
    head: str
    replayed: bool = False  # True when an idempotent retry returned an earlier append's result
    request: str | None = None  # the digest of the request that wrote it (a retry's check)


@dataclass(frozen=True)
class Broken:
    """The first event of a campaign whose hash does not hold."""

    campaign: str
    version: int
    type: str
    reason: str

    def __str__(self) -> str:
        return str(self.words)

    @property
    def words(self) -> Said:
        """What is broken, as a message."""
        return _(
            "%(campaign)s: event %(version)s (%(type)s) %(reason)s",
            campaign=self.campaign,
            version=self.version,
            type=self.type,
            reason=self.reason,
        )


@dataclass(frozen=True)
class CampaignRow:
    id: str
    system: str
    name: str
    version: int
    head: str
    started_at: str


class ReadOnly(TrackerError):
    """A write to a database that was opened, or may only be opened, for reading."""

    def __init__(self, path: str):
        super().__init__(
            _("the database %(path)s may only be read: nothing was written", path=path)
        )


class Unreachable(TrackerError):
    """A database server that does not answer, in plain words."""


def is_url(target) -> bool:
    """Whether `target` names a PostgreSQL server rather than an SQLite file."""
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


def describe(url: str) -> str:
    """A PostgreSQL URL without its password, to name the database in a message."""
    parts = urlsplit(url)
    user = f"{parts.username}@" if parts.username else ""
    try:
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        port = ""
    return f"postgresql://{user}{parts.hostname or ''}{port}{parts.path}"


def snapshot_digest(head: str, state_json: str) -> str:
    """What binds a snapshot's state to the event it was folded to."""
    return hashlib.sha256(f"{head}\n{state_json}".encode()).hexdigest()


class AppendRequest(NamedTuple):
    """An append made canonical before it meets the log: rows of (type, data_json,
    meta_json, recorded_at), the expected version, and the retry key and request digest."""

    campaign: str
    rows: list[tuple]
    expected: int
    key: str | None
    request: str | None


def append_request(campaign: str, events: Iterable[NewEvent], expected: int) -> AppendRequest:
    """The canonical texts of a batch (what does not depend on the head); `TrackerError`
    when it holds no event."""
    events = list(events)
    if not events:
        raise TrackerError(_("nothing to append: the batch holds no event"))
    now = utcnow()
    rows = [
        (e.type, canonical(e.data), canonical_meta(e.meta), e.recorded_at or now) for e in events
    ]
    meta = events[0].meta
    return AppendRequest(campaign, rows, expected, meta.get("retry"), meta.get("request"))


def chained(request: AppendRequest, version: int, head: str) -> list[tuple]:
    """The rows of an append chained on from (version, head): (campaign, version, type,
    data_json, meta_json, recorded_at, hash)."""
    campaign, out = request.campaign, []
    for type_, data_json, meta_json, recorded_at in request.rows:
        version += 1
        head = chain_hash(head, campaign, version, type_, data_json, meta_json, recorded_at)
        out.append((campaign, version, type_, data_json, meta_json, recorded_at, head))
    return out


def check_chain(campaign: str, rows: Iterable[tuple]) -> Broken | None:
    """The first of a campaign's rows (version, type, data, meta, recorded_at, hash), in
    version order, whose hash does not hold, or None."""
    previous, expected_version = GENESIS, 0
    for version, type_, data, meta, recorded_at, stored in rows:
        expected_version += 1
        if version != expected_version:
            return Broken(campaign, expected_version, "?", _("is missing from the log"))
        try:
            data_json = canonical(decode(data))
            meta_json = canonical(decode(meta))
        except ValueError:
            return Broken(campaign, version, type_, _("holds data that is not JSON"))
        actual = chain_hash(previous, campaign, version, type_, data_json, meta_json, recorded_at)
        if actual != stored or data_json != data or meta_json != meta:
            return Broken(
                campaign,
                version,
                type_,
                _(
                    "does not match its hash (stored %(stored)s, recomputed %(actual)s)",
                    stored=stored[:12],
                    actual=actual[:12],
                ),
            )
        previous = stored
    return None


# The snapshots table, the same on every engine (each engine's schema ends with it).
SNAPSHOTS_SCHEMA = """
-- head: the hash of the event the state was folded to; digest: sha256 of head and state.
-- A snapshot whose head is not the log's, or whose digest does not hold, is never used.
CREATE TABLE IF NOT EXISTS snapshots (
    campaign    TEXT    NOT NULL,
    fingerprint TEXT    NOT NULL,
    version     INTEGER NOT NULL,
    state       TEXT    NOT NULL,
    head        TEXT    NOT NULL DEFAULT '',
    digest      TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (campaign, fingerprint, version)
);
"""

INSERT = (
    "INSERT INTO events (campaign, version, type, data, meta, recorded_at, hash) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)"
)
COLUMNS = "position, campaign, version, type, data, meta, recorded_at, hash"


def campaign_rows(rows: Iterable[tuple]) -> list[CampaignRow]:
    """CampaignRows from rows of (campaign, system, name, started_at, version, head)."""
    return [
        CampaignRow(campaign, system or "?", name or campaign, version, head, started)
        for campaign, system, name, started, version, head in rows
    ]


def decoded(rows: Iterable[tuple]) -> Iterator[Event]:
    """Events from rows of (position, campaign, version, type, data, meta, recorded_at, hash)."""
    for row in rows:
        event = Event(*row)  # cheaper than unpacking the row into names first
        event.data = decode(event.data)
        yield event
