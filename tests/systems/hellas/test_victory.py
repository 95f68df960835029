"""The four victory conditions, checked the instant they are met, and the standings."""

from tracker.systems.hellas import rules

BOIOTIS = ("thessa", "orchia", "kopais", "aulida")
ACHAION = ("aigialos", "dymara", "pellane", "tritaia")
EUBOIKOS = ("chalkea", "eretra", "karystia")


def _monument_turn(table, player, monument):
    table.play("MonumentBuilt", player=player, monument=monument)
    deck = [
        c
        for c in sorted(table.state["content"]["event_cards"])
        if c not in table.game["events_drawn"]
    ]
    table.end_round(player, deck[0])
    table.play("TurnEnded", player=player)


def test_controlling_three_lands_in_a_two_player_game_wins_as_warlord_at_once(table):
    table.start()
    table.control("ann", *BOIOTIS, *ACHAION, "skiathe")
    assert rules.progress(table.state, "ann")["warlord"] == {"have": 2, "need": 3}
    table.play(
        "HoplitesMoved",
        player="ann",
        moves=[{"origin": "korythos", "destination": "eirinos", "count": 1}],
    )
    assert table.game["over"] == {"winner": "ann", "condition": "warlord", "version": table.version}
    assert (
        table.words() == "Ann moved 1 hoplite from Korythos to Eirinos; Ann wins game g1 as Warlord"
    )
    assert table.state["standings"]["ann"] == {
        "played": 1,
        "won": 1,
        "by": {"warlord": 1, "favoured": 0, "slayer": 0, "king_of_kings": 0},
    }
    assert table.state["games"][-1]["winner"] == "ann"


def test_a_finished_game_takes_no_more_actions(table):
    test_controlling_three_lands_in_a_two_player_game_wins_as_warlord_at_once(table)
    table.refuses("Prayed", "game g1 is over (Ann won as Warlord)", player="ann")


def test_with_three_players_two_lands_win_but_the_excluded_land_does_not_count(table3):
    table3.start3()
    table3.control("ann", *EUBOIKOS, *BOIOTIS[:3])
    table3.grant("ann", "control", region="aulida")
    table3.play("RegionControlChanged", region="aulida", player="ann", reason="an oracle's gift")
    assert table3.game["over"] is None
    assert rules.progress(table3.state, "ann")["warlord"] == {"have": 1, "need": 2}
    table3.control("ann", *ACHAION[:3])
    table3.grant("ann", "control", region="tritaia")
    table3.play("RegionControlChanged", region="tritaia", player="ann", reason="a quest")
    assert table3.game["over"]["condition"] == "warlord"


def test_with_three_players_one_land_is_named_as_not_counting(table3):
    table3.refuses(
        "GameStarted",
        "with 3 players, 1 Land(s) do not count for Warlord (0 named)",
        game="g1",
        order=["ann", "bo", "cy"],
        heroes={"ann": "korythos", "bo": "phlios", "cy": "chalkea"},
        hoplites={},
        excluded_lands=[],
    )


def test_five_temples_win_favoured_by_the_gods(table):
    table.start()
    table.control("ann", "melanthe", "eirinos", "orchia", "kopais", "eretra")
    for rid in ("eirinos", "orchia", "kopais", "eretra"):
        table.region(rid)["temple"] = True
    table.grant("ann", "temple")
    table.play("TempleBuilt", player="ann", region="melanthe")
    assert table.game["over"]["winner"] == "ann"
    assert table.game["over"]["condition"] == "favoured"


def test_temples_count_only_while_their_regions_are_controlled(table):
    table.start()
    table.control("ann", "melanthe", "eirinos", "orchia", "kopais")
    table.control("bo", "eretra")
    for rid in ("eirinos", "orchia", "kopais", "eretra"):
        table.region(rid)["temple"] = True
    table.grant("ann", "temple")
    table.play("TempleBuilt", player="ann", region="melanthe")
    assert table.game["over"] is None


def test_three_monsters_slain_win_monster_slayer(table):
    table.start(heroes={"ann": "thyrea", "bo": "phlios"})
    table.game["slain"]["ann"] = ["boar", "serpent"]
    table.play("HuntBegan", player="ann", monster="harpy", cards=["shield-2"])
    table.hand("ann", "spear-1")
    table.play(
        "HeroAttacked",
        player="ann",
        wounds=[
            {"wound": "wings", "cards": ["spear-1"]},
            {"wound": "talons", "cards": ["shield-2"]},
        ],
    )
    assert table.game["over"]["condition"] == "slayer"
    assert table.words().endswith("and slew it; Ann wins game g1 as Monster Slayer")


def test_king_of_kings_goes_to_whoever_holds_the_monument_after_the_builders_three_actions(
    table3,
):
    table3.start3()
    table3.game["monuments"]["hermes"]["level"] = 4
    _monument_turn(table3, "ann", "hermes")
    table3.control("bo", "tritaia")
    table3.pray_and_end("bo")
    table3.pray_and_end("cy")
    table3.pray_and_end("ann")
    assert table3.game["king"]["tokens"] == 2
    table3.play("HoplitesRecruited", player="bo", placed=[{"region": "phlios", "count": 1}])
    table3.play("TurnEnded", player="bo")
    table3.play("HoplitesRecruited", player="cy", placed=[{"region": "chalkea", "count": 1}])
    table3.play("TurnEnded", player="cy")
    table3.play("HoplitesRecruited", player="ann", placed=[{"region": "korythos", "count": 1}])
    table3.play("TurnEnded", player="ann")
    table3.play(
        "HoplitesMarched",
        player="bo",
        moves=[{"origin": "phlios", "destination": "nemessa", "count": 1}],
    )
    table3.play("TurnEnded", player="bo")
    table3.play(
        "HoplitesMarched",
        player="cy",
        moves=[{"origin": "chalkea", "destination": "eretra", "count": 1}],
    )
    table3.play("TurnEnded", player="cy")
    assert table3.game["over"] is None
    table3.play(
        "HoplitesMarched",
        player="ann",
        moves=[{"origin": "korythos", "destination": "melanthe", "count": 1}],
    )
    assert table3.game["king"]["tokens"] == 0
    assert table3.game["over"]["winner"] == "bo"
    assert table3.game["over"]["condition"] == "king_of_kings"


def test_only_the_first_completed_monument_starts_the_king_of_kings_count(table3):
    table3.start3()
    table3.game["monuments"]["hermes"]["level"] = 4
    table3.game["monuments"]["zeus"]["level"] = 4
    _monument_turn(table3, "ann", "hermes")
    _monument_turn(table3, "bo", "zeus")
    assert table3.game["king"]["monument"] == "hermes"
    assert table3.game["king"]["builder"] == "ann"


def test_a_king_of_kings_count_ending_with_the_region_unheld_wins_nothing(table3):
    table3.start3()
    table3.game["king"] = {
        "monument": "hermes",
        "region": "tritaia",
        "builder": "ann",
        "tokens": 1,
        "resolved": False,
    }
    table3.play("Prayed", player="ann")
    assert table3.game["king"]["resolved"] is True
    assert table3.game["over"] is None


def test_king_of_kings_is_left_out_of_two_player_games_unless_chosen(table):
    table.start()
    assert table.game["king_of_kings"] is False
    table.game["monuments"]["hermes"]["level"] = 4
    table.play("MonumentBuilt", player="ann", monument="hermes")
    assert table.game["king"] is None
    assert rules.progress(table.state, "ann")["king_of_kings"] is None


def test_a_two_player_game_may_choose_to_play_king_of_kings(table):
    table.start(king_of_kings=True)
    table.game["monuments"]["hermes"]["level"] = 4
    table.play("MonumentBuilt", player="ann", monument="hermes")
    assert table.game["king"]["tokens"] == 3


def test_king_of_kings_cannot_be_left_out_with_three_players(table3):
    table3.refuses(
        "GameStarted",
        "King of Kings may be left out only in a game of two players",
        game="g1",
        order=["ann", "bo", "cy"],
        heroes={"ann": "korythos", "bo": "phlios", "cy": "chalkea"},
        hoplites={},
        excluded_lands=["euboikos"],
        king_of_kings=False,
    )


def test_a_new_game_waits_for_the_last_to_end(table):
    table.start()
    table.refuses(
        "GameStarted",
        "game g1 is still under way: it ends before another",
        game="g2",
        order=["bo", "ann"],
        heroes={"ann": "korythos", "bo": "phlios"},
        hoplites={},
    )


def test_the_campaign_goes_on_with_the_next_game_and_keeps_the_standings(table):
    test_controlling_three_lands_in_a_two_player_game_wins_as_warlord_at_once(table)
    table.refuses(
        "GameStarted",
        "this campaign already played a game called g1",
        game="g1",
        order=["bo", "ann"],
        heroes={"ann": "korythos", "bo": "phlios"},
        hoplites={},
    )
    table.play(
        "GameStarted",
        game="g2",
        order=["bo", "ann"],
        heroes={"ann": "korythos", "bo": "phlios"},
        hoplites={"bo": {"phlios": 2}},
        hands={"ann": ["spear-1", "spear-2"], "bo": ["helm-1", "helm-3"]},
    )
    assert table.game["turn"]["player"] == "bo"
    assert table.game["number"] == 2
    table.play("GameAbandoned", reason="the tavern closed")
    assert table.state["standings"]["bo"] == {
        "played": 2,
        "won": 0,
        "by": {"warlord": 0, "favoured": 0, "slayer": 0, "king_of_kings": 0},
    }
    assert [g["winner"] for g in table.state["games"]] == ["ann", None]
