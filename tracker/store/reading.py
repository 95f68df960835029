"""Reading the log: the same SQL on every engine, through the engine's `query`, `one`,
`stream` and `field` (see `Store`)."""

from __future__ import annotations

import json
from collections.abc import Iterator

from tracker.errors import Conflict, KeyReused
from tracker.events import GENESIS, Event
from tracker.store.records import (
    COLUMNS,
    AppendRequest,
    AppendResult,
    Broken,
    check_chain,
    decoded,
)
from tracker.systems.i18n import _


class LogReading:
    """What the store reads of the log: heads, events, voids, chains, the global order.

    Engine-neutral: it only asks the engine's `query`, `one`, `stream` and `field`."""

    # The largest version a query's upper bound may name.
    NO_LIMIT: int = 2**31 - 1
    # A row when the table named by the one argument exists.
    TABLE_EXISTS: str = ""

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

    def _replay(self, request: AppendRequest) -> AppendResult | None:
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

    def event(self, campaign: str, version: int) -> Event | None:
        row = self.one(
            f"SELECT {COLUMNS} FROM events WHERE campaign = ? AND version = ?",
            (campaign, version),
        )
        return None if row is None else next(decoded([row]))

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
                found.append(
                    _(
                        "campaign %(campaign)s: the log holds it, but no head was ever recorded",
                        campaign=cid,
                    )
                )
                continue
            ended = _("its head was event %(version)s (%(head)s)", version=was[0], head=was[1][:12])
            if now is None:
                found.append(
                    _(
                        "campaign %(campaign)s: the log holds none of its events, but %(ended)s",
                        campaign=cid,
                        ended=ended,
                    )
                )
            elif now[0] < was[0]:
                found.append(
                    _(
                        "campaign %(campaign)s: the log ends at event %(version)s, but %(ended)s",
                        campaign=cid,
                        version=now[0],
                        ended=ended,
                    )
                )
            elif now[0] > was[0]:
                found.append(
                    _(
                        "campaign %(campaign)s: the log goes on to event %(version)s, past its "
                        "recorded head (event %(was)s): events were added behind the tracker's "
                        "back",
                        campaign=cid,
                        version=now[0],
                        was=was[0],
                    )
                )
            else:
                found.append(
                    _(
                        "campaign %(campaign)s: event %(version)s has the hash %(head)s, but "
                        "%(ended)s: the log was rewritten",
                        campaign=cid,
                        version=now[0],
                        head=now[1][:12],
                        ended=ended,
                    )
                )
        return found

    # -- the global order, for live updates -----------------------------------------------

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

    def version(self, campaign: str) -> int:
        return self.head(campaign)[0]

    def exists(self, campaign: str) -> bool:
        return self.head(campaign)[0] > 0
