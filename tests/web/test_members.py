"""The organiser manages the table: open invitations (renewed, revoked), members removed or
moved to another side; the join page says which campaign, game and organiser it is for."""

from pagetools import text

from tracker.accounts import Accounts


def invite(client, side=""):
    page = client.post("/c/c/members", data={"action": "invite", "side": side})
    assert page.status_code == 200
    return page.get_data(as_text=True).split("/join/")[1].split("<")[0].split('"')[0]


def test_the_organiser_sees_open_invitations_and_revokes_one(client, two, svc, anon):
    code = invite(client, "iron")
    page = text(client.get("/c/c/members"))
    assert "Open invitations" in page and "Ironjaws" in page
    invitation = Accounts(svc.store).invitations("c")[0]["id"]
    done = client.post("/c/c/members", data={"action": "revoke", "invitation": str(invitation)})
    assert done.status_code == 302
    assert Accounts(svc.store).invitations("c") == []
    assert "unknown, used or expired" in text(anon.get(f"/join/{code}"))


def test_renewing_an_invitation_gives_a_new_link_for_the_same_side(client, two, svc):
    old = invite(client, "crow")
    invitation = Accounts(svc.store).invitations("c")[0]["id"]
    page = client.post("/c/c/members", data={"action": "renew", "invitation": str(invitation)})
    new = page.get_data(as_text=True).split("/join/")[1].split("<")[0]
    open_ones = Accounts(svc.store).invitations("c")
    assert new != old and len(open_ones) == 1 and open_ones[0]["side"] == "crow"


def test_the_join_page_names_the_campaign_its_game_and_its_organiser(client, two, anon):
    code = invite(client, "iron")
    page = text(anon.get(f"/join/{code}"))
    assert "Test campaign" in page and "Warcry" in page and "organised by org" in page
    assert "to play Ironjaws" in page


def test_the_organiser_removes_a_member_and_changes_a_players_side(client, two, svc):
    accounts = Accounts(svc.store)
    pia = accounts.sign_up("pia", "a long password here")
    accounts.add_member("c", pia, "player", "iron")
    moved = client.post(
        "/c/c/members", data={"action": "side", "user": str(pia.id), "side": "crow"}
    )
    assert moved.status_code == 302 and accounts.membership("c", pia).side == "crow"
    gone = client.post("/c/c/members", data={"action": "remove", "user": str(pia.id)})
    assert gone.status_code == 302 and accounts.membership("c", pia) is None


def test_destructive_member_forms_ask_to_confirm(client, two, svc):
    accounts = Accounts(svc.store)
    accounts.add_member("c", accounts.sign_up("pia", "a long password here"), "player", "iron")
    invite(client, "crow")  # Ironjaws is pia's: not offered again
    html = client.get("/c/c/members").get_data(as_text=True)
    assert html.count("data-confirm=") == 2  # remove pia, revoke the invitation


def test_only_the_organiser_manages_members(app, two, svc):
    accounts = Accounts(svc.store)
    pia = accounts.sign_up("pia", "a long password here")
    accounts.add_member("c", pia, "player", "iron")
    player = app.test_client()
    player.post("/login", data={"name": "pia", "password": "a long password here"})
    org = accounts.by_name("org")
    answer = player.post("/c/c/members", data={"action": "remove", "user": str(org.id)})
    assert answer.status_code == 403 and accounts.membership("c", org) is not None
