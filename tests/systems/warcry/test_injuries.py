"""Step 2 of the aftermath: the injury rolls of the fighters taken down."""


def test_each_fighter_taken_down_owes_an_injury_roll(campaign):
    campaign.battle(down_iron=["iron-1", "iron-2"])
    assert campaign.wb("iron")["aftermath"]["injuries"] == ["iron-1", "iron-2"]
    campaign.do("AftermathStepCompleted", warband="iron", step=1)
    assert campaign.step("iron") == 2


def test_an_injury_roll_of_two_or_three_kills_a_fighter_and_its_artefacts_with_it(campaign):
    campaign.fighter("iron", "iron-1")["lesser_artefact"] = {
        "name": "Hook",
        "kind": "permanent",
        "effect": "",
    }
    campaign.battle(down_iron=["iron-1"])
    campaign.do("InjuryRolled", warband="iron", fighter="iron-1", dice=[1, 2])
    fighter = campaign.fighter("iron", "iron-1")
    assert fighter["status"] == "dead" and fighter["lesser_artefact"] is None


def test_a_leader_slain_on_the_injury_roll_loses_favour_instead(campaign):
    campaign.fighter("iron", "iron-boss")["destiny"] = 2
    campaign.battle(down_iron=["iron-boss"])
    campaign.do("InjuryRolled", warband="iron", fighter="iron-boss", dice=[1, 1])
    leader = campaign.fighter("iron", "iron-boss")
    assert leader["status"] == "active" and leader["destiny"] == 1


def test_losing_favour_costs_one_destiny_level_and_never_goes_below_zero(campaign):
    campaign.fighter("iron", "iron-1")["destiny"] = 1
    campaign.battle(down_iron=["iron-1", "iron-2"])
    campaign.do("InjuryRolled", warband="iron", fighter="iron-1", dice=[3, 2])
    campaign.do("InjuryRolled", warband="iron", fighter="iron-2", dice=[2, 2])
    assert campaign.fighter("iron", "iron-1")["destiny"] == 0
    assert campaign.fighter("iron", "iron-2")["destiny"] == 0
    assert campaign.fighter("iron", "iron-2")["status"] == "active"


def test_a_fighter_who_recovers_keeps_everything(campaign):
    campaign.fighter("iron", "iron-1")["destiny"] = 2
    campaign.battle(down_iron=["iron-1"])
    campaign.do("InjuryRolled", warband="iron", fighter="iron-1", dice=[3, 3])
    assert campaign.fighter("iron", "iron-1")["destiny"] == 2


def test_an_injury_roll_for_a_fighter_not_taken_down_is_refused(campaign):
    campaign.battle(down_iron=["iron-1"])
    words = campaign.refused("InjuryRolled", warband="iron", fighter="iron-2", dice=[4, 4])
    assert words == "Ironjaws 2 owes no injury roll (owed: Ironjaws 1)"
