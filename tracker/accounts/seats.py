"""Membership of campaigns: who organises or plays which side, and which campaigns are
public; and the queries that list the campaigns one may read."""

from __future__ import annotations

from tracker.accounts.common import Membership, SeatRefused, Tables, User
from tracker.errors import NotFound
from tracker.systems.i18n import _

_JOIN = (
    "INSERT INTO members (campaign, user_id, role, side) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (campaign, user_id) DO UPDATE SET role = excluded.role, "
    "side = coalesce(excluded.side, members.side)"
)


def _names(sides, campaign: str) -> dict[str, str]:
    """The sides' names: `sides` itself, or what it gives for the campaign when it is a
    function (asked only for the words of a refusal), or nothing."""
    return (sides(campaign) if callable(sides) else sides) or {}


class Seats(Tables):
    """Members and their sides, and a campaign's visibility."""

    def add_member(
        self, campaign: str, user: User, role: str, side: str | None = None, sides=None
    ) -> None:
        """`user` a member of the campaign (its role and side changed if it was one);
        `SeatRefused` when another member plays `side` (`sides`: the sides' names)."""
        with self.store.transaction() as tx:
            if side is not None:
                self._refuse_taken(tx.execute, campaign, side, user, sides)
            tx.execute(_JOIN, (campaign, user.id, role, side))

    def refuse_taken(self, campaign: str, side: str, user: User | None, sides=None) -> None:
        """`SeatRefused` when a member other than `user` plays `side` (`sides`: the sides'
        names, or a function of the campaign giving them, for the words)."""
        self._refuse_taken(self._read, campaign, side, user, sides)

    def _refuse_taken(self, execute, campaign, side, user, sides) -> None:
        row = execute(
            "SELECT u.name FROM members m JOIN users u ON u.id = m.user_id "
            "WHERE m.campaign = ? AND m.side = ? AND m.user_id <> ?",
            (campaign, side, user.id if user is not None else -1),
        ).fetchone()
        if row is not None:
            name = _names(sides, campaign).get(side, side)
            raise SeatRefused(
                _(
                    "%(side)s is played by %(player)s already: a side has one player, so it is "
                    "not offered again (move or remove that player first)",
                    side=name,
                    player=row[0],
                )
            )

    def claim_side(self, campaign: str, user: User, side: str) -> None:
        self._write(
            "UPDATE members SET side = ? WHERE campaign = ? AND user_id = ? AND side IS NULL",
            (side, campaign, user.id),
        )

    def set_side(self, campaign: str, user: User, side: str | None, sides=None) -> None:
        """The side a member plays (None: none, an organiser who only referees);
        `SeatRefused` when another member plays it (`sides`: the sides' names)."""
        with self.store.transaction() as tx:
            if side is not None:
                self._refuse_taken(tx.execute, campaign, side, user, sides)
            cursor = tx.execute(
                "UPDATE members SET side = ? WHERE campaign = ? AND user_id = ?",
                (side, campaign, user.id),
            )
        if cursor.rowcount == 0:
            raise NotFound(
                _("%(name)s is not a member of %(campaign)r", name=user.name, campaign=campaign)
            )

    def remove_member(self, campaign: str, user: User) -> None:
        cursor = self._write(
            "DELETE FROM members WHERE campaign = ? AND user_id = ?", (campaign, user.id)
        )
        if cursor.rowcount == 0:
            raise NotFound(
                _("%(name)s is not a member of %(campaign)r", name=user.name, campaign=campaign)
            )

    def membership(self, campaign: str, user: User | None) -> Membership | None:
        if user is None:
            return None
        row = self.store.one(
            "SELECT role, side FROM members WHERE campaign = ? AND user_id = ?", (campaign, user.id)
        )
        return Membership(campaign, user, row[0], row[1]) if row else None

    def members(self, campaign: str) -> list[Membership]:
        rows = self.store.query(
            "SELECT u.id, u.name, m.role, m.side FROM members m JOIN users u ON u.id = m.user_id "
            "WHERE m.campaign = ? ORDER BY m.role DESC, u.name",
            (campaign,),
        )
        return [Membership(campaign, User(r[0], r[1]), r[2], r[3]) for r in rows]

    def memberships_of(self, user: User) -> list[tuple[str, str, str | None]]:
        """(campaign, role, side) of each campaign `user` is a member of, by campaign."""
        return self.store.query(
            "SELECT campaign, role, side FROM members WHERE user_id = ? ORDER BY campaign",
            (user.id,),
        )

    def member_of_query(self, user: User) -> tuple[str, tuple]:
        """The ids of the campaigns `user` is a member of, as a query and its arguments (for
        a store to page through without reading them all)."""
        return "SELECT campaign FROM members WHERE user_id = ?", (user.id,)

    def readable_queries(self, user: User | None) -> list[tuple[str, tuple]]:
        """The ids of the campaigns `user` may read (its own and the public ones), as
        queries for a store to page through together."""
        mine = [self.member_of_query(user)] if user is not None else []
        return [*mine, self.public_query(None)]

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
        row = self.store.one("SELECT public FROM campaign_access WHERE campaign = ?", (campaign,))
        return bool(row and row[0])

    def public_among(self, campaigns: list[str]) -> set[str]:
        """Those of `campaigns` that are public, in one query."""
        if not campaigns:
            return set()
        marks = ", ".join("?" * len(campaigns))
        rows = self.store.query(
            f"SELECT campaign FROM campaign_access WHERE public = 1 AND campaign IN ({marks})",
            campaigns,
        )
        return {row[0] for row in rows}

    def roles_among(self, user: User | None, campaigns: list[str]) -> dict[str, str]:
        """The role of `user` in each of `campaigns` it is a member of, in one query."""
        if user is None or not campaigns:
            return {}
        marks = ", ".join("?" * len(campaigns))
        rows = self.store.query(
            f"SELECT campaign, role FROM members WHERE user_id = ? AND campaign IN ({marks})",
            [user.id, *campaigns],
        )
        return dict(rows)

    def public_campaigns(self) -> set[str]:
        return {
            row[0]
            for row in self.store.query("SELECT campaign FROM campaign_access WHERE public = 1")
        }

    def set_public(self, campaign: str, public: bool) -> None:
        self._write(
            "INSERT INTO campaign_access (campaign, public) VALUES (?, ?) "
            "ON CONFLICT (campaign) DO UPDATE SET public = excluded.public",
            (campaign, int(bool(public))),
        )
