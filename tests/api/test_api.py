"""The JSON API: each endpoint, its errors in one shape, tokens."""

import json

import pytest


def post_events(client, role, events, expected, **headers):
    return client.post(
        "/api/campaigns/c/events",
        json={"events": events, "expected_version": expected},
        headers={**role.headers, **headers},
    )


def fighter(fid="new", warband="iron"):
    return {
        "type": "FighterAdded",
        "data": {
            "warband": warband,
            "fighter": fid,
            "name": "New",
            "runemarks": ["ember"],
            "points": 50,
        },
    }


def test_the_systems_are_listed_with_their_event_types_and_json_schemas(client):
    systems = {s["name"]: s for s in client.get("/api/systems").json}
    assert set(systems) == {"warcry", "claim", "leaders", "monsters", "hellas"}
    injury = systems["warcry"]["events"]["InjuryRolled"]
    assert injury["type"] == "object" and "dice" in injury["properties"]
    assert injury["additionalProperties"] is False


def test_the_openapi_document_and_its_browsable_page(client):
    spec = client.get("/api/openapi.json").json
    assert spec["openapi"].startswith("3.") and "/api/campaigns/{campaign}/events" in spec["paths"]
    page = client.get("/api/docs")
    assert page.status_code == 200 and b"POST /api/campaigns/{campaign}/events" in page.data


def test_a_campaign_is_started_through_the_api_and_its_starter_is_organiser(client, roles):
    page = client.post(
        "/api/campaigns",
        json={"system": "warcry", "name": "Api League", "settings": {"quest": "ember-crown"}},
        headers=roles["player"].headers,
    )
    assert page.status_code == 201 and page.json["id"] == "api-league"
    assert page.json["role"] == "organiser" and page.json["version"] == 1


def test_the_campaign_list_holds_only_what_the_caller_may_see(client, roles):
    assert [
        c["id"] for c in client.get("/api/campaigns", headers=roles["player"].headers).json
    ] == ["c"]
    assert client.get("/api/campaigns", headers=roles["non-member"].headers).json == []
    assert client.get("/api/campaigns").json == []


def test_events_are_appended_with_new_versions_and_head(client, roles, svc):
    page = post_events(client, roles["player"], [fighter("a"), fighter("b")], 11)
    assert page.status_code == 201
    assert page.json["first_version"] == 12 and page.json["last_version"] == 13
    assert page.json["head"] == svc.store.head("c")[1]
    assert svc.store.event("c", 12).meta["actor"] == "ivy"


def test_the_expected_version_may_come_as_if_match(client, roles):
    page = client.post(
        "/api/campaigns/c/events",
        json={"events": [fighter()]},
        headers={**roles["player"].headers, "If-Match": '"11"'},
    )
    assert page.status_code == 201
    page = client.post(
        "/api/campaigns/c/events",
        json={"events": [fighter("x")]},
        headers={**roles["player"].headers},
    )
    assert page.status_code == 400 and "expected_version" in page.json["errors"]


def test_a_stale_version_is_409_with_the_current_version(client, roles, svc):
    page = post_events(client, roles["player"], [fighter()], 3)
    assert page.status_code == 409 and page.json["current_version"] == 11
    assert svc.store.version("c") == 11


def test_a_broken_rule_is_422_naming_the_rule_and_the_event_of_the_batch(client, roles, svc):
    remove = {"type": "FighterRemoved", "data": {"warband": "iron", "fighter": "iron-0"}}
    page = post_events(client, roles["player"], [fighter(), remove], 11)
    assert page.status_code == 422 and page.json["event"] == 1
    assert "the leader can never be removed" in page.json["message"]
    assert svc.store.version("c") == 11


def test_malformed_input_is_400_with_the_field_errors(client, roles):
    page = post_events(
        client,
        roles["player"],
        [
            {
                "type": "FighterAdded",
                "data": {
                    "warband": "iron",
                    "fighter": "x",
                    "name": "X",
                    "runemarks": ["ember"],
                    "points": 2.5,
                },
            }
        ],
        11,
    )
    assert page.status_code == 400 and page.json["event"] == 0
    assert "points" in page.json["errors"]
    page = client.post(
        "/api/campaigns/c/events",
        json={"events": [], "expected_version": 2.5, "colour": "red"},
        headers=roles["player"].headers,
    )
    assert page.status_code == 400
    assert {"expected_version", "colour", "events"} <= set(page.json["errors"]["json"])


def test_every_error_body_has_one_shape(client, roles):
    answers = [
        client.get("/api/campaigns/c"),
        client.post("/api/campaigns", json={"system": "warcry", "name": "x"}),
        post_events(client, roles["player"], [fighter()], 1),
        client.get("/api/campaigns/c/events?limit=0", headers=roles["player"].headers),
        client.delete("/api/systems"),
    ]
    assert [a.status_code for a in answers] == [404, 401, 409, 400, 405]
    for answer in answers:
        assert {"code", "status", "message"} <= set(answer.json)
        assert answer.json["code"] == answer.status_code
    assert "GET" in answers[-1].headers["Allow"]


def test_an_idempotency_key_makes_a_retry_safe(client, roles, svc):
    first = post_events(client, roles["player"], [fighter()], 11, **{"Idempotency-Key": "k1"})
    again = post_events(client, roles["player"], [fighter()], 11, **{"Idempotency-Key": "k1"})
    assert first.status_code == again.status_code == 201
    assert again.json["replayed"] and again.json["last_version"] == first.json["last_version"]
    assert svc.store.version("c") == 12


def test_dice_left_out_are_rolled_by_the_server(client, roles, svc):
    battle = {
        "type": "BattleFought",
        "data": {
            "battle": "b1",
            "winner": "crow",
            "sides": [
                {
                    "warband": "iron",
                    "fighters": ["iron-0", "iron-1", "iron-2"],
                    "taken_down": ["iron-1"],
                },
                {"warband": "crow", "fighters": ["crow-0", "crow-1", "crow-2"]},
            ],
        },
    }
    steps = [
        battle,
        {"type": "AftermathStepCompleted", "data": {"warband": "iron", "step": 1}},
        {"type": "InjuryRolled", "data": {"warband": "iron", "fighter": "iron-1"}},
    ]
    assert post_events(client, roles["player"], steps, 11).status_code == 201
    event = svc.store.event("c", 14)
    assert len(event.data["dice"]) == 2 and event.meta["source"] == "server-roll"


def test_the_log_is_paged(client, roles):
    page = client.get("/api/campaigns/c/events?after=0&limit=4", headers=roles["player"].headers)
    assert [e["version"] for e in page.json["events"]] == [1, 2, 3, 4]
    assert page.json["next_after"] == 4 and page.json["version"] == 11
    last = client.get("/api/campaigns/c/events?after=8&limit=4", headers=roles["player"].headers)
    assert [e["version"] for e in last.json["events"]] == [9, 10, 11]
    assert last.json["next_after"] is None
    assert (
        client.get("/api/campaigns/c/events?after=2.5", headers=roles["player"].headers).status_code
        == 400
    )


def test_the_state_now_and_at_an_earlier_version(client, roles):
    now = client.get("/api/campaigns/c/state", headers=roles["player"].headers).json
    then = client.get("/api/campaigns/c/state?at=2", headers=roles["player"].headers).json
    assert now["version"] == 11 and set(now["warbands"]) == {"iron", "crow"}
    assert then["version"] == 2 and set(then["warbands"]) == {"iron"}
    assert (
        client.get("/api/campaigns/c/state?at=99", headers=roles["player"].headers).status_code
        == 404
    )


def test_verify_and_export(client, roles, svc):
    verdict = client.get("/api/campaigns/c/verify", headers=roles["player"].headers).json
    assert verdict["ok"] and verdict["broken"] is None and verdict["version"] == 11
    export = client.get("/api/campaigns/c/export", headers=roles["player"].headers)
    assert export.mimetype == "application/x-ndjson"
    lines = export.get_data(as_text=True).splitlines()
    assert len(lines) == 11 and json.loads(lines[-1])["hash"] == svc.store.head("c")[1]


def test_an_invitation_code_makes_a_player_of_its_side(client, roles, app):
    from tracker.accounts import Accounts
    from tracker.store import open_store

    store = open_store(app.config["DATABASE"])
    Accounts(store).remove_member("c", Accounts(store).by_name("cole"))  # Crowmarch is free
    code = client.post(
        "/api/campaigns/c/invitations", json={"side": "crow"}, headers=roles["organiser"].headers
    ).json["code"]
    joined = client.post(f"/api/invitations/{code}", headers=roles["non-member"].headers)
    assert joined.status_code == 200 and joined.json == {
        "campaign": "c",
        "role": "player",
        "side": "crow",
    }
    again = client.post(f"/api/invitations/{code}", headers=roles["non-member"].headers)
    assert again.status_code == 422
    assert Accounts(store).membership("c", Accounts(store).by_name("nemo")).side == "crow"


def test_a_revoked_or_unknown_token_opens_nothing(client, roles, app):
    from tracker.accounts import Accounts
    from tracker.store import open_store

    assert client.get("/api/me", headers=roles["player"].headers).json["name"] == "ivy"
    store = open_store(app.config["DATABASE"])
    accounts = Accounts(store)
    user = accounts.by_name("ivy")
    accounts.revoke_token(user, accounts.tokens(user)[0]["id"])
    assert client.get("/api/me", headers=roles["player"].headers).status_code == 401
    assert client.get("/api/me", headers={"Authorization": "Bearer nonsense"}).status_code == 401


def test_tokens_and_passwords_are_stored_hashed(app, roles):
    from tracker.store import open_store

    store = open_store(app.config["DATABASE"])
    dump = "\n".join(store.conn.iterdump())
    assert roles["player"].token not in dump and "a fine long password" not in dump


@pytest.mark.parametrize("public", [True])
def test_a_public_campaign_is_read_only_for_all(client, roles, public):
    assert (
        client.patch(
            "/api/campaigns/c", json={"public": True}, headers=roles["organiser"].headers
        ).status_code
        == 200
    )
    assert client.get("/api/campaigns/c/state").status_code == 200
    assert post_events(client, roles["anonymous"], [fighter()], 11).status_code == 401
    assert post_events(client, roles["non-member"], [fighter()], 11).status_code == 403


def test_an_append_refused_for_any_reason_writes_nothing(client, roles, svc):
    stale = post_events(client, roles["player"], [fighter()], 3)
    unknown = post_events(client, roles["player"], [{"type": "Nope", "data": {}}], 11)
    stranger = post_events(client, roles["non-member"], [fighter()], 11)
    bad = client.post("/api/campaigns/c/events", data="{not json", headers=roles["player"].headers)
    assert stale.status_code == 409 and stale.json["current_version"] == 11
    assert unknown.status_code == 400 and stranger.status_code == 404  # private: unseen
    assert bad.status_code == 400
    assert svc.store.version("c") == 11


def test_a_body_nested_too_deeply_is_400_in_words_and_nothing_is_written(client, roles, svc):
    deep = "[" * 100_000 + "]" * 100_000
    page = client.post(
        "/api/campaigns/c/events",
        data='{"events": ' + deep + ', "expected_version": 11}',
        headers={**roles["player"].headers, "Content-Type": "application/json"},
    )
    assert page.status_code == 400
    assert page.json["message"] == (
        "the request is nested too deeply to be read; nothing was written"
    )
    assert svc.store.version("c") == 11


def test_the_api_offers_the_per_side_condition_and_keeps_strict_by_default(client, roles, svc):
    assert post_events(client, roles["other player"], [fighter("kite", "crow")], 11).status_code
    strict = post_events(client, roles["player"], [fighter("ox")], 11)
    assert strict.status_code == 409 and strict.json["current_version"] == 12
    per_side = client.post(
        "/api/campaigns/c/events",
        json={"events": [fighter("ox")], "expected_version": 11, "consistency": "sides"},
        headers=roles["player"].headers,
    )
    assert per_side.status_code == 201 and per_side.json["last_version"] == 13
    same_side = client.post(
        "/api/campaigns/c/events",
        json={"events": [fighter("elk")], "expected_version": 11, "consistency": "sides"},
        headers=roles["player"].headers,
    )
    assert (
        same_side.status_code == 409 and "meanwhile, on the same side" in same_side.json["message"]
    )
    assert svc.store.version("c") == 13
