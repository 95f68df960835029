"""Joining at the table: a group link lets in a number of players, each choosing a free side;
every open invitation's link and QR code is shown again on the Members page until it is used,
expires or is revoked; links name the address the organiser reached the page by."""

import re

import pytest
from pagetools import text

from tracker.accounts import AccountError, Accounts

ORG = "organiser-password"

PASSWORD = "a long password here"


def counts(store) -> dict:
    tables = ("users", "members", "invitations", "invitation_groups", "events")
    found = {table: store.one(f"SELECT count(*) FROM {table}")[0] for table in tables}
    return found | {"open": Accounts(store).invitations("c")}


def group_link(client, uses="2", **where) -> str:
    page = client.post("/c/c/members", data={"action": "group", "uses": uses}, **where)
    assert page.status_code == 200, text(page)
    return re.search(r'id="invitation-link">([^<]+)<', page.get_data(as_text=True)).group(1)


def player(app, name):
    client = app.test_client()
    page = client.post("/signup", data={"name": name, "password": PASSWORD})
    assert page.status_code == 302
    return client


@pytest.fixture
def store(svc):
    return svc.store


def test_invitation_links_use_the_address_the_organiser_opened_the_page_by(app, two, organiser):
    # The organiser opened the tracker at the address `serve --lan` printed.
    client, at = app.test_client(), {"base_url": "http://192.168.1.20:5000"}
    assert client.post("/login", data={"name": "org", "password": ORG}, **at).status_code == 302
    link = group_link(client, **at)
    assert link.startswith("http://192.168.1.20:5000/join/")
    # Shown again, on a page opened by the same address, with the same address.
    assert link in client.get("/c/c/members", **at).get_data(as_text=True)
    single = client.post("/c/c/members", data={"action": "invite", "side": "iron"}, **at)
    assert "http://192.168.1.20:5000/join/" in text(single)
    # The Host header itself, as a browser sends it.
    page = client.get("/c/c/members", headers={"Host": "192.168.1.20:5000"}, **at)
    shown = r'<code class="token" id="invitation-\d+">http://192\.168\.1\.20:5000/join/'
    assert len(re.findall(shown, page.get_data(as_text=True))) == 2
    api = client.post(
        "/api/campaigns/c/invitations",
        json={"side": "crow"},
        headers={"X-CSRFToken": "unused"},
        **at,
    )
    assert api.status_code == 201 and api.json["link"].startswith("http://192.168.1.20:5000/join/")


def test_a_group_link_of_two_lets_in_two_players_on_different_free_sides_and_no_third(
    app, client, two, store
):
    code = group_link(client).rsplit("/", 1)[1]
    pia, quinn, rex = player(app, "pia"), player(app, "quinn"), player(app, "rex")
    offered = text(pia.get(f"/join/{code}"))
    assert "by a group link (2 of its places still open): you choose your side" in offered
    page = pia.get(f"/join/{code}").get_data(as_text=True)
    assert '<option value="iron">' in page and '<option value="crow">' in page
    joined = pia.post(f"/join/{code}", data={"side": "iron"})
    assert joined.status_code == 302
    # The side pia plays is not offered again; the one left is.
    page = quinn.get(f"/join/{code}").get_data(as_text=True)
    assert '<option value="iron">' not in page and '<option value="crow">' in page
    assert "1 of its places still open" in text(quinn.get(f"/join/{code}"))
    assert quinn.post(f"/join/{code}", data={"side": "crow"}).status_code == 302
    accounts = Accounts(store)
    assert {m.user.name: m.side for m in accounts.members("c")} == {
        "org": None,
        "pia": "iron",
        "quinn": "crow",
    }
    before = counts(store)
    third = rex.post(f"/join/{code}", data={"side": ""})
    assert third.status_code == 410
    assert "this group link has let in the 2 players it was made for" in text(third)
    assert "unknown, used or expired" in text(rex.get(f"/join/{code}"))
    assert counts(store) == before and accounts.membership("c", accounts.by_name("rex")) is None
    # The organiser's page no longer lists the spent link.
    assert f"/join/{code}" not in client.get("/c/c/members").get_data(as_text=True)


def test_the_last_player_refused_says_the_group_link_let_in_all_it_was_made_for(client, two, store):
    accounts = Accounts(store)
    code = group_link(client).rsplit("/", 1)[1]
    for name, side in (("pia", "iron"), ("quinn", None)):
        accounts.accept(code, accounts.sign_up(name, PASSWORD), side=side)
    before = counts(store)
    with pytest.raises(AccountError, match="let in the 2 players it was made for"):
        accounts.accept(code, accounts.sign_up("rex", PASSWORD), side="crow")
    after = counts(store)
    assert after["users"] == before["users"] + 1  # rex signed up; nothing else was written
    assert {k: v for k, v in after.items() if k != "users"} == {
        k: v for k, v in before.items() if k != "users"
    }


def test_a_side_taken_meanwhile_or_unknown_is_refused_in_words_and_nothing_is_written(
    app, client, two, store
):
    code = group_link(client, "3").rsplit("/", 1)[1]
    pia, quinn = player(app, "pia"), player(app, "quinn")
    assert pia.post(f"/join/{code}", data={"side": "iron"}).status_code == 302
    before = counts(store)
    taken = quinn.post(f"/join/{code}", data={"side": "iron"})
    assert taken.status_code == 409
    assert "Ironjaws is played by pia already" in text(taken)
    unknown = quinn.post(f"/join/{code}", data={"side": "nowhere"})
    assert unknown.status_code == 422 and "there is no such side" in text(unknown)
    assert counts(store) == before
    # With no side chosen, a player joins without one (it founds one, or is given one).
    assert quinn.post(f"/join/{code}", data={"side": ""}).status_code == 302
    assert Accounts(store).membership("c", Accounts(store).by_name("quinn")).side is None


def test_a_group_link_and_its_qr_code_are_shown_again_after_a_reload_and_gone_after_revoke(
    client, two, store, anon
):
    link = group_link(client, "4")
    page = client.get("/c/c/members").get_data(as_text=True)
    assert link in page and "A group link for 4 players: 0 joined so far" in text(
        client.get("/c/c/members")
    )
    card = page.split('class="card invitation')[1].split("</div>\n")[0]
    assert '<img class="qr" src="data:image/svg+xml' in card and "Copy the link" in card
    number = Accounts(store).invitations("c")[0]["id"]
    done = client.post("/c/c/members", data={"action": "revoke", "invitation": str(number)})
    assert done.status_code == 302
    page = client.get("/c/c/members").get_data(as_text=True)
    assert link not in page and 'class="qr"' not in page
    code = link.rsplit("/", 1)[1]
    assert "unknown, used or expired" in text(anon.get(f"/join/{code}"))


def test_a_single_invitation_is_shown_again_too_and_its_code_is_kept_only_as_a_digest(
    client, two, store
):
    page = client.post("/c/c/members", data={"action": "invite", "side": "crow"})
    link = re.search(r'id="invitation-link">([^<]+)<', page.get_data(as_text=True)).group(1)
    code = link.rsplit("/", 1)[1]
    again = client.get("/c/c/members")
    assert link in again.get_data(as_text=True) and "For the player of Crowmarch" in text(again)
    rows = store.query("SELECT * FROM invitations")
    assert not any(code in str(value) for row in rows for value in row)


def test_a_code_made_before_codes_were_derived_is_not_shown_again(client, two, store):
    accounts = Accounts(store)
    with store.transaction() as tx:
        tx.execute(
            "INSERT INTO invitations (code_hash, campaign, side, created_by, created_at, "
            "expires_at) VALUES (?, 'c', 'iron', ?, '2026-01-01T00:00:00Z', '2999-01-01T00:00:00Z')",
            ("0" * 64, accounts.by_name("org").id),
        )
    page = text(client.get("/c/c/members"))
    assert "Its link was shown once, when it was made: renew it" in page


@pytest.mark.parametrize("uses", ["1", "21", "two", "", "²", "9" * 5000, "-3"])
def test_a_group_link_for_too_few_or_too_many_players_is_refused_in_words(client, two, store, uses):
    before = counts(store)
    page = client.post("/c/c/members", data={"action": "group", "uses": uses})
    assert page.status_code == 422
    assert "a group link lets in 2 to 20 players" in text(page) and "/join/" not in text(page)
    assert counts(store) == before


def test_renewing_a_group_link_keeps_the_places_it_had_left(app, client, two, store):
    accounts = Accounts(store)
    code = group_link(client, "3").rsplit("/", 1)[1]
    accounts.accept(code, accounts.sign_up("pia", PASSWORD), side="iron")
    number = accounts.invitations("c")[0]["id"]
    client.post("/c/c/members", data={"action": "renew", "invitation": str(number)})
    (renewed,) = accounts.invitations("c")
    assert renewed["uses"] == 2 and renewed["joined"] == 0 and renewed["code"] != code


def test_only_the_organiser_makes_a_group_link_and_sees_the_links(app, two, store):
    accounts = Accounts(store)
    accounts.add_member("c", accounts.sign_up("pia", PASSWORD), "player", "iron")
    pia = app.test_client()
    pia.post("/login", data={"name": "pia", "password": PASSWORD})
    accounts.invite("c", accounts.by_name("org"), uses=2)
    before = counts(store)
    answer = pia.post("/c/c/members", data={"action": "group", "uses": "2"})
    assert answer.status_code == 403 and counts(store) == before
    assert "/join/" not in pia.get("/c/c/members").get_data(as_text=True)


def test_the_group_link_form_needs_its_csrf_token(app, client, two, store):
    app.config["WTF_CSRF_ENABLED"] = True
    before = counts(store)
    answer = client.post("/c/c/members", data={"action": "group", "uses": "2"})
    assert answer.status_code == 400 and counts(store) == before


def test_the_api_makes_a_group_link_and_refuses_one_for_a_side_or_too_many(client, two, store):
    made = client.post("/api/campaigns/c/invitations", json={"uses": 3})
    assert made.status_code == 201 and made.json["uses"] == 3 and made.json["side"] is None
    (group,) = Accounts(store).invitations("c")
    assert group["uses"] == 3 and made.json["link"].endswith("/join/" + group["code"])
    before = counts(store)
    for body in ({"uses": 2, "side": "iron"}, {"uses": 21}, {"uses": 2.5}, {"uses": "2"}):
        answer = client.post("/api/campaigns/c/invitations", json=body)
        assert answer.status_code in (400, 422) and answer.json["message"], body
    assert counts(store) == before
