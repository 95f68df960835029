"""The campaign's story: each warband's record, glory and territories after each battle,
and each fighter's career."""

from warcry_helpers import fight


def test_each_warband_keeps_its_record_of_battles_won_drawn_and_lost(campaign):
    c = campaign
    for bid, winner in (("a", "iron"), ("b", None), ("c", "crow"), ("d", "iron")):
        c.battle(bid=bid, winner=winner).finish("iron").finish("crow")
    iron, crow = c.wb("iron"), c.wb("crow")
    assert (iron["battles"], iron["wins"], iron["draws"], iron["losses"]) == (4, 2, 1, 1)
    assert (crow["battles"], crow["wins"], crow["draws"], crow["losses"]) == (4, 1, 1, 2)


def test_a_battle_keeps_its_scenario_name_and_notes(campaign):
    fight(campaign, "b1", "iron", scenario="The Burning Bridge", notes="Rain all evening.")
    battle = campaign.state["battles"][-1]
    assert battle["scenario"] == "The Burning Bridge" and battle["notes"] == "Rain all evening."


def test_each_warband_keeps_its_glory_and_territories_after_each_battle(campaign):
    c = campaign
    c.battle(bid="a").finish("iron").finish("crow")
    c.wb("iron")["glory"] = 12
    c.battle(bid="b")
    c.do("TerritoryConquered", warband="iron", territory="Mill")
    c.finish("iron")
    assert c.wb("iron")["story"] == [
        {"battle": "a", "n": 1, "glory": 5, "territories": 0},
        {"battle": "b", "n": 2, "glory": 7, "territories": 1},
    ]


def test_the_story_of_a_long_campaign_is_thinned_not_cut(campaign):
    from tracker.systems.warcry.rules import KEPT_STORY

    c = campaign
    for n in range(KEPT_STORY + 1):
        c.battle(bid=f"s{n}").finish("iron").finish("crow")
    story = c.wb("iron")["story"]
    assert len(story) <= KEPT_STORY and story[0]["n"] == 1 and story[-1]["n"] == KEPT_STORY + 1


def test_each_fighter_keeps_its_career(campaign):
    c = campaign
    c.battle(down_iron=["iron-1"])
    c.to_step("iron", 2)
    c.do("InjuryRolled", warband="iron", fighter="iron-1", dice=[2, 2])  # loses favour
    c.do("DestinyRolled", warband="iron", fighter="iron-boss", dice=[6])
    c.to_step("iron", 5)
    c.do("SearchRolled", warband="iron", dice=[2, 3])
    c.do("ArtefactGiven", warband="iron", fighter="iron-1", artefact="Whetted Hook")
    career = c.fighter("iron", "iron-1")["career"]
    assert career == {
        "battles": 1,
        "taken_down": 1,
        "favour_lost": 1,
        "destiny_gained": 0,
        "finds": ["Whetted Hook"],
    }
    assert c.fighter("iron", "iron-boss")["career"]["destiny_gained"] == 1
