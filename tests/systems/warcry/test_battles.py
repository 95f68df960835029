"""Who fights a battle: the leader, enough fighters, a finished aftermath, fighters who took
part."""


def test_a_warband_cannot_fight_before_finishing_its_aftermath(campaign):
    campaign.battle()
    words = campaign.refused(
        "BattleFought",
        battle="b2",
        winner=None,
        sides=[
            {"warband": "iron", "fighters": ["iron-boss"]},
            {"warband": "crow", "fighters": ["crow-boss"]},
        ],
    )
    assert words.startswith("Ironjaws has not finished the aftermath of battle b1")


def test_a_battle_fields_at_most_fifteen_fighters_of_a_warband(new_campaign):
    c = new_campaign().warband("iron", "Ironjaws", fighters=16).warband("crow", "Crowmarch")
    words = c.refused(
        "BattleFought",
        battle="b1",
        winner=None,
        sides=[
            {"warband": "iron", "fighters": list(c.wb("iron")["fighters"])},
            {"warband": "crow", "fighters": ["crow-boss"]},
        ],
    )
    assert words == "a battle fields at most 15 fighters of a warband (Ironjaws fielded 16)"


def test_only_fighters_who_took_part_can_be_taken_down(campaign):
    words = campaign.refused(
        "BattleFought",
        battle="b1",
        winner=None,
        sides=[
            {"warband": "iron", "fighters": ["iron-boss"], "taken_down": ["iron-2"]},
            {"warband": "crow", "fighters": ["crow-boss"]},
        ],
    )
    assert (
        words == "only fighters who took part can be taken down (iron-2 of Ironjaws did not fight)"
    )


def test_a_dead_fighter_cannot_fight(campaign):
    campaign.battle(down_iron=["iron-1"])
    campaign.do("InjuryRolled", warband="iron", fighter="iron-1", dice=[1, 1])
    campaign.finish("iron").finish("crow")
    words = campaign.refused(
        "BattleFought",
        battle="b2",
        winner=None,
        sides=[
            {"warband": "iron", "fighters": ["iron-1"]},
            {"warband": "crow", "fighters": ["crow-boss"]},
        ],
    )
    assert words == "Ironjaws 1 of Ironjaws is dead"


def test_a_warband_fights_with_its_leader_and_at_least_three_fighters(new_campaign):
    c = new_campaign().warband("iron", "Ironjaws", fighters=2).warband("crow", "Crowmarch")
    words = c.refused(
        "BattleFought",
        battle="b1",
        winner=None,
        sides=[
            {"warband": "iron", "fighters": ["iron-boss"]},
            {"warband": "crow", "fighters": ["crow-boss"]},
        ],
    )
    assert words == "a warband fights with its leader and at least 3 fighters; Ironjaws has 2"
