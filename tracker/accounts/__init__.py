"""Accounts, personal access tokens, campaign membership and invitations.

Kept in the same database as the log (an SQLite file or a PostgreSQL database), in tables
of their own (schema.py), written through the store's one writer discipline
(`store.transaction()`): who may see and record a campaign is not a fact of the game, so it
is not in the campaign's log. Every event's meta still names the account that appended it.

`Accounts` is every part in one object, as the web and the command line ask it: users,
sessions and tokens (users.py) with the flood limits (limits.py); members, sides and
visibility (seats.py) with invitations (invitations.py).
"""

from tracker.accounts.common import (
    AccountError,
    Membership,
    OverLimit,
    SeatRefused,
    TooManyAttempts,
    User,
)
from tracker.accounts.invitations import GROUP_USES, INVITATION_DAYS, Invitations
from tracker.accounts.limits import CAMPAIGNS_PER_ACCOUNT_DAY, SIGNUPS_PER_ADDRESS_HOUR, Limit
from tracker.accounts.schema import NUMBERED, TABLES, make_tables
from tracker.accounts.users import PASSWORD_LENGTH, TOKEN_DAYS, TOKEN_LABEL_LENGTH, Users


class Accounts(Users, Invitations):
    """Users and their rights, in the store's database."""

    def init(self) -> None:
        """Make the accounts' tables where missing."""
        make_tables(self.store)


__all__ = [
    "CAMPAIGNS_PER_ACCOUNT_DAY",
    "GROUP_USES",
    "INVITATION_DAYS",
    "NUMBERED",
    "SIGNUPS_PER_ADDRESS_HOUR",
    "TABLES",
    "PASSWORD_LENGTH",
    "TOKEN_DAYS",
    "TOKEN_LABEL_LENGTH",
    "AccountError",
    "Accounts",
    "Limit",
    "Membership",
    "OverLimit",
    "SeatRefused",
    "TooManyAttempts",
    "User",
]
