"""The store's contract: what every engine keeps, and how it is asked.

An engine keeps the append-only log of every campaign (one row per event, chained by hashes
per campaign, versions 1, 2, 3 ... without a gap), a cache of folded states (snapshots) and
the accounts' tables, and writes all of it through one discipline: `transaction()`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, NamedTuple
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
        return f"{self.campaign}: event {self.version} ({self.type}) {self.reason}"


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
        super().__init__(f"the database {path} may only be read: nothing was written")


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


class Pending(NamedTuple):
    """An append made canonical before it meets the log: rows of (type, data_json,
    meta_json, recorded_at), the expected version, and the retry key and request digest."""

    campaign: str
    rows: list[tuple]
    expected: int
    key: str | None
    request: str | None


def pending(campaign: str, events: Iterable[NewEvent], expected: int) -> Pending:
    """The canonical texts of a batch (what does not depend on the head)."""
    events = list(events)
    if not events:
        raise TrackerError("nothing to append: the batch holds no event")
    now = utcnow()
    rows = [
        (e.type, canonical(e.data), canonical_meta(e.meta), e.recorded_at or now) for e in events
    ]
    meta = events[0].meta
    return Pending(campaign, rows, expected, meta.get("retry"), meta.get("request"))


def chained(request: Pending, version: int, head: str) -> list[tuple]:
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
            return Broken(campaign, expected_version, "?", "is missing from the log")
        try:
            data_json = canonical(decode(data))
            meta_json = canonical(decode(meta))
        except ValueError:
            return Broken(campaign, version, type_, "holds data that is not JSON")
        actual = chain_hash(previous, campaign, version, type_, data_json, meta_json, recorded_at)
        if actual != stored or data_json != data or meta_json != meta:
            return Broken(
                campaign,
                version,
                type_,
                f"does not match its hash (stored {stored[:12]}, recomputed {actual[:12]})",
            )
        previous = stored
    return None


def decoded(rows: Iterable[tuple]) -> Iterator[Event]:
    """Events from rows of (position, campaign, version, type, data, meta, recorded_at, hash)."""
    for row in rows:
        event = Event(*row)  # cheaper than unpacking the row into names first
        event.data = decode(event.data)
        yield event


# The engine classes by name, each given by a function that imports it (PostgreSQL's only
# when asked for): filled in by the package, tracker/store/__init__.py.
ENGINES: dict[str, Callable[[], type]] = {}


class Store:
    """The contract of an event store; `Store(target)` opens the engine `target` names: an
    SQLite file (a path) or a PostgreSQL database (a postgresql:// URL).

    Every write of every table goes through `transaction()`, which yields a handle whose
    `execute(sql, args)` takes SQL with `?` placeholders; `query(sql, args)` reads rows.
    Raises `Conflict` and `KeyReused` from `append`, `ReadOnly` from any write to a database
    opened for reading, `Unreachable` when a server does not answer.
    """

    readonly: bool = False
    target: str = ""

    def __new__(cls, target=None, *args, **kwargs):
        if cls is Store:
            cls = ENGINES["postgresql" if is_url(target) else "sqlite"]()
        return super().__new__(cls)

    # -- the one writer discipline, and plain reads ---------------------------------------

    def transaction(self) -> AbstractContextManager[Any]:
        raise NotImplementedError

    def query(self, sql: str, args: tuple | list = ()) -> list[tuple]:
        raise NotImplementedError

    def one(self, sql: str, args: tuple | list = ()) -> tuple | None:
        rows = self.query(sql, args)
        return rows[0] if rows else None

    def finish_request(self) -> None:
        """Leave nothing open on a kept connection at the end of a request."""

    # -- the contract every engine keeps: see sqlite.py for each method's words ------------

    def init(self) -> None: ...
    def close(self) -> None: ...
    def initialised(self) -> bool: ...
    def append(
        self, campaign: str, events: Iterable[NewEvent], expected_version: int
    ) -> AppendResult: ...
    def import_rows(self, batches: Iterable[list[tuple]]) -> None: ...
    def idempotent(self, campaign: str, key: str) -> AppendResult | None: ...
    def head(self, campaign: str) -> tuple[int, str]: ...
    def ends(self, campaign: str) -> tuple[int, str, str | None]: ...
    def read(self, campaign: str, after: int = 0, upto: int | None = None) -> Iterator[Event]: ...
    def read_all(self, after_position: int = 0) -> Iterator[Event]: ...
    def event(self, campaign: str, version: int) -> Event | None: ...
    def voids(self, campaign: str, upto: int | None = None) -> dict[int, int]: ...
    def campaigns(self) -> list[CampaignRow]: ...
    def campaign(self, campaign: str) -> CampaignRow | None: ...
    def campaign_page(
        self, among: str, args: tuple, *, search: str = "", limit: int = 50, offset: int = 0
    ) -> tuple[list[CampaignRow], int]: ...
    def count(self) -> int: ...
    def verify(self, campaign: str) -> Broken | None: ...
    def save_snapshots(self, campaign: str, fingerprint: str, states: list[tuple[int, str]]): ...
    def latest_snapshot(
        self, campaign: str, fingerprint: str, upto: int
    ) -> tuple[int, str] | None: ...
    def snapshots(self, campaign: str) -> Iterator[tuple[str, int, str]]: ...
    def drop_snapshot(self, campaign: str, fingerprint: str, version: int) -> None: ...
    def drop_snapshots(self, campaign: str | None = None, from_version: int = 0) -> int: ...

    # -- the live-update seam ----------------------------------------------------------------

    def position(self) -> int:
        """The global position of the newest event, 0 when the log is empty."""
        row = self.one("SELECT coalesce(max(position), 0) FROM events")
        return int(row[0])

    def changes(self, after: int) -> list[tuple[int, str, int]]:
        """(position, campaign, version) of each event after global position `after`, in order."""
        rows = self.query(
            "SELECT position, campaign, version FROM events WHERE position > ? ORDER BY position",
            (after,),
        )
        return [(int(p), c, int(v)) for p, c, v in rows]

    def wait(self, after: int, timeout: float) -> None:
        """Return once an event after position `after` may exist, or when `timeout` passes."""
        raise NotImplementedError

    # -- shared words ----------------------------------------------------------------------

    def version(self, campaign: str) -> int:
        return self.head(campaign)[0]

    def exists(self, campaign: str) -> bool:
        return self.head(campaign)[0] > 0

    def save_snapshot(self, campaign: str, fingerprint: str, version: int, state_json: str):
        self.save_snapshots(campaign, fingerprint, [(version, state_json)])
