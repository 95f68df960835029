"""What pages read: open actions for a player, progress, what the game waits for."""

from tracker.systems.hellas import rules, system


def test_a_player_sees_the_actions_still_open_to_it(table):
    table.start()
    table.play("HeroMoved", player="ann", path=["melanthe"])
    seen = system.visible_state(table.state, "ann")["open_actions"]
    assert seen["my_turn"] is True
    assert seen["normal"] == ["artifacts", "hoplites", "priests"]
    assert "prayer" in seen["special"]
    assert seen["may_end_turn"] is False
    table.play("Prayed", player="ann")
    seen = system.visible_state(table.state, "ann")["open_actions"]
    assert seen["normal"] == [] and seen["special"] == []
    assert seen["blocked"] == ["prayer"] and seen["may_end_turn"] is True
    assert system.visible_state(table.state, "bo")["open_actions"]["my_turn"] is False


def test_the_view_for_a_player_is_a_copy(table):
    table.start()
    seen = system.visible_state(table.state, "ann")
    seen["game"]["regions"]["korythos"]["controller"] = "bo"
    assert table.region("korythos")["controller"] == "ann"


def test_the_game_says_what_it_waits_for(table):
    table.start(hoplites={"ann": {"korythos": 3}, "bo": {"eirinos": 1}})
    table.play(
        "HoplitesMoved",
        player="ann",
        moves=[{"origin": "korythos", "destination": "eirinos", "count": 2}],
    )
    assert rules.waiting_for(table.state) == "the battle for Eirinos"
    table.play("BattleBegan", player="ann", region="eirinos")
    assert rules.waiting_for(table.state) == "Ann to play a combat card or pass in Eirinos"
    public = system.public_state(table.state)
    assert "neighbours" not in public
    assert public["waiting"] == "Ann to play a combat card or pass in Eirinos"


def test_the_state_is_plain_json_with_string_keys(table):
    import json

    table.start()
    table.play("Prayed", player="ann")
    assert json.loads(json.dumps(table.state)) == table.state
