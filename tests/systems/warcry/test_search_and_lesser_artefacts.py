"""Step 5 of the aftermath: the search of the battlefield and the lesser artefacts found,
given, used, discarded and rolled for."""

import pytest
from warcry_helpers import glory


def fragile_owed(c):
    """Ironjaws 2 holds a fragile charm, fought, and owes its perishable roll in step 5."""
    c.fighter("iron", "iron-2")["lesser_artefact"] = {
        "name": "Charm",
        "kind": "fragile",
        "effect": "",
    }
    c.battle()
    c.to_step("iron", 5)
    c.do("SearchRolled", warband="iron", dice=[2, 3])  # Whetted Hook, permanent
    assert c.wb("iron")["aftermath"]["perishable"] == ["iron-2"]
    return c


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


@pytest.mark.parametrize("units", [1, 2, 3, 4, 5, 6])
def test_a_search_roll_of_eleven_to_sixteen_finds_nothing(campaign, units):
    campaign.battle()
    campaign.to_step("iron", 5)
    campaign.do("SearchRolled", warband="iron", dice=[1, units])
    assert campaign.report("iron", 0)["searches"][0]["found"] is None
    assert campaign.wb("iron")["aftermath"]["found"] == []


def test_nothing_can_be_given_before_something_is_found(campaign):
    campaign.battle()
    campaign.to_step("iron", 4)
    words = campaign.refused("ArtefactGiven", warband="iron", fighter="iron-1", artefact="Hook")
    assert words == "Ironjaws found no Hook to give (waiting to be given: nothing)"


def test_a_perishable_roll_never_destroys_an_artefact_that_is_not_fragile(campaign):
    c = fragile_owed(campaign)
    c.do("ArtefactDiscarded", warband="iron", fighter="iron-2", discarded="lesser")
    c.do("ArtefactGiven", warband="iron", fighter="iron-2", artefact="Whetted Hook")
    if "iron-2" in c.wb("iron")["aftermath"]["perishable"]:
        c.do("PerishableRolled", warband="iron", fighter="iron-2", dice=[1])
    assert c.fighter("iron", "iron-2")["lesser_artefact"]["name"] == "Whetted Hook"


def test_a_perishable_roll_for_a_discarded_artefact_is_refused_in_words(campaign):
    c = fragile_owed(campaign)
    c.do("ArtefactDiscarded", warband="iron", fighter="iron-2", discarded="lesser")
    words = c.refused("PerishableRolled", warband="iron", fighter="iron-2", dice=[1])
    assert "perishable roll" in words


def test_the_search_is_something_a_warband_may_do(campaign):
    campaign.battle()
    campaign.to_step("iron", 5)
    assert campaign.wb("iron")["aftermath"]["step"] == 5
    campaign.do("AftermathStepCompleted", warband="iron", step=5)  # no search: allowed
    assert not campaign.report("iron")["searches"]
