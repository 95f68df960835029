"""What a group needs of a Warcry campaign beyond the aftermath: factions and fighter profiles
as content, mustering, convergence battles read from the map, the seed's letters on searching
and passing artefacts, the quest's end and the next quest, and the campaign's story."""

import pytest

from tracker.systems.warcry import rules, system


def reavers(c, wid="reav", fighters=("soot-brute", "hookwielder", "ash-runner")):
    """A warband of the sample pack's Cinderborn Reavers, its fighters from profiles."""
    c.do("WarbandFounded", warband=wid, name="Reavers", player="Ana", faction="cinderborn-reavers")
    c.do(
        "FighterAdded",
        warband=wid,
        fighter=f"{wid}-chief",
        name="Chief",
        profile="reaver-chieftain",
    )
    for n, profile in enumerate(fighters):
        c.do("FighterAdded", warband=wid, fighter=f"{wid}-{n}", name=f"Reaver {n}", profile=profile)
    return c


def fielded(c, wid):
    return list(c.wb(wid)["active"])


def fight(c, bid, winner, a="iron", b="crow", **extra):
    return c.do(
        "BattleFought",
        battle=bid,
        winner=winner,
        sides=[
            {"warband": a, "fighters": fielded(c, a)},
            {"warband": b, "fighters": fielded(c, b)},
        ],
        **extra,
    )


def to_convergence_of_crow_alone(c):
    """Both reach the Crossing of Knives; Crowmarch lose their convergence there and stay,
    Ironjaws move on: Crowmarch alone stand on a convergence point."""
    c.at_convergence()
    fight(c, "w9", "iron")
    c.finish("iron").finish("crow")
    assert c.wb("crow")["map_position"] == 3 and c.wb("iron")["map_position"] == 4
    return c


# -- factions and fighter profiles --------------------------------------------------------


def test_a_warband_is_founded_from_a_faction_of_the_content(new_campaign):
    c = new_campaign()
    c.do("WarbandFounded", warband="a", name="A", player="Ana", faction="cinderborn-reavers")
    c.do("WarbandFounded", warband="b", name="B", player="Ben", faction="gloamfeather COURT")
    assert c.wb("a")["faction"] == "Cinderborn Reavers" and c.wb("a")["faction_id"]
    assert c.wb("b")["faction_id"] == "gloamfeather-court"
    assert set(system.views.profiles(c.state, c.wb("a"))) >= {"reaver-chieftain", "soot-brute"}


def test_a_fighter_added_from_a_profile_takes_its_runemarks_and_points(new_campaign):
    c = reavers(new_campaign())
    chief = c.fighter("reav", "reav-chief")
    assert chief["points"] == 220 and chief["leader"] and chief["profile"] == "reaver-chieftain"
    assert chief["runemarks"] == ["leader", "ember", "brute", "cinderborn"]
    assert c.fighter("reav", "reav-2")["points"] == 90


def test_a_fighter_comes_only_from_its_own_factions_profiles(new_campaign):
    c = reavers(new_campaign())
    words = c.refused("FighterAdded", warband="reav", fighter="x", name="X", profile="tidehand")
    assert words.startswith("the Cinderborn Reavers faction has no fighter profile 'tidehand'")


def test_a_fighter_from_a_profile_takes_no_runemarks_or_points_of_its_own(new_campaign):
    c = reavers(new_campaign())
    words = c.refused(
        "FighterAdded", warband="reav", fighter="x", name="X", profile="soot-brute", points=5
    )
    assert "which gives its runemarks and points" in words


def test_a_custom_fighter_needs_its_runemarks_and_points(new_campaign):
    c = reavers(new_campaign())
    words = c.refused("FighterAdded", warband="reav", fighter="x", name="Odd", points=50)
    assert words.startswith(
        "a custom fighter needs its runemarks and points (Odd lacks its runemarks)"
    )
    c.do("FighterAdded", warband="reav", fighter="x", name="Odd", runemarks=["ember"], points=50)
    assert c.fighter("reav", "x")["runemarks"] == ["ember", "cinderborn"]


def test_a_fighter_of_a_faction_of_the_content_belongs_to_it(new_campaign):
    c = reavers(new_campaign())
    words = c.refused(
        "FighterAdded",
        warband="reav",
        fighter="x",
        name="X",
        runemarks=["ember"],
        points=10,
        faction="Gloamfeather Court",
    )
    assert "belongs to the Cinderborn Reavers faction, not Gloamfeather Court" in words
    c.do(
        "FighterAdded",
        warband="reav",
        fighter="x",
        name="X",
        runemarks=["ember"],
        points=10,
        faction="CINDERBORN reavers",
    )


def test_a_second_leader_from_a_profile_is_refused(new_campaign):
    c = reavers(new_campaign())
    words = c.refused(
        "FighterAdded", warband="reav", fighter="x", name="X", profile="reaver-chieftain"
    )
    assert words == "at most one fighter bears the leader runemark: Reavers already has Chief"


def test_a_leader_comes_only_from_a_profile_bearing_the_leader_runemark(new_campaign):
    c = new_campaign()
    c.do(
        "WarbandFounded", warband="reav", name="Reavers", player="Ana", faction="cinderborn-reavers"
    )
    words = c.refused(
        "FighterAdded", warband="reav", fighter="x", name="X", profile="soot-brute", leader=True
    )
    assert words == (
        "the leader comes from a profile bearing the leader runemark, and the Soot Brute "
        "profile does not"
    )


def test_runemarks_compare_whatever_their_case(campaign):
    campaign.do(
        "FighterAdded",
        warband="iron",
        fighter="x",
        name="Shouty",
        runemarks=["EMBER", "Brute", "brute"],
        points=10,
    )
    assert campaign.fighter("iron", "x")["runemarks"] == ["EMBER", "Brute"]
    words = campaign.refused(
        "FighterAdded",
        warband="iron",
        fighter="y",
        name="Y",
        runemarks=["ember", "Leader"],
        points=1,
    )
    assert words.startswith("the fighter who bears the leader runemark is the leader")


def test_content_with_a_faction_without_profiles_is_refused(new_campaign):
    settings = system.prepare_settings({"quest": "ember-crown"})
    settings["content"]["factions"]["empty"] = {"name": "Empty", "profiles": {}}
    with pytest.raises(Exception, match="the faction 'Empty' cannot be played: it has no fighter"):
        system.initial_state(settings)


# -- mustering -----------------------------------------------------------------------------


def heavy(c, wid, points):
    """Give the warband's fighters `points` points in all (the leader the rest)."""
    fighters = c.wb(wid)["fighters"]
    others = [f for f in c.wb(wid)["active"] if not fighters[f]["leader"]]
    for fid in others:
        fighters[fid]["points"] = 100
    fighters[rules.leader(c.wb(wid))]["points"] = points - 100 * len(others)


def test_a_battle_fields_at_most_a_thousand_points(campaign):
    heavy(campaign, "iron", 1010)
    words = campaign.refused(
        "BattleFought",
        battle="b1",
        winner="iron",
        sides=[
            {"warband": "iron", "fighters": fielded(campaign, "iron")},
            {"warband": "crow", "fighters": fielded(campaign, "crow")},
        ],
    )
    assert words == "a warband musters at most 1000 points for this battle (Ironjaws fielded 1010)"
    campaign.do(  # the same battle, one fighter fewer, is within the limit
        "BattleFought",
        battle="b1",
        winner="iron",
        sides=[
            {"warband": "iron", "fighters": fielded(campaign, "iron")[:-1]},
            {"warband": "crow", "fighters": fielded(campaign, "crow")},
        ],
    )


def test_each_territory_adds_fifty_points_to_the_muster(campaign):
    campaign.wb("iron")["territories"] = ["Mill", "Ford"]
    assert system.views.muster_limit(campaign.state, campaign.wb("iron")) == 1100
    heavy(campaign, "iron", 1100)
    fight(campaign, "b1", "iron")


def test_only_the_warband_with_fewer_territories_buys_reinforcements(campaign):
    campaign.wb("iron")["glory"] = campaign.wb("crow")["glory"] = 20
    words = campaign.refused("ReinforcementsBought", warband="crow", against="iron", points=50)
    assert words == (
        "only the warband with fewer territories buys reinforcements: Crowmarch holds 0 and "
        "Ironjaws 0"
    )
    campaign.wb("iron")["territories"] = ["Mill"]
    assert "Ironjaws holds 1 and Crowmarch 0" in campaign.refused(
        "ReinforcementsBought", warband="iron", against="crow", points=50
    )
    campaign.do("ReinforcementsBought", warband="crow", against="iron", points=50)


def test_reinforcements_cost_a_glory_for_each_ten_points_and_count_in_the_next_battle(campaign):
    campaign.wb("iron")["territories"] = ["Mill"]
    campaign.wb("crow")["glory"] = 7
    assert "costs 8 glory and Crowmarch has only 7" in campaign.refused(
        "ReinforcementsBought", warband="crow", against="iron", points=80
    )
    assert (
        campaign.refused("ReinforcementsBought", warband="crow", against="iron", points=55)
        == "reinforcements come 10 points for each glory"
    )
    campaign.do("ReinforcementsBought", warband="crow", against="iron", points=70)
    assert campaign.wb("crow")["glory"] == 0
    assert campaign.wb("crow")["ledger"][-1]["amount"] == -7
    assert system.views.muster_limit(campaign.state, campaign.wb("crow"), "iron") == 1070
    heavy(campaign, "crow", 1070)
    fight(campaign, "b1", "crow")
    assert campaign.wb("crow")["reinforcements"] is None  # spent on that battle
    assert system.views.muster_limit(campaign.state, campaign.wb("crow"), "iron") == 1000


def test_reinforcements_are_bought_before_mustering_not_in_an_aftermath(campaign):
    campaign.battle()
    campaign.wb("iron")["territories"] = ["Mill"]
    words = campaign.refused("ReinforcementsBought", warband="crow", against="iron", points=10)
    assert words.startswith("reinforcements are bought before mustering for a battle")


# -- convergence read from the map -----------------------------------------------------------


def test_a_warband_on_its_convergence_point_fights_its_convergence_battle_unflagged(campaign):
    c = to_convergence_of_crow_alone(campaign)
    fight(c, "w10", "iron")  # nothing typed: the map says whose convergence it is
    battle = c.state["battles"][-1]
    assert battle["convergence"] == ["crow"] and battle["adversary"] == "iron"
    c.finish("iron").finish("crow")
    assert c.wb("crow")["map_position"] == 3  # the Aspirant lost: no advance
    assert c.wb("iron")["map_position"] == 5  # the Adversary moves as usual


def test_the_aspirant_who_wins_its_convergence_battle_advances(campaign):
    c = to_convergence_of_crow_alone(campaign)
    fight(c, "w10", "crow")
    c.finish("iron").finish("crow")
    assert c.wb("crow")["map_position"] == 4


def test_when_both_stand_on_a_convergence_point_both_are_aspirants_unless_one_is_named(campaign):
    c = campaign.at_convergence()
    fight(c, "w9", "iron")
    assert c.state["battles"][-1]["convergence"] == ["iron", "crow"]
    assert c.state["battles"][-1]["adversary"] is None
    c.finish("iron").finish("crow")
    d = type(campaign)().warband("iron", "Ironjaws").warband("crow", "Crowmarch").at_convergence()
    fight(d, "w9", "iron", convergence=["crow"])  # Crowmarch won the roll-off
    assert d.state["battles"][-1]["adversary"] == "iron"


def test_the_adversary_of_a_convergence_battle_may_search_once_more_for_nothing(campaign):
    c = to_convergence_of_crow_alone(campaign)
    fight(c, "w10", "crow")
    c.to_step("iron", 5)
    glory = c.wb("iron")["glory"]
    c.do("SearchRolled", warband="iron", dice=[1, 1])
    c.do("SearchRolled", warband="iron", adversary=True, dice=[1, 2])
    assert c.wb("iron")["glory"] == glory
    assert [s["adversary"] for s in c.report("iron")["searches"]] == [False, True]
    words = c.refused("SearchRolled", warband="iron", adversary=True, dice=[1, 3])
    assert "Ironjaws was not the Adversary" in words  # once only


def test_only_the_adversary_of_a_convergence_battle_searches_once_more_for_nothing(campaign):
    c = to_convergence_of_crow_alone(campaign)
    fight(c, "w10", "crow")
    c.to_step("crow", 5)
    words = c.refused("SearchRolled", warband="crow", adversary=True, dice=[1, 3])
    assert words == (
        "only the Adversary of a convergence battle searches once more for nothing, and "
        "Crowmarch was not the Adversary of battle w10"
    )


# -- the seed's letters ----------------------------------------------------------------------


def test_the_search_is_something_a_warband_may_do(campaign):
    campaign.battle()
    campaign.to_step("iron", 5)
    assert campaign.wb("iron")["aftermath"]["step"] == 5
    campaign.do("AftermathStepCompleted", warband="iron", step=5)  # no search: allowed
    assert not campaign.report("iron")["searches"]


def test_an_artefact_of_power_passes_only_to_make_room_for_a_new_one(campaign):
    c = campaign
    c.fighter("iron", "iron-1")["artefact_of_power"] = {
        "id": "x",
        "name": "Old Relic",
        "effect": "",
    }
    words = c.refused("ArtefactPassed", warband="iron", giver="iron-1", receiver="iron-2")
    assert words == (
        "an artefact of power is passed between fighters only to make room for a new one, and "
        "Ironjaws is gaining none now"
    )
    c.to_reward("trait")
    words = c.refused("ArtefactPassed", warband="iron", giver="iron-1", receiver="iron-2")
    assert words.startswith("an artefact of power is passed between fighters only")


def test_the_fighter_who_made_room_takes_the_new_artefact_of_power(campaign):
    c = campaign
    c.fighter("iron", "iron-1")["artefact_of_power"] = {
        "id": "x",
        "name": "Old Relic",
        "effect": "",
    }
    c.to_reward("artefact")
    c.do("ArtefactPassed", warband="iron", giver="iron-1", receiver="iron-2")
    words = c.refused(
        "ArtefactOfPowerGained", warband="iron", fighter="iron-3", artefact="cinder-blade"
    )
    assert words == (
        "Ironjaws 1 passed on an artefact of power to make room for the new one: the Cinder "
        "Blade goes to Ironjaws 1"
    )
    c.do("ArtefactOfPowerGained", warband="iron", fighter="iron-1", artefact="cinder-blade")


def test_an_artefact_of_power_gained_may_pass_the_old_one_to_make_room(campaign):
    c = campaign
    c.fighter("iron", "iron-1")["artefact_of_power"] = {
        "id": "x",
        "name": "Old Relic",
        "effect": "",
    }
    c.fighter("iron", "iron-2")["artefact_of_power"] = {"id": "y", "name": "Other", "effect": ""}
    c.to_reward("artefact")
    words = c.refused(
        "ArtefactOfPowerGained",
        warband="iron",
        fighter="iron-1",
        artefact="cinder-blade",
        pass_to="iron-2",
    )
    assert words.startswith("a fighter holds at most one artefact of power: Ironjaws 2 holds")
    c.do(
        "ArtefactOfPowerGained",
        warband="iron",
        fighter="iron-1",
        artefact="cinder-blade",
        pass_to="iron-3",
    )
    assert c.fighter("iron", "iron-3")["artefact_of_power"]["name"] == "Old Relic"
    assert c.fighter("iron", "iron-1")["artefact_of_power"]["name"] == "Cinder Blade"


# -- the quest's end and the next quest ------------------------------------------------------


def test_a_new_quest_keeps_glory_and_territories_and_counts_the_quest_completed(campaign):
    c = campaign
    for n in range(11):
        c.battle(bid=f"b{n}").finish("iron").finish("crow")
    c.wb("iron")["territories"] = ["Mill"]
    glory = c.wb("iron")["glory"]
    c.do("QuestBegun", warband="iron", quest="drowned-bell")
    wb = c.wb("iron")
    assert wb["quests_completed"] == ["ember-crown"] and wb["quest"] == "drowned-bell"
    assert wb["glory"] == glory and wb["territories"] == ["Mill"]
    assert wb["map_position"] == 0 and not wb["quest_complete"]


def test_the_sample_pack_holds_at_least_three_quests():
    assert len(system.quests("sample")) >= 3


# -- the campaign's story --------------------------------------------------------------------


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
