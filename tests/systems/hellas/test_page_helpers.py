"""The helpers pages call for their forms: choices narrowed by the rules, the last action's regions."""

from tracker.systems.hellas import system


def test_a_hero_is_offered_the_regions_it_can_reach_step_by_step(table):
    table.start()
    assert system.views.choices(table.state, "ann")["hero_steps"] == [
        ["aigialos", "eirinos", "melanthe"]
    ]
    table.game["heroes"]["ann"]["speed"] = 2
    steps = system.views.choices(table.state, "ann")["hero_steps"]
    assert len(steps) == 2 and "dymara" in steps[1] and "dymara" not in steps[0]


def test_hoplites_are_offered_from_where_they_stand_to_adjacent_regions(table):
    table.start()
    seen = system.views.choices(table.state, "ann")
    assert seen["origins"] == ["korythos", "melanthe"]
    assert seen["origin_counts"] == {"korythos": 3, "melanthe": 2}
    assert "skiathe" in seen["destinations"] and "phlios" not in seen["destinations"]
    assert seen["controlled"] == ["korythos", "melanthe"] and seen["hoplites_left"] == 10


def test_only_a_usurp_and_a_hunt_the_rules_allow_are_offered(table):
    table.start()
    assert system.views.choices(table.state, "ann")["usurp"] is None  # Leadership 1, population 2
    assert system.views.choices(table.state, "ann")["hunt"] == []
    table.play("HeroMoved", player="ann", path=["eirinos"])
    assert system.views.choices(table.state, "ann")["hunt"] == ["boar"]
    table.game["heroes"]["ann"]["leadership"] = 2
    assert system.views.choices(table.state, "ann")["usurp"] == "eirinos"


def test_open_wounds_then_rewards_are_offered_in_a_hunt(table):
    table.start(heroes={"ann": "eirinos", "bo": "phlios"})
    table.play("HuntBegan", player="ann", monster="boar", cards=["spear-1"])
    assert [w["id"] for w in system.views.choices(table.state, "ann")["wounds"]] == [
        "hide",
        "tusks",
        "heart",
    ]
    table.play("HeroAttacked", player="ann", wounds=[{"wound": "hide", "cards": ["spear-1"]}])
    table.play("MonsterAttacked", player="ann", roll=[6])  # a flight into the thicket
    seen = system.views.choices(table.state, "ann")
    assert [w["id"] for w in seen["rewards"]] == ["hide"]


def test_a_loser_is_offered_only_legal_retreats(table):
    table.start(hoplites={"ann": {"korythos": 3}, "bo": {"eirinos": 3}})
    table.play(
        "HoplitesMoved",
        player="ann",
        moves=[{"origin": "korythos", "destination": "eirinos", "count": 3}],
    )
    table.play("BattleBegan", player="ann", region="eirinos")
    table.hand("ann", "charge-3")
    table.play("CombatCardPlayed", player="ann", card="charge-3")
    table.play("BattlePassed", player="bo")
    table.play("BattlePassed", player="ann")
    assert system.views.choices(table.state, "bo")["retreats"] == ["dymara", "melanthe", "skiathe"]


def test_a_players_board_counts_each_thing_against_its_limit(table):
    table.start()
    table.grant("ann", "artifact")
    table.play("ArtifactGained", player="ann", artifact="oak-crown")
    table.play("PriestsSent", player="ann", monument="zeus", count=1)
    table.play("Prayed", player="ann")
    board = system.views.player_board(table.state, "ann")
    assert board["hoplites"] == 5 and board["hoplites_limit"] == 15
    assert board["priests_pool"] == 1 and board["priests_on_monuments"] == 1
    assert board["tokens_used"] == ["prayer"] and board["tokens_free"] == 5
    assert board["artifacts"] == [{"id": "oak-crown", "charged": True}]
    assert board["regions"] == ["korythos", "melanthe"] and board["lands"] == []


def test_the_regions_an_event_touched_are_named_for_the_highlight(table):
    table.start()
    table.play("HeroMoved", player="ann", path=["eirinos"])
    assert system.views.touched(
        table.state, "HeroMoved", {"player": "ann", "path": ["eirinos"]}
    ) == [
        "korythos",
        "eirinos",
    ]
    moves = {"moves": [{"origin": "korythos", "destination": "eirinos", "count": 1}]}
    assert system.views.touched(table.state, "HoplitesMoved", moves) == ["korythos", "eirinos"]
    assert system.views.touched(table.state, "MonumentBuilt", {"monument": "zeus"}) == ["orchia"]
    assert system.views.touched(table.state, "Prayed", {"player": "ann"}) == []


def test_the_usurp_offered_is_the_one_the_rules_allow_in_the_players_turn(table):
    table.start()
    table.play("HeroMoved", player="ann", path=["eirinos"])
    usurp = {"player": "ann", "region": "eirinos"}
    assert system.views.choices(table.state, "ann")["usurp"] is None
    assert "Leadership" in system.allows(table.state, "RegionUsurped", usurp)
    table.game["heroes"]["ann"]["leadership"] = 2
    assert system.views.choices(table.state, "ann")["usurp"] == "eirinos"
    assert system.allows(table.state, "RegionUsurped", usurp) is None
