"""Battles: cards in turn until both pass, Army Strength, casualties, retreat or death."""

import pytest


def _attack(table, bo_hoplites=2, ann_hoplites=3, fortify=0):
    table.start(
        hoplites={
            "ann": {"korythos": ann_hoplites, "melanthe": 2},
            "bo": {"eirinos": bo_hoplites, "phlios": 3},
        }
    )
    table.hand("ann", "spear-1", "shield-1", "spear-2", "charge-3")
    table.hand("bo", "spear-1", "charge-3", "shield-2", "spear-2", "helm-3")
    if fortify:
        table.grant("bo", "fortify", count=fortify)
        table.play("HoplitesFortified", player="bo", region="eirinos", count=fortify)
    table.play(
        "HoplitesMoved",
        player="ann",
        moves=[{"origin": "korythos", "destination": "eirinos", "count": ann_hoplites}],
    )


def test_moving_into_enemy_hoplites_starts_a_battle_fought_before_anything_else(table):
    _attack(table)
    assert table.game["contested"] == ["eirinos"]
    table.refuses("Prayed", "the battle for Eirinos is fought before anything else", player="ann")
    table.refuses(
        "BattleBegan", "there is no battle to fight in Melanthe", player="ann", region="melanthe"
    )
    table.play("BattleBegan", player="ann", region="eirinos")
    assert table.words() == "Ann attacked Bo in Eirinos"
    battle = table.game["battle"]
    assert (battle["attacker"], battle["defender"], battle["next"]) == ("ann", "bo", "ann")


def test_players_take_turns_playing_cards_until_both_pass(table):
    _attack(table)
    table.play("BattleBegan", player="ann", region="eirinos")
    table.refuses(
        "CombatCardPlayed",
        "players take turns in a battle: Ann plays a card or passes next",
        player="bo",
        card="spear-1",
    )
    table.play("CombatCardPlayed", player="ann", card="spear-1")
    table.play("BattlePassed", player="bo")
    # A pass followed by a card does not end the battle: two passes in a row do.
    table.play("CombatCardPlayed", player="ann", card="shield-1")
    table.play("BattlePassed", player="bo")
    assert table.game["battle"]["outcome"] is None
    table.play("BattlePassed", player="ann")
    assert table.game["battle"]["outcome"]["winner"] == "ann"
    table.refuses(
        "CombatCardPlayed",
        "the battle for Eirinos is decided: no more cards",
        player="bo",
        card="spear-1",
    )
    table.play("ArmyRetreated", player="bo", to="dymara")
    assert table.game["battle"] is None
    table.refuses("CombatCardPlayed", "Bo is in no battle", player="bo", card="spear-1")


def test_army_strength_counts_hoplites_and_cards(table):
    _attack(table)
    table.play("BattleBegan", player="ann", region="eirinos")
    table.play("CombatCardPlayed", player="ann", card="spear-2")
    table.play("CombatCardPlayed", player="bo", card="charge-3")
    table.play("BattlePassed", player="ann")
    table.play("BattlePassed", player="bo")
    out = table.game["battle"]["outcome"]
    assert out["strength"] == {"ann": 5, "bo": 5}


def test_a_tie_in_army_strength_goes_to_the_defender(table):
    _attack(table)
    table.play("BattleBegan", player="ann", region="eirinos")
    table.play("BattlePassed", player="ann")
    table.play("CombatCardPlayed", player="bo", card="helm-1")
    table.play("BattlePassed", player="ann")
    table.play("BattlePassed", player="bo")
    out = table.game["battle"]["outcome"]
    assert out["strength"] == {"ann": 3, "bo": 3}
    assert (out["winner"], out["loser"]) == ("bo", "ann")
    assert table.words() == "Bo passed; Bo won the battle for Eirinos, strength 3 against Ann's 3"


def test_fortified_hoplites_add_to_army_strength(table):
    _attack(table, fortify=1)
    table.play("BattleBegan", player="ann", region="eirinos")
    table.play("BattlePassed", player="ann")
    table.play("BattlePassed", player="bo")
    assert table.game["battle"]["outcome"]["strength"] == {"ann": 3, "bo": 3}


def test_each_side_loses_its_casualties_and_the_loser_one_more(table):
    _attack(table, bo_hoplites=2, ann_hoplites=4)
    table.play("BattleBegan", player="ann", region="eirinos")
    table.play("CombatCardPlayed", player="ann", card="charge-3")  # 2 casualties
    table.play("CombatCardPlayed", player="bo", card="spear-2")  # 1 casualty
    table.play("BattlePassed", player="ann")
    table.play("BattlePassed", player="bo")
    # Ann 7 against Bo 4: Ann loses 2, Bo 1 and 1 more as the loser, so no one is left.
    last = table.game["battles"][-1]["outcome"]
    assert last["killed"] == {"ann": 2, "bo": 2}
    assert table.region("eirinos")["hoplites"] == {"ann": 2}
    assert table.region("eirinos")["controller"] == "ann"
    assert table.game["contested"] == []


def test_fortified_hoplites_are_killed_last(table):
    _attack(table, bo_hoplites=3, ann_hoplites=3, fortify=1)
    table.play("BattleBegan", player="ann", region="eirinos")
    table.play("CombatCardPlayed", player="ann", card="spear-1")
    table.play("CombatCardPlayed", player="bo", card="shield-2")  # 1 casualty
    table.play("BattlePassed", player="ann")
    table.play("BattlePassed", player="bo")
    assert table.region("eirinos")["hoplites"]["bo"] == 2
    assert table.region("eirinos")["fortified"] == {"bo": 1}


def test_no_effect_is_recorded_while_a_battle_waits(table):
    _attack(table)
    table.grant("bo", "fortify", count=1)
    table.refuses(
        "HoplitesFortified",
        "the battle for Eirinos is fought before anything else",
        player="bo",
        region="eirinos",
        count=1,
    )


def test_only_free_hoplites_are_fortified(table):
    table.start()
    table.grant("bo", "fortify", count=5)
    table.play("HoplitesFortified", player="bo", region="phlios", count=1)
    table.refuses(
        "HoplitesFortified",
        "Bo has 2 hoplite(s) to fortify in Phlios, not 3",
        player="bo",
        region="phlios",
        count=3,
    )


def test_the_loser_must_retreat_to_a_legal_adjacent_region(table):
    _attack(table)
    table.play("BattleBegan", player="ann", region="eirinos")
    table.play("BattlePassed", player="ann")
    table.play("CombatCardPlayed", player="bo", card="helm-3")
    table.play("BattlePassed", player="ann")
    table.play("BattlePassed", player="bo")
    # Bo wins 5 to 3; Ann loses 1 and keeps 2 that must fall back.
    assert table.region("eirinos")["hoplites"] == {"ann": 2, "bo": 1}
    table.refuses("Prayed", "the battle for Eirinos is fought before anything else", player="ann")
    table.refuses("ArmyRetreated", "the loser retreats: Ann, not Bo", player="bo", to="dymara")
    table.control("bo", "dymara")
    table.refuses(
        "ArmyRetreated",
        "the loser retreats to an adjacent region free of other players (Ann cannot go from "
        "Eirinos to Dymara)",
        player="ann",
        to="dymara",
    )
    table.refuses(
        "ArmyRetreated",
        "the loser retreats to an adjacent region free of other players (Ann cannot go from "
        "Eirinos to Thessa)",
        player="ann",
        to="thessa",
    )
    table.play("ArmyRetreated", player="ann", to="melanthe")
    assert table.region("melanthe")["hoplites"] == {"ann": 4}
    assert table.region("eirinos") == {
        "controller": "bo",
        "hoplites": {"bo": 1},
        "fortified": {},
        "temple": False,
    }
    assert table.game["battle"] is None
    table.play("Prayed", player="ann")


def test_a_loser_that_can_retreat_may_not_stay_to_die(table):
    _attack(table, bo_hoplites=4, ann_hoplites=2)
    table.play("BattleBegan", player="ann", region="eirinos")
    table.play("BattlePassed", player="ann")
    table.play("BattlePassed", player="bo")
    table.refuses(
        "ArmyRetreated",
        "the loser retreats when it can (Ann may retreat from Eirinos "
        "to Dymara, Korythos, Melanthe, Skiathe)",
        player="ann",
        to=None,
    )


def test_a_loser_with_nowhere_to_retreat_loses_all_its_hoplites_there(table):
    _attack(table, bo_hoplites=3, ann_hoplites=4)
    table.control("ann", "skiathe", "dymara")
    table.play("BattleBegan", player="ann", region="eirinos")
    table.play("BattlePassed", player="ann")
    table.play("BattlePassed", player="bo")
    assert table.region("eirinos")["hoplites"] == {"ann": 4, "bo": 2}
    table.play("ArmyRetreated", player="bo", to=None)
    assert table.words() == "Bo could not retreat, and the army fell"
    assert table.region("eirinos")["hoplites"] == {"ann": 4}
    assert table.game["battles"][-1]["outcome"]["killed"] == {"ann": 0, "bo": 3}


@pytest.mark.parametrize("card", ["spear-1", "feint-0"])
def test_a_combat_card_comes_from_the_deck(table, card):
    _attack(table)
    table.play("BattleBegan", player="ann", region="eirinos")
    table.play("CombatCardPlayed", player="ann", card=card)
    table.refuses("CombatCardPlayed", "there is no combat card 'joker'", player="bo", card="joker")


def test_a_combat_card_is_played_from_its_players_hand_and_discarded_after_the_battle(table):
    _attack(table)
    table.play("BattleBegan", player="ann", region="eirinos")
    table.refuses(
        "CombatCardPlayed",
        "a combat card is played from its player's hand (Ann holds no War Cry)",
        player="ann",
        card="helm-3",
    )
    table.play("CombatCardPlayed", player="ann", card="charge-3")
    assert "charge-3" not in table.game["hands"]["ann"]
    table.play("BattlePassed", player="bo")
    table.play("BattlePassed", player="ann")
    assert table.game["discard"] == {"charge-3": 1}
