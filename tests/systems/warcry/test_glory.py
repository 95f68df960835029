"""Step 1 of the aftermath: the glory a battle earns, territories bought with it, the ledger."""

from warcry_helpers import glory


def test_each_battle_played_earns_three_glory_and_a_win_two_more(campaign):
    campaign.battle(winner="iron")
    assert glory(campaign, "iron") == 5 and glory(campaign, "crow") == 3


def test_a_draw_earns_only_the_glory_of_playing(campaign):
    campaign.battle(winner=None)
    assert glory(campaign, "iron") == 3 and glory(campaign, "crow") == 3


def test_taking_down_the_enemy_leader_earns_one_glory(campaign):
    campaign.battle(winner=None, down_crow=["crow-boss"])
    assert glory(campaign, "iron") == 4


def test_each_full_third_of_the_enemy_taken_down_earns_one_glory(campaign):
    campaign.battle(winner=None, down_crow=["crow-1", "crow-2", "crow-3", "crow-4"])  # 4 of 5
    assert glory(campaign, "iron") == 3 + 2
    lines = campaign.state["battles"][0]["glory"]["iron"]
    assert lines[-1] == {"amount": 2, "cause": "took down 4 of 5 enemy fighters (2 thirds)"}


def test_taking_down_every_enemy_fighter_earns_three_thirds(campaign):
    everyone = list(campaign.wb("crow")["fighters"])
    campaign.battle(winner="iron", down_crow=everyone)
    assert glory(campaign, "iron") == 3 + 2 + 1 + 3


def test_a_warband_whose_opponent_holds_two_more_territories_earns_one_more_glory(campaign):
    c = campaign
    c.wb("crow")["glory"] = 20
    c.battle(winner=None)
    c.do("TerritoryConquered", warband="crow", territory="Mill")
    c.do("TerritoryConquered", warband="crow", territory="Ford")
    c.finish("iron").finish("crow")
    before = glory(c, "iron")
    c.battle(bid="b2", winner=None)
    assert glory(c, "iron") - before == 3 + 1
    assert "2 more territories" in c.wb("iron")["ledger"][-1]["cause"]


def test_conquering_a_territory_costs_ten_glory(campaign):
    campaign.wb("iron")["glory"] = 12
    campaign.battle()
    campaign.do("TerritoryConquered", warband="iron", territory="The Sunken Mill")
    assert glory(campaign, "iron") == 12 + 5 - 10
    assert campaign.wb("iron")["territories"] == ["The Sunken Mill"]


def test_spending_glory_the_warband_lacks_is_refused(campaign):
    campaign.battle()
    words = campaign.refused("TerritoryConquered", warband="iron", territory="Mill")
    assert words == "conquering Mill costs 10 glory and Ironjaws has only 5"


def test_every_glory_change_is_in_the_ledger_with_its_cause(campaign):
    campaign.wb("iron")["glory"] = 10
    campaign.battle()
    campaign.do("TerritoryConquered", warband="iron", territory="Mill")
    ledger = campaign.wb("iron")["ledger"]
    assert [line["amount"] for line in ledger] == [3, 2, -10]
    assert ledger[-1]["cause"] == "conquered Mill" and ledger[-1]["balance"] == 5
    assert all(line["cause"] for line in ledger)


def test_a_warband_holds_at_most_six_territories(campaign):
    campaign.wb("iron")["glory"] = 100
    campaign.battle()
    for n in range(6):
        campaign.do("TerritoryConquered", warband="iron", territory=f"Land {n}")
    words = campaign.refused("TerritoryConquered", warband="iron", territory="Land 7")
    assert words == "a warband holds at most 6 territories (Ironjaws already holds 6)"


def test_territories_are_conquered_only_in_step_one(campaign):
    campaign.wb("iron")["glory"] = 100
    assert "is not in a battle's aftermath" in campaign.refused(
        "TerritoryConquered", warband="iron", territory="Mill"
    )
    campaign.battle(down_iron=["iron-1"])
    campaign.to_step("iron", 2)
    assert "already at step 2" in campaign.refused(
        "TerritoryConquered", warband="iron", territory="Mill"
    )


def test_glory_earned_in_a_battle_can_be_spent_in_its_own_step_one(campaign):
    campaign.wb("iron")["glory"] = 5
    campaign.battle(winner="iron")  # +5: 10 in all
    campaign.do("TerritoryConquered", warband="iron", territory="Mill")
    assert campaign.wb("iron")["glory"] == 0
