"""Users: sign-up, log-in and passwords, sessions kept on the server, personal access tokens."""

from __future__ import annotations

import secrets
import unicodedata
from datetime import timedelta

from werkzeug.security import check_password_hash, generate_password_hash

from tracker.accounts.common import (
    AccountError,
    TooManyAttempts,
    User,
    _digest,
    _iso,
    _now,
)
from tracker.accounts.limits import Limits, signups_from
from tracker.errors import NotFound
from tracker.systems import i18n, names
from tracker.systems.i18n import _

# A user name: letters of any alphabet (with their accents and marks), digits, dots, dashes
# and underscores, starting with a letter or digit; counted in letters, composed (NFC).
NAME_LENGTH = (2, 32)
NAME_SIGNS = "._-"
# What a user is read as: its id, its name as typed, its language.
_USER = "id, name, language"
TOKEN_DAYS = 90
# A token's label is cut to this; a password is at least this long.
TOKEN_LABEL_LENGTH = 60
PASSWORD_LENGTH = 10
FAILURE_WINDOW = timedelta(minutes=15)
# Wrong passwords allowed in FAILURE_WINDOW: for one name from one address, from one address
# whatever the names (spraying), and for one name from every address together. The owner's
# own address is never locked by what others send; the last limit only slows a crowd.
MAX_FAILURES = 5
MAX_FROM_ADDRESS = 20
MAX_FOR_NAME = 100
# Checked when the name is unknown, so that a wrong name costs what a wrong password costs.
_NOBODY = generate_password_hash("a password nobody has")


class Users(Limits):
    """Accounts and how they prove who they are: passwords, sessions, tokens (a sign-up
    counted against its address's limit)."""

    def sign_up(self, name: str, password: str, address: str | None = None, most: int = 0) -> User:
        """A new account. With `address` and `most`, at most `most` sign-ups from that
        address an hour: `OverLimit` past it, before any password is hashed, and nothing
        written."""
        limit = signups_from(most) if address is not None and most > 0 else None
        if limit is not None:
            self._within(self._read, limit, address)
        name = user_name(name)
        if not isinstance(password, str) or len(password) < PASSWORD_LENGTH:
            raise AccountError(
                _("a password has at least %(length)s characters", length=PASSWORD_LENGTH)
            )
        digest = generate_password_hash(password)
        key = names.key(name)
        with self.store.transaction() as tx:
            if limit is not None:
                self._count(tx, limit, address)
            taken = "SELECT 1 FROM users WHERE name_key = ? OR name = ?"
            if tx.execute(taken, (key, name)).fetchone():
                raise AccountError(_("the name %(name)r is taken", name=name))
            (user_id,) = tx.execute(
                "INSERT INTO users (name, name_key, password_hash, created_at) "
                "VALUES (?, ?, ?, ?) RETURNING id",
                (name, key, digest, _iso(_now())),
            ).fetchone()
        return User(user_id, name)

    def log_in(self, name: str, password: str, address: str = "?") -> User:
        """The user whose password this is; refuses after too many recent failures.

        The password is checked against a hash whether the name exists or not: the answer
        takes the same time either way.
        """
        name = names.key(name if isinstance(name, str) else "")
        since = _iso(_now() - FAILURE_WINDOW)
        (pair, from_address, for_name) = self.store.one(
            "SELECT count(*) FILTER (WHERE name = ? AND address = ?), "
            "count(*) FILTER (WHERE address = ?), count(*) FILTER (WHERE name = ?) "
            "FROM failed_logins WHERE at > ? AND (name = ? OR address = ?)",
            (name, address, address, name, since, name, address),
        )
        if pair >= MAX_FAILURES or from_address >= MAX_FROM_ADDRESS or for_name >= MAX_FOR_NAME:
            raise TooManyAttempts(
                _("too many failed log-ins from here: wait 15 minutes and try again")
            )
        row = self.store.one(
            f"SELECT {_USER}, password_hash FROM users WHERE name_key = ?", (name,)
        )
        matches = check_password_hash(row[3] if row else _NOBODY, password or "")
        if row is None or not matches:
            self._write(
                "INSERT INTO failed_logins (name, address, at) VALUES (?, ?, ?)",
                (name, address, _iso(_now())),
            )
            raise AccountError(_("that name and password do not match"))
        self._write("DELETE FROM failed_logins WHERE name = ? AND address = ?", (name, address))
        return User(*row[:3])

    def change_password(self, user: User, old: str, new: str) -> None:
        """A new password for `user`, who knows the old one; every session of it ends."""
        row = self.store.one("SELECT password_hash FROM users WHERE id = ?", (user.id,))
        if row is None or not check_password_hash(row[0], old or ""):
            raise AccountError(_("the current password is not right"))
        if not isinstance(new, str) or len(new) < PASSWORD_LENGTH:
            raise AccountError(
                _("a password has at least %(length)s characters", length=PASSWORD_LENGTH)
            )
        digest = generate_password_hash(new)
        with self.store.transaction() as tx:
            tx.execute("UPDATE users SET password_hash = ? WHERE id = ?", (digest, user.id))
            tx.execute("DELETE FROM sessions WHERE user_id = ?", (user.id,))

    def set_language(self, user: User, language: str | None) -> None:
        """The language `user` reads the tracker in (a code of `i18n.LANGUAGES`; None: the
        browser's again)."""
        if language is not None and language not in i18n.LANGUAGES:
            raise AccountError(
                _(
                    "the tracker speaks %(languages)s, not %(language)r",
                    languages=", ".join(i18n.LANGUAGES),
                    language=language,
                )
            )
        self._write("UPDATE users SET language = ? WHERE id = ?", (language, user.id))

    # -- sessions: kept on the server, so that logging out ends them -----------------------

    def open_session(self, user: User, hours: float) -> str:
        """A new session of `user`; its id (kept in the signed cookie) is returned once."""
        sid = secrets.token_urlsafe(32)
        now = _now()
        self._write(
            "INSERT INTO sessions (id_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
            (_digest(sid), user.id, _iso(now), _iso(now + timedelta(hours=hours))),
        )
        return sid

    def session_user(self, sid: str) -> User | None:
        """The user of a live session, or None when it ended or expired."""
        row = self.store.one(
            "SELECT u.id, u.name, u.language FROM sessions s JOIN users u ON u.id = s.user_id "
            "WHERE s.id_hash = ? AND s.expires_at > ?",
            (_digest(sid or ""), _iso(_now())),
        )
        return User(*row) if row else None

    def end_session(self, sid: str) -> None:
        self._write("DELETE FROM sessions WHERE id_hash = ?", (_digest(sid or ""),))

    def user(self, user_id: int) -> User | None:
        row = self.store.one(f"SELECT {_USER} FROM users WHERE id = ?", (user_id,))
        return User(*row) if row else None

    def by_name(self, name: str) -> User | None:
        """The user of that name, however it is typed: composed or not, in full-width
        letters, in another case (`tracker.names.key`)."""
        row = self.store.one(f"SELECT {_USER} FROM users WHERE name_key = ?", (names.key(name),))
        return User(*row) if row else None

    # -- personal access tokens ----------------------------------------------------------

    def create_token(self, user: User, label: str, days: int = TOKEN_DAYS) -> str:
        """A new token for the API; the token itself is returned once and never stored."""
        token = "trk_" + secrets.token_urlsafe(32)
        now = _now()
        self._write(
            "INSERT INTO tokens (user_id, label, token_hash, created_at, expires_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (
                user.id,
                (label or "token")[:TOKEN_LABEL_LENGTH],
                _digest(token),
                _iso(now),
                _iso(now + timedelta(days=days)),
            ),
        )
        return token

    def tokens(self, user: User) -> list[dict]:
        rows = self.store.query(
            "SELECT id, label, created_at, expires_at, revoked_at FROM tokens WHERE user_id = ? "
            "ORDER BY id DESC",
            (user.id,),
        )
        return [
            dict(zip(("id", "label", "created_at", "expires_at", "revoked_at"), row))
            for row in rows
        ]

    def revoke_token(self, user: User, token_id: int) -> None:
        cursor = self._write(
            "UPDATE tokens SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL",
            (_iso(_now()), token_id, user.id),
        )
        if cursor.rowcount == 0:
            raise NotFound(_("there is no such token of yours to revoke"))

    def token_user(self, token: str) -> User | None:
        """The user a live (unexpired, unrevoked) token belongs to, or None."""
        row = self.store.one(
            "SELECT u.id, u.name, u.language FROM tokens t JOIN users u ON u.id = t.user_id "
            "WHERE t.token_hash = ? AND t.revoked_at IS NULL AND t.expires_at > ?",
            (_digest(token), _iso(_now())),
        )
        return User(*row) if row else None


def user_name(name) -> str:
    """`name` as an account keeps it (composed, NFC), or `AccountError` saying why not."""
    if not isinstance(name, str):
        name = ""
    refused = names.refusal(_("a user name"), name)
    if refused is not None:
        raise AccountError(refused)
    name = names.normal(name)
    least, most = NAME_LENGTH
    if not (
        least <= len(name) <= most
        and name[0].isalnum()
        and all(c.isalnum() or c in NAME_SIGNS or unicodedata.category(c)[0] == "M" for c in name)
    ):
        raise AccountError(
            _(
                "a user name is %(least)s to %(most)s letters (of any alphabet), digits, dots, "
                "dashes or underscores, starting with a letter or digit",
                least=least,
                most=most,
            )
        )
    return name
