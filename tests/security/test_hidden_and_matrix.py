"""Hidden cards stay hidden from everyone who may not see them, an organiser in a seat
included, and the permission matrix: every role against every kind of read and write, on
the pages and in the API alike.

The campaign "k" is a private game of Claim between Ana and Ben, game 1 dealt and its first
card turned up, Ana to lead. Roles: anonymous, Ana's player, Ben's player, the organiser
(who plays no seat: the referee), the organiser seated at Ana's place, and the member of
another campaign.
"""

import pytest
from apiseed import PASSWORD
from logins import logged_in
from pagetools import text

from tracker.accounts import Accounts
from tracker.dice import SeededRoller
from tracker.service import Service
from tracker.store import open_store
from tracker.web import create_app

PLAYERS = [{"id": "ana", "name": "Ana"}, {"id": "ben", "name": "Ben"}]
ROLES = ["anonymous", "ana", "ben", "organiser", "organiser who plays", "other member"]
ACCOUNT = {"ana": "anya", "ben": "benno", "organiser": "oli", "organiser who plays": "oli"}
ACCOUNT["other member"] = "otto"


@pytest.fixture
def table(tmp_path):
    """The app, the service, each role's token, and Ben's hand (which only Ben may see)."""
    path = str(tmp_path / "k.db")
    app = create_app({"DATABASE": path, "TESTING": True, "ROLLER": SeededRoller(2)})
    store = open_store(path)
    store.init()
    accounts = Accounts(store)
    accounts.init()
    svc = Service(store, SeededRoller(2))
    svc.start("k", "claim", "Ana against Ben", {"players": PLAYERS}, actor="oli")
    svc.start("x", "claim", "Another table", {"players": PLAYERS}, actor="otto")
    deck = svc.state("k").state["deck"]
    deal = {"hands": {"ana": deck[:13], "ben": deck[13:26]}, "stock": deck[26:]}
    svc.append("k", [{"type": "GameDealt", "data": {"game": 1, "leader": "ana", "deal": deal}}], 1)
    svc.append("k", [{"type": "CardTurnedUp", "data": {"game": 1}}], 2)
    tokens = {"anonymous": None}
    users = {name: accounts.sign_up(name, PASSWORD) for name in ("anya", "benno", "oli", "otto")}
    accounts.add_member("k", users["oli"], "organiser")
    accounts.add_member("k", users["anya"], "player", "ana")
    accounts.add_member("k", users["benno"], "player", "ben")
    accounts.add_member("x", users["otto"], "organiser")
    for role, name in ACCOUNT.items():
        tokens[role] = accounts.create_token(users[name], "tests")
    yield app, svc, tokens, accounts, users, deal["hands"]["ben"]
    store.close()


def as_role(table, role):
    """The app, seated as the role asks, and the headers of the role's token."""
    app, _, tokens, accounts, users, _ = table
    if role == "organiser who plays":  # Ana's seat, which anya leaves to it
        accounts.remove_member("k", users["anya"])
        accounts.set_side("k", users["oli"], "ana")
    return app, ({"Authorization": f"Bearer {tokens[role]}"} if tokens[role] else {})


def api_append(client, headers, event, expected=3):
    return client.post(
        "/api/campaigns/k/events",
        json={"events": [event], "expected_version": expected},
        headers=headers,
    ).status_code


MATRIX = {
    # role:                 view, record for Ana, record for Ben, void, invite, export, Ben's hand
    "anonymous": (404, 404, 404, 404, 404, 404, 404),
    "ana": (200, 201, 403, 403, 403, 403, 403),
    "ben": (200, 403, 422, 403, 403, 403, 200),
    "organiser": (200, 201, 422, 201, 201, 200, 200),
    "organiser who plays": (200, 201, 422, 201, 201, 403, 403),
    "other member": (404, 404, 404, 404, 404, 404, 404),
}


@pytest.mark.parametrize("role", ROLES)
def test_the_permission_matrix_through_the_api(table, role):
    app, headers = as_role(table, role)
    ben_hand = table[5]
    ana_card = table[1].state("k").state["game"]["hands"]["ana"][0]
    client = app.test_client()
    view, for_ana, for_ben, void, invite, export, hidden = MATRIX[role]
    assert client.get("/api/campaigns/k/state", headers=headers).status_code == view
    assert client.get("/api/campaigns/k/export", headers=headers).status_code == export
    invited = client.post("/api/campaigns/k/invitations", json={}, headers=headers)
    assert invited.status_code == invite
    events = client.get("/api/campaigns/k/events", headers=headers)
    assert events.status_code == view
    if view == 200:
        dealt = events.json["events"][1]["data"]["deal"]["hands"]["ben"]
        assert (dealt == ben_hand) == (hidden == 200)
    ben_card = {"type": "CardPlayed", "data": {"game": 1, "player": "ben", "card": ben_hand[0]}}
    assert api_append(client, headers, ben_card) == for_ben
    ana = {"type": "CardPlayed", "data": {"game": 1, "player": "ana", "card": ana_card}}
    assert api_append(client, headers, ana) == for_ana
    expected = 4 if for_ana == 201 else 3  # the latest event, on which nothing depends
    void_event = {"type": "EventVoided", "data": {"version": expected, "reason": "a slip"}}
    assert api_append(client, headers, void_event, expected) == void


@pytest.mark.parametrize("role", ROLES)
def test_the_permission_matrix_on_the_pages(table, role):
    app, _ = as_role(table, role)
    app.config["WTF_CSRF_ENABLED"] = False
    client = logged_in(app, ACCOUNT[role]) if role in ACCOUNT else app.test_client()
    view, *_, hidden = MATRIX[role]
    for page in ("/c/k/", "/c/k/audit", "/c/k/table", "/c/k/members"):
        assert client.get(page).status_code == view, page
    assert client.get("/c/k/table?player=ben").status_code == hidden
    if view == 200:  # the deal in the audit log: whole for the referee alone
        audit = client.get("/c/k/audit").get_data(as_text=True)
        assert ("cards, hidden" not in audit) == (role == "organiser")


def test_an_organiser_who_takes_a_seat_sees_only_that_seat(table):
    app, svc, _, accounts, users, ben_hand = table
    app.config["WTF_CSRF_ENABLED"] = False
    client = logged_in(app, "oli")
    assert client.get("/c/k/table?player=ben").status_code == 200  # the referee sees all
    taken = client.post("/c/k/members", data={"action": "seat", "side": "ana"})
    assert taken.status_code == 409 and "Ana is played by anya already" in text(taken)
    assert accounts.membership("k", users["oli"]).side is None
    accounts.remove_member("k", users["anya"])
    page = client.post("/c/k/members", data={"action": "seat", "side": "ana"})
    assert page.status_code == 302
    assert accounts.membership("k", users["oli"]).side == "ana"
    assert client.get("/c/k/table?player=ben").status_code == 403
    assert client.get("/c/k/table?player=ana").status_code == 200
    assert "cards, hidden" in client.get("/c/k/audit").get_data(as_text=True)
    token = accounts.create_token(users["oli"], "t")
    export = app.test_client().get(
        "/api/campaigns/k/export", headers={"Authorization": f"Bearer {token}"}
    )
    assert export.status_code == 403 and "plays no seat" in export.json["message"]
