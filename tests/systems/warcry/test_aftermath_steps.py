"""The aftermath as a guided procedure: its steps in order, what each step owes, the steps
that pass by themselves."""

from tracker.systems.warcry import system


def test_the_aftermath_steps_come_in_order(campaign):
    campaign.battle(down_iron=["iron-1"])
    words = campaign.refused("SearchRolled", warband="iron", dice=[1, 1])
    assert words == (
        "step 2 (injury rolls) comes first: Ironjaws still owes an injury roll for Ironjaws 1"
    )


def test_a_step_already_past_is_refused(campaign):
    campaign.battle()
    campaign.to_step("iron", 5)
    words = campaign.refused("AftermathStepCompleted", warband="iron", step=4)
    assert "already at step 5" in words


def test_steps_with_nothing_owed_pass_by_themselves(campaign):
    campaign.battle(iron=["iron-boss"], down_iron=["iron-boss"])
    campaign.do("AftermathStepCompleted", warband="iron", step=1)
    campaign.do("InjuryRolled", warband="iron", fighter="iron-boss", dice=[5, 5])
    assert campaign.step("iron") == 4  # nobody was left standing: no destiny rolls


def test_the_state_knows_each_warbands_step_and_the_rolls_it_still_owes(campaign):

    campaign.battle(down_iron=["iron-1"])
    campaign.do("AftermathStepCompleted", warband="iron", step=1)
    view = system.public_state(campaign.state)["warbands"]["iron"]["aftermath"]
    assert view["step"] == 2 and view["owed"] == ["an injury roll for Ironjaws 1"]


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
