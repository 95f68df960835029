"""Convergence battles read from the map: the Aspirants, the Adversary and its search."""

from warcry_helpers import fight


def to_convergence_of_crow_alone(c):
    """Both reach the Crossing of Knives; Crowmarch lose their convergence there and stay,
    Ironjaws move on: Crowmarch alone stand on a convergence point."""
    c.at_convergence()
    fight(c, "w9", "iron")
    c.finish("iron").finish("crow")
    assert c.wb("crow")["map_position"] == 3 and c.wb("iron")["map_position"] == 4
    return c


def test_a_warband_that_loses_at_its_opponents_convergence_point_still_advances(campaign):
    c = campaign.at_convergence()
    c.battle(bid="b9", winner="crow", convergence=["crow"])  # Ironjaws' point is not named
    c.finish("iron").finish("crow")
    assert c.wb("iron")["map_position"] == 4 and c.wb("crow")["map_position"] == 4


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
