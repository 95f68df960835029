"""Invitations: a code for one player and its side, or a group link for several, each
choosing a free side; used up as the player joins, in one transaction."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from datetime import timedelta

from tracker.accounts.common import (
    AccountError,
    Membership,
    SeatRefused,
    User,
    _digest,
    _iso,
    _now,
)
from tracker.accounts.seats import _JOIN, Seats, _names
from tracker.errors import NotFound
from tracker.systems.i18n import _

INVITATION_DAYS = 14
# How many players one group link may let in.
GROUP_USES = range(2, 21)


def _member_already(role: str, plays: str | None, offered: str | None, sides: dict) -> str:
    """Why an invitation does nothing for one who is a member of its campaign already."""
    if plays is not None:
        where = sides.get(plays, plays)
        if offered not in (None, plays):
            return _(
                "you play %(side)s in this campaign already: an invitation never moves a player "
                "to %(offered)s; nothing was changed (if the link was meant for somebody else, "
                "send it on)",
                side=where,
                offered=sides.get(offered, offered),
            )
        return _(
            "you play %(side)s in this campaign already: an invitation never moves a player; "
            "nothing was changed (if the link was meant for somebody else, send it on)",
            side=where,
        )
    if role == "organiser":
        return _(
            "you organise this campaign already: take a seat of your own on its Members page; "
            "nothing was changed (if the link was meant for a player, send it on)"
        )
    return _(
        "you are a member of this campaign already: the organiser gives you a side on its "
        "Members page; nothing was changed"
    )


def _spent(group: tuple | None) -> str:
    """Why a used invitation lets nobody in any more."""
    if group is None:
        return _("this invitation is unknown, used or expired: ask the organiser for a new one")
    return _(
        "this group link has let in the %(num)s players it was made for, so it lets nobody "
        "else in: ask the organiser for a new one; nothing was changed",
        num=group[0],
    )


class Invitations(Seats):
    """Invitations and group links to a campaign, and joining by them."""

    #
    # A code is derived from the database's own secret and its invitation's row (an HMAC), and
    # only its digest is kept: the join page checks the digest, and the organiser's Members
    # page derives the code again to show its link once more, until it is used, expires or is
    # revoked. A code made before codes were derived (a random one) is shown once only.

    def _key(self) -> bytes | None:
        """The secret invitation codes are derived from, or None before the first is made."""
        row = self.store.one("SELECT value FROM secrets WHERE name = 'invitations'")
        return row[0].encode() if row else None

    @staticmethod
    def _code(key: bytes, number: int, campaign: str, created_at: str) -> str:
        message = f"invitation\n{number}\n{campaign}\n{created_at}".encode()
        mac = hmac.new(key, message, hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac[:12]).decode()

    def invite(
        self, campaign: str, by: User, side: str | None = None, sides=None, uses: int = 1
    ) -> str:
        """A new invitation code for a player, with the side it will play; or, with `uses`
        from 2 to 20, a group link for that many players, each choosing a free side when it
        joins. `SeatRefused` when a member plays `side` already (`sides`: the sides' names);
        `AccountError` for a number of uses out of bounds. Nothing is written when refused."""
        if uses != 1 and (not isinstance(uses, int) or uses not in GROUP_USES):
            raise AccountError(
                _(
                    "a group link lets in %(least)s to %(most)s players: nothing was made",
                    least=GROUP_USES[0],
                    most=GROUP_USES[-1],
                )
            )
        if uses > 1 and side:
            raise AccountError(
                _("a group link is for no side: each player chooses a free one when joining")
            )
        if side:
            self.refuse_taken(campaign, side, None, sides)
        self.secret("invitations")
        key = self._key()
        now = _now()
        with self.store.transaction() as tx:
            (number,) = tx.execute(
                "INSERT INTO invitations (code_hash, campaign, side, created_by, created_at, "
                "expires_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING rowid",
                (
                    "pending " + secrets.token_hex(16),
                    campaign,
                    side or None,
                    by.id,
                    _iso(now),
                    _iso(now + timedelta(days=INVITATION_DAYS)),
                ),
            ).fetchone()
            code = self._code(key, number, campaign, _iso(now))
            tx.execute(
                "UPDATE invitations SET code_hash = ? WHERE rowid = ?", (_digest(code), number)
            )
            if uses > 1:
                tx.execute(
                    "INSERT INTO invitation_groups (invitation, uses) VALUES (?, ?)",
                    (number, uses),
                )
        return code

    def invitations(self, campaign: str) -> list[dict]:
        """The campaign's open invitations (unused, unexpired): id, side, made, expires, the
        players it lets in (`uses`) and has let in (`joined`), and its code (None for a code
        made before codes were derived, which is shown once only)."""
        rows = self.store.query(
            "SELECT i.rowid, i.side, i.created_at, i.expires_at, i.code_hash, g.uses, g.joined "
            "FROM invitations i LEFT JOIN invitation_groups g ON g.invitation = i.rowid "
            "WHERE i.campaign = ? AND i.used_by IS NULL AND i.expires_at > ? ORDER BY i.rowid",
            (campaign, _iso(_now())),
        )
        key = self._key()
        found = []
        for number, side, made, expires, digest, uses, joined in rows:
            code = self._code(key, number, campaign, made) if key else None
            found.append(
                {
                    "id": number,
                    "side": side,
                    "created_at": made,
                    "expires_at": expires,
                    "uses": uses or 1,
                    "joined": joined or 0,
                    "code": code if code and _digest(code) == digest else None,
                }
            )
        return found

    def revoke_invitation(self, campaign: str, invitation: int) -> dict:
        """An open invitation of the campaign ends now; returns what it was."""
        found = [i for i in self.invitations(campaign) if i["id"] == invitation]
        if not found:
            raise NotFound(_("there is no such open invitation to this campaign"))
        self._write(
            "UPDATE invitations SET expires_at = ? WHERE rowid = ?", (_iso(_now()), invitation)
        )
        return found[0]

    def invitation(self, code: str) -> dict | None:
        """What an open invitation code is for (campaign, side, and for a group link the
        players it lets in and has let in), or None."""
        row = self.store.one(
            "SELECT i.campaign, i.side, g.uses, g.joined FROM invitations i "
            "LEFT JOIN invitation_groups g ON g.invitation = i.rowid "
            "WHERE i.code_hash = ? AND i.used_by IS NULL AND i.expires_at > ?",
            (_digest(code or ""), _iso(_now())),
        )
        if row is None:
            return None
        return {"campaign": row[0], "side": row[1], "uses": row[2] or 1, "joined": row[3] or 0}

    def accept(self, code: str, user: User, sides=None, side: str | None = None) -> Membership:
        """`user` joins the campaign of an open invitation, which is then used up: both in
        one transaction, so a code is never used twice. A group link is used once by each
        player who joins, up to its number of uses, each with the free side it chose
        (`side`, None for none yet); an invitation for one player gives its own side.

        Refused in words, with nothing changed and the invitation still open (`SeatRefused`):
        a member of the campaign already (an invitation never moves a member, least of all
        one who plays a side: it would leave that side empty and show it another's hand),
        and a side that another member plays by now. `sides`: the campaign's sides' names,
        or a function giving them (asked only for the words of a refusal)."""
        with self.store.transaction() as tx:
            row = tx.execute(
                "SELECT rowid, campaign, side, expires_at, used_by FROM invitations "
                "WHERE code_hash = ?",
                (_digest(code or ""),),
            ).fetchone()
            if row is None or row[3] <= _iso(_now()):
                raise AccountError(
                    _(
                        "this invitation is unknown, used or expired: ask the organiser for a new one"
                    )
                )
            number, campaign, offered = row[0], row[1], row[2]
            # Two joiners at once take turns: one side, one use each.
            self.store.serialise(tx, f"seats\n{campaign}")
            group = tx.execute(
                "SELECT uses, joined FROM invitation_groups WHERE invitation = ?", (number,)
            ).fetchone()
            if row[4] is not None:
                raise AccountError(_spent(group))
            side = (side or None) if group is not None else offered
            current = tx.execute(
                "SELECT role, side FROM members WHERE campaign = ? AND user_id = ?",
                (campaign, user.id),
            ).fetchone()
            if current is not None:
                names = _names(sides, campaign)
                raise SeatRefused(_member_already(current[0], current[1], side, names))
            if side is not None:
                self._refuse_taken(tx.execute, campaign, side, user, sides)
            tx.execute(_JOIN, (campaign, user.id, "player", side))
            if group is not None:
                tx.execute(
                    "UPDATE invitation_groups SET joined = joined + 1 WHERE invitation = ?",
                    (number,),
                )
            if group is None or group[1] + 1 >= group[0]:
                tx.execute("UPDATE invitations SET used_by = ? WHERE rowid = ?", (user.id, number))
        return self.membership(campaign, user)
