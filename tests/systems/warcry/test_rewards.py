"""Step 7 of the aftermath: artefacts of power and command traits, the rewards of map points."""

from tracker.systems.warcry import system


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


def test_an_artefact_of_power_is_kept_never_used_up_nor_rolled_for(campaign):
    fighter = campaign.fighter("iron", "iron-2")
    fighter["artefact_of_power"] = {"id": "cinder-blade", "name": "Cinder Blade", "effect": ""}
    words = campaign.refused("ArtefactUsed", warband="iron", fighter="iron-2")
    assert words == "Ironjaws 2 holds no lesser artefact to use"
    campaign.battle()
    campaign.to_step("iron", 5)
    assert campaign.wb("iron")["aftermath"]["perishable"] == []
    campaign.finish("iron")
    assert fighter["artefact_of_power"]["name"] == "Cinder Blade"


def test_an_artefact_of_power_is_chosen_from_the_quests_table(campaign):
    c = campaign.to_reward("artefact")
    words = c.refused(
        "ArtefactOfPowerGained", warband="iron", fighter="iron-1", artefact="moon-spear"
    )
    assert words == (
        "the quest The Ember Crown has no artefact of power 'moon-spear' "
        "(it has: cinder-blade, veil-of-soot, crown-shard)"
    )


def test_a_command_trait_is_chosen_from_the_quests_table(campaign):
    c = campaign.to_reward("trait")
    words = c.refused("CommandTraitGained", warband="iron", trait="moon-born")
    assert words == (
        "the quest The Ember Crown has no command trait 'moon-born' "
        "(it has: ember-tongue, unbowed, ash-sight)"
    )


def test_the_same_artefact_of_power_is_not_held_by_two_fighters(campaign):
    c = campaign
    c.fighter("iron", "iron-3")["artefact_of_power"] = {
        "id": "cinder-blade",
        "name": "Cinder Blade",
        "effect": "",
    }
    c.to_reward("artefact")
    words = c.refused(
        "ArtefactOfPowerGained", warband="iron", fighter="iron-1", artefact="cinder-blade"
    )
    assert words == "Ironjaws 3 already holds the Cinder Blade"


def test_a_warband_at_step_seven_fights_again_only_after_taking_or_declining_its_reward(
    campaign,
):
    c = campaign.to_reward("artefact")
    words = c.refused(
        "BattleFought",
        battle="bx",
        sides=[
            {"warband": "iron", "fighters": ["iron-boss", "iron-1", "iron-2"]},
            {"warband": "crow", "fighters": ["crow-boss", "crow-1", "crow-2"]},
        ],
    )
    assert words.startswith("Ironjaws has not finished the aftermath of battle")
    assert "(step 7:" in words


def test_a_warband_may_decline_the_reward_of_its_map_point(campaign):
    # The source: "możesz otrzymać", the warband MAY receive an artefact of power or a trait.
    c = campaign.to_reward("artefact")
    battle = c.wb("iron")["aftermath"]["battle"]
    c.do("AftermathStepCompleted", warband="iron", step=7)
    assert c.wb("iron")["aftermath"] is None
    assert all(f["artefact_of_power"] is None for f in c.wb("iron")["fighters"].values())
    report = system.views.battle(c.state, battle)["aftermath"]["iron"]
    assert report["reward"] == {"kind": "artefact", "declined": True}


def test_an_artefact_of_power_passes_only_to_make_room_for_a_new_one(campaign):
    c = campaign
    c.fighter("iron", "iron-1")["artefact_of_power"] = {
        "id": "x",
        "name": "Old Relic",
        "effect": "",
    }
    words = c.refused("ArtefactPassed", warband="iron", giver="iron-1", receiver="iron-2")
    assert words == (
        "an artefact of power is passed between fighters only to make room for a new one, and "
        "Ironjaws is gaining none now"
    )
    c.to_reward("trait")
    words = c.refused("ArtefactPassed", warband="iron", giver="iron-1", receiver="iron-2")
    assert words.startswith("an artefact of power is passed between fighters only")


def test_the_fighter_who_made_room_takes_the_new_artefact_of_power(campaign):
    c = campaign
    c.fighter("iron", "iron-1")["artefact_of_power"] = {
        "id": "x",
        "name": "Old Relic",
        "effect": "",
    }
    c.to_reward("artefact")
    c.do("ArtefactPassed", warband="iron", giver="iron-1", receiver="iron-2")
    words = c.refused(
        "ArtefactOfPowerGained", warband="iron", fighter="iron-3", artefact="cinder-blade"
    )
    assert words == (
        "Ironjaws 1 passed on an artefact of power to make room for the new one: the Cinder "
        "Blade goes to Ironjaws 1"
    )
    c.do("ArtefactOfPowerGained", warband="iron", fighter="iron-1", artefact="cinder-blade")


def test_an_artefact_of_power_gained_may_pass_the_old_one_to_make_room(campaign):
    c = campaign
    c.fighter("iron", "iron-1")["artefact_of_power"] = {
        "id": "x",
        "name": "Old Relic",
        "effect": "",
    }
    c.fighter("iron", "iron-2")["artefact_of_power"] = {"id": "y", "name": "Other", "effect": ""}
    c.to_reward("artefact")
    words = c.refused(
        "ArtefactOfPowerGained",
        warband="iron",
        fighter="iron-1",
        artefact="cinder-blade",
        pass_to="iron-2",
    )
    assert words.startswith("a fighter holds at most one artefact of power: Ironjaws 2 holds")
    c.do(
        "ArtefactOfPowerGained",
        warband="iron",
        fighter="iron-1",
        artefact="cinder-blade",
        pass_to="iron-3",
    )
    assert c.fighter("iron", "iron-3")["artefact_of_power"]["name"] == "Old Relic"
    assert c.fighter("iron", "iron-1")["artefact_of_power"]["name"] == "Cinder Blade"
