"""Mustering: the points a warband fields, the territories' bonus and reinforcements bought."""

from warcry_helpers import fielded, fight

from tracker.systems.warcry import rules, system


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
