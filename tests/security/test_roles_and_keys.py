"""Nobody takes what is not theirs: starting a campaign grants no role over an existing one,
and a retry key belongs to the account that sent it and to the request it came with."""

import pytest
from logins import csrf_of, logged_in
from pgserver import database_for

from tracker.accounts import Accounts
from tracker.dice import SeededRoller
from tracker.web import create_app


@pytest.fixture(params=["sqlite", "postgresql"])
def app(request, tmp_path):
    """The security conftest's app, on each engine in turn: accounts, sessions, tokens,
    members and log-in limits behave the same on SQLite and PostgreSQL."""
    return create_app(
        {
            "DATABASE": database_for(request, tmp_path, "roles.db"),
            "TESTING": True,
            "ROLLER": SeededRoller(9),
        }
    )


FIGHTER = {
    "type": "FighterAdded",
    "data": {"warband": "iron", "fighter": "f", "name": "F", "runemarks": ["ember"], "points": 5},
}
CROW_FIGHTER = {
    "type": "FighterAdded",
    "data": {"warband": "crow", "fighter": "g", "name": "G", "runemarks": ["ember"], "points": 5},
}
START = {
    "campaign": "c",
    "system": "warcry",
    "name": "Mine now",
    "settings": {"quest": "ember-crown"},
}


def post(client, role, events, expected, key=None):
    headers = dict(role.headers)
    if key:
        headers["Idempotency-Key"] = key
    return client.post(
        "/api/campaigns/c/events",
        json={"events": events, "expected_version": expected},
        headers=headers,
    )


def role_in(svc, name):
    accounts = Accounts(svc.store)
    member = accounts.membership("c", accounts.by_name(name))
    return member.role if member else None


def test_starting_an_existing_campaign_with_a_used_key_grants_no_role(client, roles, svc):
    assert post(client, roles["player"], [FIGHTER], 11, key="k-ivy").status_code == 201
    answer = client.post(
        "/api/campaigns",
        json=START,
        headers={**roles["player"].headers, "Idempotency-Key": "k-ivy"},
    )
    assert answer.status_code == 409 and "'c'" in answer.json["message"]
    assert role_in(svc, "ivy") == "player"


def test_a_stranger_starting_a_public_campaign_with_a_key_from_its_log_is_refused(
    client, roles, svc
):
    Accounts(svc.store).set_public("c", True)
    post(client, roles["player"], [FIGHTER], 11, key="k-seen")
    metas = [e["meta"] for e in client.get("/api/campaigns/c/events").json["events"]]
    keys = [m.get("retry") for m in metas if m.get("retry")] + ["k-seen"]
    for key in keys:
        answer = client.post(
            "/api/campaigns",
            json=START,
            headers={**roles["non-member"].headers, "Idempotency-Key": key},
        )
        assert answer.status_code == 409
    assert role_in(svc, "nemo") is None


def test_starting_an_existing_campaign_from_the_form_is_refused_naming_it(app, roles, svc):
    client = logged_in(app, "nemo")
    token = csrf_of(client.get("/"))
    page = client.post(
        "/campaigns",
        data={
            "csrf_token": token,
            "system": "warcry",
            "name": "Mine now",
            "campaign": "c",
            "settings-quest": "ember-crown",
            "idem": "anything",
        },
    )
    assert page.status_code == 422 and "already a campaign" in page.get_data(as_text=True)
    assert role_in(svc, "nemo") is None


def test_a_retried_start_returns_the_earlier_result_only_to_its_author(client, roles, svc):
    new = {**START, "campaign": "fresh"}
    org = {**roles["organiser"].headers, "Idempotency-Key": "start-1"}
    first = client.post("/api/campaigns", json=new, headers=org)
    again = client.post("/api/campaigns", json=new, headers=org)
    assert first.status_code == again.status_code == 201
    assert again.json["role"] == "organiser" and svc.store.version("fresh") == 1
    other = {**roles["non-member"].headers, "Idempotency-Key": "start-1"}
    assert client.post("/api/campaigns", json=new, headers=other).status_code == 409
    accounts = Accounts(svc.store)
    assert accounts.membership("fresh", accounts.by_name("nemo")) is None


def test_a_used_key_with_a_different_body_is_refused_naming_the_key(client, roles, svc):
    assert post(client, roles["player"], [FIGHTER], 11, key="once").status_code == 201
    other = {**FIGHTER, "data": {**FIGHTER["data"], "fighter": "h", "name": "H"}}
    answer = post(client, roles["player"], [other], 12, key="once")
    assert answer.status_code == 422 and "'once'" in answer.json["message"]
    assert svc.store.version("c") == 12


def test_another_accounts_key_does_not_collide_with_yours(client, roles, svc):
    assert post(client, roles["player"], [FIGHTER], 11, key="same").status_code == 201
    answer = post(client, roles["other player"], [CROW_FIGHTER], 12, key="same")
    assert answer.status_code == 201 and not answer.json["replayed"]
    assert svc.store.version("c") == 13


def test_other_accounts_never_see_key_values(client, roles):
    post(client, roles["player"], [FIGHTER], 11, key="secret-key-value")
    for who in ("organiser", "other player", "player"):
        body = client.get("/api/campaigns/c/events", headers=roles[who].headers).get_data(
            as_text=True
        )
        assert "secret-key-value" not in body
