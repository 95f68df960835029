"""The permission matrix: every role against every endpoint and page that reads or writes.

Roles: anonymous, a non-member, the player of Ironjaws, the player of Crowmarch (the other
player), the organiser. The campaign is private; a private campaign is "not found" (404) for
those who may not see it.
"""

import pytest

from tracker.accounts import Accounts
from tracker.store import open_store

ROLES = ["anonymous", "non-member", "player", "other player", "organiser"]
PASSWORDS = "a fine long password"

IRON_FIGHTER = {
    "type": "FighterAdded",
    "data": {
        "warband": "iron",
        "fighter": "new",
        "name": "New",
        "runemarks": ["ember"],
        "points": 5,
    },
}
BATTLE = {
    "type": "BattleFought",
    "data": {
        "battle": "b1",
        "winner": None,
        "sides": [
            {"warband": "iron", "fighters": ["iron-0", "iron-1", "iron-2"]},
            {"warband": "crow", "fighters": ["crow-0", "crow-1", "crow-2"]},
        ],
    },
}
VOID = {"type": "EventVoided", "data": {"version": 11, "reason": "a test"}}

READS = [
    "/api/campaigns/c",
    "/api/campaigns/c/events",
    "/api/campaigns/c/state",
    "/api/campaigns/c/verify",
    "/api/campaigns/c/export",
]
PAGES = [
    "/c/c/",
    "/c/c/warband?warband=iron",
    "/c/c/battles",
    "/c/c/audit",
    "/c/c/dice",
    "/c/c/members",
    "/c/c/roster?warband=iron",
    "/c/c/pdf/roster?warband=iron",
    "/c/c/wizard?warband=iron",
]


def logged_in(app, role):
    client = app.test_client()
    if role.token:
        page = client.post("/login", data={"name": role.name, "password": PASSWORDS})
        assert page.status_code == 302
    return client


@pytest.fixture
def web_app(app):
    app.config["WTF_CSRF_ENABLED"] = False
    return app


@pytest.mark.parametrize("who, status", list(zip(ROLES, [404, 404, 200, 200, 200])))
@pytest.mark.parametrize("path", READS)
def test_reading_through_the_api(client, roles, who, status, path):
    assert client.get(path, headers=roles[who].headers).status_code == status


@pytest.mark.parametrize("who, status", list(zip(ROLES, [404, 404, 200, 200, 200])))
@pytest.mark.parametrize("path", PAGES)
def test_reading_the_pages(web_app, roles, who, status, path):
    assert logged_in(web_app, roles[who]).get(path).status_code == status


@pytest.mark.parametrize("who, status", list(zip(ROLES, [404, 404, 201, 403, 201])))
def test_recording_for_a_warband_through_the_api(client, roles, who, status):
    page = client.post(
        "/api/campaigns/c/events",
        json={"events": [IRON_FIGHTER], "expected_version": 11},
        headers=roles[who].headers,
    )
    assert page.status_code == status
    if status == 403:
        assert "only for its own side" in page.json["message"]


@pytest.mark.parametrize("who, status", list(zip(ROLES, [404, 404, 201, 201, 201])))
def test_a_battle_between_two_warbands_may_be_recorded_by_either_player(client, roles, who, status):
    page = client.post(
        "/api/campaigns/c/events",
        json={"events": [BATTLE], "expected_version": 11},
        headers=roles[who].headers,
    )
    assert page.status_code == status


@pytest.mark.parametrize("who, status", list(zip(ROLES, [404, 404, 403, 403, 201])))
def test_only_the_organiser_voids(client, roles, who, status):
    page = client.post(
        "/api/campaigns/c/events",
        json={"events": [VOID], "expected_version": 11},
        headers=roles[who].headers,
    )
    assert page.status_code == status


@pytest.mark.parametrize("who, status", list(zip(ROLES, [404, 404, 403, 403, 200])))
def test_only_the_organiser_makes_a_campaign_public(client, roles, who, status):
    page = client.patch("/api/campaigns/c", json={"public": True}, headers=roles[who].headers)
    assert page.status_code == status


@pytest.mark.parametrize("who, status", list(zip(ROLES, [404, 404, 403, 403, 201])))
def test_only_the_organiser_invites(client, roles, who, status):
    page = client.post("/api/campaigns/c/invitations", json={}, headers=roles[who].headers)
    assert page.status_code == status


@pytest.mark.parametrize("who, status", list(zip(ROLES, [401, 201, 201, 201, 201])))
def test_anyone_with_an_account_may_start_a_campaign(client, roles, who, status):
    page = client.post(
        "/api/campaigns",
        json={"system": "warcry", "name": f"Own {who}", "settings": {"quest": "ember-crown"}},
        headers=roles[who].headers,
    )
    assert page.status_code == status


@pytest.mark.parametrize("who, status", list(zip(ROLES, [404, 404, 302, 403, 302])))
def test_recording_for_a_warband_on_the_pages(web_app, roles, svc, who, status):
    client = logged_in(web_app, roles[who])
    page = client.post(
        "/c/c/warband?warband=iron",
        data={
            "type": "FighterAdded",
            "expected_version": "11",
            "warband": "iron",
            "fighter": "new",
            "name": "New",
            "runemarks-text": "ember",
            "points": "5",
        },
    )
    assert page.status_code == status
    assert ("new" in svc.state("c").state["warbands"]["iron"]["fighters"]) == (status == 302)


@pytest.mark.parametrize("who, status", list(zip(ROLES, [404, 404, 403, 403, 302])))
def test_voiding_on_the_audit_page(web_app, roles, who, status):
    page = logged_in(web_app, roles[who]).post(
        "/c/c/audit", data={"version": "11", "reason": "test", "expected_version": "11"}
    )
    assert page.status_code == status


@pytest.mark.parametrize("who, status", list(zip(ROLES, [404, 404, 403, 403, 200])))
def test_inviting_on_the_members_page(web_app, roles, who, status):
    page = logged_in(web_app, roles[who]).post("/c/c/members", data={"action": "invite"})
    assert page.status_code == status


def test_starting_a_campaign_on_the_pages_needs_an_account(web_app, roles):
    anonymous = web_app.test_client().post("/campaigns", data={"system": "warcry", "name": "Mine"})
    assert anonymous.status_code == 401
    member = logged_in(web_app, roles["non-member"]).post(
        "/campaigns", data={"system": "warcry", "name": "Mine"}
    )
    assert member.status_code == 302


def test_a_public_campaign_is_read_by_anyone_and_written_by_members_only(client, web_app, roles):
    client.patch("/api/campaigns/c", json={"public": True}, headers=roles["organiser"].headers)
    assert client.get("/api/campaigns/c/state").status_code == 200
    assert web_app.test_client().get("/c/c/").status_code == 200
    page = client.post(
        "/api/campaigns/c/events", json={"events": [IRON_FIGHTER], "expected_version": 11}
    )
    assert page.status_code == 401
    page = client.post(
        "/api/campaigns/c/events",
        json={"events": [IRON_FIGHTER], "expected_version": 11},
        headers=roles["non-member"].headers,
    )
    assert page.status_code == 403


def test_a_player_without_a_side_takes_the_warband_it_founds(client, roles, app):
    code = client.post(
        "/api/campaigns/c/invitations", json={}, headers=roles["organiser"].headers
    ).json["code"]
    client.post(f"/api/invitations/{code}", headers=roles["non-member"].headers)
    found = {
        "type": "WarbandFounded",
        "data": {"warband": "gulls", "name": "Gulls", "player": "Nemo", "faction": "Sea"},
    }
    page = client.post(
        "/api/campaigns/c/events",
        json={"events": [found], "expected_version": 11},
        headers=roles["non-member"].headers,
    )
    assert page.status_code == 201
    store = open_store(app.config["DATABASE"])
    accounts = Accounts(store)
    assert accounts.membership("c", accounts.by_name("nemo")).side == "gulls"
    page = client.post(
        "/api/campaigns/c/events",
        json={"events": [IRON_FIGHTER], "expected_version": 12},
        headers=roles["non-member"].headers,
    )
    assert page.status_code == 403


def test_each_event_records_who_appended_it(client, roles, svc):
    client.post(
        "/api/campaigns/c/events",
        json={"events": [BATTLE], "expected_version": 11},
        headers=roles["other player"].headers,
    )
    assert svc.store.event("c", 12).meta["actor"] == "cole"


def test_failed_logins_are_rate_limited(web_app, roles):
    client = web_app.test_client()
    for _ in range(5):
        assert client.post("/login", data={"name": "ivy", "password": "wrong"}).status_code == 401
    blocked = client.post("/login", data={"name": "ivy", "password": PASSWORDS})
    assert blocked.status_code == 429 and b"too many failed log-ins" in blocked.data


def test_a_session_expires(web_app, roles):
    client = logged_in(web_app, roles["player"])
    assert client.get("/c/c/").status_code == 200
    store = open_store(web_app.config["DATABASE"])
    with store.conn:  # twelve hours on: the session's end, kept on the server, has passed
        store.conn.execute("UPDATE sessions SET expires_at = '2000-01-01T00:00:00Z'")
    store.close()
    assert client.get("/c/c/").status_code == 404


def test_secrets_never_reach_the_log(web_app, roles, caplog):
    client = web_app.test_client()
    with caplog.at_level("DEBUG"):
        client.post("/login", data={"name": "ivy", "password": PASSWORDS})
        client.get("/api/me", headers=roles["player"].headers)
    assert PASSWORDS not in caplog.text and roles["player"].token not in caplog.text


def test_invitation_codes_are_blanked_out_of_the_access_log():
    from tracker.web.server import _SECRET_PATHS

    line = "GET /join/AbC123secret HTTP/1.1"
    assert _SECRET_PATHS.sub(r"\1…", line) == "GET /join/… HTTP/1.1"
    assert _SECRET_PATHS.sub(r"\1…", "POST /api/invitations/xyz HTTP/1.1") == (
        "POST /api/invitations/… HTTP/1.1"
    )
