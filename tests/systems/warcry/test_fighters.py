"""Step 4 of the aftermath and the roster: fighters added and removed, runemarks, the
leader, a warband's size."""

import pytest

from tracker.errors import InvalidEvent
from tracker.events import Event
from tracker.systems.warcry import system


def test_the_leader_can_never_be_removed(campaign):
    words = campaign.refused("FighterRemoved", warband="iron", fighter="iron-boss")
    assert words == "the leader can never be removed (Ironjaws Boss leads Ironjaws)"


def test_removing_a_fighter_removes_the_artefacts_it_holds(campaign):
    fighter = campaign.fighter("iron", "iron-1")
    fighter["lesser_artefact"] = {"name": "Hook", "kind": "permanent", "effect": ""}
    fighter["artefact_of_power"] = {"id": "cinder-blade", "name": "Cinder Blade", "effect": ""}
    campaign.do("FighterRemoved", warband="iron", fighter="iron-1")
    assert fighter["status"] == "removed"
    assert fighter["lesser_artefact"] is None and fighter["artefact_of_power"] is None


def test_a_warband_holds_at_most_twenty_fighters(campaign):
    for n in range(5, 20):
        campaign.do(
            "FighterAdded",
            warband="iron",
            fighter=f"extra-{n}",
            name=f"Extra {n}",
            runemarks=["ember"],
            points=10,
        )
    words = campaign.refused(
        "FighterAdded",
        warband="iron",
        fighter="one-too-many",
        name="One Too Many",
        runemarks=["ember"],
        points=10,
    )
    assert words == "a warband holds at most 20 fighters (Ironjaws would have 21)"


def test_a_warband_holds_at_least_three_fighters(campaign):
    campaign.do("FighterRemoved", warband="iron", fighter="iron-1")
    campaign.do("FighterRemoved", warband="iron", fighter="iron-2")
    words = campaign.refused("FighterRemoved", warband="iron", fighter="iron-3")
    assert words == "a warband holds at least 3 fighters (Ironjaws would have 2)"


def test_a_warband_reduced_below_three_by_deaths_must_add_fighters_before_step_five(new_campaign):
    c = new_campaign().warband("iron", "Ironjaws", fighters=3).warband("crow", "Crowmarch")
    c.battle(down_iron=["iron-1"])
    c.do("AftermathStepCompleted", warband="iron", step=1)
    c.do("InjuryRolled", warband="iron", fighter="iron-1", dice=[1, 1])
    c.to_step("iron", 4)
    words = c.refused("AftermathStepCompleted", warband="iron", step=4)
    assert "Ironjaws has 2 and a warband holds at least 3" in words
    c.do("FighterAdded", warband="iron", fighter="new", name="New", runemarks=["ember"], points=10)
    c.do("AftermathStepCompleted", warband="iron", step=4)
    assert c.step("iron") == 5


def test_every_fighter_bears_the_runemark_of_the_warbands_quest(campaign):
    words = campaign.refused(
        "FighterAdded", warband="iron", fighter="x", name="Stray", runemarks=["brute"], points=10
    )
    assert (
        words == "every fighter bears the runemark of the warband's quest (ember); Stray does not"
    )


def test_every_fighter_belongs_to_the_warbands_faction(campaign):
    words = campaign.refused(
        "FighterAdded",
        warband="iron",
        fighter="x",
        name="Stray",
        runemarks=["ember"],
        points=10,
        faction="Sea Raiders",
    )
    assert "belongs to the Ash Wardens faction, not Sea Raiders" in words


def test_at_most_one_fighter_bears_the_leader_runemark(campaign):
    words = campaign.refused(
        "FighterAdded",
        warband="iron",
        fighter="x",
        name="Usurper",
        runemarks=["ember"],
        points=10,
        leader=True,
    )
    assert words == (
        "at most one fighter bears the leader runemark: Ironjaws already has Ironjaws Boss"
    )
    words = campaign.refused(
        "FighterAdded",
        warband="iron",
        fighter="x",
        name="Usurper",
        runemarks=["ember", "leader"],
        points=10,
    )
    assert "bears the leader runemark is the leader" in words


def test_fighters_are_added_in_step_four_of_an_aftermath(campaign):
    campaign.battle(down_iron=["iron-1"])
    words = campaign.refused(
        "FighterAdded", warband="iron", fighter="x", name="X", runemarks=["ember"], points=10
    )
    assert words.startswith("step 2 (injury rolls) comes first")


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
