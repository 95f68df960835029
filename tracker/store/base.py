"""The store's contract: what every engine keeps, and how it is asked.

An engine keeps the append-only log of every campaign (one row per event, chained by hashes
per campaign, versions 1, 2, 3 ... without a gap), a cache of folded states (snapshots) and
the accounts' tables, and writes all of it through one discipline: `transaction()`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, NamedTuple
from urllib.parse import urlsplit

from tracker.errors import Conflict, KeyReused, TrackerError
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


def _rows_of_campaigns(rows: Iterable[tuple]) -> list[CampaignRow]:
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

    def serialise(self, tx, key: str) -> None:
        """Within the write transaction `tx`: writers asking for the same `key` take turns
        until it ends (SQLite's writers take turns anyway)."""

    def finish_request(self) -> None:
        """Leave nothing open on a kept connection at the end of a request."""

    # -- what differs per engine, and what each engine writes itself ------------------------

    # The largest version a query's upper bound may name.
    NO_LIMIT: int = 2**31 - 1
    # The operator that matches a pattern without regard to the case of ASCII letters.
    LIKE: str = "LIKE"
    # A row when the table named by the one argument exists.
    TABLE_EXISTS: str = ""

    def stream(self, sql: str, args: tuple | list = ()) -> Iterable[tuple]:
        """Rows of a read, streamed where the engine can (else `query`'s list)."""
        return self.query(sql, args)

    def field(self, column: str, name: str) -> str:
        """SQL for the text of the field `name` of the JSON object in `column`."""
        raise NotImplementedError

    def init(self) -> None: ...
    def close(self) -> None: ...
    def initialised(self) -> bool: ...
    def append(
        self, campaign: str, events: Iterable[NewEvent], expected_version: int
    ) -> AppendResult: ...
    def import_rows(self, batches: Iterable[list[tuple]]) -> None: ...
    def save_snapshots(self, campaign: str, fingerprint: str, states: list[tuple[int, str]]): ...

    # -- the log: the same SQL on every engine ----------------------------------------------

    def idempotent(self, campaign: str, key: str) -> AppendResult | None:
        """The earlier append that carried the retry key `key` (meta.retry), or None."""
        row = self.one(
            "SELECT min(version), max(version) FROM events "
            f"WHERE campaign = ? AND {self.field('meta', 'retry')} = ?",
            (campaign, key),
        )
        if row is None or row[0] is None:
            return None
        (head,) = self.one(
            "SELECT hash FROM events WHERE campaign = ? AND version = ?", (campaign, row[1])
        )
        (request,) = self.one(
            f"SELECT {self.field('meta', 'request')} FROM events "
            "WHERE campaign = ? AND version = ?",
            (campaign, row[0]),
        )
        return AppendResult(campaign, row[0], row[1], head, replayed=True, request=request)

    def _replay(self, request: Pending) -> AppendResult | None:
        """The first append's result when `request` retries it with the same retry key and
        request, else None; `KeyReused` when the key was used by another request."""
        if request.key is None:
            return None
        earlier = self.idempotent(request.campaign, request.key)
        if earlier is not None and earlier.request != request.request:
            raise KeyReused("(the one sent)")
        return earlier

    def _check_new(self, rows: list[tuple]) -> None:
        """Raise `Conflict` unless each campaign an import's rows begin finds it empty."""
        for row in rows:
            if row[1] == 1:
                version, _ = self.head(row[0])
                if version != 0:
                    raise Conflict(row[0], 0, version)

    def head(self, campaign: str) -> tuple[int, str]:
        """The campaign's version and head hash; (0, genesis) when it has no events."""
        row = self.one(
            "SELECT version, hash FROM events WHERE campaign = ? ORDER BY version DESC LIMIT 1",
            (campaign,),
        )
        return (row[0], row[1]) if row else (0, GENESIS)

    def ends(self, campaign: str) -> tuple[int, str, str | None]:
        """The campaign's version, head hash and first event's hash, in one query."""
        row = self.one(
            "SELECT version, hash, (SELECT hash FROM events WHERE campaign = ? AND version = 1) "
            "FROM events WHERE campaign = ? ORDER BY version DESC LIMIT 1",
            (campaign, campaign),
        )
        return tuple(row) if row else (0, GENESIS, None)

    def read(self, campaign: str, after: int = 0, upto: int | None = None) -> Iterator[Event]:
        """The campaign's events with after < version <= upto, in order, streamed."""
        if upto is None:
            rows = self.stream(
                f"SELECT {COLUMNS} FROM events WHERE campaign = ? AND version > ? ORDER BY version",
                (campaign, after),
            )
        else:
            rows = self.stream(
                f"SELECT {COLUMNS} FROM events WHERE campaign = ? AND version > ? AND version <= ? "
                "ORDER BY version",
                (campaign, after, upto),
            )
        yield from decoded(rows)

    def read_all(self, after_position: int = 0) -> Iterator[Event]:
        """Every campaign's events in global order, from after `after_position`, streamed."""
        rows = self.stream(
            f"SELECT {COLUMNS} FROM events WHERE position > ? ORDER BY position",
            (after_position,),
        )
        yield from decoded(rows)

    def event(self, campaign: str, version: int) -> Event | None:
        row = self.one(
            f"SELECT {COLUMNS} FROM events WHERE campaign = ? AND version = ?",
            (campaign, version),
        )
        if row is None:
            return None
        return Event(row[0], row[1], row[2], row[3], decode(row[4]), row[5], row[6], row[7])

    def voids(self, campaign: str, upto: int | None = None) -> dict[int, int]:
        """Voided versions of a campaign, as of `upto`: voided version -> version of the void."""
        rows = self.stream(
            "SELECT version, data FROM events WHERE campaign = ? AND type = 'EventVoided' "
            "AND version <= ?",
            (campaign, upto if upto is not None else self.NO_LIMIT),
        )
        return {json.loads(data)["version"]: version for version, data in rows}

    def count(self) -> int:
        return int(self.one("SELECT count(*) FROM events")[0])

    def verify(self, campaign: str) -> Broken | None:
        """Recompute a campaign's hash chain; the first event that does not match, or None."""
        rows = self.stream(
            "SELECT version, type, data, meta, recorded_at, hash FROM events "
            "WHERE campaign = ? ORDER BY version",
            (campaign,),
        )
        return check_chain(campaign, rows)

    def keeps_heads(self) -> bool:
        """Whether the database keeps each campaign's head beside the log (`heads`)."""
        return bool(self.one(self.TABLE_EXISTS, ("heads",)))

    def heads_differ(self, campaign: str | None = None) -> list[str]:
        """Each campaign (or only `campaign`) whose log does not end where the database's
        record of its head (`heads`, kept in the transaction of every insert) says it ended,
        in words: events gone, fewer or rewritten. Empty when every log ends at its head."""
        only, args = ("WHERE campaign = ?", (campaign,)) if campaign else ("", ())
        recorded = {c: (v, h) for c, v, h in self.query(f"SELECT * FROM heads {only}", args)}
        logged = {
            c: (v, h)
            for c, v, h in self.query(
                "SELECT e.campaign, e.version, e.hash FROM events e JOIN (SELECT campaign, "
                f"max(version) AS version FROM events {only} GROUP BY campaign) m "
                "ON m.campaign = e.campaign AND m.version = e.version",
                args,
            )
        }
        found = []
        for cid in sorted(recorded.keys() | logged.keys()):
            was, now = recorded.get(cid), logged.get(cid)
            if was == now:
                continue
            if was is None:
                found.append(f"campaign {cid}: the log holds it, but no head was ever recorded")
                continue
            ended = f"its head was event {was[0]} ({was[1][:12]})"
            if now is None:
                found.append(f"campaign {cid}: the log holds none of its events, but {ended}")
            elif now[0] < was[0]:
                found.append(f"campaign {cid}: the log ends at event {now[0]}, but {ended}")
            elif now[0] > was[0]:
                found.append(
                    f"campaign {cid}: the log goes on to event {now[0]}, past its recorded "
                    f"head (event {was[0]}): events were added behind the tracker's back"
                )
            else:
                found.append(
                    f"campaign {cid}: event {now[0]} has the hash {now[1][:12]}, but {ended}: "
                    "the log was rewritten"
                )
        return found

    # -- campaigns: each one's first event and its head -------------------------------------

    def campaigns(self) -> list[CampaignRow]:
        """One row per campaign: its system and name (from its first event), version, head."""
        return self._campaign_rows("", ())

    def campaign(self, campaign: str, firsts=None) -> CampaignRow | None:
        """The row of one campaign, or None: its first event and its head, found by the
        log's (campaign, version) key, whatever the log holds besides (`firsts`: as in
        `_rows_of`)."""
        rows = self._rows_of("SELECT ? AS campaign", (campaign,), firsts=firsts)
        return rows[0] if rows else None

    def _first_fields(self) -> str:
        return f"f.campaign, {self.field('f.data', 'system')}, {self.field('f.data', 'name')}"

    def _rows_of(
        self, ids: str, args: tuple | list, tail: str = "", firsts=None
    ) -> list[CampaignRow]:
        """The rows of the campaigns whose ids the query `ids` gives, each read by the log's
        (campaign, version) key: its first event and its head.

        The game and the name are in the first event's data, which never changes: they are
        taken from `firsts` (a `tracker.cache.StateCache`, keyed by the first event's hash)
        where it knows them, and the others read in one more query and told to it, so a
        page does not decode every first event of it on every visit."""
        rows = self.query(
            f"""
            SELECT f.campaign, f.hash, f.recorded_at, h.version, h.hash
            FROM ({ids}) ids
            JOIN events f ON f.campaign = ids.campaign AND f.version = 1
            JOIN events h ON h.campaign = ids.campaign AND h.version = (
                SELECT max(m.version) FROM events m WHERE m.campaign = ids.campaign)
            {tail}
            """,
            args,
        )
        firsts_of = {campaign: first for campaign, first, *_ in rows}
        known = {}  # campaign: (system, name)
        for campaign, first in firsts_of.items() if firsts is not None else ():
            if (game_and_name := firsts.first(first)) is not None:
                known[campaign] = game_and_name
        missing = [campaign for campaign in firsts_of if campaign not in known]
        if missing:
            marks = ", ".join("?" * len(missing))
            query = f"SELECT {self._first_fields()} FROM events f WHERE f.version = 1"
            for campaign, system, name in self.query(
                f"{query} AND f.campaign IN ({marks})", missing
            ):
                known[campaign] = (system, name)
                if firsts is not None:
                    firsts.remember_first(firsts_of[campaign], system, name)
        return _rows_of_campaigns(
            (campaign, *known[campaign], started, version, head)
            for campaign, _, started, version, head in rows
        )

    def campaign_page(
        self,
        among: list[tuple[str, tuple]],
        *,
        search: str = "",
        game: str = "",
        after: str | None = None,
        before: str | None = None,
        limit: int = 50,
        firsts=None,
    ) -> tuple[list[CampaignRow], bool]:
        """A page of campaigns by id (A to Z): those that any of the queries `among` gives
        (each `(sql, args)` selecting a column `campaign`), whose name or id holds `search`
        (whatever the case of its ASCII letters) and whose game is `game` (when given), after
        the id `after` (or before the id `before`, the page just before it); and whether
        there are more beyond the page (after it, or before it when paging back).

        Each query of `among` is read in the order of the id from the cursor on, at most a
        page of it: a page costs what it shows (plus what the search passes over), not what
        the database holds, provided each query is read by an index on its ids (see the
        accounts' `*_query`)."""
        back = before is not None
        cursor, order = (before, "DESC") if back else (after, "ASC")
        arms, params = [], []
        where, these = self._page_filter(search, game, cursor, back)  # the same for each
        for sql, args in among:
            arms.append(
                f"SELECT campaign FROM (SELECT a.campaign FROM ({sql}) a "
                f"JOIN events f ON f.campaign = a.campaign AND f.version = 1 "
                f"WHERE {where} ORDER BY a.campaign {order} LIMIT ?) arm{len(arms)}"
            )
            params += [*args, *these, limit + 1]
        ids = " UNION ".join(arms)
        tail = f"ORDER BY ids.campaign {order} LIMIT ?"
        rows = self._rows_of(ids, [*params, limit + 1], tail, firsts)
        more = len(rows) > limit
        rows = rows[:limit]
        return (rows[::-1] if back else rows), more

    def _page_filter(self, search: str, game: str, cursor: str | None, back: bool):
        """The WHERE of one query of a page of campaigns, and its arguments."""
        where, params = ["1 = 1"], []
        if cursor is not None:
            where.append("a.campaign < ?" if back else "a.campaign > ?")
            params.append(cursor)
        if search:
            escaped = search.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            where.append(
                f"({self.field('f.data', 'name')} {self.LIKE} ? ESCAPE '\\'"
                f" OR a.campaign {self.LIKE} ? ESCAPE '\\')"
            )
            params += [f"%{escaped}%"] * 2
        if game:
            where.append(f"{self.field('f.data', 'system')} = ?")
            params.append(game)
        return " AND ".join(where), params

    def _campaign_rows(self, where: str, args: tuple) -> list[CampaignRow]:
        rows = self.query(
            f"""
            SELECT {self._first_fields()}, f.recorded_at, h.version, h.hash
            FROM events f
            JOIN (SELECT campaign, max(version) AS version FROM events GROUP BY campaign) m
                ON m.campaign = f.campaign
            JOIN events h ON h.campaign = m.campaign AND h.version = m.version
            WHERE f.version = 1 {where}
            ORDER BY f.position
            """,
            args,
        )
        return _rows_of_campaigns(rows)

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
