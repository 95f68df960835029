"""The Leaders pages through Flask's test client: board, forms, replay, errors and escaping."""

import json
import re

import pytest
from pagetools import defaults_refused, form, member, post_form, posts, text, unseat, version

from tracker import config

STANDARD = config.SAMPLES / "leaders-standard.jsonl"
EXPERT = config.SAMPLES / "leaders-expert.jsonl"
GREY, SALT = "ember-vs-grey", "salt-vs-moth"


def lines(path, upto=None):
    """The sample's lines, the first `upto` of them when given (a match left under way)."""
    return path.read_text().splitlines()[:upto]


def imported(svc, path, upto=None):
    svc.import_lines(lines(path, upto))
    return GREY if path == STANDARD else SALT


def buttons_of(html, type_):
    """The hidden fields of every form of one event type on a page, form by form."""
    found = []
    for body in re.findall(r"<form method=\"post\"[^>]*>(.*?)</form>", html, re.S):
        if f'name="type" value="{type_}"' in body:
            pairs = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', body)
            found.append(pairs)
        else:
            continue
    return found


def start_match(svc, cid="c", mode="standard", deck=None):
    events = [
        {"type": "MatchStarted", "data": {"match": "m1", "mode": mode}},
        {"type": "LeaderChosen", "data": {"player": "alice", "leader": "ember-queen"}},
        {"type": "LeaderChosen", "data": {"player": "bob", "leader": "grey-regent"}},
    ]
    if mode == "standard":
        events.append({"type": "DeckShuffled", "data": {"deck": deck} if deck else {}})
    events.append({"type": "FirstPlayerDrawn", "data": {"first": "alice"}})
    svc.append(cid, events, version(svc, cid))


@pytest.fixture
def duel(svc):
    """A fresh Leaders campaign of Alice and Bob on the default board, no match yet."""
    svc.start(
        "c",
        "leaders",
        "Duel",
        {"players": [{"id": "alice", "name": "Alice"}, {"id": "bob", "name": "Bob"}]},
    )
    return "c"


# -- starting a campaign ---------------------------------------------------------------------


def test_a_leaders_campaign_starts_from_the_form_with_its_two_players_and_board(client, svc):
    assert 'name="settings-players-0-name"' in client.get("/").get_data(as_text=True)
    page = client.post(
        "/campaigns",
        data={
            "system": "leaders",
            "name": "Autumn Duel",
            "settings-players-0-id": "ann",
            "settings-players-0-name": "Ann",
            "settings-players-1-id": "ben",
            "settings-players-1-name": "Ben",
            "settings-board": "wide-gates",
        },
    )
    assert page.status_code == 302 and page.location.endswith("/c/autumn-duel/")
    settings = svc.store.event("autumn-duel", 1).data["settings"]
    assert [p["name"] for p in settings["players"]] == ["Ann", "Ben"]
    assert settings["board"]["id"] == "wide-gates"


def test_a_bad_player_id_on_the_start_form_is_shown_beside_its_field(client, svc):
    page = client.post(
        "/campaigns",
        data={
            "system": "leaders",
            "name": "Bad",
            "settings-players-0-id": "ann",
            "settings-players-0-name": "Ann",
            "settings-players-1-id": "Not An Id",
            "settings-players-1-name": "Ben",
            "settings-board": "default",
        },
    )
    assert page.status_code == 422
    html = page.get_data(as_text=True)
    assert re.search(
        r'name="settings-players-1-id"[^>]*></label>\s*<span class="field-error"[^>]*>'
        r"use lower-case letters, digits, dashes",
        html,
    )
    assert 'value="Ben"' in html  # what was typed is kept
    assert svc.store.version("bad") == 0


# -- the dashboard -------------------------------------------------------------------------


def test_the_dashboard_shows_the_standings_and_each_match_with_its_replay(client, svc):
    cid = imported(svc, STANDARD)
    page = client.get(f"/c/{cid}/")
    body, html = text(page), page.get_data(as_text=True)
    assert page.status_code == 200
    assert "Alice alice 1 1 0 1 0" in body and "Bob bob 1 0 1 0 0" in body
    assert "first-blood standard Alice Alice capture 9" in body
    assert f'href="/c/{cid}/replay?match=first-blood"' in html


def test_a_match_is_started_from_the_dashboard_and_leads_to_the_board(client, duel, svc):
    page = post_form(
        client, "/c/c/", svc, "MatchStarted", match="opening", mode="expert", next="/c/c/match"
    )
    assert page.status_code == 302 and page.location.endswith("/c/c/match")
    assert svc.state("c").state["match"]["mode"] == "expert"
    assert "Each player chooses a Leader" in text(client.get("/c/c/match"))


def test_a_bad_match_id_is_shown_beside_its_field_and_writes_nothing(client, duel, svc):
    before = version(svc)
    page = client.post("/c/c/", data=form("MatchStarted", before, match="Bad Id!"))
    assert page.status_code == 422
    assert re.search(
        r'name="match"[^>]*></label>\s*<span class="field-error"[^>]*>'
        r"use lower-case letters, digits, dashes",
        page.get_data(as_text=True),
    )
    assert version(svc) == before


def test_a_second_match_while_one_is_under_way_is_refused_with_the_rule(client, duel, svc):
    start_match(svc)
    page = post_form(client, "/c/c/", svc, "MatchStarted", match="again")
    assert page.status_code == 422
    assert "match 'm1' is still under way" in text(page)


# -- setting a match up ----------------------------------------------------------------------


def test_each_player_chooses_a_leader_among_those_still_free(client, duel, svc):
    svc.append("c", [{"type": "MatchStarted", "data": {"match": "m1"}}], version(svc))
    assert (
        post_form(
            client, "/c/c/match", svc, "LeaderChosen", player="alice", leader="ember-queen"
        ).status_code
        == 302
    )
    html = client.get("/c/c/match").get_data(as_text=True)
    bob_form = html[html.index('value="leader-bob"') :]
    bob_form = bob_form[: bob_form.index("</form>")]
    assert 'value="grey-regent"' in bob_form and 'value="ember-queen"' not in bob_form
    assert 'value="leader-alice"' not in html


def test_a_leader_already_taken_is_refused_with_the_rule(client, duel, svc):
    svc.append(
        "c",
        [
            {"type": "MatchStarted", "data": {"match": "m1"}},
            {"type": "LeaderChosen", "data": {"player": "alice", "leader": "ember-queen"}},
        ],
        version(svc),
    )
    page = post_form(
        client,
        "/c/c/match",
        svc,
        "LeaderChosen",
        player="bob",
        leader="ember-queen",
        form_id="leader-bob",
    )
    assert page.status_code == 422
    assert "the Ember Queen is already Alice's Leader" in text(page)


def test_the_server_shuffles_the_deck_and_only_the_row_is_shown(client, duel, svc):
    svc.append(
        "c",
        [
            {"type": "MatchStarted", "data": {"match": "m1"}},
            {"type": "LeaderChosen", "data": {"player": "alice", "leader": "ember-queen"}},
            {"type": "LeaderChosen", "data": {"player": "bob", "leader": "grey-regent"}},
        ],
        version(svc),
    )
    assert post_form(client, "/c/c/match", svc, "DeckShuffled").status_code == 302
    match = svc.state("c").state["match"]
    body = text(client.get("/c/c/match"))
    assert "13 cards face down in the deck" in body
    cards = {c["id"]: c for c in svc.state("c").state["characters"]["cards"]}
    assert cards[match["row"][0]]["pieces"][0]["name"] in body
    assert cards[match["deck"][0]]["pieces"][0]["name"] not in body


def test_the_first_player_is_drawn_by_the_server_or_typed_from_the_table(client, duel, svc):
    svc.append(
        "c",
        [
            {"type": "MatchStarted", "data": {"match": "m1"}},
            {"type": "LeaderChosen", "data": {"player": "alice", "leader": "ember-queen"}},
            {"type": "LeaderChosen", "data": {"player": "bob", "leader": "grey-regent"}},
            {"type": "DeckShuffled", "data": {}},
        ],
        version(svc),
    )
    page = post_form(client, "/c/c/match", svc, "FirstPlayerDrawn", first="bob")
    assert page.status_code == 302
    assert svc.state("c").state["match"]["active"] == "bob"
    assert "Bob's action phase" in text(client.get("/c/c/match"))


def test_an_unknown_first_player_is_refused_with_the_rule(client, duel, svc):
    svc.append(
        "c",
        [
            {"type": "MatchStarted", "data": {"match": "m1", "mode": "expert"}},
            {"type": "LeaderChosen", "data": {"player": "alice", "leader": "ember-queen"}},
            {"type": "LeaderChosen", "data": {"player": "bob", "leader": "grey-regent"}},
        ],
        version(svc),
    )
    page = post_form(client, "/c/c/match", svc, "FirstPlayerDrawn", first="carol")
    assert page.status_code == 422 and "'carol' is not a player of this campaign" in text(page)


def test_an_expert_exile_is_made_from_the_form_by_the_player_due(client, svc):
    cid = imported(svc, EXPERT, upto=5)
    url = f"/c/{cid}/match"
    assert "Exile, round 1: Alice exiles a character" in text(client.get(url))
    page = post_form(
        client,
        url,
        svc,
        "CharacterExiled",
        campaign=cid,
        player="bob",
        card="rider",
        form_id="exile",
    )
    assert page.status_code == 422 and "it is Alice's turn to exile, not Bob's" in text(page)
    page = post_form(
        client, url, svc, "CharacterExiled", campaign=cid, player="alice", form_id="exile"
    )
    assert re.search(
        r'name="card".*?</label>\s*<span class="field-error"', page.get_data(as_text=True), re.S
    )
    page = post_form(
        client,
        url,
        svc,
        "CharacterExiled",
        campaign=cid,
        player="alice",
        card="rider",
        form_id="exile",
    )
    assert page.status_code == 302
    assert "rider" in svc.state(cid).state["match"]["exiled"]


# -- the action phase ------------------------------------------------------------------------


def test_the_board_offers_a_chosen_character_exactly_its_legal_actions(client, svc):
    cid = imported(svc, STANDARD, upto=19)  # Bob's action phase, turn 4
    state = svc.state(cid).state
    offered = svc.state(cid).system.views.action_options(state, "bob")
    html = client.get(f"/c/{cid}/match?piece=wanderer").get_data(as_text=True)
    forms = [
        f
        for kind in ("CharacterMoved", "AbilityUsed")
        for f in buttons_of(html, kind)
        if ("character", "wanderer") in f
    ]
    assert len(forms) == len(offered["wanderer"]) == 26  # 3 plain moves, 23 wanderings
    paths = {f"{o['data']['path'][0][0]},{o['data']['path'][0][1]}" for o in offered["wanderer"]}
    assert paths == {value for f in forms for key, value in f if key == "path"}
    assert html.count('class="target-ring"') == len(paths)
    # a piece of the enemy is never offered, and Bob's pieces link to their choices
    assert 'character" value="assassin"' not in html
    assert f'href="/c/{cid}/match?piece=rider"' in html


def button_words(html, type_):
    """The words on the button of every form of one event type, form by form."""
    words = []
    for body in re.findall(r"<form method=\"post\"[^>]*>(.*?)</form>", html, re.S):
        if f'name="type" value="{type_}"' in body:
            found = re.search(r"<button[^>]*>(.*?)</button>", body, re.S)
            words.append(" ".join(found.group(1).replace("&#39;", "'").split()))
    return words


def test_action_buttons_name_the_character_and_where_it_goes(client, svc):
    cid = imported(svc, STANDARD, upto=19)  # Bob's action phase, turn 4
    html = client.get(f"/c/{cid}/match?piece=wanderer").get_data(as_text=True)
    words = button_words(html, "CharacterMoved") + button_words(html, "AbilityUsed")
    assert len(words) == 26
    assert "Fen the Roamer (Wanderer) wanders to (-2, 2)" in words
    for said in words:
        assert said.startswith("Fen the Roamer (Wanderer) "), said
        assert re.search(r" to \(-?\d, -?\d\)$", said), said
        assert not re.fullmatch(r"[\w ]*: \(-?\d, -?\d\)", said), said


def test_ability_buttons_say_what_happens_to_the_target_too(client, svc):
    cid = imported(svc, EXPERT, upto=23)  # Bob's turn: the Rider may charge
    state = svc.state(cid).state
    offered = svc.state(cid).system.views.action_options(state, "bob")
    labels = [o["label"] for opts in offered.values() for o in opts]
    assert any(label.startswith("Corvin of the Long Road (Rider) rides to (") for label in labels)
    assert any(label.endswith("(takes Alice's Leader)") for label in labels)


def test_each_ability_is_explained_where_it_can_be_used(client, svc):
    cid = imported(svc, STANDARD, upto=19)
    body = text(client.get(f"/c/{cid}/match?piece=wanderer"))
    assert (
        "Wanderer: instead of moving, goes to any free space that is not next to an enemy." in body
    )
    html = client.get(f"/c/{cid}/match").get_data(as_text=True)
    assert 'title="Rider: instead of moving, rides exactly two spaces' in html


def test_each_recruit_is_explained_where_it_can_be_recruited(client, svc):
    cid = imported(svc, EXPERT, upto=19)  # Alice's recruitment, turn 3
    view = svc.state(cid)
    body = text(client.get(f"/c/{cid}/match"))
    offered = view.system.views.recruit_options(view.state, "alice")
    assert offered
    for card in offered:
        for piece in view.system.views.card_pieces(view.state, card):
            assert view.system.views.ability_help(piece["ability"]) + "." in body


def test_recruit_and_nemesis_buttons_name_the_character_and_where_it_goes(client, svc):
    cid = imported(svc, STANDARD, upto=26)  # Alice's recruitment, turn 5
    words = button_words(client.get(f"/c/{cid}/match").get_data(as_text=True), "CharacterRecruited")
    assert words and all(
        re.fullmatch(r"Recruit .+ \(\w[\w ]*\) on \(-?\d, -?\d\)", w) for w in words
    )
    cid = imported(svc, EXPERT, upto=17)
    words = button_words(client.get(f"/c/{cid}/match").get_data(as_text=True), "NemesisMoved")
    assert len(words) == 7 and all(
        w.startswith("The Shadow That Follows (Nemesis) follows the enemy Leader to (")
        for w in words
    )


def test_an_illusionist_swap_is_recorded_from_its_button(client, duel, svc):
    cards = [c["id"] for c in svc.state("c").state["characters"]["cards"]]
    front = ["illusionist", "claw", "rider"]
    start_match(svc, deck=front + [c for c in cards if c not in front])
    svc.append(
        "c",
        [
            {"type": "ActionPhaseEnded", "data": {"player": "alice"}},
            {
                "type": "CharacterRecruited",
                "data": {"player": "alice", "card": "illusionist", "spaces": [[-1, 3]]},
            },
            {"type": "TurnEnded", "data": {"player": "alice"}},
            {"type": "ActionPhaseEnded", "data": {"player": "bob"}},
            {
                "type": "CharacterRecruited",
                "data": {"player": "bob", "card": "claw", "spaces": [[-1, -2]]},
            },
            {
                "type": "CharacterRecruited",
                "data": {"player": "bob", "card": "rider", "spaces": [[1, -3]]},
            },
            {"type": "TurnEnded", "data": {"player": "bob"}},
        ],
        version(svc),
    )
    html = client.get("/c/c/match?piece=illusionist").get_data(as_text=True)
    swaps = [f for f in buttons_of(html, "AbilityUsed") if ("target", "claw") in f]
    assert len(swaps) == 1
    assert (
        "Mirren Twofold (Illusionist) swaps places with the Hook (Bob's Claw), going to (-1, -2) and "
        "sending it to (-1, 3)"
    ) in html.replace("&#39;", "'")
    page = post_form(
        client,
        "/c/c/match?piece=illusionist",
        svc,
        "AbilityUsed",
        player="alice",
        character="illusionist",
        target="claw",
        next="/c/c/match",
    )
    assert page.status_code == 302 and page.location.endswith("/c/c/match")
    pieces = svc.state("c").state["match"]["pieces"]
    assert pieces["illusionist"]["at"] == [-1, -2] and pieces["claw"]["at"] == [-1, 3]
    assert 'class="now"' in client.get("/c/c/match").get_data(as_text=True)


def test_an_action_out_of_turn_is_refused_with_the_rule_and_writes_nothing(client, svc):
    cid = imported(svc, STANDARD, upto=24)
    before = version(svc, cid)
    page = client.post(
        f"/c/{cid}/match",
        data=form("AbilityUsed", before, player="bob", character="wanderer", target="claw"),
    )
    assert page.status_code == 422 and "it is Alice's turn, not Bob's" in text(page)
    assert version(svc, cid) == before


def test_the_action_phase_and_the_turn_are_ended_from_their_forms(client, svc):
    cid = imported(svc, STANDARD, upto=24)
    url = f"/c/{cid}/match"
    assert (
        post_form(client, url, svc, "ActionPhaseEnded", campaign=cid, player="alice").status_code
        == 302
    )
    page = post_form(client, url, svc, "TurnEnded", campaign=cid, player="alice")
    assert page.status_code == 422 and "Alice still has a recruitment to make" in text(page)
    assert "Alice recruits" in text(client.get(url))
    svc.append(cid, [json.loads(lines(STANDARD)[26])], version(svc, cid))  # the recruitment
    assert 'value="TurnEnded"' in client.get(url).get_data(as_text=True)
    assert post_form(client, url, svc, "TurnEnded", campaign=cid, player="alice").status_code == 302
    assert "Bob's action phase" in text(client.get(url))


def test_recruitment_offers_each_card_of_the_row_on_each_free_space(client, svc):
    cid = imported(svc, STANDARD, upto=26)  # Alice's recruitment, turn 5
    html = client.get(f"/c/{cid}/match").get_data(as_text=True)
    forms = buttons_of(html, "CharacterRecruited")
    offered = svc.state(cid).system.views.recruit_options(svc.state(cid).state, "alice")
    assert len(forms) == sum(len(v) for v in offered.values()) == 9
    assert all(
        ("spaces", "-2,3") in f or ("spaces", "1,2") in f or ("spaces", "-1,3") in f for f in forms
    )


def test_the_match_waits_for_the_nemesis_and_offers_only_its_legal_paths(client, svc):
    cid = imported(svc, EXPERT, upto=17)
    url = f"/c/{cid}/match"
    page = client.get(url)
    assert "The match waits for Bob to move the Nemesis two spaces" in text(page)
    forms = buttons_of(page.get_data(as_text=True), "NemesisMoved")
    assert len(forms) == 7 and all(len([k for k, _ in f if k == "path"]) == 2 for f in forms)
    page = post_form(client, url, svc, "ActionPhaseEnded", campaign=cid, player="alice")
    assert page.status_code == 422
    assert "the match waits for Bob to move the Nemesis first" in text(page)


def test_a_move_is_recorded_from_its_button(client, svc):
    cid = imported(svc, STANDARD, upto=19)
    page = post_form(
        client,
        f"/c/{cid}/match",
        svc,
        "CharacterMoved",
        campaign=cid,
        player="bob",
        character="grey-regent",
        path="-1,-1",
    )
    assert page.status_code == 302
    assert svc.state(cid).state["match"]["pieces"]["grey-regent"]["at"] == [-1, -1]


def test_a_recruit_is_recorded_from_its_button(client, svc):
    cid = imported(svc, STANDARD, upto=26)
    page = post_form(
        client,
        f"/c/{cid}/match",
        svc,
        "CharacterRecruited",
        campaign=cid,
        player="alice",
        card="brewmaster",
        spaces="-1,3",
    )
    assert page.status_code == 302


# -- the board, the replay, time travel ------------------------------------------------------


def test_the_board_draws_every_space_the_pieces_with_owner_and_name_and_the_last_action(
    client, svc
):
    cid = imported(svc, STANDARD)
    html = client.get(f"/c/{cid}/match").get_data(as_text=True)
    assert html.count('class="cell') == 37 and 'viewBox="' in html
    assert html.count('class="gold"') == 8  # four recruitment spaces a player
    assert "<title>Alice's the Quiet Knife (Assassin) on (0, -1)</title>" in html
    assert "<title>Bob's the Grey Regent (Leader) on (0, -2)</title>" in html
    assert html.count('class="now"') == 1 and html.count('class="was"') == 1
    assert "Alice won by capture of Bob's Leader" in text(client.get(f"/c/{cid}/match"))


def test_the_replay_steps_through_a_past_match_with_previous_and_next(client, svc):
    cid = imported(svc, STANDARD)
    page = client.get(f"/c/{cid}/replay?match=first-blood&at=20")
    html, body = page.get_data(as_text=True), text(page)
    assert page.status_code == 200 and "Step 19 of 39" in body
    assert "Fen the Roamer (Bob's Wanderer) wandered to (-2, 2)" in body
    assert f'href="/c/{cid}/replay?match=first-blood&amp;at=19" rel="prev"' in html
    assert f'href="/c/{cid}/replay?match=first-blood&amp;at=21" rel="next"' in html
    assert "<title>Bob's Fen the Roamer (Wanderer) on (-2, 2)</title>" in html
    end = text(client.get(f"/c/{cid}/replay?match=first-blood"))
    assert "Step 39 of 39" in end and "won by Alice by capture in 9 turns" in end


def test_a_match_under_way_can_be_replayed_up_to_now(client, svc):
    cid = imported(svc, EXPERT, upto=17)
    body = text(client.get(f"/c/{cid}/replay?match=the-long-shadow"))
    assert "Under way: events 2 to 17" in body and "Step 16 of 16" in body


def test_an_unknown_match_or_a_step_before_it_began_is_a_404(client, svc):
    cid = imported(svc, STANDARD)
    assert client.get(f"/c/{cid}/replay?match=nope").status_code == 404
    assert 'no match "nope"' in text(client.get(f"/c/{cid}/replay?match=nope"))
    assert client.get(f"/c/{cid}/replay?match=first-blood&at=1").status_code == 404
    assert client.get(f"/c/{cid}/no-such-page").status_code == 404


def test_the_board_in_the_past_shows_that_moment_with_the_forms_off(client, svc):
    cid = imported(svc, EXPERT)
    body = text(client.get(f"/c/{cid}/match?at=16"))
    assert "as it stood after event 16" in body and "forms are off" in body
    assert "Alice's action phase" in body and "Exiled: the Quiet Knife (Assassin)" in body


@pytest.mark.parametrize("path", ["", "match", "replay?match=first-blood", "audit", "dice"])
def test_every_leaders_page_answers_and_shows_the_head_hash(client, svc, path):
    cid = imported(svc, STANDARD)
    page = client.get(f"/c/{cid}/{path}")
    assert page.status_code == 200
    assert svc.store.head(cid)[1] in page.get_data(as_text=True)


def test_the_board_before_any_match_is_drawn_empty(client, duel):
    page = client.get("/c/c/match")
    assert page.status_code == 200 and "No match yet" in text(page)
    assert page.get_data(as_text=True).count('class="cell') == 37


def test_names_typed_by_users_are_escaped_on_every_leaders_page(client, svc):
    evil = "<script>alert(1)</script>"
    svc.start(
        "x",
        "leaders",
        evil,
        {"players": [{"id": "alice", "name": evil}, {"id": "bob", "name": "Bob"}]},
    )
    start_match(svc, "x")
    for path in ("", "match", "replay?match=m1", "audit"):
        html = client.get(f"/c/x/{path}").get_data(as_text=True)
        assert evil not in html, path
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html, path


# -- each player sees the forms of its own side -----------------------------------------------


def test_each_player_chooses_only_its_own_leader_and_the_organiser_both(app, client, svc, duel):
    svc.append("c", [{"type": "MatchStarted", "data": {"match": "m1"}}], version(svc, "c"))
    alice, bob = member(app, "c", "alicia", "alice"), member(app, "c", "bobby", "bob")
    assert ("LeaderChosen", "alice") in posts(alice.get("/c/c/match"))
    assert ("LeaderChosen", "bob") not in posts(alice.get("/c/c/match"))
    assert ("LeaderChosen", "bob") in posts(bob.get("/c/c/match"))
    both = {("LeaderChosen", "alice"), ("LeaderChosen", "bob")}
    assert both <= posts(client.get("/c/c/match"))


def test_only_the_active_player_is_shown_its_actions_and_the_other_whose_move_it_is(
    app, client, anon, svc, duel
):
    start_match(svc)
    alice, bob = member(app, "c", "alicia", "alice"), member(app, "c", "bobby", "bob")
    assert ("ActionPhaseEnded", "alice") in posts(alice.get("/c/c/match"))
    page = bob.get("/c/c/match")
    assert posts(page) == set() and "It is Alice's move : Alice acts." in text(page)
    assert ("ActionPhaseEnded", "alice") in posts(client.get("/c/c/match"))
    # Bob's seat is another member's: the organiser takes it once it is free.
    assert client.post("/c/c/members", data={"action": "seat", "side": "bob"}).status_code == 409
    unseat(app, "c", "bobby")
    assert client.post("/c/c/members", data={"action": "seat", "side": "bob"}).status_code == 302
    assert posts(client.get("/c/c/match")) == set()  # an organiser in Bob's seat plays Bob
    refused = post_form(bob, "/c/c/match", svc, "ActionPhaseEnded", player="alice")
    assert refused.status_code == 403


def test_a_reader_who_is_no_member_is_shown_no_form(app, anon, svc, duel):
    from tracker.accounts import Accounts
    from tracker.store import open_store

    Accounts(open_store(app.config["DATABASE"])).set_public("c", True)
    assert posts(anon.get("/c/c/")) == set()  # no new match either
    start_match(svc)
    assert posts(anon.get("/c/c/match")) == set()


# -- defaults are legal choices ----------------------------------------------------------------


def test_every_form_left_at_its_defaults_is_accepted_at_each_stage_of_a_match(client, svc, duel):
    assert defaults_refused(client, svc, "c", "/c/c/") == []  # a new match
    svc.append("c", [{"type": "MatchStarted", "data": {"match": "m9"}}], version(svc, "c"))
    assert defaults_refused(client, svc, "c", "/c/c/match") == []  # the Leaders
    for sample in (STANDARD, EXPERT):
        cid = imported(svc, sample, upto=12)
        assert defaults_refused(client, svc, cid, f"/c/{cid}/match") == [], cid
