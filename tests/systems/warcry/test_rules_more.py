"""Rules of the Warcry campaign page that test_rules.py leaves unchecked, and the bugs found."""

import copy

import pytest

from tracker.errors import InvalidEvent, RuleViolation
from tracker.events import Event
from tracker.systems.warcry import system


def with_content(new_campaign, change):
    """A campaign whose content was changed by `change(content)` before it started."""
    c = new_campaign()
    settings = copy.deepcopy(system.prepare_settings({"quest": "ember-crown"}))
    change(settings["content"])
    c.state = system.initial_state(settings)
    return c


# -- step 1 -------------------------------------------------------------------------------


def test_glory_earned_in_a_battle_can_be_spent_in_its_own_step_one(campaign):
    campaign.wb("iron")["glory"] = 5
    campaign.battle(winner="iron")  # +5: 10 in all
    campaign.do("TerritoryConquered", warband="iron", territory="Mill")
    assert campaign.wb("iron")["glory"] == 0


# -- step 4 and the facts: fighters -------------------------------------------------------


def test_new_fighters_cost_no_glory(campaign):
    campaign.battle()
    campaign.to_step("iron", 4)
    before = campaign.wb("iron")["glory"]
    campaign.do(
        "FighterAdded", warband="iron", fighter="new", name="New", runemarks=["ember"], points=150
    )
    assert campaign.wb("iron")["glory"] == before
    assert campaign.fighter("iron", "new")["status"] == "active"


def test_a_fighter_may_be_removed_in_step_four(campaign):
    campaign.battle()
    campaign.to_step("iron", 4)
    campaign.do("FighterRemoved", warband="iron", fighter="iron-4", reason="retired")
    assert campaign.fighter("iron", "iron-4")["status"] == "removed"
    assert campaign.step("iron") == 4


def test_fighters_are_not_removed_after_step_four(campaign):
    campaign.battle()
    campaign.to_step("iron", 5)
    words = campaign.refused("FighterRemoved", warband="iron", fighter="iron-4")
    assert words == (
        "removing Ironjaws 4 belongs to step 4 (adding and removing fighters), and Ironjaws is "
        "already at step 5 (searching for lesser artefacts)"
    )


def test_removing_the_favoured_warrior_loses_its_trait(campaign):
    c = campaign
    c.fighter("iron", "iron-2").update(
        favoured=True, command_trait={"id": "ash-sight", "name": "Ash-Sighted", "effect": ""}
    )
    c.wb("iron")["favoured"] = "iron-2"
    c.do("FighterRemoved", warband="iron", fighter="iron-2")
    fighter = c.fighter("iron", "iron-2")
    assert fighter["command_trait"] is None and not fighter["favoured"]
    assert c.wb("iron")["favoured"] is None


def test_the_battle_report_lists_the_fighters_added_and_removed_in_step_four(campaign):
    campaign.battle()
    campaign.to_step("iron", 4)
    campaign.do("FighterRemoved", warband="iron", fighter="iron-4")
    campaign.do(
        "FighterAdded", warband="iron", fighter="new", name="New", runemarks=["ember"], points=10
    )
    report = campaign.report("iron", 0)
    assert report["fighters_removed"] and report["fighters_added"]


# -- destiny -------------------------------------------------------------------------------


def test_a_battle_leaves_destiny_levels_as_they_were_for_spent_levels_come_back(campaign):
    campaign.fighter("iron", "iron-1")["destiny"] = 2
    campaign.battle()
    assert campaign.fighter("iron", "iron-1")["destiny"] == 2


# -- step 5 --------------------------------------------------------------------------------


@pytest.mark.parametrize("units", [1, 2, 3, 4, 5, 6])
def test_a_search_roll_of_eleven_to_sixteen_finds_nothing(campaign, units):
    campaign.battle()
    campaign.to_step("iron", 5)
    campaign.do("SearchRolled", warband="iron", dice=[1, units])
    assert campaign.report("iron", 0)["searches"][0]["found"] is None
    assert campaign.wb("iron")["aftermath"]["found"] == []


def test_nothing_can_be_given_before_something_is_found(campaign):
    campaign.battle()
    campaign.to_step("iron", 4)
    words = campaign.refused("ArtefactGiven", warband="iron", fighter="iron-1", artefact="Hook")
    assert words == "Ironjaws found no Hook to give (waiting to be given: nothing)"


def test_an_artefact_of_power_is_kept_never_used_up_nor_rolled_for(campaign):
    fighter = campaign.fighter("iron", "iron-2")
    fighter["artefact_of_power"] = {"id": "cinder-blade", "name": "Cinder Blade", "effect": ""}
    words = campaign.refused("ArtefactUsed", warband="iron", fighter="iron-2")
    assert words == "Ironjaws 2 holds no lesser artefact to use"
    campaign.battle()
    campaign.to_step("iron", 5)
    assert campaign.wb("iron")["aftermath"]["perishable"] == []
    campaign.finish("iron")
    assert fighter["artefact_of_power"]["name"] == "Cinder Blade"


def fragile_owed(c):
    """Ironjaws 2 holds a fragile charm, fought, and owes its perishable roll in step 5."""
    c.fighter("iron", "iron-2")["lesser_artefact"] = {
        "name": "Charm",
        "kind": "fragile",
        "effect": "",
    }
    c.battle()
    c.to_step("iron", 5)
    c.do("SearchRolled", warband="iron", dice=[2, 3])  # Whetted Hook, permanent
    assert c.wb("iron")["aftermath"]["perishable"] == ["iron-2"]
    return c


def test_a_perishable_roll_never_destroys_an_artefact_that_is_not_fragile(campaign):
    c = fragile_owed(campaign)
    c.do("ArtefactDiscarded", warband="iron", fighter="iron-2", artefact="lesser")
    c.do("ArtefactGiven", warband="iron", fighter="iron-2", artefact="Whetted Hook")
    if "iron-2" in c.wb("iron")["aftermath"]["perishable"]:
        c.do("PerishableRolled", warband="iron", fighter="iron-2", dice=[1])
    assert c.fighter("iron", "iron-2")["lesser_artefact"]["name"] == "Whetted Hook"


def test_a_perishable_roll_for_a_discarded_artefact_is_refused_in_words(campaign):
    c = fragile_owed(campaign)
    c.do("ArtefactDiscarded", warband="iron", fighter="iron-2", artefact="lesser")
    words = c.refused("PerishableRolled", warband="iron", fighter="iron-2", dice=[1])
    assert "perishable roll" in words


# -- step 6 and the map --------------------------------------------------------------------


def test_a_warband_that_loses_at_its_opponents_convergence_point_still_advances(campaign):
    c = campaign.at_convergence()
    c.battle(bid="b9", winner="crow", convergence=["crow"])  # Ironjaws' point is not named
    c.finish("iron").finish("crow")
    assert c.wb("iron")["map_position"] == 4 and c.wb("crow")["map_position"] == 4


def test_the_order_of_map_points_is_the_quests_data(new_campaign):
    def trait_first(content):
        points = content["quests"]["ember-crown"]["map"]
        points[1], points[4] = points[4], points[1]  # a command trait at the first step

    c = with_content(new_campaign, trait_first)
    c.warband("iron", "Ironjaws").warband("crow", "Crowmarch")
    c.battle()
    c.to_step("iron", 6)
    assert c.step("iron") == 7 and c.wb("iron")["aftermath"]["reward"] == "trait"


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda m: m.__setitem__(3, {"name": "x", "kind": "plain"}), "2 convergence points"),
        (lambda m: m.__setitem__(0, {"name": "x", "kind": "plain"}), "begin at a start"),
        (lambda m: m.__setitem__(11, {"name": "x", "kind": "plain"}), "end at the goal"),
    ],
)
def test_a_quest_map_has_a_start_three_convergence_points_and_a_goal(change, words):
    settings = copy.deepcopy(system.prepare_settings({"quest": "ember-crown"}))
    change(settings["content"]["quests"]["ember-crown"]["map"])
    with pytest.raises(RuleViolation, match=words):
        system.initial_state(settings)


# -- step 7 --------------------------------------------------------------------------------


def test_a_plain_map_point_gives_no_reward(campaign):
    campaign.battle().finish("crow")
    campaign.to_step("iron", 5)
    campaign.do("SearchRolled", warband="iron", dice=[1, 1])
    campaign.do("AftermathStepCompleted", warband="iron", step=5)
    assert campaign.wb("iron")["map_position"] == 1  # Blackwater Ford, plain
    assert campaign.wb("iron")["aftermath"] is None
    words = campaign.refused(
        "ArtefactOfPowerGained", warband="iron", fighter="iron-1", artefact="cinder-blade"
    )
    assert "Ironjaws is not in one" in words


def test_an_artefact_of_power_is_chosen_from_the_quests_table(campaign):
    c = campaign.to_reward("artefact")
    words = c.refused(
        "ArtefactOfPowerGained", warband="iron", fighter="iron-1", artefact="moon-spear"
    )
    assert words == (
        "the quest The Ember Crown has no artefact of power 'moon-spear' "
        "(it has: cinder-blade, veil-of-soot, crown-shard)"
    )


def test_a_command_trait_is_chosen_from_the_quests_table(campaign):
    c = campaign.to_reward("trait")
    words = c.refused("CommandTraitGained", warband="iron", trait="moon-born")
    assert words == (
        "the quest The Ember Crown has no command trait 'moon-born' "
        "(it has: ember-tongue, unbowed, ash-sight)"
    )


def test_the_same_artefact_of_power_is_not_held_by_two_fighters(campaign):
    c = campaign
    c.fighter("iron", "iron-3")["artefact_of_power"] = {
        "id": "cinder-blade",
        "name": "Cinder Blade",
        "effect": "",
    }
    c.to_reward("artefact")
    words = c.refused(
        "ArtefactOfPowerGained", warband="iron", fighter="iron-1", artefact="cinder-blade"
    )
    assert words == "Ironjaws 3 already holds the Cinder Blade"


def test_a_warband_at_step_seven_fights_again_only_after_taking_or_declining_its_reward(
    campaign,
):
    c = campaign.to_reward("artefact")
    words = c.refused(
        "BattleFought",
        battle="bx",
        sides=[
            {"warband": "iron", "fighters": ["iron-boss", "iron-1", "iron-2"]},
            {"warband": "crow", "fighters": ["crow-boss", "crow-1", "crow-2"]},
        ],
    )
    assert words.startswith("Ironjaws has not finished the aftermath of battle")
    assert "(step 7:" in words


def test_a_warband_may_decline_the_reward_of_its_map_point(campaign):
    # The source: "możesz otrzymać", the warband MAY receive an artefact of power or a trait.
    c = campaign.to_reward("artefact")
    battle = c.wb("iron")["aftermath"]["battle"]
    c.do("AftermathStepCompleted", warband="iron", step=7)
    assert c.wb("iron")["aftermath"] is None
    assert all(f["artefact_of_power"] is None for f in c.wb("iron")["fighters"].values())
    report = system.battle(c.state, battle)["aftermath"]["iron"]
    assert report["reward"] == {"kind": "artefact", "declined": True}


# -- the aftermath as a guided procedure --------------------------------------------------


def test_a_later_steps_event_passes_the_earlier_steps_when_nothing_is_owed(campaign):
    campaign.battle(iron=["iron-boss", "iron-1", "iron-2"], down_iron=["iron-1"])
    campaign.do("InjuryRolled", warband="iron", fighter="iron-1", dice=[6, 6])  # step 1 passed
    assert campaign.step("iron") == 3
    campaign.do("DestinyRolled", warband="iron", fighter="iron-boss", dice=[1])
    campaign.do("DestinyRolled", warband="iron", fighter="iron-2", dice=[1])
    assert campaign.step("iron") == 4
    campaign.do("SearchRolled", warband="iron", dice=[1, 1])  # step 4 passed
    assert campaign.step("iron") == 5


def test_a_step_is_not_completed_while_something_is_owed_in_it(campaign):
    campaign.battle(down_iron=["iron-1"])
    words = campaign.refused("AftermathStepCompleted", warband="iron", step=2)
    assert words == (
        "step 2 (injury rolls) is not complete: Ironjaws still owes an injury roll for Ironjaws 1"
    )


def test_step_six_passes_by_itself_and_cannot_be_completed_by_hand(campaign):
    campaign.battle()
    campaign.to_step("iron", 5)
    words = campaign.refused("AftermathStepCompleted", warband="iron", step=6)
    assert words == (
        "step 6 (progress on the campaign map) passes by itself once step 5 is complete"
    )
    campaign.do("SearchRolled", warband="iron", dice=[1, 1])
    campaign.do("AftermathStepCompleted", warband="iron", step=5)
    assert campaign.wb("iron")["map_position"] == 1


def test_an_event_for_the_wrong_battle_is_refused(campaign):
    campaign.battle(down_iron=["iron-1"])
    words = campaign.refused(
        "InjuryRolled", warband="iron", fighter="iron-1", battle="b7", dice=[6, 6]
    )
    assert words == "Ironjaws is in the aftermath of battle b1, not b7"


# -- content -------------------------------------------------------------------------------


def test_a_lesser_artefact_without_an_effect_text_is_refused_at_the_start(new_campaign):
    def no_effect(content):
        del content["lesser_artefacts"][1]["effect"]  # Flask of Red Brine, 21-22

    with pytest.raises(RuleViolation, match="a lesser artefact entry lacks its 'effect'"):
        with_content(new_campaign, no_effect)


def test_a_nothing_found_entry_needs_no_name_or_is_refused_in_words(new_campaign):
    def no_name(content):
        del content["lesser_artefacts"][0]["name"]  # 11-16, finds nothing

    try:
        c = with_content(new_campaign, no_name)
    except RuleViolation:
        return
    c.warband("iron", "Ironjaws").warband("crow", "Crowmarch")
    c.battle()
    c.to_step("iron", 5)
    c.do("SearchRolled", warband="iron", dice=[1, 1])
    assert c.wb("iron")["aftermath"]["found"] == []


# -- a slip put right ---------------------------------------------------------------------


def test_a_fighters_name_or_points_are_corrected_by_an_event_of_their_own(campaign):
    campaign.do("FighterCorrected", warband="iron", fighter="iron-1", points=120)
    assert campaign.fighter("iron", "iron-1")["points"] == 120
    assert campaign.fighter("iron", "iron-1")["name"] == "Ironjaws 1"
    campaign.do("FighterCorrected", warband="iron", fighter="iron-1", name="Grenn")
    assert campaign.fighter("iron", "iron-1")["name"] == "Grenn"
    assert campaign.fighter("iron", "iron-1")["points"] == 120
    event = Event(
        None,
        "c",
        campaign.version,
        "FighterCorrected",
        system.load("FighterCorrected", {"warband": "iron", "fighter": "iron-1", "name": "Grenn"}),
        {},
        None,
        None,
    )
    assert system.describe(campaign.state, event) == "Ironjaws' Ironjaws 1: renamed Grenn"


def test_a_correction_of_an_unknown_fighter_or_of_nothing_is_refused(campaign):
    words = campaign.refused("FighterCorrected", warband="iron", fighter="nobody", points=5)
    assert words == "Ironjaws has no fighter 'nobody'"
    words = campaign.refused("FighterCorrected", warband="iron", fighter="iron-1")
    assert words == "a correction gives Ironjaws 1's right name or points (or both)"
    words = campaign.refused("FighterCorrected", warband="iron", fighter="iron-1", points=100)
    assert words == "Ironjaws 1 already has that name and those points"
    with pytest.raises(InvalidEvent):
        campaign.do("FighterCorrected", warband="iron", fighter="iron-1", points=1001)


def test_a_profile_fighters_points_are_not_corrected(campaign):
    campaign.do(
        "WarbandFounded", warband="reav", name="Reavers", player="Ana", faction="cinderborn-reavers"
    )
    campaign.do(
        "FighterAdded", warband="reav", fighter="reav-0", name="Reaver 0", profile="soot-brute"
    )
    words = campaign.refused("FighterCorrected", warband="reav", fighter="reav-0", points=5)
    assert words == (
        "Reaver 0 comes from the Soot Brute profile, which gives its points (120): "
        "they cannot be corrected"
    )
    campaign.do("FighterCorrected", warband="reav", fighter="reav-0", name="Tulla")
    assert campaign.fighter("reav", "reav-0")["name"] == "Tulla"
