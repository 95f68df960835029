"""The store's contract: what every engine keeps, and how it is asked.

An engine keeps the append-only log of every campaign (one row per event, chained by hashes
per campaign, versions 1, 2, 3 ... without a gap) and a cache of folded states (snapshots),
and runs other tables' SQL for its callers (`create`, `transaction`, `query`) without
knowing what they hold. What it reads of the log is the same SQL on every engine
(`LogReading`, `CampaignListing`); what differs is below, and in each engine's module.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager
from typing import Any

from tracker.events import NewEvent
from tracker.store.listing import CampaignListing
from tracker.store.reading import LogReading
from tracker.store.records import AppendResult, snapshot_digest


class Store(LogReading, CampaignListing):
    """The contract of an event store (open one with `tracker.store.open_store`).

    Every write of every table goes through `transaction()`, which yields a handle whose
    `execute(sql, args)` takes SQL with `?` placeholders; `query(sql, args)` reads rows.
    Raises `Conflict` and `KeyReused` from `append`, `ReadOnly` from any write to a database
    opened for reading, `Unreachable` when a server does not answer.
    """

    readonly: bool = False
    target: str = ""

    # -- the engine's own: writing, reading, making tables ----------------------------------

    def transaction(self) -> AbstractContextManager[Any]:
        """A write transaction, committed if the block ends, else undone; its handle's
        `execute(sql, args)` takes `?` SQL and gives a cursor. `ReadOnly` when the database
        was opened for reading."""
        raise NotImplementedError

    def query(self, sql: str, args: tuple | list = ()) -> list[tuple]:
        """The rows of a read, in `?` SQL."""
        raise NotImplementedError

    def one(self, sql: str, args: tuple | list = ()) -> tuple | None:
        """The first row of a read, or None."""
        rows = self.query(sql, args)
        return rows[0] if rows else None

    def stream(self, sql: str, args: tuple | list = ()) -> Iterable[tuple]:
        """Rows of a read, streamed where the engine can (else `query`'s list)."""
        return self.query(sql, args)

    def field(self, column: str, name: str) -> str:
        """SQL for the text of the field `name` of the JSON object in `column`."""
        raise NotImplementedError

    def create(self, marker: str, script: str, *, postgresql: str | None = None) -> None:
        """Make a caller's tables: run `script` (or, on PostgreSQL, `postgresql` when its
        SQL differs) unless the table or index `marker`, the last thing the script makes, is
        there already. `ReadOnly` on a database opened for reading."""
        raise NotImplementedError

    def serialise(self, tx, key: str) -> None:
        """Within the write transaction `tx`: writers asking for the same `key` take turns
        until it ends (SQLite's writers take turns anyway)."""

    def finish_request(self) -> None:
        """Leave nothing open on a kept connection at the end of a request."""

    def init(self) -> None:
        """Make the log's and the snapshots' tables, indexes and triggers where missing."""
        raise NotImplementedError

    def initialised(self) -> bool:
        """Whether the database holds a log (made by `init`)."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def append(
        self, campaign: str, events: Iterable[NewEvent], expected_version: int
    ) -> AppendResult:
        """Append events to a campaign in one transaction. `Conflict` (naming both
        versions) when the campaign is not at `expected_version` (0 for a new one); for a
        retry key (meta.retry) used before in the campaign, the first append's result when
        the request (meta.request) is the same, else `KeyReused`."""
        raise NotImplementedError

    def import_rows(self, batches: Iterable[list[tuple]]) -> None:
        """Write whole new campaigns, already chained, in one transaction: all or none."""
        raise NotImplementedError

    def save_snapshots(self, campaign: str, fingerprint: str, states: list[tuple[int, str]]):
        """Keep folded states [(version, state_json)] of a campaign, each bound to its
        event's hash (nothing in a database opened for reading: they are a cache)."""
        raise NotImplementedError

    def wait(self, after: int, timeout: float) -> None:
        """Return once an event after position `after` may exist, or when `timeout` passes."""
        raise NotImplementedError

    def backup(self, path: str, progress: Callable[[int, int], None] | None = None) -> None:
        """A consistent copy of the whole database in a new file at `path`, while writers go
        on writing; `progress(done, total)` as it goes. Only an SQLite store has one."""
        raise NotImplementedError(f"{type(self).__name__} makes no backup file")

    # -- snapshots: a cache, never the truth -------------------------------------------------

    def _bound(self, campaign: str, fingerprint: str, states: list[tuple[int, str]]) -> list:
        """Rows of the snapshots table for folded states, each bound to its event's hash
        (states at a version the log does not hold are left out)."""
        rows = []
        for version, text in states:
            found = self.one(
                "SELECT hash FROM events WHERE campaign = ? AND version = ?", (campaign, version)
            )
            if found is not None:
                head = found[0]
                rows.append(
                    (campaign, fingerprint, version, text, head, snapshot_digest(head, text))
                )
        return rows

    def save_snapshot(self, campaign: str, fingerprint: str, version: int, state_json: str):
        self.save_snapshots(campaign, fingerprint, [(version, state_json)])

    def latest_snapshot(self, campaign: str, fingerprint: str, upto: int) -> tuple[int, str] | None:
        """The latest snapshot at or before `upto` that is bound to the log as it is: its head
        the hash of the log's event at its version, its digest holding. Others are skipped."""
        rows = self.stream(
            "SELECT s.version, s.state, s.digest, s.head FROM snapshots s "
            "JOIN events e ON e.campaign = s.campaign AND e.version = s.version "
            "AND e.hash = s.head "
            "WHERE s.campaign = ? AND s.fingerprint = ? AND s.version <= ? "
            "ORDER BY s.version DESC LIMIT 3",
            (campaign, fingerprint, upto),
        )
        for version, text, digest, head in rows:
            if digest == snapshot_digest(head, text):
                return version, text
        return None

    def snapshots(self, campaign: str) -> Iterator[tuple[str, int, str]]:
        """Every snapshot of a campaign: (fingerprint, version, state_json)."""
        yield from self.stream(
            "SELECT fingerprint, version, state FROM snapshots WHERE campaign = ? "
            "ORDER BY fingerprint, version",
            (campaign,),
        )

    def drop_snapshot(self, campaign: str, fingerprint: str, version: int) -> None:
        if self.readonly:
            return
        with self.transaction() as tx:
            tx.execute(
                "DELETE FROM snapshots WHERE campaign = ? AND fingerprint = ? AND version = ?",
                (campaign, fingerprint, version),
            )

    def drop_snapshots(self, campaign: str | None = None, from_version: int = 0) -> int:
        """Forget cached states (of one campaign from a version on, or all of them)."""
        with self.transaction() as tx:
            if campaign is None:
                return tx.execute("DELETE FROM snapshots").rowcount
            return tx.execute(
                "DELETE FROM snapshots WHERE campaign = ? AND version >= ?",
                (campaign, from_version),
            ).rowcount
