"""A side has one player. A side already played is not offered again; an invitation for a
side taken meanwhile, or sent to a member who plays a side already, is refused in words and
changes nothing; and an organiser taking or leaving a seat is an event of the log, so the
audit log says who saw every hand from when. (Campaign "c": ivy plays Ironjaws, cole
Crowmarch, org organises and referees, nemo is no member: see apiseed.)"""

import pytest
from apiseed import PASSWORD
from logins import logged_in
from pagetools import text

from tracker.accounts import Accounts, SeatRefused
from tracker.service import Service
from tracker.store import open_store


@pytest.fixture
def db(app, roles):
    store = open_store(app.config["DATABASE"])
    yield store, Accounts(store)
    store.close()


def counts(store) -> dict:
    return {
        table: store.one(f"SELECT count(*) FROM {table}")[0]
        for table in ("users", "events", "members")
    } | {"open": len(Accounts(store).invitations("c"))}


def sides_of(accounts) -> dict:
    return {m.user.name: m.side for m in accounts.members("c")}


@pytest.fixture
def organiser(app, roles):
    app.config["WTF_CSRF_ENABLED"] = False
    return logged_in(app, "org")


def test_the_invitation_form_does_not_offer_a_side_that_is_played(organiser, db):
    page = organiser.get("/c/c/members").get_data(as_text=True)
    invite_form = page.split('value="invite"')[1].split("</form>")[0]
    assert '<option value="iron" disabled>' in invite_form
    assert "(played by ivy)" in invite_form and "(played by cole)" in invite_form


def test_an_invitation_for_a_played_side_is_refused_in_words_on_the_page_and_the_api(
    client, organiser, roles, db
):
    store, _ = db
    before = counts(store)
    page = organiser.post("/c/c/members", data={"action": "invite", "side": "iron"})
    assert page.status_code == 409
    assert "Ironjaws is played by ivy already" in text(page) and "/join/" not in text(page)
    api = client.post(
        "/api/campaigns/c/invitations", json={"side": "crow"}, headers=roles["organiser"].headers
    )
    assert api.status_code == 409 and "Crowmarch is played by cole already" in api.json["message"]
    assert counts(store) == before


def test_a_second_link_for_a_side_taken_meanwhile_is_refused_and_changes_nothing(app, db):
    store, accounts = db
    org = accounts.by_name("org")
    accounts.remove_member("c", accounts.by_name("ivy"))  # Ironjaws is free again
    first, second = accounts.invite("c", org, "iron"), accounts.invite("c", org, "iron")
    accounts.accept(first, accounts.by_name("nemo"))
    late = accounts.sign_up("late", PASSWORD)
    before = counts(store)
    with pytest.raises(SeatRefused, match="iron is played by nemo already"):
        accounts.accept(second, late)
    assert counts(store) == before and accounts.membership("c", late) is None
    # On the join page, in the words of the campaign.
    app.config["WTF_CSRF_ENABLED"] = False
    client = logged_in(app, "late")
    page = client.post(f"/join/{second}")
    assert page.status_code == 409
    assert "Ironjaws is played by nemo already" in text(page)
    assert counts(store) == before


def test_a_seat_link_sent_to_a_player_of_the_other_side_never_moves_it(app, client, roles, db):
    store, accounts = db
    org = accounts.by_name("org")
    accounts.remove_member("c", accounts.by_name("ivy"))
    code = accounts.invite("c", org, "iron")
    before, seated = counts(store), sides_of(accounts)
    # cole plays Crowmarch; the Ironjaws link reaches it by mistake.
    app.config["WTF_CSRF_ENABLED"] = False
    player = logged_in(app, "cole")
    page = player.post(f"/join/{code}")
    assert page.status_code == 409
    words = text(page)
    assert "you play Crowmarch in this campaign already" in words
    assert "never moves a player to Ironjaws" in words and "send it on" in words
    api = client.post(f"/api/invitations/{code}", headers=roles["other player"].headers)
    assert api.status_code == 409 and "you play Crowmarch" in api.json["message"]
    assert counts(store) == before and sides_of(accounts) == seated
    # The link still works for the player it was meant for.
    assert accounts.accept(code, accounts.by_name("nemo")).side == "iron"


def test_the_organiser_accepting_its_own_link_is_refused_and_changes_nothing(db):
    store, accounts = db
    org = accounts.by_name("org")
    accounts.remove_member("c", accounts.by_name("ivy"))
    code = accounts.invite("c", org, "iron")
    before = counts(store)
    with pytest.raises(SeatRefused, match="you organise this campaign already"):
        accounts.accept(code, org)
    assert counts(store) == before and accounts.membership("c", org).role == "organiser"


def test_the_organiser_moving_a_player_onto_a_played_side_is_refused(organiser, db):
    store, accounts = db
    ivy = accounts.by_name("ivy")
    page = organiser.post(
        "/c/c/members", data={"action": "side", "user": str(ivy.id), "side": "crow"}
    )
    assert page.status_code == 409 and "Crowmarch is played by cole already" in text(page)
    assert accounts.membership("c", ivy).side == "iron"


def test_an_organiser_taking_and_leaving_a_seat_is_in_the_log_and_the_audit_log(organiser, db):
    store, accounts = db
    org = accounts.by_name("org")
    accounts.remove_member("c", accounts.by_name("cole"))
    start = store.version("c")
    state = Service(store).state("c").state
    assert (
        organiser.post("/c/c/members", data={"action": "seat", "side": "crow"}).status_code == 302
    )
    assert accounts.membership("c", org).side == "crow"
    taken = store.event("c", start + 1)
    assert (taken.type, taken.data) == ("SeatTaken", {"organiser": "org", "side": "crow"})
    assert taken.meta["actor"] == "org"
    assert organiser.post("/c/c/members", data={"action": "seat", "side": ""}).status_code == 302
    assert accounts.membership("c", org).side is None
    left = store.event("c", start + 2)
    assert (left.type, left.data) == ("SeatLeft", {"organiser": "org", "side": "crow"})
    audit = text(organiser.get("/c/c/audit"))
    assert "org, organising, took the seat of Crowmarch: from here on sees only what" in audit
    assert (
        "org, organising, left the seat of Crowmarch to referee: from here on sees every hand"
        in audit
    )
    # No game's rules see them: the state is what it was.
    assert Service(store).state("c").state == state
    # Asking for the seat it has already writes nothing.
    organiser.post("/c/c/members", data={"action": "seat", "side": ""})
    assert store.version("c") == start + 2


def test_a_seat_event_is_written_only_with_the_seat_itself(client, roles, db):
    store, accounts = db
    before = counts(store)
    for role in ("organiser", "player"):
        sent = client.post(
            "/api/campaigns/c/events",
            json={
                "events": [{"type": "SeatTaken", "data": {"organiser": "org", "side": "crow"}}],
                "expected_version": store.version("c"),
            },
            headers=roles[role].headers,
        )
        assert sent.status_code == 403 and "Members page" in sent.json["message"]
    assert counts(store) == before


def test_a_seat_event_cannot_be_voided(organiser, client, roles, db):
    store, accounts = db
    accounts.remove_member("c", accounts.by_name("cole"))
    organiser.post("/c/c/members", data={"action": "seat", "side": "crow"})
    version = store.version("c")
    sent = client.post(
        "/api/campaigns/c/events",
        json={
            "events": [{"type": "EventVoided", "data": {"version": version, "reason": "x"}}],
            "expected_version": version,
        },
        headers=roles["organiser"].headers,
    )
    assert sent.status_code == 422 and "cannot be voided" in sent.json["message"]
    assert store.version("c") == version


def test_a_log_with_seat_events_exports_and_imports_to_the_same_hashes(organiser, db, tmp_path):
    store, accounts = db
    accounts.remove_member("c", accounts.by_name("cole"))
    organiser.post("/c/c/members", data={"action": "seat", "side": "crow"})
    lines = list(Service(store).export("c"))
    other = open_store(tmp_path / "other.db")
    other.init()
    [result] = Service(other).import_lines(lines)
    assert (result.last_version, result.head) == store.head("c")
    other.close()
