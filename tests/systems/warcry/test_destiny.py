"""Step 3 of the aftermath: the destiny rolls of the fighters left standing."""


def test_every_fighter_left_standing_owes_a_destiny_roll(campaign):
    campaign.battle(down_iron=["iron-1"])
    assert campaign.wb("iron")["aftermath"]["destiny"] == [
        "iron-boss",
        "iron-2",
        "iron-3",
        "iron-4",
    ]


def test_a_six_gains_a_destiny_level_and_anything_else_nothing(campaign):
    campaign.battle()
    campaign.to_step("iron", 3)
    campaign.do("DestinyRolled", warband="iron", fighter="iron-1", dice=[6])
    campaign.do("DestinyRolled", warband="iron", fighter="iron-2", dice=[5])
    assert campaign.fighter("iron", "iron-1")["destiny"] == 1
    assert campaign.fighter("iron", "iron-2")["destiny"] == 0


def test_a_fighter_at_destiny_three_owes_no_roll_for_it_cannot_rise_higher(campaign):
    campaign.fighter("iron", "iron-1")["destiny"] = 3
    campaign.battle()
    assert "iron-1" not in campaign.wb("iron")["aftermath"]["destiny"]
    words = campaign.refused("DestinyRolled", warband="iron", fighter="iron-1", dice=[6])
    assert "owes no destiny roll" in words


def test_a_fighter_who_did_not_fight_owes_no_destiny_roll(campaign):
    campaign.battle(iron=["iron-boss", "iron-1", "iron-2"])
    assert "iron-4" not in campaign.wb("iron")["aftermath"]["destiny"]


def test_a_battle_leaves_destiny_levels_as_they_were_for_spent_levels_come_back(campaign):
    campaign.fighter("iron", "iron-1")["destiny"] = 2
    campaign.battle()
    assert campaign.fighter("iron", "iron-1")["destiny"] == 2
