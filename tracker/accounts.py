"""Accounts, personal access tokens, campaign membership and invitations.

Kept in the same SQLite file as the log, in tables of their own: who may see and record a
campaign is not a fact of the game, so it is not in the campaign's log. Every event's meta
still names the account that appended it.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from werkzeug.security import check_password_hash, generate_password_hash

from tracker.errors import NotFound, TrackerError

SCHEMA = """
CREATE TABLE IF NOT EXISTS users (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    password_hash TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tokens (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES users(id),
    label TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    revoked_at TEXT
);
CREATE TABLE IF NOT EXISTS members (
    campaign TEXT NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users(id),
    role TEXT NOT NULL CHECK (role IN ('organiser', 'player')),
    side TEXT,
    PRIMARY KEY (campaign, user_id)
);
CREATE TABLE IF NOT EXISTS invitations (
    code_hash TEXT PRIMARY KEY,
    campaign TEXT NOT NULL,
    side TEXT,
    created_by INTEGER NOT NULL REFERENCES users(id),
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_by INTEGER REFERENCES users(id)
);
CREATE TABLE IF NOT EXISTS campaign_access (
    campaign TEXT PRIMARY KEY,
    public INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS failed_logins (
    name TEXT NOT NULL COLLATE NOCASE,
    address TEXT NOT NULL,
    at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS failed_logins_by_name ON failed_logins (name, at);
CREATE INDEX IF NOT EXISTS failed_logins_by_address ON failed_logins (address, at);
CREATE TABLE IF NOT EXISTS sessions (
    id_hash TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{1,31}$")
TOKEN_DAYS = 90
INVITATION_DAYS = 14
FAILURE_WINDOW = timedelta(minutes=15)
# Wrong passwords allowed in FAILURE_WINDOW: for one name from one address, from one address
# whatever the names (spraying), and for one name from every address together. The owner's
# own address is never locked by what others send; the last limit only slows a crowd.
MAX_FAILURES = 5
MAX_FROM_ADDRESS = 20
MAX_FOR_NAME = 100
# Checked when the name is unknown, so that a wrong name costs what a wrong password costs.
_NOBODY = generate_password_hash("a password nobody has")


class AccountError(TrackerError):
    """A sign-up, log-in or token that cannot be accepted, in plain words."""


class TooManyAttempts(AccountError):
    """Failed log-ins for this name were too many in too short a time."""


@dataclass(frozen=True)
class User:
    id: int
    name: str


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


class Accounts:
    """Users and their rights, over the store's connection."""

    def __init__(self, conn):
        self.conn = conn

    def init(self) -> None:
        self.conn.executescript(SCHEMA)

    # -- users -------------------------------------------------------------------------

    def sign_up(self, name: str, password: str) -> User:
        if not isinstance(name, str) or not NAME.match(name):
            raise AccountError(
                "a user name is 2 to 32 letters, digits, dots, dashes or "
                "underscores, starting with a letter or digit"
            )
        if not isinstance(password, str) or len(password) < 10:
            raise AccountError("a password has at least 10 characters")
        if self.conn.execute("SELECT 1 FROM users WHERE name = ?", (name,)).fetchone():
            raise AccountError(f"the name {name!r} is taken")
        cursor = self.conn.execute(
            "INSERT INTO users (name, password_hash, created_at) VALUES (?, ?, ?)",
            (name, generate_password_hash(password), _iso(_now())),
        )
        return User(cursor.lastrowid, name)

    def log_in(self, name: str, password: str, address: str = "?") -> User:
        """The user whose password this is; refuses after too many recent failures.

        The password is checked against a hash whether the name exists or not: the answer
        takes the same time either way.
        """
        name = name or ""
        since = _iso(_now() - FAILURE_WINDOW)
        (pair, from_address, for_name) = self.conn.execute(
            "SELECT count(*) FILTER (WHERE name = ?1 AND address = ?2), "
            "count(*) FILTER (WHERE address = ?2), count(*) FILTER (WHERE name = ?1) "
            "FROM failed_logins WHERE at > ?3 AND (name = ?1 OR address = ?2)",
            (name, address, since),
        ).fetchone()
        if pair >= MAX_FAILURES or from_address >= MAX_FROM_ADDRESS or for_name >= MAX_FOR_NAME:
            raise TooManyAttempts(
                "too many failed log-ins from here: wait 15 minutes and try again"
            )
        row = self.conn.execute(
            "SELECT id, name, password_hash FROM users WHERE name = ?", (name,)
        ).fetchone()
        matches = check_password_hash(row[2] if row else _NOBODY, password or "")
        if row is None or not matches:
            self.conn.execute(
                "INSERT INTO failed_logins (name, address, at) VALUES (?, ?, ?)",
                (name, address, _iso(_now())),
            )
            raise AccountError("that name and password do not match")
        self.conn.execute(
            "DELETE FROM failed_logins WHERE name = ? AND address = ?", (name, address)
        )
        return User(row[0], row[1])

    def change_password(self, user: User, old: str, new: str) -> None:
        """A new password for `user`, who knows the old one; every session of it ends."""
        row = self.conn.execute(
            "SELECT password_hash FROM users WHERE id = ?", (user.id,)
        ).fetchone()
        if row is None or not check_password_hash(row[0], old or ""):
            raise AccountError("the current password is not right")
        if not isinstance(new, str) or len(new) < 10:
            raise AccountError("a password has at least 10 characters")
        self.conn.execute(
            "UPDATE users SET password_hash = ? WHERE id = ?",
            (generate_password_hash(new), user.id),
        )
        self.end_sessions(user)

    # -- sessions: kept on the server, so that logging out ends them -----------------------

    def open_session(self, user: User, hours: float) -> str:
        """A new session of `user`; its id (kept in the signed cookie) is returned once."""
        sid = secrets.token_urlsafe(32)
        now = _now()
        self.conn.execute(
            "INSERT INTO sessions (id_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
            (_digest(sid), user.id, _iso(now), _iso(now + timedelta(hours=hours))),
        )
        return sid

    def session_user(self, sid: str) -> User | None:
        """The user of a live session, or None when it ended or expired."""
        row = self.conn.execute(
            "SELECT u.id, u.name FROM sessions s JOIN users u ON u.id = s.user_id "
            "WHERE s.id_hash = ? AND s.expires_at > ?",
            (_digest(sid or ""), _iso(_now())),
        ).fetchone()
        return User(*row) if row else None

    def end_session(self, sid: str) -> None:
        self.conn.execute("DELETE FROM sessions WHERE id_hash = ?", (_digest(sid or ""),))

    def end_sessions(self, user: User) -> None:
        """Every session of `user` ends (a password change, say)."""
        self.conn.execute("DELETE FROM sessions WHERE user_id = ?", (user.id,))

    # -- the database's own secret --------------------------------------------------------

    def secret(self, name: str = "session") -> str:
        """This database's secret of that name, made on first use: kept in the database, so
        that a cookie signed for one database opens nothing in another."""
        self.conn.execute(
            "INSERT OR IGNORE INTO secrets (name, value) VALUES (?, ?)",
            (name, secrets.token_hex(32)),
        )
        (value,) = self.conn.execute("SELECT value FROM secrets WHERE name = ?", (name,)).fetchone()
        return value

    def user(self, user_id: int) -> User | None:
        row = self.conn.execute("SELECT id, name FROM users WHERE id = ?", (user_id,)).fetchone()
        return User(*row) if row else None

    def by_name(self, name: str) -> User | None:
        row = self.conn.execute("SELECT id, name FROM users WHERE name = ?", (name,)).fetchone()
        return User(*row) if row else None

    # -- personal access tokens ----------------------------------------------------------

    def create_token(self, user: User, label: str, days: int = TOKEN_DAYS) -> str:
        """A new token for the API; the token itself is returned once and never stored."""
        token = "trk_" + secrets.token_urlsafe(32)
        now = _now()
        self.conn.execute(
            "INSERT INTO tokens (user_id, label, token_hash, created_at, expires_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (
                user.id,
                (label or "token")[:60],
                _digest(token),
                _iso(now),
                _iso(now + timedelta(days=days)),
            ),
        )
        return token

    def tokens(self, user: User) -> list[dict]:
        rows = self.conn.execute(
            "SELECT id, label, created_at, expires_at, revoked_at FROM tokens WHERE user_id = ? "
            "ORDER BY id DESC",
            (user.id,),
        ).fetchall()
        return [
            dict(zip(("id", "label", "created_at", "expires_at", "revoked_at"), row))
            for row in rows
        ]

    def revoke_token(self, user: User, token_id: int) -> None:
        cursor = self.conn.execute(
            "UPDATE tokens SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL",
            (_iso(_now()), token_id, user.id),
        )
        if cursor.rowcount == 0:
            raise NotFound("there is no such token of yours to revoke")

    def token_user(self, token: str) -> User | None:
        """The user a live (unexpired, unrevoked) token belongs to, or None."""
        row = self.conn.execute(
            "SELECT u.id, u.name FROM tokens t JOIN users u ON u.id = t.user_id "
            "WHERE t.token_hash = ? AND t.revoked_at IS NULL AND t.expires_at > ?",
            (_digest(token), _iso(_now())),
        ).fetchone()
        return User(*row) if row else None

    # -- campaigns -------------------------------------------------------------------------

    def add_member(self, campaign: str, user: User, role: str, side: str | None = None):
        self.conn.execute(
            "INSERT INTO members (campaign, user_id, role, side) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (campaign, user_id) DO UPDATE SET role = excluded.role, "
            "side = coalesce(excluded.side, members.side)",
            (campaign, user.id, role, side),
        )

    def claim_side(self, campaign: str, user: User, side: str) -> None:
        self.conn.execute(
            "UPDATE members SET side = ? WHERE campaign = ? AND user_id = ? AND side IS NULL",
            (side, campaign, user.id),
        )

    def set_side(self, campaign: str, user: User, side: str | None) -> None:
        """The side a member plays (None: none, an organiser who only referees)."""
        cursor = self.conn.execute(
            "UPDATE members SET side = ? WHERE campaign = ? AND user_id = ?",
            (side, campaign, user.id),
        )
        if cursor.rowcount == 0:
            raise NotFound(f"{user.name} is not a member of {campaign!r}")

    def remove_member(self, campaign: str, user: User) -> None:
        cursor = self.conn.execute(
            "DELETE FROM members WHERE campaign = ? AND user_id = ?", (campaign, user.id)
        )
        if cursor.rowcount == 0:
            raise NotFound(f"{user.name} is not a member of {campaign!r}")

    def membership(self, campaign: str, user: User | None) -> Membership | None:
        if user is None:
            return None
        row = self.conn.execute(
            "SELECT role, side FROM members WHERE campaign = ? AND user_id = ?", (campaign, user.id)
        ).fetchone()
        return Membership(campaign, user, row[0], row[1]) if row else None

    def members(self, campaign: str) -> list[Membership]:
        rows = self.conn.execute(
            "SELECT u.id, u.name, m.role, m.side FROM members m JOIN users u ON u.id = m.user_id "
            "WHERE m.campaign = ? ORDER BY m.role DESC, u.name",
            (campaign,),
        ).fetchall()
        return [Membership(campaign, User(r[0], r[1]), r[2], r[3]) for r in rows]

    def campaigns_of(self, user: User | None) -> set[str]:
        if user is None:
            return set()
        return {
            row[0]
            for row in self.conn.execute(
                "SELECT campaign FROM members WHERE user_id = ?", (user.id,)
            )
        }

    def member_of_query(self, user: User) -> tuple[str, tuple]:
        """The ids of the campaigns `user` is a member of, as a query and its arguments (for
        a store to page through without reading them all)."""
        return "SELECT campaign FROM members WHERE user_id = ?", (user.id,)

    def public_query(self, but_of: User | None) -> tuple[str, tuple]:
        """The ids of the public campaigns, but for those `but_of` is a member of."""
        if but_of is None:
            return "SELECT campaign FROM campaign_access WHERE public = 1", ()
        return (
            "SELECT campaign FROM campaign_access WHERE public = 1 AND campaign NOT IN "
            "(SELECT campaign FROM members WHERE user_id = ?)",
            (but_of.id,),
        )

    def is_public(self, campaign: str) -> bool:
        row = self.conn.execute(
            "SELECT public FROM campaign_access WHERE campaign = ?", (campaign,)
        ).fetchone()
        return bool(row and row[0])

    def public_campaigns(self) -> set[str]:
        return {
            row[0]
            for row in self.conn.execute("SELECT campaign FROM campaign_access WHERE public = 1")
        }

    def set_public(self, campaign: str, public: bool) -> None:
        self.conn.execute(
            "INSERT INTO campaign_access (campaign, public) VALUES (?, ?) "
            "ON CONFLICT (campaign) DO UPDATE SET public = excluded.public",
            (campaign, int(bool(public))),
        )

    # -- invitations -------------------------------------------------------------------------

    def invite(self, campaign: str, by: User, side: str | None = None) -> str:
        """A new invitation code (shown once) for a player, with the side it will play."""
        code = secrets.token_urlsafe(12)
        now = _now()
        self.conn.execute(
            "INSERT INTO invitations (code_hash, campaign, side, created_by, created_at, "
            "expires_at) VALUES (?, ?, ?, ?, ?, ?)",
            (
                _digest(code),
                campaign,
                side or None,
                by.id,
                _iso(now),
                _iso(now + timedelta(days=INVITATION_DAYS)),
            ),
        )
        return code

    def invitations(self, campaign: str) -> list[dict]:
        """The campaign's open invitations (unused, unexpired): id, side, made, expires."""
        rows = self.conn.execute(
            "SELECT rowid, side, created_at, expires_at FROM invitations "
            "WHERE campaign = ? AND used_by IS NULL AND expires_at > ? ORDER BY rowid",
            (campaign, _iso(_now())),
        ).fetchall()
        return [dict(zip(("id", "side", "created_at", "expires_at"), row)) for row in rows]

    def revoke_invitation(self, campaign: str, invitation: int) -> dict:
        """An open invitation of the campaign ends now; returns what it was."""
        found = [i for i in self.invitations(campaign) if i["id"] == invitation]
        if not found:
            raise NotFound("there is no such open invitation to this campaign")
        self.conn.execute(
            "UPDATE invitations SET expires_at = ? WHERE rowid = ?", (_iso(_now()), invitation)
        )
        return found[0]

    def invitation(self, code: str) -> dict | None:
        """What an open invitation code is for (campaign, side), or None."""
        row = self.conn.execute(
            "SELECT campaign, side FROM invitations WHERE code_hash = ? AND used_by IS NULL "
            "AND expires_at > ?",
            (_digest(code or ""), _iso(_now())),
        ).fetchone()
        return {"campaign": row[0], "side": row[1]} if row else None

    def accept(self, code: str, user: User) -> Membership:
        row = self.conn.execute(
            "SELECT campaign, side, expires_at, used_by FROM invitations WHERE code_hash = ?",
            (_digest(code or ""),),
        ).fetchone()
        if row is None or row[3] is not None or row[2] <= _iso(_now()):
            raise AccountError(
                "this invitation is unknown, used or expired: ask the organiser for a new one"
            )
        campaign, side = row[0], row[1]
        current = self.membership(campaign, user)
        if current is None or current.role != "organiser":
            self.add_member(campaign, user, "player", side)
        self.conn.execute(
            "UPDATE invitations SET used_by = ? WHERE code_hash = ?", (user.id, _digest(code))
        )
        return self.membership(campaign, user)
