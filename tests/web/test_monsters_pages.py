"""The pages of monster battles, through Flask's test client: every page and form, errors too."""

import re

import pytest
from pagetools import defaults_refused, event_forms, form, member, posts, start_form, text, version

from tracker import config
from tracker.systems.monsters import system

SAMPLE = config.SAMPLES / "monsters-twin-peaks-feud.jsonl"
FEUD = "twin-peaks-feud"
PLAYERS = [{"id": "alice", "name": "Alice"}, {"id": "bob", "name": "Bob"}]
ANN_AND_BEN = [("ann", "Ann"), ("ben", "Ben")]


def lines_until(svc, count):
    """The sample's first `count` events imported: the feud as it stood then."""
    svc.import_lines(SAMPLE.read_text(encoding="utf-8").splitlines()[:count])
    return FEUD


def battle_form(client, svc, type_, cid="m", query="", expected=None, **fields):
    """Post the battle page's form for `type_`, at the version the page showed (the latest
    unless `expected` says otherwise)."""
    seen = version(svc, cid) if expected is None else expected
    return client.post(f"/c/{cid}/battle{query}", data=form(type_, seen, **fields))


def faces(text: str) -> dict:
    """Attack dice as their face buttons send them: "1 / 6 3; 4 / 5" as rounds-0-attacker-0=1,
    rounds-0-defender-0=6, rounds-0-defender-1=3, rounds-1-attacker-0=4 ..."""
    boxes = {}
    for r, part in enumerate(text.split(";")):
        for side, dice in zip(("attacker", "defender"), part.split("/"), strict=True):
            for d, face in enumerate(dice.split()):
                boxes[f"rounds-{r}-{side}-{d}"] = face
    return boxes


def dice_error_beside(page, name):
    """A dice field's error stands in the form of its face buttons, after them."""
    return re.search(
        rf'name="{name}-[^"]*"(?:(?!</form>).)*<span class="field-error"',
        page.get_data(as_text=True),
        re.S,
    )


def field_error_beside(page, name):
    return re.search(
        rf'name="{name}"[^>]*>(?:(?:(?!</label>).)*</select>)?\s*</label>\s*'
        r'<span class="field-error"',
        page.get_data(as_text=True),
        re.S,
    )


@pytest.fixture
def feud(svc):
    svc.import_lines(SAMPLE.read_text(encoding="utf-8").splitlines())
    return FEUD


@pytest.fixture
def fresh(svc):
    """A new campaign "m" of Alice and Bob, no battle yet."""
    svc.start("m", "monsters", "Monster league", {"players": PLAYERS})
    return "m"


@pytest.fixture
def placing(svc, fresh):
    """Battle b1 on Twin Peaks with a Knight (king), a Bear and a Pigeon a side, none placed."""
    svc.append(
        "m",
        [
            {
                "type": "BattleBegun",
                "data": {"battle": "b1", "map": "twin-peaks", "first": "alice"},
            },
            {
                "type": "FiguresChosen",
                "data": {"battle": "b1", "figures": ["knight", "bear", "pigeon"], "king": "knight"},
            },
        ],
        version(svc, "m"),
    )
    return "m"


@pytest.fixture
def fighting(svc, placing):
    """Every figure placed where the rules allow: Alice to move first."""
    for pid in (
        "alice-knight",
        "alice-bear",
        "alice-pigeon",
        "bob-knight",
        "bob-bear",
        "bob-pigeon",
    ):
        state = svc.state("m").state
        at = [int(n) for n in system.views.placements(state, pid)[0].split(",")]
        svc.append(
            "m",
            [{"type": "FigurePlaced", "data": {"battle": "b1", "piece": pid, "at": at}}],
            version(svc, "m"),
        )
    return "m"


# -- starting a campaign ------------------------------------------------------------------------


def test_a_campaign_starts_from_the_form_with_its_two_players_and_the_pack(client, svc):
    page = start_form(client, "monsters", "Hex League", ANN_AND_BEN, pack="standard")
    assert page.status_code == 302 and page.location.endswith("/c/hex-league/")
    settings = svc.store.event("hex-league", 1).data["settings"]
    assert [p["id"] for p in settings["players"]] == ["ann", "ben"]
    assert "twin-peaks" in settings["maps"] and "bear" in settings["figures"]
    assert "Ann and Ben have not fought yet" in text(client.get("/c/hex-league/battle"))


def test_the_start_form_offers_the_players_and_the_pack(client):
    html = client.get("/").get_data(as_text=True)
    for name in (
        "settings-players-0-id",
        "settings-players-0-name",
        "settings-players-1-id",
        "settings-players-1-name",
        "settings-pack",
    ):
        assert f'name="{name}"' in html


def start_with_own(client, figures="", game_map=""):
    return start_form(
        client,
        "monsters",
        "Own League",
        ANN_AND_BEN,
        pack="standard",
        own_figures=figures,
        own_map=game_map,
    )


HIGH_PASS = """high-pass, High Pass
. . f . A . .
 . m m . . f .
. . ~ = ~ . .
 . f . . m m .
. . . B . . ."""


def test_the_start_form_takes_the_groups_own_figures_and_map_beside_the_packs(client, svc):
    page = start_with_own(client, "troll, Troll, walker, 8 6 4\nwisp, Wisp, flier, 2", HIGH_PASS)
    assert page.status_code == 302
    settings = svc.store.event("own-league", 1).data["settings"]
    assert settings["figures"]["troll"] == {
        "name": "Troll",
        "movement": "walker",
        "lives": 3,
        "strength": {"3": 8, "2": 6, "1": 4},
    }
    assert settings["figures"]["wisp"]["lives"] == 1 and "bear" in settings["figures"]
    assert settings["maps"]["high-pass"]["rows"][0] == ". . f . A . ."
    assert "twin-peaks" in settings["maps"]
    assert "own_figures" not in settings and "own_map" not in settings  # read, never kept
    # A battle on the group's map with the group's figure
    for type_, data in (
        ("BattleBegun", {"battle": "b1", "map": "high-pass", "first": "ann"}),
        ("FiguresChosen", {"battle": "b1", "figures": ["troll", "wisp", "bear"], "king": "troll"}),
    ):
        svc.append("own-league", [{"type": type_, "data": data}], version(svc, "own-league"))
    battle = svc.state("own-league").state["battle"]
    assert battle["map"] == "high-pass" and "troll" in {
        p["kind"] for p in battle["pieces"].values()
    }


def test_a_figure_line_the_form_cannot_read_is_refused_in_words_and_nothing_is_started(client, svc):
    page = start_with_own(client, "troll, Troll, walker")
    assert page.status_code == 422
    assert "line 1: type one figure a line: id, name, movement" in text(page)
    assert "troll, Troll, walker</textarea>" in page.get_data(as_text=True)  # kept to mend
    assert not svc.store.exists("own-league")


def test_a_typed_figure_that_breaks_a_rule_of_figures_is_refused_with_the_rule(client, svc):
    page = start_with_own(client, "eel, Eel, swimmer, 3")
    assert page.status_code == 422
    assert "Eel: movement must be one of: walker, runner, flier." in text(page)
    assert not svc.store.exists("own-league")


def test_a_typed_figure_whose_id_is_not_lower_case_is_refused_naming_it(client, svc):
    page = start_with_own(client, "Big Troll, Troll, walker, 8")
    assert page.status_code == 422
    assert "Big Troll: id: use lower-case letters, digits and dashes" in text(page)
    assert not svc.store.exists("own-league")


def test_a_typed_map_without_its_second_castle_is_refused_with_the_rule(client, svc):
    page = start_with_own(client, game_map=HIGH_PASS.replace("B", "."))
    assert page.status_code == 422
    assert "a map needs castle B (the second player's)" in text(page)
    assert not svc.store.exists("own-league")


def test_two_players_of_the_same_id_are_refused_with_the_rule(client, svc):
    page = start_form(client, "monsters", "Twins", [("ann", "Ann"), ("ann", "Ann again")])
    assert page.status_code == 422
    assert "the two players have different ids" in text(page)
    assert 'value="Ann again"' in page.get_data(as_text=True)


# -- the pages of the sample --------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    ["", "battle", "battles", "replay", "replay?battle=b1&step=5", "figures", "audit", "dice"],
)
def test_every_page_of_the_sample_answers_with_the_head_hash(client, feud, svc, path):
    page = client.get(f"/c/{feud}/{path}")
    assert page.status_code == 200
    assert svc.store.head(feud)[1] in page.get_data(as_text=True)


@pytest.mark.parametrize(
    "path", ["", "battle", "battle?piece=alice-bear", "battles", "replay", "figures"]
)
def test_every_page_answers_as_of_a_past_event(client, feud, svc, path):
    page = client.get(f"/c/{feud}/{path}{'&' if '?' in path else '?'}at=20")
    assert page.status_code == 200
    assert svc.store.event(feud, 20).hash in page.get_data(as_text=True)


def test_the_dashboard_shows_the_standings_and_each_figures_record(client, feud):
    body = text(client.get(f"/c/{feud}/"))
    assert "Alice 2 1 1 0" in body and "Bob 2 1 1 0" in body
    assert "Alice's Knight 1 2 1 0" in body  # battles, kills, lives lost, deaths
    assert "Bob's Pigeon 2 2 1 1" in body
    assert "b1 on Twin Peaks: Alice won (castle taken, 13 turns)" in body


def test_the_battle_map_draws_terrain_castles_and_each_figure_with_owner_and_lives(client, feud):
    html = client.get(f"/c/{feud}/battle?at=30").get_data(as_text=True)
    assert html.count('class="hex t-') == 64  # every space of Twin Peaks, 8 rows of 8
    assert html.count("hex t-water") == 3 and html.count("hex t-castle") == 2
    assert "Bob's Pigeon, flier, 1 of 1 lives, at (4, 3)" in html
    assert "Alice's Knight (king), runner, 2 of 2 lives, at (3, 4)" in html
    assert "(3, 1): castle, Alice's castle" in html
    assert 'viewBox="' in html


def test_the_last_move_is_highlighted_on_the_map(client, feud):
    html = client.get(f"/c/{feud}/battle?at=30").get_data(as_text=True)
    assert 'class="move-line"' in html
    assert re.search(r'class="hex t-\w+ on-path"', html)  # (4, 3), where the Pigeon went
    assert re.search(r'class="hex t-\w+ path-start"', html)


def test_the_battles_page_lists_each_battle_with_its_replay(client, feud):
    page = client.get(f"/c/{feud}/battles")
    body = text(page)
    assert "b2 River Crossing Bob won conceded 3" in body
    assert "b1 Twin Peaks Alice won castle taken 13" in body
    assert f"/c/{feud}/replay?battle=b1" in page.get_data(as_text=True)


def test_the_replay_steps_through_a_battle_with_previous_and_next(client, feud):
    page = client.get(f"/c/{feud}/replay?battle=b1&step=13")
    body, html = text(page), page.get_data(as_text=True)
    assert "Step 13 of 36" in body
    assert "Bob's Bear attacked Alice's Cat: 10 against 10, rolled again, then 13 against 9" in body
    assert "replay?battle=b1&amp;step=12" in html and "replay?battle=b1&amp;step=14" in html
    # the board of that moment: the Cat still on the board with one life of two
    assert "Alice's Cat, runner, 1 of 2 lives, at (3, 4)" in html
    first = text(client.get(f"/c/{feud}/replay?battle=b1"))
    assert "Step 1 of 36" in first and "Battle b1 began on Twin Peaks; Alice moves first" in first


def test_an_attack_is_shown_with_its_full_arithmetic(client, feud):
    body = text(client.get(f"/c/{feud}/replay?battle=b1&step=13"))
    assert (
        "Bob's Bear : strength 7 + 1 for attacking + 1 for 1 other friend next to the "
        "defender = 9 before the die"
    ) in body
    assert "Alice's Cat : strength 4 + 0 for its ground (bridge) = 4 before the die" in body
    assert (
        "Round 1: Bear 9 + die 1 = 10 against Cat 4 + die 6 (a six: rolled again 3 , not "
        "added) = 10 → a tie: rolled again"
    ) in body
    assert "Round 2: Bear 9 + die 4 = 13 against Cat 4 + die 5 = 9 → the Bear wins" in body
    assert "Alice's Cat: 1 of 2 lives" in body


def test_the_figures_page_shows_every_figure_and_draws_every_map(client, feud):
    page = client.get(f"/c/{feud}/figures")
    body = text(page)
    assert "Bear bear walker 2 2 lives: 7 · 1 life: 5" in body
    assert page.get_data(as_text=True).count('class="mb-board"') == 2


def test_an_unknown_battle_or_figure_is_not_found(client, feud):
    page = client.get(f"/c/{feud}/replay?battle=b9")
    assert page.status_code == 404 and 'this campaign has no battle "b9"' in text(page)
    page = client.get(f"/c/{feud}/battle?piece=nobody")
    assert page.status_code == 404 and 'this battle has no figure "nobody"' in text(page)


def test_looking_at_the_past_turns_the_forms_off(client, feud):
    html = client.get(f"/c/{feud}/battle?at=20").get_data(as_text=True)
    assert "Forms are off" in html
    assert re.search(r'value="server" class="secondary" disabled', html)


# -- beginning a battle ----------------------------------------------------------------------


def test_a_battle_begins_from_the_form_with_the_first_player_drawn_by_the_server(
    client, fresh, svc
):
    page = battle_form(client, svc, "BattleBegun", battle="b1", map="river-crossing", first="")
    assert page.status_code == 302
    battle = svc.state("m").state["battle"]
    assert battle["map"] == "river-crossing" and battle["first"] in ("alice", "bob")
    assert svc.store.event("m", version(svc, "m")).meta["source"] == "server-roll"
    assert "The players choose the figures" in text(client.get("/c/m/battle"))


def test_a_battle_on_a_map_the_campaign_lacks_is_refused_with_the_rule(client, fresh, svc):
    before = version(svc, "m")
    page = battle_form(
        client, svc, "BattleBegun", expected=before, battle="b1", map="atlantis", first="alice"
    )
    assert page.status_code == 422
    assert "there is no map called 'atlantis' (there are: river-crossing, twin-peaks)" in text(page)
    assert version(svc, "m") == before


def test_a_bad_battle_id_shows_its_error_beside_the_field(client, fresh, svc):
    page = battle_form(client, svc, "BattleBegun", battle="b" * 81, map="twin-peaks", first="alice")
    assert page.status_code == 422 and field_error_beside(page, "battle")
    assert '<details class="more" open>' in page.get_data(as_text=True)  # not hidden


# -- choosing and placing -----------------------------------------------------------------------


def test_figures_and_the_king_are_chosen_from_the_form(client, fresh, svc):
    svc.append(
        "m",
        [{"type": "BattleBegun", "data": {"battle": "b1", "map": "twin-peaks", "first": "bob"}}],
        version(svc, "m"),
    )
    page = battle_form(
        client,
        svc,
        "FiguresChosen",
        battle="b1",
        figures=["knight", "cat", "cat", ""],
        king="knight",
        **{"figures-present": "1"},
    )
    assert page.status_code == 302
    pieces = svc.state("m").state["battle"]["pieces"]
    assert {"alice-knight", "alice-cat", "alice-cat-2", "bob-cat-2"} <= set(pieces)


def test_a_flier_chosen_as_king_is_refused_with_the_rule(client, fresh, svc):
    svc.append(
        "m",
        [{"type": "BattleBegun", "data": {"battle": "b1", "map": "twin-peaks", "first": "bob"}}],
        version(svc, "m"),
    )
    page = battle_form(
        client,
        svc,
        "FiguresChosen",
        battle="b1",
        figures=["pigeon", "bear"],
        king="pigeon",
        **{"figures-present": "1"},
    )
    assert page.status_code == 422
    assert "a king is a walker or a runner, never a flier (Pigeon)" in text(page)
    assert re.search(r'<option value="pigeon" selected>', page.get_data(as_text=True))


def test_choosing_no_figure_shows_the_error_beside_the_figures(client, fresh, svc):
    svc.append(
        "m",
        [{"type": "BattleBegun", "data": {"battle": "b1", "map": "twin-peaks", "first": "bob"}}],
        version(svc, "m"),
    )
    page = battle_form(
        client,
        svc,
        "FiguresChosen",
        battle="b1",
        figures=["", ""],
        king="bear",
        **{"figures-present": "1"},
    )
    assert page.status_code == 422
    assert re.search(
        r'</label>\s*<span class="field-error" role="alert"[^>]*>[^<]*[Ll]ength',
        page.get_data(as_text=True),
    )


def test_the_placing_forms_offer_the_castle_to_the_king_and_wait_the_others(client, placing):
    page = client.get("/c/m/battle")
    html, body = page.get_data(as_text=True), text(page)
    assert re.search(r'name="piece" value="alice-knight">.*?<option value="3,1"', html, re.S)
    assert "Bear waits for its king to be placed" in body


def test_a_figure_is_placed_from_its_form(client, placing, svc):
    page = battle_form(
        client,
        svc,
        "FigurePlaced",
        battle="b1",
        piece="alice-knight",
        at="3,1",
        form_id="place-alice-knight",
    )
    assert page.status_code == 302
    assert svc.state("m").state["battle"]["pieces"]["alice-knight"]["pos"] == "3,1"


def test_a_king_placed_outside_its_castle_is_refused_with_the_rule(client, placing, svc):
    page = battle_form(
        client,
        svc,
        "FigurePlaced",
        battle="b1",
        piece="alice-knight",
        at="2,2",
        form_id="place-alice-knight",
    )
    assert page.status_code == 422
    assert (
        "the king starts in its own castle (Alice's Knight to (2, 2); the castle is (3, 1))"
        in text(page)
    )


def test_a_space_that_is_not_q_r_shows_the_error_beside_its_field(client, placing, svc):
    page = battle_form(
        client,
        svc,
        "FigurePlaced",
        battle="b1",
        piece="alice-knight",
        at="castle",
        form_id="place-alice-knight",
    )
    assert page.status_code == 422
    assert field_error_beside(page, "at") and "a space is written q,r" in text(page)


# -- moving -------------------------------------------------------------------------------------


def test_the_move_form_offers_only_the_moves_the_rules_allow(client, fighting, svc):
    state = svc.state("m").state
    legal = system.views.moves(state, "alice-bear")
    html = client.get("/c/m/battle?piece=alice-bear").get_data(as_text=True)
    form_html = html[html.index('value="move"') :]
    form_html = form_html[: form_html.index("</form>")]
    offered = re.findall(r'<option value="([^"]+)"', form_html)
    assert len(offered) == len(legal) and legal
    assert html.count('class="dest"') == len(legal)  # each destination circled on the map
    assert not system.views.moves(state, "bob-bear")  # not Bob's turn
    assert "bob-bear" not in re.findall(r'name="piece">(.*?)</select>', html, re.S)[0]


def test_a_figure_moves_from_the_form(client, fighting, svc):
    state = svc.state("m").state
    end, path = sorted(system.views.moves(state, "alice-bear").items())[0]
    page = battle_form(
        client,
        svc,
        "FigureMoved",
        query="?piece=alice-bear",
        battle="b1",
        piece="alice-bear",
        form_id="move",
        path=system.views.path_text(path),
        next="/c/m/battle",
    )
    assert page.status_code == 302, text(page)[:2000]
    assert page.location.endswith("/c/m/battle")
    assert svc.state("m").state["battle"]["pieces"]["alice-bear"]["pos"] == end
    assert "Recorded: Alice's Bear moved from" in text(client.get("/c/m/battle"))


def test_a_typed_path_that_breaks_a_rule_is_refused_with_the_rule(client, fighting, svc):
    before = version(svc, "m")
    page = battle_form(
        client,
        svc,
        "FigureMoved",
        expected=before,
        battle="b1",
        piece="bob-bear",
        form_id="move-typed",
        path="1,5",
    )
    assert page.status_code == 422
    assert "players take turns: it is Alice's turn (Bob's Bear waits)" in text(page)
    assert version(svc, "m") == before


def test_a_typed_path_that_is_not_spaces_shows_the_error_beside_its_field(client, fighting, svc):
    page = battle_form(
        client,
        svc,
        "FigureMoved",
        battle="b1",
        piece="alice-bear",
        form_id="move-typed",
        path="north twice",
    )
    assert page.status_code == 422 and field_error_beside(page, "path")
    assert "a path is the spaces it enters" in text(page)
    assert 'value="north twice"' in page.get_data(as_text=True)


# -- attacks and fliers ---------------------------------------------------------------------------


def test_an_attack_with_the_tables_dice_is_recorded_with_every_round(client, svc):
    cid = lines_until(svc, 13)  # Bob's Bear has just moved next to Alice's Cat
    page = battle_form(
        client,
        svc,
        "AttackMade",
        cid=cid,
        battle="b1",
        attacker="bob-bear",
        defender="alice-cat",
        **faces("1 / 6 3; 4 / 5"),
        **{"dice-mode": "table"},
        form_id="attack-alice-cat",
    )
    assert page.status_code == 302
    event = svc.store.event(cid, version(svc, cid))
    assert event.data["rounds"] == [
        {"attacker": [1], "defender": [6, 3]},
        {"attacker": [4], "defender": [5]},
    ]
    body = text(client.get(f"/c/{cid}/battle"))
    assert "Round 2: Bear 9 + die 4 = 13 against Cat 4 + die 5 = 9 → the Bear wins" in body


def test_an_attack_rolled_by_the_server_rolls_until_no_tie(client, svc):
    cid = lines_until(svc, 13)
    page = battle_form(
        client,
        svc,
        "AttackMade",
        cid=cid,
        battle="b1",
        attacker="bob-bear",
        defender="alice-cat",
        rounds="",
        **{"dice-mode": "server"},
        form_id="attack-alice-cat",
    )
    assert page.status_code == 302
    event = svc.store.event(cid, version(svc, cid))
    assert event.meta["source"] == "server-roll" and event.data["rounds"]


def test_an_attack_ending_on_a_tie_is_refused_with_the_rule(client, svc):
    cid = lines_until(svc, 13)
    page = battle_form(
        client,
        svc,
        "AttackMade",
        cid=cid,
        battle="b1",
        attacker="bob-bear",
        defender="alice-cat",
        **faces("1 / 6"),
        **{"dice-mode": "table"},
        form_id="attack-alice-cat",
    )
    assert page.status_code == 422
    assert (
        "equal totals are rolled again (round 1 ended 10 against 10, and no round follows)"
        in text(page)
    )


def test_attack_dice_typed_wrong_show_the_error_beside_the_dice(client, svc):
    cid = lines_until(svc, 13)
    page = battle_form(
        client,
        svc,
        "AttackMade",
        cid=cid,
        battle="b1",
        attacker="bob-bear",
        defender="alice-cat",
        **faces("4 5 / 2"),
        **{"dice-mode": "table"},
        form_id="attack-alice-cat",
    )
    assert page.status_code == 422 and dice_error_beside(page, "rounds")
    assert "a second die is rolled only after a first 6 (not after 4)" in text(page)
    page = battle_form(
        client,
        svc,
        "AttackMade",
        cid=cid,
        battle="b1",
        attacker="bob-bear",
        defender="alice-cat",
        **{"dice-mode": "table"},
        form_id="attack-alice-cat",
    )
    assert page.status_code == 422 and dice_error_beside(page, "rounds")
    assert "choose the face of each die the table rolled" in text(page)


def test_a_flier_attacked_by_a_walker_is_asked_first_and_may_stay_aloft(client, svc):
    cid = lines_until(svc, 19)  # Alice's Bear moved next to Bob's Pigeon and Bob's Bear
    page = client.get(f"/c/{cid}/battle")
    body = text(page)
    assert "Bob's Pigeon is a flier: Bob first says whether it comes down to fight" in body
    assert "Attack Bob's Bear" in body
    page = battle_form(
        client,
        svc,
        "FlierStayedAloft",
        cid=cid,
        battle="b1",
        flier="bob-pigeon",
        attacker="alice-bear",
        form_id="aloft-bob-pigeon",
    )
    assert page.status_code == 302
    body = text(client.get(f"/c/{cid}/battle"))
    assert "Bob's Pigeon stayed aloft and would not fight Alice's Bear" in body
    assert "Bob's Pigeon is a flier" not in body


def test_a_flier_comes_down_from_the_form_and_is_then_attacked(client, svc):
    cid = lines_until(svc, 19)
    page = battle_form(
        client,
        svc,
        "FlierCameDown",
        cid=cid,
        battle="b1",
        flier="bob-pigeon",
        attacker="alice-bear",
        form_id="down-bob-pigeon",
    )
    assert page.status_code == 302
    assert "Attack Bob's Pigeon" in text(client.get(f"/c/{cid}/battle"))


def test_a_flier_answering_twice_is_refused_with_the_rule(client, svc):
    cid = lines_until(svc, 20)
    page = battle_form(
        client,
        svc,
        "FlierCameDown",
        cid=cid,
        battle="b1",
        flier="bob-pigeon",
        attacker="alice-bear",
        form_id="down-bob-pigeon",
    )
    assert page.status_code == 422
    assert "Bob's Pigeon already answered Alice's Bear this turn" in text(page)


# -- the end --------------------------------------------------------------------------------------


def test_a_decided_battle_is_ended_from_the_form_as_the_board_says(client, svc):
    cid = lines_until(svc, 36)  # Alice's Knight has entered Bob's castle
    body = text(client.get(f"/c/{cid}/battle"))
    assert "Decided: Alice's king entered Bob's castle" in body
    page = battle_form(
        client,
        svc,
        "BattleEnded",
        cid=cid,
        battle="b1",
        winner="alice",
        reason="castle-taken",
        form_id="end",
    )
    assert page.status_code == 302
    assert svc.state(cid).state["standings"]["alice"]["won"] == 1
    assert "Begin a battle" in text(client.get(f"/c/{cid}/battle"))


def test_a_battle_ended_against_the_board_is_refused_with_the_rule(client, svc):
    cid = lines_until(svc, 36)
    page = battle_form(
        client,
        svc,
        "BattleEnded",
        cid=cid,
        battle="b1",
        winner="bob",
        reason="conceded",
        form_id="end",
    )
    assert page.status_code == 422
    assert "battle b1 ended as the board says: Alice's king entered Bob's castle" in text(page)


def test_a_player_concedes_from_the_form(client, fighting, svc):
    page = battle_form(
        client, svc, "BattleEnded", battle="b1", winner="bob", reason="conceded", form_id="concede"
    )
    assert page.status_code == 302
    assert svc.state("m").state["battles"][-1]["winner"] == "bob"
    assert "Ended: Bob won (Alice conceded)" in text(client.get("/c/m/battle"))


# -- escaping -------------------------------------------------------------------------------------


def test_a_player_name_typed_with_markup_is_shown_as_text(client, svc):
    svc.start(
        "x",
        "monsters",
        "Escapes",
        {
            "players": [
                {"id": "eve", "name": "<script>alert(1)</script>Eve"},
                {"id": "bob", "name": "Bob"},
            ]
        },
    )
    svc.append(
        "x",
        [
            {"type": "BattleBegun", "data": {"battle": "b1", "map": "twin-peaks", "first": "eve"}},
            {
                "type": "FiguresChosen",
                "data": {"battle": "b1", "figures": ["knight"], "king": "knight"},
            },
            {"type": "FigurePlaced", "data": {"battle": "b1", "piece": "eve-knight", "at": [3, 1]}},
        ],
        version(svc, "x"),
    )
    for path in ("", "battle", "replay?battle=b1&step=3", "battles", "figures"):
        html = client.get(f"/c/x/{path}").get_data(as_text=True)
        assert "<script>alert(1)</script>" not in html, path
    assert "&lt;script&gt;alert(1)&lt;/script&gt;Eve" in client.get("/c/x/").get_data(as_text=True)


# -- each player sees the forms of its own side -----------------------------------------------


def test_each_player_places_only_its_own_figures_and_the_organiser_all(app, client, svc, placing):
    alice, bob = member(app, "m", "alicia", "alice"), member(app, "m", "bobby", "bob")
    pieces = svc.state("m").state["battle"]["pieces"]
    side_of = {pid: p["side"] for pid, p in pieces.items()}
    hers = posts(alice.get("/c/m/battle"))
    his = posts(bob.get("/c/m/battle"))
    assert hers and {side_of[pid] for _, pid in hers} == {"alice"}
    assert his and {side_of[pid] for _, pid in his} == {"bob"}
    assert hers | his <= posts(client.get("/c/m/battle"))
    assert "Alice's player places its" in text(bob.get("/c/m/battle"))


def test_the_side_not_to_move_is_told_whose_move_it_is_and_may_concede_only_for_itself(
    app, client, svc, fighting
):
    bob = member(app, "m", "bobby", "bob")
    page = bob.get("/c/m/battle")
    assert "It is Alice's move ." in text(page)
    assert posts(page) == {("BattleEnded", "")}  # its concession, and nothing of Alice's
    concede = re.search(r'name="winner"[^>]*>(.*?)</select>', page.get_data(as_text=True), re.S)
    assert re.findall(r'<option value="([^"]*)"', concede.group(1)) == ["alice"]
    assert "Bob concedes" in concede.group(1) and "Alice concedes" not in concede.group(1)
    assert "FigureMoved" in {t for t, _ in posts(client.get("/c/m/battle?piece=alice-bear"))}


def test_a_reader_who_is_no_member_is_shown_no_form(app, anon, svc, placing):
    from tracker.accounts import Accounts
    from tracker.store import open_store

    Accounts(open_store(app.config["DATABASE"])).set_public("m", True)
    assert posts(anon.get("/c/m/battle")) == set()


# -- defaults are legal choices ----------------------------------------------------------------


def test_every_form_left_at_its_defaults_is_accepted_at_each_stage_of_a_battle(client, svc, fresh):
    assert defaults_refused(client, svc, "m", "/c/m/battle") == []  # begin a battle
    svc.append(
        "m",
        [{"type": "BattleBegun", "data": {"battle": "b1", "map": "twin-peaks", "first": "alice"}}],
        version(svc, "m"),
    )
    assert defaults_refused(client, svc, "m", "/c/m/battle") == []  # choose the figures


def test_the_figures_left_at_their_defaults_field_a_king_the_rules_accept(client, svc, fresh):
    svc.append(
        "m",
        [{"type": "BattleBegun", "data": {"battle": "b1", "map": "twin-peaks", "first": "alice"}}],
        version(svc, "m"),
    )
    chosen = next(f for f in event_forms(client.get("/c/m/battle")) if f["type"] == "FiguresChosen")
    king = svc.state("m").state["figures"][chosen["king"]]
    assert chosen["king"] in chosen["figures"] and king["movement"] != "flier"


def test_the_placing_and_fighting_forms_left_at_their_defaults_are_accepted(client, svc, placing):
    assert defaults_refused(client, svc, "m", "/c/m/battle") == []


def test_the_fighting_forms_left_at_their_defaults_are_accepted(client, svc, fighting):
    assert defaults_refused(client, svc, "m", "/c/m/battle") == []
    assert defaults_refused(client, svc, "m", "/c/m/battle?piece=alice-bear") == []


def test_a_voided_placement_reads_in_the_audit_log_as_it_was_recorded(client, svc, placing):
    assert defaults_refused(client, svc, "m", "/c/m/battle") == []  # each placement voided
    page = client.get("/c/m/audit")
    assert page.status_code == 200
    body = text(page)
    assert "Alice's Knight (king) was placed at" in body and "Event 4 was voided" in body
