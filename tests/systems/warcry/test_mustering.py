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


def behind(c, glory=10):
    """Ironjaws hold a territory and Crowmarch none; Crowmarch have `glory`."""
    c.wb("iron")["territories"] = ["Mill"]
    c.wb("crow")["glory"] = glory
    return c


def test_one_glory_buys_fifty_points_of_reinforcements(campaign):
    behind(campaign)
    campaign.do("ReinforcementsBought", warband="crow", against="iron", points=50)
    assert campaign.wb("crow")["glory"] == 9
    assert campaign.wb("crow")["ledger"][-1]["amount"] == -1
    assert system.views.muster_limit(campaign.state, campaign.wb("crow"), "iron") == 1050
    heavy(campaign, "crow", 1050)
    fight(campaign, "b1", "crow")
    assert campaign.wb("crow")["reinforcements"] is None  # spent on that battle
    assert system.views.muster_limit(campaign.state, campaign.wb("crow"), "iron") == 1000


def test_three_glory_buy_a_hundred_points_of_reinforcements(campaign):
    behind(campaign)
    campaign.do("ReinforcementsBought", warband="crow", against="iron", points=100)
    assert campaign.wb("crow")["glory"] == 7
    assert campaign.wb("crow")["ledger"][-1]["amount"] == -3
    assert system.views.muster_limit(campaign.state, campaign.wb("crow"), "iron") == 1100
    heavy(campaign, "crow", 1100)
    fight(campaign, "b1", "crow")


def test_reinforcements_come_as_fifty_points_for_one_glory_or_a_hundred_for_three(campaign):
    behind(campaign)
    for points in (10, 70, 150):
        assert campaign.refused(
            "ReinforcementsBought", warband="crow", against="iron", points=points
        ) == (
            "reinforcements come as 50 points for 1 glory or 100 points for 3 glory "
            f"(at most 3 glory a battle), not {points} points"
        )


def test_at_most_three_glory_a_battle_are_spent_on_reinforcements(campaign):
    behind(campaign)
    campaign.do("ReinforcementsBought", warband="crow", against="iron", points=50)
    for points in (50, 100):
        assert campaign.refused(
            "ReinforcementsBought", warband="crow", against="iron", points=points
        ) == (
            "a warband spends at most 3 glory on reinforcements for a battle, in one "
            "purchase: Crowmarch has already bought 50 points for 1 glory for its next battle"
        )
    fight(campaign, "b1", "crow")  # spent: the next battle may have its own
    campaign.finish("iron").finish("crow")
    campaign.do("ReinforcementsBought", warband="crow", against="iron", points=100)


def test_reinforcements_lacking_the_glory_are_refused(campaign):
    behind(campaign, glory=2)
    assert campaign.refused("ReinforcementsBought", warband="crow", against="iron", points=100) == (
        "100 points of reinforcements costs 3 glory and Crowmarch has only 2"
    )
    behind(campaign, glory=0)
    assert campaign.refused("ReinforcementsBought", warband="crow", against="iron", points=50) == (
        "50 points of reinforcements costs 1 glory and Crowmarch has only 0"
    )


def test_reinforcements_are_refused_to_the_warband_holding_as_many_territories(campaign):
    for iron, crow in ((["Mill"], ["Ford"]), (["Mill"], ["Ford", "Barrow"])):
        campaign.wb("iron")["territories"], campaign.wb("crow")["territories"] = iron, crow
        campaign.wb("crow")["glory"] = 10
        assert campaign.refused(
            "ReinforcementsBought", warband="crow", against="iron", points=50
        ) == (
            f"only the warband with fewer territories buys reinforcements: Crowmarch holds "
            f"{len(crow)} and Ironjaws 1"
        )


def test_an_old_log_keeps_ten_points_a_glory(old_campaign):
    campaign = behind(old_campaign, glory=7)
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
    assert "already bought reinforcements" in campaign.refused(
        "ReinforcementsBought", warband="crow", against="iron", points=10
    )
    heavy(campaign, "crow", 1070)
    fight(campaign, "b1", "crow")
    assert campaign.wb("crow")["reinforcements"] is None  # spent on that battle
    assert system.views.muster_limit(campaign.state, campaign.wb("crow"), "iron") == 1000


def test_reinforcements_are_bought_before_mustering_not_in_an_aftermath(campaign):
    campaign.battle()
    campaign.wb("iron")["territories"] = ["Mill"]
    words = campaign.refused("ReinforcementsBought", warband="crow", against="iron", points=10)
    assert words.startswith("reinforcements are bought before mustering for a battle")
