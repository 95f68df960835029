"""Seeding for the API tests: a private Warcry campaign and one account per role."""

from dataclasses import dataclass

from warbands import two_warbands

from tracker.accounts import Accounts
from tracker.dice import SeededRoller
from tracker.service import Service
from tracker.store import open_store

PASSWORD = "a fine long password"


@dataclass
class Role:
    name: str
    token: str | None

    @property
    def headers(self) -> dict:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}


def seed(database: str) -> dict[str, Role]:
    """The campaign 'c' (two warbands, four fighters each) and one account per role."""
    store = open_store(database)
    store.init()
    accounts = Accounts(store)
    accounts.init()
    service = Service(store, SeededRoller(3))
    service.start("c", "warcry", "Private league", {"quest": "ember-crown"}, actor="org")
    events = two_warbands()
    service.append("c", events, 1, actor="org")
    roles = {"anonymous": Role("anonymous", None)}
    for name, role, side in (
        ("org", "organiser", None),
        ("ivy", "player", "iron"),
        ("cole", "player", "crow"),
        ("nemo", None, None),
    ):
        user = accounts.sign_up(name, PASSWORD)
        if role:
            accounts.add_member("c", user, role, side)
        roles[
            {"org": "organiser", "ivy": "player", "cole": "other player", "nemo": "non-member"}[
                name
            ]
        ] = Role(name, accounts.create_token(user, "tests"))
    store.close()
    return roles
