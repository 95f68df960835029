"""Who may see and record what: one check for the pages and the API alike.

Reading a campaign: its members, or anybody when the organiser made it public. Recording:
the organiser anything (and only the organiser voids any event); a player only events that
act for its own side (a battle between two warbands may be recorded by either of their
players); an event that acts for no side in particular, by any player, unless its system
keeps it for the organiser (`organiser_events`: a campaign's own content). A player without
a side yet takes the new side it founds. Any member may undo its own latest entry (for its own
side, a player): a void with the reason `UNDONE`.

An organiser's own seat is both a membership and an event of the log (`SeatTaken`,
`SeatLeft`: `seat`), so the audit log says who saw every hand from when; those events come
only from `seat`, never from a form or the API.
"""

from __future__ import annotations

from tracker.accounts import Accounts, User
from tracker.campaign import SEAT_EVENTS
from tracker.errors import NotFound, TrackerError
from tracker.systems.i18n import Said, _

UNDONE = "undone by its author"


class Forbidden(TrackerError):
    """The account may not do this (HTTP 403)."""


class Unauthenticated(TrackerError):
    """Nobody is logged in, and this needs an account (HTTP 401)."""


def sees_all(member) -> bool:
    """Whether a member sees every hidden card: only an organiser who plays no side (a
    referee). An organiser who takes a seat sees what that seat sees, like any player."""
    return member is not None and member.role == "organiser" and member.side is None


def records_for(member, side) -> bool:
    """Whether a page offers a member the forms for `side`: one side, several (a form that
    any of them may send), or None (a form of the whole campaign, for any member).

    An organiser who plays no side (a referee) is offered every side's forms; an organiser
    who took a seat, like any player, only its own seat's (the server still lets an
    organiser record for any side, to mend a slip through the API or the audit log)."""
    if member is None:
        return False
    if member.role == "organiser" and member.side is None:
        return True
    if side is None:
        return True
    sides = {side} if isinstance(side, str) else set(side)
    return member.side in sides


def own_entry(member, system, state, event) -> bool:
    """Whether `event` is the member's own entry that it may undo: recorded by it, not the
    campaign's start nor a void, and for a player, one that acts for the player's side."""
    if member is None or event.meta.get("actor") != member.user.name:
        return False
    if event.type in ("CampaignStarted", "EventVoided") or event.type not in system.events:
        return False
    if member.role == "organiser":
        return True
    return member.side is not None and member.side in system.sides_of(state, event.type, event.data)


def sees_side(member, side: str) -> bool:
    """Whether a member may see what only `side`'s player sees (its hand)."""
    return member is not None and (sees_all(member) or member.side == side)


def _doing(what):
    """What a refused reader wanted to do, as its caller said it: a message (`_("invite
    players")`) reads in the reader's language; plain words are looked up in the catalogue."""
    return what if isinstance(what, Said) else _(what)


class Policy:
    def __init__(self, accounts: Accounts, user: User | None):
        self.accounts = accounts
        self.user = user

    def can_read(self, campaign: str) -> bool:
        if self.accounts.is_public(campaign):
            return True
        return self.accounts.membership(campaign, self.user) is not None

    def require_read(self, campaign: str) -> None:
        # A private campaign is not found for those who may not see it: its name stays private.
        if not self.can_read(campaign):
            raise NotFound(
                _("there is no campaign %(campaign)r that you may see", campaign=campaign)
            )

    def require_user(self, what: str) -> User:
        if self.user is None:
            raise Unauthenticated(_("log in to %(what)s", what=_doing(what)))
        return self.user

    def require_organiser(self, campaign: str, what: str) -> None:
        self.require_read(campaign)
        self.require_user(what)
        member = self.accounts.membership(campaign, self.user)
        if member is None or member.role != "organiser":
            raise Forbidden(_("only the organiser of the campaign may %(what)s", what=_doing(what)))

    def guard(self, campaign: str) -> Guard:
        # A member may read and write: one query answers the usual case.
        member = self.accounts.membership(campaign, self.user) if self.user else None
        if member is None:
            self.require_read(campaign)
            self.require_user(_("record events"))
            raise Forbidden(
                _(
                    "only the campaign's members may record events; ask the organiser for an "
                    "invitation"
                )
            )
        return Guard(self.accounts, member)


class Guard:
    """Checks each event of a batch against the member's rights, with the state it meets."""

    def __init__(self, accounts: Accounts, member):
        self.accounts = accounts
        self.member = member
        self.claimed: str | None = None
        # The events the member undoes, once each was found to be its own entry.
        self.undoing: frozenset[int] = frozenset()
        # Set by `seat` alone: the organiser's own seat change, with its membership.
        self.seating = False

    def __call__(self, system, state, event_type: str, data: dict) -> None:
        if event_type in SEAT_EVENTS and not self.seating:
            raise Forbidden(
                _(
                    "an organiser takes or leaves a seat on the campaign's Members page, which "
                    "records it together with the seat itself"
                )
            )
        if self.member.role == "organiser":
            return
        if event_type == "EventVoided" and data.get("reason") == UNDONE:
            if data.get("version") in self.undoing and set(data) == {"version", "reason"}:
                return
        if event_type == "EventVoided":
            raise Forbidden(_("only the organiser may void an event"))
        if event_type == "LanguageChosen":
            raise Forbidden(_("only the organiser of the campaign chooses its language"))
        if event_type in system.organiser_events:
            raise Forbidden(_("only the organiser of the campaign records its content"))
        sides = system.sides_of(state, event_type, data) if state is not None else set()
        if not sides:
            return
        mine = self.member.side or self.claimed
        if mine in sides:
            return
        if mine is None:
            new = sides - set(system.sides(state))
            if len(sides) == 1 and new:
                self.claimed = new.pop()  # a player founds its own side
                return
        known = system.sides(state)
        names = ", ".join(known.get(s, s) for s in sorted(sides))
        yours = known.get(mine, mine) if mine else _("no side yet")
        raise Forbidden(
            _(
                "a player records events only for its own side: this one is for "
                "%(sides)s, and you play %(yours)s",
                sides=names,
                yours=yours,
            )
        )

    def settle(self, campaign: str) -> None:
        """After a successful append: keep the side the player founded."""
        if self.claimed:
            self.accounts.claim_side(campaign, self.member.user, self.claimed)


def seat(service, accounts: Accounts, member, side: str | None, sides: dict[str, str]) -> bool:
    """The organiser `member` takes the seat of `side` (leaving any other), or with None
    leaves its seat and referees: first an event in the log (`SeatTaken` or `SeatLeft`,
    with who and which side), then the membership, which the pages read. False when nothing
    changes; `SeatRefused` when another member plays that side (nothing written)."""
    if member is None or member.role != "organiser":
        raise Forbidden(_("only an organiser takes or leaves a seat of its own"))
    if side == member.side:
        return False
    if side is not None:
        accounts.refuse_taken(member.campaign, side, member.user, sides)
        event = {"type": "SeatTaken", "data": {"organiser": member.user.name, "side": side}}
    else:
        event = {"type": "SeatLeft", "data": {"organiser": member.user.name, "side": member.side}}
    guard = Guard(accounts, member)
    guard.seating = True
    service.append(
        member.campaign, [event], None, actor=member.user.name, source="form", guard=guard
    )
    accounts.set_side(member.campaign, member.user, side, sides)
    return True
