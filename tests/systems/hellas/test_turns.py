"""A player's turn: normal actions once each, then exactly one special action."""


def test_a_game_starts_with_the_first_seat_to_play(table):
    table.start()
    assert table.game["turn"]["player"] == "ann"
    assert table.region("korythos")["controller"] == "ann"
    assert table.game["heroes"]["bo"]["region"] == "phlios"
    assert table.state["standings"]["bo"]["played"] == 1


def test_each_kind_of_normal_action_is_taken_once_a_turn(table):
    table.start()
    table.play(
        "HoplitesMoved",
        player="ann",
        moves=[{"origin": "korythos", "destination": "eirinos", "count": 1}],
    )
    table.refuses(
        "HoplitesMoved",
        "each kind of normal action is taken once a turn (Ann already moved hoplites this turn)",
        player="ann",
        moves=[{"origin": "melanthe", "destination": "skiathe", "count": 1}],
    )


def test_every_kind_of_normal_action_may_be_taken_in_one_turn(table):
    table.start()
    table.grant("ann", "artifact")
    table.play("ArtifactGained", player="ann", artifact="owl-lantern")
    table.play("ArtifactsUsed", player="ann", artifacts=["owl-lantern"])
    table.play("HeroMoved", player="ann", path=["melanthe"])
    table.play(
        "HoplitesMoved",
        player="ann",
        moves=[{"origin": "korythos", "destination": "eirinos", "count": 1}],
    )
    table.play("PriestsSent", player="ann", monument="zeus", count=1)
    assert table.game["turn"]["normal"] == ["artifacts", "hero", "hoplites", "priests"]


def test_normal_actions_come_before_the_special_action(table):
    table.start()
    table.play("Prayed", player="ann")
    table.refuses(
        "HeroMoved",
        "normal actions come before the special action (Ann already took Prayer this turn)",
        player="ann",
        path=["melanthe"],
    )


def test_a_player_takes_exactly_one_special_action_a_turn(table):
    table.start()
    table.play("Prayed", player="ann")
    table.refuses(
        "RegionUsurped",
        "a player takes exactly one special action a turn (Ann already took Prayer)",
        player="ann",
        region="korythos",
    )


def test_a_turn_cannot_end_without_a_special_action(table):
    table.start()
    table.refuses(
        "TurnEnded", "a turn ends after exactly one special action (Ann took none)", player="ann"
    )


def test_the_turn_passes_round_the_table_in_seat_order(table):
    table.start()
    table.pray_and_end("ann")
    assert table.game["turn"]["player"] == "bo"
    assert table.game["turn"]["number"] == 2
    table.pray_and_end("bo")
    assert table.game["turn"]["player"] == "ann"


def test_only_the_player_whose_turn_it_is_takes_actions(table):
    table.start()
    table.refuses("Prayed", "it is Ann's turn, not Bo's", player="bo")


def test_a_player_of_the_campaign_outside_the_game_cannot_act(table3):
    table3.start()
    table3.refuses("Prayed", "Cy is not playing in game g1", player="cy")


def test_a_used_special_action_stays_blocked_until_a_monument_is_built(table):
    table.start()
    table.pray_and_end("ann")
    table.pray_and_end("bo")
    table.refuses(
        "Prayed",
        "Prayer is blocked by Ann's Used Action token until a Monument is built",
        player="ann",
    )
    table.play("MonumentBuilt", player="ann", monument="zeus")
    table.end_round("ann", "harvest-feast")
    table.play("TurnEnded", player="ann")
    table.play("Prayed", player="bo")
    assert table.game["tokens"]["bo"] == ["prayer"]


def test_a_player_without_a_free_used_action_token_takes_no_special_action(table):
    table.start()
    table.game["tokens"]["ann"].extend(["recruit", "march", "usurp", "hunt", "x", "y"])
    table.refuses("Prayed", "Ann has no Used Action token left for a special action", player="ann")


def test_an_event_needs_a_game_under_way(table):
    table.refuses(
        "Prayed",
        "no game is under way: a game begins before anything is played in it",
        player="ann",
    )


def test_a_game_has_each_campaign_player_at_most_once(table):
    table.refuses(
        "GameStarted",
        "each player takes one seat at the table",
        game="g1",
        order=["ann", "ann"],
        heroes={"ann": "korythos"},
        hoplites={},
    )


def test_a_game_starts_with_at_most_15_hoplites_a_player(table):
    table.refuses(
        "GameStarted",
        "a player has at most 15 hoplites (Ann would have 16)",
        game="g1",
        order=["ann", "bo"],
        heroes={"ann": "korythos", "bo": "phlios"},
        hoplites={"ann": {"korythos": 15, "melanthe": 1}},
    )


# -- heroes ----------------------------------------------------------------------------------


def test_a_hero_moves_up_to_its_speed_through_whatever_stands_in_the_way(table):
    table.start()
    table.game["heroes"]["ann"]["speed"] = 3
    # Eirinos holds the boar, Dymara nothing, Tritaia nothing: the hero passes them all.
    table.play("HeroMoved", player="ann", path=["eirinos", "dymara", "tritaia"])
    assert table.game["heroes"]["ann"]["region"] == "tritaia"
    assert table.game["turn"]["hero_path"] == ["korythos", "eirinos", "dymara", "tritaia"]
    assert table.words() == "Ann's hero travelled Korythos → Eirinos → Dymara → Tritaia"


def test_a_hero_stops_among_enemy_hoplites(table):
    table.start(heroes={"ann": "aulida", "bo": "phlios"})
    table.game["heroes"]["ann"]["speed"] = 2
    table.play("HeroMoved", player="ann", path=["thyrea", "phlios"])
    assert table.game["heroes"]["ann"]["region"] == "phlios"
    assert table.game["contested"] == []


def test_a_hero_cannot_move_further_than_its_speed(table):
    table.start()
    table.refuses(
        "HeroMoved",
        "a hero moves at most its Speed in regions (Ann's hero has Speed 1, the path has 2)",
        player="ann",
        path=["eirinos", "dymara"],
    )


def test_a_hero_moves_only_between_adjacent_regions(table):
    table.start()
    table.refuses(
        "HeroMoved",
        "a hero moves from a region to an adjacent one (Ann's hero from Korythos to Argea)",
        player="ann",
        path=["argea"],
    )


def test_a_hero_crosses_the_sea_on_a_sea_route(table):
    table.start()
    table.play("HeroMoved", player="ann", path=["aigialos"])
    assert table.game["heroes"]["ann"]["region"] == "aigialos"


def test_a_hero_moves_only_to_regions_on_the_board(table):
    table.start()
    table.refuses(
        "HeroMoved", "there is no region 'atlantis' on this board", player="ann", path=["atlantis"]
    )


def test_an_attribute_rises_no_higher_than_the_boards_limit(table):
    table.start()
    table.game["heroes"]["ann"]["speed"] = 5
    table.grant("ann", "attribute", attribute="speed")
    table.refuses(
        "HeroAttributeChanged",
        "a hero's speed goes up to 5, not 6",
        player="ann",
        attribute="speed",
        value=6,
    )


# -- hoplites and priests ----------------------------------------------------------------------


def test_hoplites_move_to_an_adjacent_region_and_take_control_of_it(table):
    table.start()
    table.play(
        "HoplitesMoved",
        player="ann",
        moves=[{"origin": "korythos", "destination": "eirinos", "count": 2}],
    )
    assert table.region("eirinos") == {
        "controller": "ann",
        "hoplites": {"ann": 2},
        "fortified": {},
        "temple": False,
    }
    # The region left behind stays under Ann's control with one hoplite.
    assert table.region("korythos")["hoplites"] == {"ann": 1}
    assert table.words() == "Ann moved 2 hoplites from Korythos to Eirinos"


def test_hoplites_move_only_to_an_adjacent_region(table):
    table.start()
    table.refuses(
        "HoplitesMoved",
        "hoplites move to an adjacent region (Ann from Korythos to Thessa)",
        player="ann",
        moves=[{"origin": "korythos", "destination": "thessa", "count": 1}],
    )


def test_a_player_cannot_move_more_hoplites_than_it_has_there(table):
    table.start()
    table.refuses(
        "HoplitesMoved",
        "Ann has 1 hoplite(s) left to move from Korythos, not 2",
        player="ann",
        moves=[
            {"origin": "korythos", "destination": "eirinos", "count": 2},
            {"origin": "korythos", "destination": "melanthe", "count": 2},
        ],
    )


def test_hoplites_are_recruited_only_in_regions_their_player_controls(table):
    table.start()
    table.refuses(
        "HoplitesRecruited",
        "new hoplites go to regions their player controls (Ann does not control Eirinos)",
        player="ann",
        placed=[{"region": "eirinos", "count": 1}],
    )


def test_recruiting_never_takes_a_player_past_15_hoplites(table):
    table.start()
    table.play("HoplitesRecruited", player="ann", placed=[{"region": "korythos", "count": 10}])
    assert table.region("korythos")["hoplites"] == {"ann": 13}
    table.play("TurnEnded", player="ann")
    table.pray_and_end("bo")
    table.play("MonumentBuilt", player="ann", monument="zeus")
    table.end_round("ann", "harvest-feast")
    table.play("TurnEnded", player="ann")
    table.pray_and_end("bo")
    table.refuses(
        "HoplitesRecruited",
        "a player has at most 15 hoplites (Ann would have 16)",
        player="ann",
        placed=[{"region": "melanthe", "count": 1}],
    )


def test_a_player_sends_only_the_priests_in_its_pool(table):
    table.start()
    table.refuses(
        "PriestsSent",
        "Ann has 1 priest(s) in the pool, not 2 to send",
        player="ann",
        monument="zeus",
        count=2,
    )
    table.play("PriestsSent", player="ann", monument="zeus", count=1)
    assert table.game["monuments"]["zeus"]["priests"] == {"ann": 1}
    assert table.game["priests"]["ann"] == 0


def test_a_player_never_has_more_than_4_priests(table):
    table.start()
    table.game["priests"]["ann"] = 3
    table.game["monuments"]["zeus"]["priests"]["ann"] = 1
    table.play("Prayed", player="ann")
    assert table.game["priests"]["ann"] == 3


def test_a_prayer_brings_a_priest(table):
    table.start()
    table.play("Prayed", player="ann")
    assert table.game["priests"]["ann"] == 2


def test_only_a_charged_artifact_is_used(table):
    table.start()
    table.grant("ann", "artifact")
    table.play("ArtifactGained", player="ann", artifact="owl-lantern")
    table.play("ArtifactsUsed", player="ann", artifacts=["owl-lantern"])
    table.pray_and_end("ann")
    table.pray_and_end("bo")
    table.refuses(
        "ArtifactsUsed",
        "only a charged artifact is used (the Owl Lantern of Ann charges again when a Monument "
        "is built)",
        player="ann",
        artifacts=["owl-lantern"],
    )


def test_a_player_uses_only_the_artifacts_it_holds(table):
    table.start()
    table.grant("bo", "artifact")
    table.play("ArtifactGained", player="bo", artifact="owl-lantern")
    table.refuses(
        "ArtifactsUsed",
        "Ann does not hold the Owl Lantern",
        player="ann",
        artifacts=["owl-lantern"],
    )


def test_an_artifact_has_one_holder(table):
    table.start()
    table.grant("bo", "artifact")
    table.play("ArtifactGained", player="bo", artifact="owl-lantern")
    table.grant("ann", "artifact")
    table.refuses(
        "ArtifactGained", "the Owl Lantern is held by Bo", player="ann", artifact="owl-lantern"
    )


def test_a_hero_usurps_its_region_when_its_leadership_matches_the_population(table):
    table.start(heroes={"ann": "thessa", "bo": "phlios"})
    table.play("RegionUsurped", player="ann", region="thessa")
    assert table.region("thessa")["controller"] == "ann"


def test_a_hero_usurps_no_region_above_its_leadership(table):
    table.start(heroes={"ann": "orchia", "bo": "phlios"})
    table.refuses(
        "RegionUsurped",
        "a hero usurps a region whose population strength is no more than its Leadership "
        "(Ann has Leadership 1, Orchia 3)",
        player="ann",
        region="orchia",
    )


def test_a_hero_usurps_only_the_region_it_stands_in(table):
    table.start()
    table.refuses(
        "RegionUsurped",
        "a hero usurps the region it stands in (Ann's hero is not in Thessa)",
        player="ann",
        region="thessa",
    )


def test_a_temple_is_built_only_on_a_temple_site_its_builder_controls(table):
    table.start()
    table.grant("ann", "temple")
    table.refuses(
        "TempleBuilt",
        "a temple is built on a temple site (Korythos has none)",
        player="ann",
        region="korythos",
    )
    table.refuses(
        "TempleBuilt",
        "a temple is built in a region its builder controls (Ann does not control Eirinos)",
        player="ann",
        region="eirinos",
    )
    table.play("TempleBuilt", player="ann", region="melanthe")
    table.grant("ann", "temple")
    table.refuses("TempleBuilt", "Melanthe already has its temple", player="ann", region="melanthe")


def test_control_does_not_pass_by_decree_over_another_players_hoplites(table):
    table.start()
    table.grant("ann", "control", region="phlios")
    table.grant("ann", "control", region="thessa")
    table.refuses(
        "RegionControlChanged",
        "a region held by another player's hoplites changes hands by battle (Bo holds Phlios)",
        region="phlios",
        player="ann",
        reason="a favour of the oracle",
    )
    table.play("RegionControlChanged", region="thessa", player="ann", reason="a quest")
    assert table.region("thessa")["controller"] == "ann"
