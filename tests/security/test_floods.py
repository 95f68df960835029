"""Floods are limited, in the database (so across workers and app servers): sign-ups per
address an hour and campaigns per account a day. Each refusal is one sentence, 429 with
Retry-After, beside the form on a page; and a refused request writes nothing."""

import pytest
from apiseed import PASSWORD, seed
from logins import csrf_of, logged_in

from tracker.dice import SeededRoller
from tracker.store import open_store
from tracker.web import create_app


@pytest.fixture
def app(tmp_path):
    return create_app(
        {
            "DATABASE": str(tmp_path / "floods.db"),
            "TESTING": True,
            "ROLLER": SeededRoller(9),
            "SIGNUPS_PER_ADDRESS_HOUR": 3,
            "CAMPAIGNS_PER_ACCOUNT_DAY": 2,
        }
    )


def counts(app) -> dict:
    store = open_store(app.config["DATABASE"])
    try:
        return {
            table: store.one(f"SELECT count(*) FROM {table}")[0]
            for table in ("users", "events", "members", "sessions")
        }
    finally:
        store.close()


def sign_up(client, name, address):
    token = csrf_of(client.get("/signup"))
    return client.post(
        "/signup",
        data={"name": name, "password": PASSWORD, "csrf_token": token},
        environ_base={"REMOTE_ADDR": address},
    )


def test_a_sign_up_loop_from_one_address_is_stopped_in_words_and_writes_nothing(app):
    client = app.test_client()
    for n in range(3):
        assert sign_up(client, f"flood{n}", "10.0.0.9").status_code == 302
    before = counts(app)
    for n in range(3, 8):
        refused = sign_up(client, f"flood{n}", "10.0.0.9")
        assert refused.status_code == 429
        assert 3000 <= int(refused.headers["Retry-After"]) <= 3601
        page = refused.get_data(as_text=True)
        assert "too many accounts were made from your address: at most 3 an hour" in page
        assert 'name="name"' in page  # the sentence stands beside the form
    assert counts(app) == before
    # Another address is not held back by this one.
    assert sign_up(client, "elsewhere", "10.0.0.10").status_code == 302


def test_the_sign_up_limit_is_kept_in_the_database_so_another_app_server_holds_it(app):
    client = app.test_client()
    for n in range(3):
        assert sign_up(client, f"flood{n}", "10.0.0.9").status_code == 302
    other = create_app({**app.config})  # another app over the same database
    assert sign_up(other.test_client(), "flood9", "10.0.0.9").status_code == 429


def test_an_account_starting_campaigns_in_a_loop_is_stopped_in_words_on_the_api(app):
    roles = seed(app.config["DATABASE"])
    client, org = app.test_client(), roles["organiser"].headers
    for n in range(2):
        made = client.post(
            "/api/campaigns", json={"system": "warcry", "name": f"S{n}"}, headers=org
        )
        assert made.status_code == 201, made.json
    before = counts(app)
    refused = client.post(
        "/api/campaigns", json={"system": "warcry", "name": "Squatted"}, headers=org
    )
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) > 23 * 3600
    assert refused.json["message"].startswith(
        "you started 2 campaigns in the last 24 hours, as many as one account may"
    )
    assert counts(app) == before
    assert client.get("/api/campaigns/squatted", headers=org).status_code == 404
    # Another account still may.
    other = client.post(
        "/api/campaigns", json={"system": "warcry", "name": "Mine"}, headers=roles["player"].headers
    )
    assert other.status_code == 201


def test_a_start_that_writes_no_campaign_does_not_count(app):
    roles = seed(app.config["DATABASE"])
    client, org = app.test_client(), roles["organiser"].headers
    for _ in range(3):
        taken = client.post(
            "/api/campaigns", json={"system": "warcry", "name": "X", "campaign": "c"}, headers=org
        )
        assert taken.status_code == 409
    for n in range(2):
        made = client.post(
            "/api/campaigns", json={"system": "warcry", "name": f"S{n}"}, headers=org
        )
        assert made.status_code == 201


def test_the_start_form_shows_the_limit_beside_it_and_writes_nothing(app):
    seed(app.config["DATABASE"])
    client = logged_in(app, "org")
    token = csrf_of(client.get("/"))
    for n in range(2):
        made = client.post(
            "/campaigns", data={"system": "warcry", "name": f"Page {n}", "csrf_token": token}
        )
        assert made.status_code == 302
    before = counts(app)
    refused = client.post(
        "/campaigns", data={"system": "warcry", "name": "Page 9", "csrf_token": token}
    )
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert "you started 2 campaigns in the last 24 hours" in refused.get_data(as_text=True)
    assert counts(app) == before
