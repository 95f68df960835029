"""What every part of the accounts shares: its errors, its values, its clock and digests, and
the base of each part (`Tables`): the store, a read, a write, and the database's secret."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime

from tracker.errors import TrackerError


class AccountError(TrackerError):
    """A sign-up, log-in or token that cannot be accepted, in plain words."""


class TooManyAttempts(AccountError):
    """Failed log-ins for this name were too many in too short a time."""


class SeatRefused(AccountError):
    """A side that another member plays already, or a member who plays a side already and
    would be moved: refused in words, nothing changed (HTTP 409)."""


class OverLimit(TooManyAttempts):
    """Too many sign-ups from an address, or campaigns started by an account, in too short
    a time; `retry_after`: the seconds until one more is allowed (HTTP 429, Retry-After)."""

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(frozen=True)
class User:
    id: int
    name: str
    #: the language the account reads the tracker in (a code of `i18n.LANGUAGES`), None
    #: while it has not chosen one (the browser's is read then)
    language: str | None = None


@dataclass(frozen=True)
class Membership:
    campaign: str
    user: User
    role: str
    side: str | None


def _now() -> datetime:
    return datetime.now(UTC)


def _iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _digest(secret: str) -> str:
    # Tokens and codes are long random strings: a plain hash is enough to keep them secret.
    return hashlib.sha256(secret.encode()).hexdigest()


class _Rows:
    __slots__ = ("rows",)

    def __init__(self, rows):
        self.rows = rows

    def fetchone(self):
        return self.rows[0] if self.rows else None


class Tables:
    """A part of the accounts over the store's database: read with `store.query`, written in
    `store.transaction()`, as everything that writes."""

    def __init__(self, store):
        self.store = store

    def _read(self, sql: str, args: tuple = ()):
        """One read, its rows as a cursor's `fetchone` gives them (as `tx.execute` does)."""
        rows = self.store.query(sql, args)
        return _Rows(rows)

    def _write(self, sql: str, args: tuple = ()):
        """One statement in a transaction of its own; its cursor (rowcount, rows returned)."""
        with self.store.transaction() as tx:
            return tx.execute(sql, args)

    # -- the database's own secret --------------------------------------------------------

    def secret(self, name: str = "session") -> str:
        """This database's secret of that name, made on first use: kept in the database, so
        that a cookie signed for one database opens nothing in another."""
        row = self.store.one("SELECT value FROM secrets WHERE name = ?", (name,))
        if row is None:
            self._write(
                "INSERT INTO secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
                (name, secrets.token_hex(32)),
            )
            row = self.store.one("SELECT value FROM secrets WHERE name = ?", (name,))
        return row[0]
