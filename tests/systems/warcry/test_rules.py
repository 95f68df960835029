"""Every rule of the Warcry campaign page, one test (or more) per rule, named after it."""

import pytest


def glory(c, wid):
    return c.wb(wid)["glory"]


# -- step 1: glory ------------------------------------------------------------------------


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
    assert "not in one" in campaign.refused("TerritoryConquered", warband="iron", territory="Mill")
    campaign.battle(down_iron=["iron-1"])
    campaign.to_step("iron", 2)
    assert "already at step 2" in campaign.refused(
        "TerritoryConquered", warband="iron", territory="Mill"
    )


# -- step 2: injuries ---------------------------------------------------------------------


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


# -- step 3: destiny ----------------------------------------------------------------------


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


# -- step 4: adding and removing fighters -------------------------------------------------


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


# -- step 5: the search -------------------------------------------------------------------


def test_each_warband_searches_the_battlefield_once_after_a_battle(campaign):
    campaign.battle()
    campaign.to_step("iron", 5)
    campaign.do("SearchRolled", warband="iron", dice=[1, 2])
    words = campaign.refused("SearchRolled", warband="iron", dice=[1, 2])
    assert "has searched the battlefield once" in words


def test_an_empty_search_finds_nothing(campaign):
    campaign.battle()
    campaign.to_step("iron", 5)
    campaign.do("SearchRolled", warband="iron", dice=[1, 6])
    report = campaign.report("iron", 0)["searches"][0]
    assert report["roll"] == 16 and report["found"] is None
    assert campaign.wb("iron")["aftermath"]["found"] == []


def test_a_successful_search_looks_the_roll_up_in_the_campaigns_table(campaign):
    campaign.battle()
    campaign.to_step("iron", 5)
    campaign.do("SearchRolled", warband="iron", dice=[2, 3])
    assert campaign.wb("iron")["aftermath"]["found"][0]["name"] == "Whetted Hook"


def test_another_search_costs_three_glory_and_may_be_bought_once(campaign):
    campaign.battle()
    campaign.to_step("iron", 5)
    assert "searches once before" in campaign.refused(
        "SearchRolled", warband="iron", extra=True, dice=[1, 1]
    )
    campaign.do("SearchRolled", warband="iron", dice=[1, 1])
    campaign.do("SearchRolled", warband="iron", extra=True, dice=[1, 2])
    assert glory(campaign, "iron") == 5 - 3
    assert "has bought it" in campaign.refused(
        "SearchRolled", warband="iron", extra=True, dice=[1, 3]
    )


def test_another_search_without_three_glory_is_refused(campaign):
    campaign.battle(winner="crow")
    campaign.wb("iron")["glory"] = 2
    campaign.to_step("iron", 5)
    campaign.do("SearchRolled", warband="iron", dice=[1, 1])
    words = campaign.refused("SearchRolled", warband="iron", extra=True, dice=[1, 1])
    assert words == "another search costs 3 glory and Ironjaws has only 2"


def test_a_found_artefact_must_be_given_to_a_fighter_before_the_step_ends(campaign):
    campaign.battle()
    campaign.to_step("iron", 5)
    campaign.do("SearchRolled", warband="iron", dice=[2, 3])
    words = campaign.refused("AftermathStepCompleted", warband="iron", step=5)
    assert "giving the Whetted Hook to a fighter" in words
    campaign.do("ArtefactGiven", warband="iron", fighter="iron-2", artefact="Whetted Hook")
    assert campaign.fighter("iron", "iron-2")["lesser_artefact"]["name"] == "Whetted Hook"


def test_a_fighter_holds_at_most_one_lesser_artefact(campaign):
    campaign.fighter("iron", "iron-2")["lesser_artefact"] = {
        "name": "Bone Knuckles",
        "kind": "permanent",
        "effect": "",
    }
    campaign.battle()
    campaign.to_step("iron", 5)
    campaign.do("SearchRolled", warband="iron", dice=[2, 3])
    words = campaign.refused(
        "ArtefactGiven", warband="iron", fighter="iron-2", artefact="Whetted Hook"
    )
    assert words == (
        "a fighter holds at most one lesser artefact: Ironjaws 2 holds the "
        "Bone Knuckles (discard it first)"
    )


def test_a_fighter_may_discard_its_artefact_to_take_a_new_one(campaign):
    campaign.fighter("iron", "iron-2")["lesser_artefact"] = {
        "name": "Bone Knuckles",
        "kind": "permanent",
        "effect": "",
    }
    campaign.battle()
    campaign.to_step("iron", 5)
    campaign.do("SearchRolled", warband="iron", dice=[2, 3])
    campaign.do("ArtefactDiscarded", warband="iron", fighter="iron-2", discarded="lesser")
    campaign.do("ArtefactGiven", warband="iron", fighter="iron-2", artefact="Whetted Hook")
    assert campaign.fighter("iron", "iron-2")["lesser_artefact"]["name"] == "Whetted Hook"


def test_a_fighter_may_hold_a_lesser_artefact_and_an_artefact_of_power(campaign):
    fighter = campaign.fighter("iron", "iron-2")
    fighter["artefact_of_power"] = {"id": "cinder-blade", "name": "Cinder Blade", "effect": ""}
    campaign.battle()
    campaign.to_step("iron", 5)
    campaign.do("SearchRolled", warband="iron", dice=[2, 3])
    campaign.do("ArtefactGiven", warband="iron", fighter="iron-2", artefact="Whetted Hook")
    assert fighter["lesser_artefact"] and fighter["artefact_of_power"]


def test_fighters_cannot_pass_lesser_artefacts_to_each_other(campaign):
    campaign.fighter("iron", "iron-2")["lesser_artefact"] = {
        "name": "Hook",
        "kind": "permanent",
        "effect": "",
    }
    words = campaign.refused(
        "ArtefactPassed", warband="iron", giver="iron-2", receiver="iron-3", artefact="lesser"
    )
    assert words.startswith("fighters cannot pass lesser artefacts to each other")


def test_a_single_use_artefact_is_gone_once_used(campaign):
    fighter = campaign.fighter("iron", "iron-2")
    fighter["lesser_artefact"] = {"name": "Smoke Pellet", "kind": "single-use", "effect": ""}
    campaign.do("ArtefactUsed", warband="iron", fighter="iron-2")
    assert fighter["lesser_artefact"] is None


def test_a_permanent_artefact_is_not_used_up(campaign):
    campaign.fighter("iron", "iron-2")["lesser_artefact"] = {
        "name": "Hook",
        "kind": "permanent",
        "effect": "",
    }
    words = campaign.refused("ArtefactUsed", warband="iron", fighter="iron-2")
    assert words == "only a single-use artefact is used up; the Hook is permanent"


def test_a_fragile_artefact_whose_bearer_fought_owes_a_perishable_roll(campaign):
    campaign.fighter("iron", "iron-2")["lesser_artefact"] = {
        "name": "Charm",
        "kind": "fragile",
        "effect": "",
    }
    campaign.fighter("iron", "iron-3")["lesser_artefact"] = {
        "name": "Lamp",
        "kind": "fragile",
        "effect": "",
    }
    campaign.battle(iron=["iron-boss", "iron-1", "iron-2"])
    campaign.to_step("iron", 5)
    assert campaign.wb("iron")["aftermath"]["perishable"] == ["iron-2"]


@pytest.mark.parametrize(
    "die, kept", [(1, False), (2, False), (3, False), (4, True), (5, True), (6, True)]
)
def test_a_fragile_artefact_crumbles_on_one_to_three_and_holds_on_four_to_six(campaign, die, kept):
    fighter = campaign.fighter("iron", "iron-2")
    fighter["lesser_artefact"] = {"name": "Charm", "kind": "fragile", "effect": ""}
    campaign.battle()
    campaign.to_step("iron", 5)
    campaign.do("PerishableRolled", warband="iron", fighter="iron-2", dice=[die])
    assert (fighter["lesser_artefact"] is not None) is kept


def test_an_instant_artefact_takes_effect_at_once_and_is_not_held(campaign):
    campaign.battle()
    campaign.to_step("iron", 5)
    campaign.do("SearchRolled", warband="iron", dice=[3, 1])  # Purse of Tarnished Coin: +2
    assert glory(campaign, "iron") == 5 + 2
    assert campaign.wb("iron")["aftermath"]["found"] == []


# -- step 6: the map ----------------------------------------------------------------------


def test_each_aftermath_moves_the_warband_one_step_on_the_campaign_map(campaign):
    campaign.battle()
    campaign.finish("iron").finish("crow")
    assert campaign.wb("iron")["map_position"] == 1 and campaign.wb("crow")["map_position"] == 1


def test_a_warband_that_lost_a_battle_at_its_convergence_point_does_not_move(campaign):
    c = campaign.at_convergence()
    c.battle(bid="b9", winner="iron", convergence=["iron", "crow"])
    c.finish("iron").finish("crow")
    assert c.wb("crow")["map_position"] == 3 and c.wb("iron")["map_position"] == 4
    report = c.report("crow")["map"]
    assert report["why"].startswith("lost a battle at its convergence point")


def test_a_draw_at_a_convergence_point_still_moves_the_warband(campaign):
    c = campaign.at_convergence()
    c.battle(bid="b9", winner=None, convergence=["crow"])
    c.finish("crow")
    assert c.wb("crow")["map_position"] == 4


def test_a_battle_at_a_convergence_point_needs_the_warband_to_stand_on_one(campaign):
    words = campaign.refused(
        "BattleFought",
        battle="b1",
        winner="iron",
        convergence=["iron"],
        sides=[
            {"warband": "iron", "fighters": ["iron-boss", "iron-1", "iron-2"]},
            {"warband": "crow", "fighters": ["crow-boss", "crow-1", "crow-2"]},
        ],
    )
    assert words == "Ironjaws is at The Cinder Gate, not at a convergence point"


def test_reaching_the_goal_completes_the_quest_gives_its_reward_and_ends_the_advance(campaign):
    c = campaign
    for n in range(11):
        c.battle(bid=f"b{n}").finish("iron").finish("crow")
    wb = c.wb("iron")
    assert wb["map_position"] == 11 and wb["quest_complete"]
    assert wb["ledger"][-1]["cause"] == "completed the quest The Ember Crown"
    c.battle(bid="b99").finish("iron")
    assert wb["map_position"] == 11


def test_a_new_quest_keeps_the_roster_and_starts_again_from_the_start(campaign):
    c = campaign
    assert "only once its quest is complete" in c.refused(
        "QuestBegun", warband="iron", quest="ember-crown"
    )
    for n in range(11):
        c.battle(bid=f"b{n}").finish("iron").finish("crow")
    fighters = dict(c.wb("iron")["fighters"])
    c.do("QuestBegun", warband="iron", quest="ember-crown")
    assert c.wb("iron")["map_position"] == 0 and not c.wb("iron")["quest_complete"]
    assert c.wb("iron")["fighters"] == fighters


# -- step 7: artefacts of power and command traits ----------------------------------------


def test_an_artefact_of_power_point_owes_an_artefact_of_power(campaign):
    c = campaign.to_reward("artefact")
    assert c.wb("iron")["map_position"] == 2
    assert "a command trait" in c.refused("CommandTraitGained", warband="iron", trait="unbowed")
    c.do("ArtefactOfPowerGained", warband="iron", fighter="iron-1", artefact="cinder-blade")
    assert c.fighter("iron", "iron-1")["artefact_of_power"]["name"] == "Cinder Blade"
    assert c.wb("iron")["aftermath"] is None


def test_a_fighter_holds_at_most_one_artefact_of_power(campaign):
    c = campaign
    c.fighter("iron", "iron-1")["artefact_of_power"] = {
        "id": "veil-of-soot",
        "name": "Veil of Soot",
        "effect": "",
    }
    c.to_reward("artefact")
    words = c.refused(
        "ArtefactOfPowerGained", warband="iron", fighter="iron-1", artefact="cinder-blade"
    )
    assert words.startswith("a fighter holds at most one artefact of power: Ironjaws 1 holds")


def test_an_artefact_of_power_may_be_passed_to_make_room_for_a_new_one(campaign):
    c = campaign
    c.fighter("iron", "iron-1")["artefact_of_power"] = {
        "id": "veil-of-soot",
        "name": "Veil of Soot",
        "effect": "",
    }
    c.to_reward("artefact")
    c.do("ArtefactPassed", warband="iron", giver="iron-1", receiver="iron-2")
    c.do("ArtefactOfPowerGained", warband="iron", fighter="iron-1", artefact="cinder-blade")
    assert c.fighter("iron", "iron-2")["artefact_of_power"]["name"] == "Veil of Soot"
    assert c.fighter("iron", "iron-1")["artefact_of_power"]["name"] == "Cinder Blade"


def test_an_artefact_of_power_is_not_passed_to_a_fighter_who_holds_one(campaign):
    c = campaign
    for fid in ("iron-1", "iron-2"):
        c.fighter("iron", fid)["artefact_of_power"] = {"id": fid, "name": fid, "effect": ""}
    words = c.refused("ArtefactPassed", warband="iron", giver="iron-1", receiver="iron-2")
    assert words.startswith("a fighter holds at most one artefact of power")


def test_a_command_trait_goes_to_the_leader_who_has_none(campaign):
    c = campaign.to_reward("trait")
    assert "goes to Ironjaws Boss" in c.refused(
        "CommandTraitGained", warband="iron", trait="unbowed", fighter="iron-1"
    )
    c.do("CommandTraitGained", warband="iron", trait="unbowed")
    assert c.fighter("iron", "iron-boss")["command_trait"]["name"] == "Unbowed"


def test_a_further_command_trait_goes_to_a_named_favoured_warrior(campaign):
    c = campaign
    c.fighter("iron", "iron-boss")["command_trait"] = {
        "id": "unbowed",
        "name": "Unbowed",
        "effect": "",
    }
    c.to_reward("trait")
    assert "name a favoured warrior" in c.refused(
        "CommandTraitGained", warband="iron", trait="ash-sight"
    )
    assert "holds at most one command trait" in c.refused(
        "CommandTraitGained", warband="iron", trait="ash-sight", fighter="iron-boss"
    )
    c.do("CommandTraitGained", warband="iron", trait="ash-sight", fighter="iron-2")
    assert c.fighter("iron", "iron-2")["favoured"] and c.wb("iron")["favoured"] == "iron-2"
    assert c.fighter("iron", "iron-2")["command_trait"]["name"] == "Ash-Sighted"


def test_a_warband_has_at_most_one_favoured_warrior(campaign):
    c = campaign
    c.fighter("iron", "iron-boss")["command_trait"] = {
        "id": "unbowed",
        "name": "Unbowed",
        "effect": "",
    }
    c.fighter("iron", "iron-2").update(
        favoured=True, command_trait={"id": "ash-sight", "name": "Ash-Sighted", "effect": ""}
    )
    c.wb("iron")["favoured"] = "iron-2"
    c.to_reward("trait")
    c.do("CommandTraitGained", warband="iron", trait="ember-tongue", fighter="iron-3")
    favoured = [f for f, v in c.wb("iron")["fighters"].items() if v["favoured"]]
    assert favoured == ["iron-3"] and c.fighter("iron", "iron-2")["command_trait"] is None


def test_a_favoured_warrior_who_dies_loses_its_trait_with_it(campaign):
    c = campaign
    c.fighter("iron", "iron-2").update(
        favoured=True, command_trait={"id": "ash-sight", "name": "Ash-Sighted", "effect": ""}
    )
    c.wb("iron")["favoured"] = "iron-2"
    c.battle(down_iron=["iron-2"])
    c.do("InjuryRolled", warband="iron", fighter="iron-2", dice=[2, 1])
    fighter = c.fighter("iron", "iron-2")
    assert fighter["status"] == "dead" and fighter["command_trait"] is None
    assert not fighter["favoured"] and c.wb("iron")["favoured"] is None


# -- the aftermath as a guided procedure ---------------------------------------------------


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
    from tracker.systems.warcry import system

    campaign.battle(down_iron=["iron-1"])
    campaign.do("AftermathStepCompleted", warband="iron", step=1)
    view = system.public_state(campaign.state)["warbands"]["iron"]["aftermath"]
    assert view["step"] == 2 and view["owed"] == ["an injury roll for Ironjaws 1"]


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


def test_content_that_cannot_be_played_is_refused_at_the_start():
    from tracker.errors import RuleViolation
    from tracker.systems.warcry import system

    settings = system.prepare_settings({"quest": "ember-crown"})
    settings["content"]["quests"]["ember-crown"]["map"].pop()
    with pytest.raises(RuleViolation, match="its map has 11 points, not 12"):
        system.initial_state(settings)
