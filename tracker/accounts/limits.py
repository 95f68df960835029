"""Floods: what an address or an account did lately, counted in the database (sign-ups by
address, campaigns started by account), so that a limit holds across workers and servers."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from tracker.accounts.common import OverLimit, Tables, User, _iso, _now
from tracker.systems.i18n import _, ngettext

# Floods, each limit an app config key with its default here: sign-ups from one address in
# an hour (each costs a password hash), campaigns one account starts in a day (campaign ids
# are global: a flood of starts would squat names).
SIGNUPS_PER_ADDRESS_HOUR = 10
CAMPAIGNS_PER_ACCOUNT_DAY = 20
HOUR, DAY = timedelta(hours=1), timedelta(days=1)


@dataclass(frozen=True)
class Limit:
    """At most `most` of `kind` by one `who` within `window`; `words` the refusal, a
    message filled with `{most}` and `{wait}`."""

    kind: str
    most: int
    window: timedelta
    words: str


def signups_from(most: int) -> Limit:
    return Limit(
        "signup",
        most,
        HOUR,
        _(
            "too many accounts were made from your address: at most {most} an hour; "
            "try again in {wait}"
        ),
    )


def starts_by(most: int) -> Limit:
    return Limit(
        "start",
        most,
        DAY,
        _(
            "you started {most} campaigns in the last 24 hours, as many as one account may; "
            "start the next in {wait}"
        ),
    )


def _wait(seconds: int):
    if seconds >= 3600:
        hours = -(-seconds // 3600)
        return ngettext("%(num)d hour", "%(num)d hours", hours)
    minutes = max(1, -(-seconds // 60))
    return ngettext("%(num)d minute", "%(num)d minutes", minutes)


class Limits(Tables):
    """The flood limits: counted in the transaction that does what they limit."""

    def _within(self, execute, limit: Limit, who: str) -> None:
        """Raise `OverLimit` when `who` did `limit.most` of `limit.kind` in its window
        (`execute`: the store's or a transaction's)."""
        now = _now()
        count, oldest = execute(
            "SELECT count(*), min(at) FROM counted WHERE kind = ? AND who = ? AND at > ?",
            (limit.kind, who, _iso(now - limit.window)),
        ).fetchone()
        if count >= limit.most:
            since = datetime.strptime(oldest, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
            wait = max(1, int((since + limit.window - now).total_seconds()) + 1)
            raise OverLimit(limit.words.format(most=limit.most, wait=_wait(wait)), wait)

    def _count(self, tx, limit: Limit, who: str) -> str:
        """Within the writing transaction `tx`: refuse past the limit, else count one more
        (and forget what is past the window); the new count's mark. Writers take turns on
        the key, so two at once cannot both take the last one."""
        self.store.serialise(tx, f"{limit.kind}\n{who}")
        self._within(tx.execute, limit, who)
        now, mark = _now(), secrets.token_hex(8)
        tx.execute(
            "DELETE FROM counted WHERE kind = ? AND who = ? AND at <= ?",
            (limit.kind, who, _iso(now - limit.window)),
        )
        tx.execute(
            "INSERT INTO counted (kind, who, at, mark) VALUES (?, ?, ?, ?)",
            (limit.kind, who, _iso(now), mark),
        )
        return mark

    def start_allowed(self, user: User, most: int) -> str | None:
        """Count a campaign `user` is about to start, up to `most` a day: `OverLimit` past it,
        and nothing written. Returns the mark to give `unstart` when the start then writes
        no campaign (None: no limit)."""
        if most <= 0:
            return None
        with self.store.transaction() as tx:
            return self._count(tx, starts_by(most), str(user.id))

    def unstart(self, mark: str | None) -> None:
        """A start counted by `start_allowed` that wrote no campaign is not counted."""
        if mark is not None:
            self._write("DELETE FROM counted WHERE kind = 'start' AND mark = ?", (mark,))
