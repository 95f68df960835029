"""The front page a first visit meets: the visitor's own campaigns apart from the samples,
paged and searched by name; and playing on from any campaign one may read."""

import html
import json
import re

import pytest
from pagetools import text, version

from tracker.cli import load_samples
from tracker.service import Service
from tracker.store import Store
from tracker.web import campaign

PASSWORD = "a-long-password"
WARCRY = "ember-crown-sample"


def log_in(app, accounts, name):
    accounts.sign_up(name, PASSWORD)
    client = app.test_client()
    answer = client.post("/login", data={"name": name, "password": PASSWORD})
    assert answer.status_code == 302
    return client


@pytest.fixture
def samples(svc):
    """The seven samples as `serve` loads them: public, with no organiser."""
    assert load_samples(Service(svc.store)) == 7
    return svc


@pytest.fixture
def newcomer(app, accounts):
    return log_in(app, accounts, "newcomer")


def section(page, key: str) -> str:
    """The text of one list of the front page (its <section id=...>)."""
    html = page.get_data(as_text=True)
    start = html.index(f'<section id="{key}">')
    return html[start : html.index("</section>", start)]


def test_your_campaigns_are_listed_apart_from_the_samples(client, samples, svc):
    svc.start("mine", "warcry", "My own league", {"quest": "ember-crown"})
    page = client.get("/")
    mine, public = section(page, "mine"), section(page, "page")
    assert "Your campaigns" in mine and "My own league" in mine and "Ember Crown" not in mine
    assert "The Ember Crown (sample)" in public and "Tavern nights" in public
    assert "My own league" not in public


def test_a_newcomer_has_no_campaign_yet_and_is_told_it_may_play_on_from_a_sample(newcomer, samples):
    page = newcomer.get("/")
    assert "You have no campaign yet" in text(page) and "play on" in text(page)
    assert f"/c/{WARCRY}/play-on" in section(page, "page")


def test_a_visitor_not_logged_in_sees_the_samples_and_no_list_of_its_own(anon, samples):
    page = anon.get("/")
    assert '<section id="mine">' not in page.get_data(as_text=True)
    assert "The Ember Crown (sample)" in section(page, "page") and "play-on" not in text(page)


@pytest.fixture
def many(svc, accounts, organiser):
    """120 campaigns of the organiser, named League 000 to League 119."""
    for number in range(120):
        svc.start(f"l{number:03}", "warcry", f"League {number:03}", {"quest": "ember-crown"})
    return svc


def links(listed: str) -> dict[str, str]:
    """The pager's links of a list, by rel (prev, next), unescaped."""
    found = re.findall(r'<a href="([^"]+)" rel="(prev|next)"', listed)
    return {rel: html.unescape(href) for href, rel in found}


def test_the_front_page_pages_through_many_campaigns_by_id(client, many, monkeypatch):
    monkeypatch.setattr(campaign, "LIST_PAGE", 50)
    first = section(client.get("/"), "mine")
    assert "League 000" in first and "League 049" in first and "League 050" not in first
    assert links(first) == {"next": "/?mine_after=l049"}
    second = section(client.get(links(first)["next"]), "mine")
    assert "League 050" in second and "League 099" in second and "League 049" not in second
    assert links(second) == {"prev": "/?mine_before=l050", "next": "/?mine_after=l099"}
    last = section(client.get(links(second)["next"]), "mine")
    assert "League 119" in last and "League 099" not in last
    assert links(last) == {"prev": "/?mine_before=l100"}
    back = section(client.get(links(last)["prev"]), "mine")
    assert "League 050" in back and "League 099" in back and "League 100" not in back
    assert links(back) == {"prev": "/?mine_before=l050", "next": "/?mine_after=l099"}
    assert links(section(client.get(links(back)["prev"]), "mine")) == {"next": "/?mine_after=l049"}
    beyond = client.get("/?mine_after=l119")
    assert beyond.status_code == 200 and "back to the first page" in text(beyond)


def test_paging_one_list_keeps_the_search_and_the_other_lists_place(client, many, monkeypatch):
    monkeypatch.setattr(campaign, "LIST_PAGE", 5)
    listed = section(client.get("/?q=league 1&after=zz"), "mine")
    assert links(listed)["next"] == "/?q=league+1&after=zz&mine_after=l104"


def test_the_front_page_searches_by_name_whatever_the_case(client, many):
    found = section(client.get("/?q=league 11"), "mine")
    assert found.count("/play-on") == 10 and "League 110" in found and "League 011" not in found
    assert "League 042" in section(client.get("/?q=LEAGUE 042"), "mine")
    nothing = client.get("/?q=50%25")  # a % is a character to look for, not a wildcard
    assert "None of these is called anything like" in section(nothing, "mine")
    assert "League 042" in section(client.get("/?q=l042"), "mine")  # by id too


def test_the_front_page_finds_campaigns_by_game_without_script(client, many, svc):
    svc.start("tavern", "claim", "Tavern nights", {"players": CLAIM_PLAYERS})
    page = client.get("/?game=claim")
    mine = section(page, "mine")
    assert "Tavern nights" in mine and "League" not in mine
    assert '<option value="claim" selected>' in page.get_data(as_text=True)
    assert "Tavern nights" not in section(client.get("/?game=warcry&q=tavern"), "mine")
    assert "is a campaign of Claim" in section(client.get("/?game=claim&q=league"), "mine")


def test_the_front_page_reads_no_campaigns_events_beyond_their_first_and_head(
    client, many, monkeypatch
):
    def refuse(*args, **kwargs):
        raise AssertionError("the front page read a campaign's log")

    monkeypatch.setattr(Store, "read", refuse)
    monkeypatch.setattr(Store, "campaigns", refuse)
    monkeypatch.setattr(Service, "state", refuse)
    page = client.get("/?mine_after=l049")
    assert page.status_code == 200 and "League 050" in section(page, "mine")


# -- play on ------------------------------------------------------------------------------------


def test_playing_on_from_a_sample_copies_it_up_to_the_chosen_event(newcomer, samples, svc):
    answer = newcomer.post(
        f"/c/{WARCRY}/play-on", data={"upto": "50", "name": "My Ember Crown", "campaign": "mine"}
    )
    assert answer.status_code == 302 and answer.location.endswith("/c/mine/")
    copy, source = svc.state("mine"), svc.state(WARCRY, 50)
    assert copy.version == 50 and copy.name == "My Ember Crown"
    assert json.dumps(copy.system.public_state(copy.state), sort_keys=True) == json.dumps(
        source.system.public_state(source.state), sort_keys=True
    )
    assert svc.store.version(WARCRY) == 322  # the sample is left as it is
    audit = text(newcomer.get("/c/mine/audit"))
    assert (
        "playing on from campaign 'ember-crown-sample' as it stood after its event 50 "
        f"(log hash {svc.store.event(WARCRY, 50).hash[:12]})" in audit
    )
    # The copy is the newcomer's own: listed as such, and open to its records.
    assert "My Ember Crown" in section(newcomer.get("/"), "mine")
    assert "only its members record" not in text(newcomer.get("/c/mine/"))


def test_playing_on_keeps_the_voids_as_of_the_chosen_event(client, svc, two):
    svc.append("c", [{"type": "EventVoided", "data": {"version": 11, "reason": "typo"}}], 11)
    for upto, name, voids in ((12, "after", {11: 12}), (11, "before", {})):
        answer = client.post("/c/c/play-on", data={"upto": upto, "name": name})
        assert answer.status_code == 302
        assert svc.store.voids(name) == voids
        assert svc.state(name).state == svc.state("c", upto).state


def test_playing_on_is_for_those_logged_in_and_from_campaigns_they_may_read(
    anon, newcomer, svc, two
):
    answer = anon.post("/c/c/play-on", data={"upto": "1", "name": "X"})
    assert answer.status_code in (302, 401) and not svc.store.exists("x")
    private = newcomer.post("/c/c/play-on", data={"upto": "1", "name": "X"})
    assert private.status_code == 404 and not svc.store.exists("x")


@pytest.mark.parametrize(
    "fields, words",
    [
        ({"upto": "x"}, "Play on from an event number, such as 11, not 'x'."),
        ({"upto": "0"}, "has events 1 to 11, not 0"),
        ({"upto": "99"}, "has events 1 to 11, not 99"),
        ({"upto": "1", "campaign": "c"}, "there is already a campaign 'c'"),
        ({"upto": "1", "campaign": "Not An Id"}, "use lower-case letters, digits and dashes"),
        (
            {"upto": "1", "name": "x" * 200},
            "The campaign's name must be 1 to 120 characters in length.",
        ),
    ],
)
def test_playing_on_with_a_wrong_choice_says_why_and_writes_nothing(
    client, svc, two, fields, words
):
    count = svc.store.count()
    answer = client.post("/c/c/play-on", data={"name": "Copy", **fields})
    assert answer.status_code == 422 and words in text(answer)
    assert svc.store.count() == count


CLAIM_PLAYERS = [{"id": "ana", "name": "Ana"}, {"id": "ben", "name": "Ben"}]


@pytest.fixture
def dealt(svc, accounts):
    """A public Claim campaign whose game 1 is dealt and under way: the hands are hidden."""
    svc.start("claim", "claim", "Ana against Ben", {"players": CLAIM_PLAYERS})
    deck = svc.state("claim").state["deck"]
    deal = {"hands": {"ana": deck[:13], "ben": deck[13:26]}, "stock": deck[26:]}
    svc.append(
        "claim",
        [{"type": "GameDealt", "data": {"game": 1, "leader": "ana", "deal": deal}}],
        version(svc, "claim"),
    )
    accounts.set_public("claim", True)
    return "claim"


def test_playing_on_from_a_game_whose_hands_are_hidden_is_refused_in_plain_words(
    newcomer, dealt, svc
):
    answer = newcomer.post("/c/claim/play-on", data={"upto": "2", "name": "Peek"})
    assert answer.status_code == 422 and not svc.store.exists("peek")
    assert (
        "event 2 (GameDealt) holds what you may not see yet (such as another player's hand)"
        in text(answer)
    )
    before = newcomer.post("/c/claim/play-on", data={"upto": "1", "name": "Before the deal"})
    assert before.status_code == 302 and svc.store.version("before-the-deal") == 1


def test_a_player_may_not_play_on_with_the_other_seats_hand_either(app, accounts, dealt, svc):
    ana = log_in(app, accounts, "ana-player")
    accounts.add_member("claim", accounts.by_name("ana-player"), "player", "ana")
    answer = ana.post("/c/claim/play-on", data={"upto": "2", "name": "Peek"})
    assert answer.status_code == 422 and "may not see yet" in text(answer)


def test_a_finished_claim_game_may_be_played_on_from_anywhere(newcomer, samples, svc):
    answer = newcomer.post(
        "/c/claim-tavern-nights/play-on", data={"upto": "100", "name": "Tavern, again"}
    )
    assert answer.status_code == 302
    assert svc.state("tavern-again").state == svc.state("claim-tavern-nights", 100).state


def test_the_play_on_page_offers_the_moment_being_looked_at(newcomer, samples):
    page = newcomer.get(f"/c/{WARCRY}/?at=40")
    assert f"/c/{WARCRY}/play-on?upto=40" in page.get_data(as_text=True)
    form = newcomer.get(f"/c/{WARCRY}/play-on?upto=40").get_data(as_text=True)
    assert 'name="upto" inputmode="numeric" required size="6" value="40"' in form


def test_two_readers_playing_on_under_the_same_name_get_ids_of_their_own(
    app, accounts, newcomer, samples, svc
):
    other = log_in(app, accounts, "another")
    for client in (newcomer, other):
        answer = client.post(f"/c/{WARCRY}/play-on", data={"upto": "10", "name": "Embers"})
        assert answer.status_code == 302
    assert svc.store.exists("embers") and svc.store.exists("another-embers")
