"""The Lords of Hellas pages through Flask's test client: every page and form, errors included."""

import re

import pytest
from pagetools import (
    defaults_refused,
    event_forms,
    form,
    member,
    posts,
    start_form,
    text,
    unseat,
    version,
)

from tracker import config

EVIL = "<script>alert(1)</script>"


def start_game(svc, campaign="h", players=(("ann", "Ann"), ("bo", "Bo")), **setup):
    svc.start(
        campaign, "hellas", "Test Hellas", {"players": [{"id": i, "name": n} for i, n in players]}
    )
    data = {
        "game": "g1",
        "order": ["ann", "bo"],
        "heroes": {"ann": "korythos", "bo": "phlios"},
        "hoplites": {"ann": {"korythos": 3, "melanthe": 2}, "bo": {"phlios": 3, "nemessa": 2}},
        "monsters": {"boar": "eirinos", "harpy": "thyrea"},
        "hands": {"ann": ["helm-1", "spear-1"], "bo": ["shield-2", "spear-1"]},
        **setup,
    }
    svc.append(campaign, [{"type": "GameStarted", "data": data}], version(svc, campaign))
    return campaign


def play(svc, *events, campaign="h"):
    for type_, data in events:
        svc.append(campaign, [{"type": type_, "data": data}], version(svc, campaign))


def begin_battle_at_eirinos(svc):
    """Ann's three hoplites march from Korythos on Bo's three in Eirinos (Bo holds Phlios
    too), and Ann begins the battle there; each holds two combat cards."""
    start_game(
        svc,
        hoplites={"ann": {"korythos": 3}, "bo": {"eirinos": 3, "phlios": 2}},
        hands={"ann": ["charge-3", "spear-1"], "bo": ["helm-1", "spear-1"]},
    )
    play(
        svc,
        (
            "HoplitesMoved",
            {
                "player": "ann",
                "moves": [{"origin": "korythos", "destination": "eirinos", "count": 3}],
            },
        ),
        ("BattleBegan", {"player": "ann", "region": "eirinos"}),
    )


@pytest.fixture
def duel(svc):
    svc.import_lines((config.SAMPLES / "hellas-duel.jsonl").read_text().splitlines())
    return "hellas-duel"


@pytest.fixture
def crowns(svc):
    svc.import_lines((config.SAMPLES / "hellas-three-crowns.jsonl").read_text().splitlines())
    return "hellas-three-crowns"


@pytest.fixture
def game(svc):
    return start_game(svc)


def post(client, svc, page, type_, campaign="h", **fields):
    """Post a form of `page` for `type_`, at the version the page showed."""
    return client.post(f"/c/{campaign}/{page}", data=form(type_, version(svc, campaign), **fields))


def beside(page, name) -> bool:
    """A field error stands right after the field's label."""
    html = page.get_data(as_text=True)
    return bool(re.search(rf'name="{name}"[^>]*>\s*</label>\s*<span class="field-error"', html))


def beside_dice(page, name) -> bool:
    """A dice field's error stands in its group of die faces, after the faces."""
    html = page.get_data(as_text=True)
    group = rf'<fieldset class="dice-input" id="dice-[^"]*-{name}">(?:(?!</form>).)*?'
    return bool(re.search(group + r'<span class="field-error"', html, re.S))


# -- starting a campaign ---------------------------------------------------------------------


def test_a_campaign_starts_from_the_form_with_its_players_and_board(client, svc):
    page = start_form(
        client, "hellas", "Olympia Nights", [("ann", "Ann"), ("bo", "Bo")], pack="base"
    )
    assert page.status_code == 302 and page.location.endswith("/c/olympia-nights/")
    settings = svc.store.event("olympia-nights", 1).data["settings"]
    assert settings["players"] == [{"id": "ann", "name": "Ann"}, {"id": "bo", "name": "Bo"}]
    assert len(settings["content"]["regions"]) == 19
    assert "No game has been played" in text(client.get("/c/olympia-nights/"))


def test_a_bad_player_id_at_the_start_is_shown_beside_its_field(client, svc):
    page = start_form(client, "hellas", "Olympia", [("ann", "Ann"), ("Bad Id", "Bo")], pack="base")
    assert page.status_code == 422
    assert beside(page, "settings-players-1-id")
    assert "use lower-case letters, digits and dashes" in text(page)
    assert 'value="Bad Id"' in page.get_data(as_text=True)  # what was typed is kept
    assert not svc.store.exists("olympia")


def test_the_start_form_offers_as_many_player_rows_as_asked(client):
    html = client.get("/?hellas-players=4").get_data(as_text=True)
    assert 'name="settings-players-3-name"' in html and 'name="settings-pack"' in html
    html = client.get("/").get_data(as_text=True)
    assert 'name="settings-players-1-id"' in html and 'name="settings-players-2-id"' not in html


# -- every page --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    ["", "players", "player?player=alexa", "play", "replay", "replay?step=2", "audit", "dice"],
)
def test_every_page_of_the_sample_answers_and_shows_the_head_hash(client, duel, svc, path):
    page = client.get(f"/c/{duel}/{path}")
    assert page.status_code == 200
    assert svc.store.head(duel)[1] in page.get_data(as_text=True)


@pytest.mark.parametrize("path", ["", "players", "player?player=ann", "play", "replay"])
def test_every_page_of_a_game_under_way_answers(client, game, path):
    assert client.get(f"/c/h/{path}").status_code == 200


def test_an_unknown_player_game_or_step_is_a_404(client, duel):
    assert client.get(f"/c/{duel}/player?player=nobody").status_code == 404
    assert "no player" in text(client.get(f"/c/{duel}/player?player=nobody"))
    assert client.get(f"/c/{duel}/replay?game=nope").status_code == 404
    assert client.get(f"/c/{duel}/replay?step=999").status_code == 404
    assert client.get(f"/c/{duel}/replay?step=x").status_code == 404
    assert client.get(f"/c/{duel}/no-such-page").status_code == 404


# -- the board ---------------------------------------------------------------------------------


def test_the_map_draws_every_region_with_control_hoplites_heroes_monsters_and_monuments(
    client, game
):
    html = client.get("/c/h/").get_data(as_text=True)
    assert html.count("data-region=") == 19
    assert html.count('class="route sea"') == 6
    assert "<title>Ann's hero</title>" in html and "<title>Bo's hero</title>" in html
    assert "<title>Ann: 3 hoplites</title>" in html
    assert "<title>The Stoneback Boar</title>" in html
    assert "<title>The Monument of Zeus: level 1 of 5</title>" in html
    assert "Korythos (Korythia), population 2, city Old Korythos: Ann controls it" in html
    assert 'class="region held p0"' in html and "A temple site, no temple yet" in html
    assert "<title>The quest The Drowned Bell</title>" in html


def test_the_last_action_is_highlighted_and_the_heros_path_drawn(client, game, svc):
    play(svc, ("HeroMoved", {"player": "ann", "path": ["eirinos"]}))
    html = client.get("/c/h/").get_data(as_text=True)
    highlighted = re.findall(
        r'data-region="(\w+)">(?:(?!data-region).)*?class="highlight"', html, re.S
    )
    assert sorted(highlighted) == ["eirinos", "korythos"]
    assert "The hero's path: Korythos → Eirinos" in html
    assert "Last action (highlighted): Ann's hero travelled Korythos → Eirinos" in text(
        client.get("/c/h/")
    )


def test_the_dashboard_shows_the_winner_the_standings_and_a_replay_link(client, duel):
    page = client.get(f"/c/{duel}/")
    body = text(page)
    assert "won as Monster Slayer" in body
    assert f'href="/c/{duel}/replay?game=first-duel"' in page.get_data(as_text=True)
    assert "Standings" in body and "Games played" in body


def test_the_dashboard_counts_each_player_against_each_victory_condition(client, crowns):
    body = text(client.get(f"/c/{crowns}/"))
    assert "Fotini won as King of Kings" in body
    assert "Elias" in body and "Achaion (does not count)" in body
    assert "holds Orchia, 0 left" in body


def test_a_players_board_shows_hero_priests_tokens_artifacts_and_progress(client, game, svc):
    play(
        svc,
        ("HeroMoved", {"player": "ann", "path": ["eirinos"]}),
        ("HuntBegan", {"player": "ann", "monster": "boar", "cards": ["spear-2"]}),
        (
            "HeroAttacked",
            {"player": "ann", "wounds": [{"wound": "heart", "cards": ["spear-2", "helm-1"]}]},
        ),
        ("MonsterAttacked", {"player": "ann", "roll": [6]}),
        ("HuntRewardClaimed", {"player": "ann", "wound": "heart", "artifact": "owl-lantern"}),
    )
    body = text(client.get("/c/h/player?player=ann"))
    assert "In Eirinos" in body and "Speed 1/5" in body
    assert "Hoplites on the board: 5 of 15" in body
    assert "Priests: 1 in the pool (at most 4)" in body
    assert "Hunt free free free free free" in body and "1 used, 5 free of 6" in body
    assert "Owl Lantern charged" in body
    assert "Combat cards in hand: 1 (at most 5): Spear Thrust (seen only by Ann)" in body
    assert "Warlord: Lands controlled 0/3" in body and "Monster Slayer: monsters slain 0/3" in body
    assert "King of Kings not played in this game" in body


def test_the_players_page_shows_every_board(client, crowns):
    body = text(client.get(f"/c/{crowns}/players"))
    assert "Players' boards" in body
    assert all(name in body for name in ("Dora", "Elias", "Fotini"))
    assert "The Bronze Harpy" in body  # Fotini slew it


# -- the replay --------------------------------------------------------------------------------


def test_the_replay_steps_through_the_game_with_previous_and_next(client, duel):
    first = client.get(f"/c/{duel}/replay")
    html, body = first.get_data(as_text=True), text(first)
    assert "Step 1 of 61" in body and "Game first-duel began: Alexa, Bion" in body
    assert (
        f'href="/c/{duel}/replay?game=first-duel&amp;step=2"' in html and 'rel="prev"' not in html
    )
    second = client.get(f"/c/{duel}/replay?game=first-duel&step=2")
    html, body = second.get_data(as_text=True), text(second)
    assert "Step 2 of 61" in body and "Event 3: Alexa's hero travelled Korythos → Eirinos" in body
    assert 'rel="prev"' in html and 'rel="next"' in html
    # the board is drawn as it stood after that step
    assert re.search(
        r'data-region="eirinos">(?:(?!data-region).)*<title>Alexa\'s hero</title>', html, re.S
    )
    last = text(client.get(f"/c/{duel}/replay?step=61"))
    assert "Step 61 of 61" in last and "wins game first-duel as Monster Slayer" in last


def test_the_replay_keeps_looking_at_the_past_when_asked(client, duel):
    page = client.get(f"/c/{duel}/replay?at=10&step=3")
    body, html = text(page), page.get_data(as_text=True)
    assert "Step 3 of 9" in body and "as it stood after event 10" in body
    assert "at=10" in re.search(r'<a [^>]*rel="next"[^>]*>', html).group(0)


# -- the forms of a turn -----------------------------------------------------------------------


def test_the_play_page_offers_the_open_normal_and_special_actions(client, game, svc):
    body = text(client.get("/c/h/play"))
    assert "Move the hero" in body and "Move hoplites" in body and "Prayer" in body
    assert "End the turn" not in body
    play(svc, ("Prayed", {"player": "ann"}))
    body = text(client.get("/c/h/play"))
    assert "Move the hero" not in body and "Ann ends the turn" in body
    assert "Blocked by Ann's Used Action tokens until a Monument is built: prayer" in body


def test_the_hero_moves_from_the_form_to_a_region_offered(client, game, svc):
    html = client.get("/c/h/play").get_data(as_text=True)
    assert '<option value="eirinos">Eirinos</option>' in html
    page = post(client, svc, "play", "HeroMoved", player="ann", path=["eirinos", ""])
    assert page.status_code == 302 and "Recorded: Ann's hero travelled" in text(
        client.get(page.location)
    )
    assert svc.state("h").state["game"]["heroes"]["ann"]["region"] == "eirinos"


def test_a_hero_moved_beyond_its_speed_is_refused_with_the_rule(client, game, svc):
    before = version(svc, "h")
    page = post(client, svc, "play", "HeroMoved", player="ann", path=["eirinos", "dymara"])
    assert page.status_code == 422
    assert "a hero moves at most its Speed in regions (Ann's hero has Speed 1, the path has 2)" in (
        text(page)
    )
    assert version(svc, "h") == before and "Traceback" not in page.get_data(as_text=True)


def test_hoplites_move_with_one_row_per_move(client, game, svc):
    assert 'name="moves-1-origin"' in client.get("/c/h/play?moves=2").get_data(as_text=True)
    page = post(
        client,
        svc,
        "play",
        "HoplitesMoved",
        player="ann",
        **{
            "moves-0-origin": "korythos",
            "moves-0-destination": "eirinos",
            "moves-0-count": "2",
            "moves-1-origin": "melanthe",
            "moves-1-destination": "skiathe",
            "moves-1-count": "1",
        },
    )
    assert page.status_code == 302
    regions = svc.state("h").state["game"]["regions"]
    assert (
        regions["eirinos"]["hoplites"] == {"ann": 2} and regions["skiathe"]["controller"] == "ann"
    )


def test_a_count_that_is_no_number_is_shown_beside_its_field(client, game, svc):
    page = post(client, svc, "play", "PriestsSent", player="ann", monument="zeus", count="lots")
    assert page.status_code == 422 and beside(page, "count")
    assert "Count must be a whole number." in text(page)


def test_priests_artifacts_and_the_end_of_the_turn_come_from_their_forms(client, game, svc):
    page = post(client, svc, "play", "ArtifactGained", player="ann", artifact="tide-spear")
    assert page.status_code == 422
    assert "an artifact is gained outside a hunt only when a quest's reward grants it" in text(page)
    assert (
        post(
            client, svc, "play", "PriestsSent", player="ann", monument="zeus", count="1"
        ).status_code
        == 302
    )
    assert (
        post(
            client,
            svc,
            "play",
            "HoplitesRecruited",
            player="ann",
            **{"placed-0-region": "korythos", "placed-0-count": "2"},
        ).status_code
        == 302
    )
    assert post(client, svc, "play", "TurnEnded", player="ann").status_code == 302
    game_now = svc.state("h").state["game"]
    assert game_now["monuments"]["zeus"]["priests"] == {"ann": 1}
    assert game_now["regions"]["korythos"]["hoplites"]["ann"] == 5
    assert game_now["turn"]["player"] == "bo"


def test_a_second_special_action_is_refused_with_the_rule(client, game, svc):
    play(svc, ("Prayed", {"player": "ann"}))
    page = post(client, svc, "play", "MonumentBuilt", player="ann", monument="zeus")
    assert page.status_code == 422
    assert "a player takes exactly one special action a turn (Ann already took Prayer)" in text(
        page
    )


def test_a_usurp_the_rules_forbid_is_refused_with_the_rule(client, game, svc):
    body = text(client.get("/c/h/play"))
    assert "Korythos: population 2, Ann's Leadership 1. The rules do not allow it now." in body
    page = post(client, svc, "play", "RegionUsurped", player="ann", region="korythos")
    assert page.status_code == 422
    assert "a hero usurps a region whose population strength is no more than its Leadership" in (
        text(page)
    )


# -- hunts -------------------------------------------------------------------------------------


def test_a_hunt_is_fought_wound_by_wound_with_the_monsters_attacks(client, game, svc):
    play(svc, ("HeroMoved", {"player": "ann", "path": ["eirinos"]}))
    assert "Hunt Stoneback Boar" in text(client.get("/c/h/play"))
    assert post(client, svc, "play", "HuntBegan", player="ann", monster="boar").status_code == 302
    assert svc.store.event("h", version(svc, "h")).meta["source"] == "server-roll"  # drawn
    hand = svc.state("h").state["game"]["hands"]["ann"]
    assert len(hand) == 3 and "spear-1" in hand
    body = text(client.get("/c/h/play"))
    assert "Ann's hero attacks the Stoneback Boar" in body and "tusks (shield + shield)" in body
    page = post(
        client,
        svc,
        "play",
        "HeroAttacked",
        player="ann",
        **{"wounds-0-wound": "tusks", "wounds-0-cards": ["spear-1"], "wounds-0-cards-present": "1"},
    )
    assert "a wound takes combat cards matching its symbols" in text(page)
    assert (
        post(
            client,
            svc,
            "play",
            "HeroAttacked",
            player="ann",
            **{
                "wounds-0-wound": "hide",
                "wounds-0-cards": ["spear-1"],
                "wounds-0-cards-present": "1",
            },
        ).status_code
        == 302
    )
    body = text(client.get("/c/h/play"))
    assert (
        "the Stoneback Boar attacks" in body and "a flight into the thicket ends the hunt" in body
    )
    assert (
        post(client, svc, "play", "MonsterAttacked", player="ann", **{"roll-0": "3"}).status_code
        == 302
    )
    hunt = svc.state("h").state["game"]["hunt"]
    assert hunt["attacks"][0]["name"] == "a tusk rake" and hunt["status"] == "hero"
    assert svc.store.event("h", version(svc, "h")).meta["source"] == "table-roll"
    assert (
        post(
            client,
            svc,
            "play",
            "HeroAttacked",
            player="ann",
            form_id="no-wound",
            **{"wounds-present": "1"},
        ).status_code
        == 302
    )
    body = text(client.get("/c/h/play"))
    assert (
        "The hunt failed after wounding its hide" in body
        and "The hide wound gives a priest" in body
    )
    assert (
        post(client, svc, "play", "HuntRewardClaimed", player="ann", wound="hide").status_code
        == 302
    )
    assert svc.state("h").state["game"]["priests"]["ann"] == 2


def test_the_monster_may_roll_on_the_server_and_a_die_out_of_range_is_refused(client, game, svc):
    play(
        svc,
        ("HeroMoved", {"player": "ann", "path": ["eirinos"]}),
        ("HuntBegan", {"player": "ann", "monster": "boar", "cards": ["shield-1"]}),
        ("HeroAttacked", {"player": "ann", "wounds": [{"wound": "hide", "cards": ["spear-1"]}]}),
    )
    page = post(client, svc, "play", "MonsterAttacked", player="ann", **{"roll-0": "9"})
    assert page.status_code == 422 and beside_dice(page, "roll")
    page = post(
        client,
        svc,
        "play",
        "MonsterAttacked",
        player="ann",
        form_id="MonsterAttacked",
        **{"dice-mode": "server"},
    )
    assert page.status_code == 302
    assert svc.store.event("h", version(svc, "h")).meta["source"] == "server-roll"


# -- battles, phases and effects ----------------------------------------------------------------


def test_a_battle_is_fought_card_by_card_and_the_loser_retreats(client, svc):
    start_game(svc, hoplites={"ann": {"korythos": 3}, "bo": {"eirinos": 1, "phlios": 2}})
    play(
        svc,
        (
            "HoplitesMoved",
            {
                "player": "ann",
                "moves": [{"origin": "korythos", "destination": "eirinos", "count": 2}],
            },
        ),
    )
    assert "A battle to fight" in text(client.get("/c/h/play"))
    assert (
        post(client, svc, "play", "BattleBegan", player="ann", region="eirinos").status_code == 302
    )
    page = post(client, svc, "play", "CombatCardPlayed", player="bo", card="spear-1")
    assert "players take turns in a battle: Ann plays a card or passes next" in text(page)
    assert (
        post(client, svc, "play", "CombatCardPlayed", player="ann", card="spear-1").status_code
        == 302
    )
    assert post(client, svc, "play", "BattlePassed", player="bo").status_code == 302
    assert post(client, svc, "play", "BattlePassed", player="ann").status_code == 302
    battle = svc.state("h").state["game"]["battles"][-1]
    assert battle["outcome"]["winner"] == "ann" and battle["outcome"]["strength"] == {
        "ann": 3,
        "bo": 1,
    }
    assert battle["outcome"]["killed"]["bo"] == 1  # the loser's one hoplite died: no retreat owed


def test_a_retreat_to_a_region_not_allowed_is_refused_with_the_rule(client, svc):
    begin_battle_at_eirinos(svc)
    play(
        svc,
        ("CombatCardPlayed", {"player": "ann", "card": "charge-3"}),
        ("BattlePassed", {"player": "bo"}),
        ("BattlePassed", {"player": "ann"}),
    )
    body = text(client.get("/c/h/play"))
    assert "Ann won. Bo retreats." in body and "Bo's survivors fall back to" in body
    page = post(client, svc, "play", "ArmyRetreated", player="bo", to="korythos")
    assert page.status_code == 422
    assert "the loser retreats to an adjacent region free of other players" in text(page)
    assert post(client, svc, "play", "ArmyRetreated", player="bo", to="skiathe").status_code == 302
    assert svc.state("h").state["game"]["regions"]["skiathe"]["hoplites"] == {"bo": 2}


def test_after_a_monument_the_monster_and_event_phases_have_their_forms(client, game, svc):
    assert (
        post(client, svc, "play", "MonumentBuilt", player="ann", monument="zeus").status_code == 302
    )
    body = text(client.get("/c/h/play"))
    assert "Monster Phase" in body and "Draw the event card" in body
    assert (
        post(client, svc, "play", "MonsterPhaseResolved", player="ann", card="").status_code == 302
    )
    drawn = svc.store.event("h", version(svc, "h"))
    assert drawn.meta["source"] == "server-roll"
    card = svc.state("h").state["content"]["event_cards"][drawn.data["card"]]
    assert svc.state("h").state["game"]["monsters"][card["monster"]] == card["region"]
    body = text(client.get("/c/h/play"))
    assert f"Event Phase: {card['name']}" in body and card["words"] in body
    assert post(client, svc, "play", "EventResolved", player="ann").status_code == 302
    assert svc.state("h").state["game"]["turn"]["phase"] is None
    assert "Ann ends the turn" in text(client.get("/c/h/play"))


def test_an_effect_is_taken_only_from_what_granted_it(client, game, svc):
    page = post(client, svc, "play", "TempleBuilt", player="ann", region="melanthe")
    assert page.status_code == 422
    assert "a temple rises only when a quest's reward, an event card or a Monument's " in text(page)
    assert "Nothing is granted now" in text(page)
    play(
        svc,
        ("MonumentBuilt", {"player": "ann", "monument": "zeus"}),
        ("MonsterPhaseResolved", {"player": "ann", "card": "red-comet"}),
        ("EventResolved", {"player": "ann"}),
    )
    body = text(client.get("/c/h/play"))
    assert "Ann: a temple (the event A Red Comet)" in body
    page = post(
        client, svc, "play", "TempleBuilt", form_id="grant-0", player="ann", region="eirinos"
    )
    assert page.status_code == 422
    assert "a temple is built in a region its builder controls (Ann does not control Eirinos)" in (
        text(page)
    )
    assert (
        post(
            client, svc, "play", "TempleBuilt", form_id="grant-0", player="ann", region="melanthe"
        ).status_code
        == 302
    )
    assert svc.state("h").state["game"]["regions"]["melanthe"]["temple"] is True
    assert svc.state("h").state["game"]["grants"] == []
    page = post(client, svc, "play", "GameAbandoned", reason="")
    assert page.status_code == 422 and beside(page, "reason")


def test_cards_granted_are_drawn_from_the_form_by_the_server(client, game, svc):
    play(
        svc,
        ("MonumentBuilt", {"player": "ann", "monument": "zeus"}),
        ("MonsterPhaseResolved", {"player": "ann", "card": "harvest-feast"}),
        ("EventResolved", {"player": "ann"}),
    )
    assert "Ann: 2 combat card(s) to draw" in text(client.get("/c/h/play"))
    page = post(client, svc, "play", "CombatCardsDrawn", form_id="grant-0", player="ann")
    assert page.status_code == 302
    assert len(svc.state("h").state["game"]["hands"]["ann"]) == 4


def test_a_finished_game_offers_only_the_setup_of_the_next(client, duel):
    page = client.get(f"/c/{duel}/play")
    assert "There is no game under way" in text(page)
    html = page.get_data(as_text=True)
    assert html.count('name="expected_version"') == 1  # one event form: the next setup
    assert 'name="type" value="GameStarted"' in html


def test_the_past_is_shown_with_its_forms_switched_off(client, game, svc):
    play(svc, ("Prayed", {"player": "ann"}))
    page = client.get("/c/h/play?at=2")
    assert "as it stood after event 2" in text(page) and "Move the hero" in text(page)
    assert re.search(r"<button[^>]*disabled", page.get_data(as_text=True))


def test_names_typed_by_users_are_escaped_on_every_page(client, svc):
    start_game(svc, players=(("ann", EVIL), ("bo", "Bo")))
    play(svc, ("Prayed", {"player": "ann"}), ("GameAbandoned", {"reason": EVIL}))
    for path in ("", "players", "player?player=ann", "play", "replay", "replay?step=2", "audit"):
        html = client.get(f"/c/h/{path}").get_data(as_text=True)
        assert EVIL not in html, path
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html, path


def test_a_game_begins_from_the_setup_form(client, svc):
    svc.start(
        "setup",
        "hellas",
        "Setup",
        {"players": [{"id": "ann", "name": "Ann"}, {"id": "bo", "name": "Bo"}]},
    )
    page = client.get("/c/setup/play")
    assert page.status_code == 200 and b"Begin the game" in page.data
    boxes = {
        "heroes[ann]": "korythos",
        "heroes[bo]": "phlios",
        "hoplites[ann][korythos]": "3",
        "hoplites[ann][dymara]": "",
        "hoplites[bo][phlios]": "3",
        "monsters[boar]": "eirinos",
        "monsters[harpy]": "",
        "excluded_lands-present": "1",
    }
    page = post(
        client,
        svc,
        "play",
        "GameStarted",
        campaign="setup",
        form_id="GameStarted",
        game="g1",
        order=["bo", "ann"],
        king_of_kings="",
        **boxes,
    )
    assert page.status_code == 302, page.get_data(as_text=True)[-3000:]
    started = svc.store.event("setup", 2).data
    assert started["order"] == ["bo", "ann"] and started["heroes"] == {
        "ann": "korythos",
        "bo": "phlios",
    }
    assert started["hoplites"] == {"ann": {"korythos": 3}, "bo": {"phlios": 3}}
    assert started["monsters"] == {"boar": "eirinos"} and started["excluded_lands"] == []


# -- hidden hands ------------------------------------------------------------------------------


def _seated_player(app, svc, campaign, name, side):
    from tracker.accounts import Accounts
    from tracker.store import open_store

    accounts = Accounts(open_store(app.config["DATABASE"]))
    accounts.add_member(campaign, accounts.sign_up(name, "a long password!"), "player", side)
    player = app.test_client()
    player.post("/login", data={"name": name, "password": "a long password!"})
    return player


def test_a_players_hand_is_hidden_from_the_other_players_on_every_page_and_in_the_api(
    app, client, svc
):
    start_game(svc, hands={"ann": ["charge-3", "helm-3"], "bo": ["feint-0", "shield-2"]})
    ann = _seated_player(app, svc, "h", "annika", "ann")
    for path in ("", "players", "player?player=ann", "player?player=bo", "play", "replay"):
        body = text(ann.get(f"/c/h/{path}"))
        assert "Shield Rush" not in body and "Feint" not in body, path
    audit = text(ann.get("/c/h/audit"))  # the board's content names every card; hands do not
    assert "2 cards, hidden" in audit and not re.search(r'feint-0",\s*"shield-2', audit)
    assert re.search(r'charge-3",\s*"helm-3', audit)
    assert "Combat cards in hand: 2 (at most 5): Bronze Charge, War Cry" in text(
        ann.get("/c/h/player?player=ann")
    )
    assert "Your hand seen by you only Bronze Charge" in text(ann.get("/c/h/play"))
    assert "Combat cards in hand: 2 (at most 5)" in text(ann.get("/c/h/player?player=bo"))
    state = ann.get("/api/campaigns/h/state").get_json()
    assert "hands" not in state["game"] and state["game"]["hand_counts"] == {"ann": 2, "bo": 2}
    events = ann.get("/api/campaigns/h/events").get_json()["events"]
    started = next(e for e in events if e["type"] == "GameStarted")
    assert started["data"]["hands"] == {"ann": ["charge-3", "helm-3"], "bo": "2 cards, hidden"}
    assert ann.get("/api/campaigns/h/export").status_code == 403


def test_the_setup_form_asks_only_the_players_choices_and_the_board_sets_out_the_rest(client, svc):
    svc.start(
        "setup2",
        "hellas",
        "Setup",
        {"players": [{"id": "ann", "name": "Ann"}, {"id": "bo", "name": "Bo"}]},
    )
    html = client.get("/c/setup2/play").get_data(as_text=True)
    setup = html[html.index('class="stack setup"') : html.index("Begin the game")]
    controls = re.findall(r"<(?:select|input)(?![^>]*type=\"hidden\")", setup)
    assert len(controls) == 4  # the game's id, two seats, King of Kings
    assert "Seat 1: hero in Korythos" in text(client.get("/c/setup2/play"))
    page = post(
        client,
        svc,
        "play",
        "GameStarted",
        campaign="setup2",
        form_id="GameStarted",
        game="g1",
        order=["bo", "ann"],
        king_of_kings="",
    )
    assert page.status_code == 302
    game = svc.state("setup2").state["game"]
    assert game["heroes"]["bo"]["region"] == "korythos" and game["heroes"]["ann"]["region"] == (
        "phlios"
    )
    assert game["regions"]["korythos"]["hoplites"] == {"bo": 3}
    assert game["monsters"] == {"boar": "eirinos", "harpy": "thyrea"}
    assert [len(h) for h in game["hands"].values()] == [2, 2]


def test_three_players_choose_the_land_that_does_not_count(client, svc):
    svc.start(
        "setup3",
        "hellas",
        "Setup",
        {"players": [{"id": i, "name": i.title()} for i in ("ann", "bo", "cy")]},
    )
    html = client.get("/c/setup3/play").get_data(as_text=True)
    assert 'name="excluded_lands"' in html and 'name="king_of_kings"' not in html
    assert '<option value="achaion" selected>' in html


def test_an_organiser_who_takes_a_seat_sees_only_that_seats_hand(client, svc):
    start_game(svc, hands={"ann": ["charge-3", "helm-3"], "bo": ["feint-0", "shield-2"]})
    assert "Feint" in text(client.get("/c/h/player?player=bo"))  # the referee sees every card
    assert client.post("/c/h/members", data={"action": "seat", "side": "ann"}).status_code == 302
    for path in ("", "players", "player?player=bo", "play"):
        body = text(client.get(f"/c/h/{path}"))
        assert "Shield Rush" not in body and "Feint" not in body, path
    assert "2 cards, hidden" in text(client.get("/c/h/audit"))
    assert client.get("/api/campaigns/h/export").status_code in (401, 403)


# -- each player sees the forms of its own side -----------------------------------------------


def test_a_player_sees_the_forms_of_its_own_turn_and_the_others_see_whose_move_it_is(
    app, client, svc, game
):
    ann = member(app, "h", "annika", "ann")
    bo = member(app, "h", "bodil", "bo")
    mine = posts(ann.get("/c/h/play"))
    assert ("HoplitesMoved", "ann") in mine and ("HeroMoved", "ann") in mine
    theirs = bo.get("/c/h/play")
    assert not [side for _, side in posts(theirs) if side == "ann"]
    assert "It is Ann's move : Ann's player records it here." in text(theirs)
    assert posts(client.get("/c/h/play")) >= mine  # the organiser keeps every form
    # Bo's seat is another member's: the organiser takes it once it is free.
    assert client.post("/c/h/members", data={"action": "seat", "side": "bo"}).status_code == 409
    unseat(app, "h", "bodil")
    assert client.post("/c/h/members", data={"action": "seat", "side": "bo"}).status_code == 302
    assert not [side for _, side in posts(client.get("/c/h/play")) if side == "ann"]


def test_the_other_player_sees_what_the_player_on_turn_has_taken_this_turn(app, client, svc, game):
    bo = member(app, "h", "bodil", "bo")
    post(client, svc, "play", "HeroMoved", player="ann", path=["eirinos", ""])
    page = bo.get("/c/h/play")
    assert page.status_code == 200
    assert "Taken this turn: moved the hero." in text(page)
    assert not [side for _, side in posts(page) if side == "ann"]


def test_a_reader_who_is_no_member_is_shown_no_form(app, anon, svc, game):
    from tracker.accounts import Accounts
    from tracker.store import open_store

    Accounts(open_store(app.config["DATABASE"])).set_public("h", True)
    assert posts(anon.get("/c/h/play")) == set()
    assert "It is Ann's move" in text(anon.get("/c/h/play"))


def test_a_player_sending_the_other_sides_form_all_the_same_is_refused(app, svc, game):
    bo = member(app, "h", "bodil", "bo")
    page = post(bo, svc, "play", "PriestsSent", player="ann", monument="zeus", count="1")
    assert page.status_code == 403 and "only for its own side" in text(page)


# -- defaults are legal choices ----------------------------------------------------------------


def test_every_form_of_the_game_left_at_its_defaults_is_accepted_by_the_rules(client, svc, game):
    assert defaults_refused(client, svc, "h", "/c/h/play") == []


def test_the_setup_form_left_at_its_defaults_begins_a_game(client, svc):
    svc.start(
        "s",
        "hellas",
        "Setup",
        {"players": [{"id": "ann", "name": "Ann"}, {"id": "bo", "name": "Bo"}]},
    )
    assert defaults_refused(client, svc, "s", "/c/s/play") == []


def test_the_forms_of_the_samples_latest_moment_left_at_their_defaults_are_accepted(
    client, svc, duel, crowns
):
    for campaign in (duel, crowns):
        assert defaults_refused(client, svc, campaign, f"/c/{campaign}/play") == [], campaign


def test_a_move_of_hoplites_defaults_to_a_region_next_to_where_they_stand(client, svc, game):
    forms = [f for f in event_forms(client.get("/c/h/play")) if f["type"] == "HoplitesMoved"]
    origin, destination = forms[0]["moves-0-origin"], forms[0]["moves-0-destination"]
    assert destination in svc.state("h").state["neighbours"][origin]


def test_a_heros_attack_left_at_its_defaults_inflicts_a_wound_the_hand_can_pay_for(client, svc):
    start_game(svc, hands={"ann": ["helm-1", "spear-1"], "bo": ["shield-2", "spear-1"]})
    play(
        svc,
        ("HeroMoved", {"player": "ann", "path": ["eirinos"]}),
        ("HuntBegan", {"player": "ann", "monster": "boar", "cards": ["spear-2"]}),
    )
    attack = next(f for f in event_forms(client.get("/c/h/play")) if f["form_id"] == "HeroAttacked")
    assert attack["wounds-0-cards"]  # the cards that pay for the wound are ticked
    assert defaults_refused(client, svc, "h", "/c/h/play") == []


def test_a_battles_forms_left_at_their_defaults_are_accepted(client, svc):
    begin_battle_at_eirinos(svc)
    assert defaults_refused(client, svc, "h", "/c/h/play") == []
    play(svc, ("BattlePassed", {"player": "ann"}), ("BattlePassed", {"player": "bo"}))
    assert defaults_refused(client, svc, "h", "/c/h/play") == []
