"""Hunts: wounds paid with matching combat cards, the monster's attacks, slaying and rewards."""


def _hunt(table, monster="boar"):
    where = {"boar": "eirinos", "harpy": "thyrea"}[monster]
    table.start(heroes={"ann": where, "bo": "phlios"})
    table.play("HuntBegan", player="ann", monster=monster, cards=["shield-2"])
    table.hand("ann", "spear-1", "spear-1", "shield-1", "shield-1", "spear-2")


def test_a_hunting_hero_draws_as_many_combat_cards_as_its_strength(table):
    table.start(heroes={"ann": "eirinos", "bo": "phlios"})
    table.refuses(
        "HuntBegan",
        "Ann draws 1 combat card(s) here, not 2 (a draw of 1, a hand holds at most 5, Ann holds 2)",
        player="ann",
        monster="boar",
        cards=["spear-1", "spear-2"],
    )
    table.game["heroes"]["ann"]["strength"] = 3
    table.play("HuntBegan", player="ann", monster="boar", cards=["spear-1", "spear-2", "helm-3"])
    assert table.game["hands"]["ann"] == ["feint-0", "helm-1", "helm-3", "spear-1", "spear-2"]
    assert table.words() == (
        "Ann began to hunt the Stoneback Boar and drew 3 combat cards (Strength 3)"
    )


def test_a_hand_holds_at_most_five_combat_cards(table):
    table.start(heroes={"ann": "eirinos", "bo": "phlios"})
    table.hand("ann", "spear-1", "spear-2")
    table.game["heroes"]["ann"]["strength"] = 3
    table.refuses(
        "HuntBegan",
        "Ann draws 1 combat card(s) here, not 3",
        player="ann",
        monster="boar",
        cards=["spear-1", "spear-2", "helm-3"],
    )
    table.play("HuntBegan", player="ann", monster="boar", cards=["helm-3"])
    assert len(table.game["hands"]["ann"]) == 5


def test_the_cards_a_wound_takes_come_from_the_hand_and_are_discarded(table):
    table.start(heroes={"ann": "eirinos", "bo": "phlios"})
    table.play("HuntBegan", player="ann", monster="boar", cards=["spear-1"])
    table.refuses(
        "HeroAttacked",
        "a combat card is played from its player's hand (Ann holds no Spear Wall)",
        player="ann",
        wounds=[{"wound": "heart", "cards": ["spear-2", "helm-1"]}],
    )
    table.play("HeroAttacked", player="ann", wounds=[{"wound": "hide", "cards": ["spear-1"]}])
    assert table.game["hands"]["ann"] == ["feint-0", "helm-1"]
    assert table.game["discard"] == {"spear-1": 1}


def test_a_hero_hunts_only_a_monster_in_its_own_region(table):
    table.start()
    table.refuses(
        "HuntBegan",
        "a hero hunts a monster in its own region (Ann's hero is in Korythos, the Stoneback Boar "
        "in Eirinos)",
        player="ann",
        monster="boar",
    )


def test_a_hero_hunts_only_a_monster_on_the_board(table):
    table.start()
    table.refuses(
        "HuntBegan",
        "the Deep Kraken is not on the board to be hunted",
        player="ann",
        monster="kraken",
    )


def test_a_hunt_is_a_special_action_with_its_token(table):
    _hunt(table)
    assert table.game["tokens"]["ann"] == ["hunt"]
    assert table.game["hunt"]["status"] == "hero"


def test_a_wound_takes_combat_cards_matching_its_symbols(table):
    _hunt(table)
    table.refuses(
        "HeroAttacked",
        "a wound takes combat cards matching its symbols (the Stoneback Boar's tusks takes "
        "shield, shield; Ann discarded shield, spear)",
        player="ann",
        wounds=[{"wound": "tusks", "cards": ["shield-1", "spear-2"]}],
    )
    table.play(
        "HeroAttacked",
        player="ann",
        wounds=[
            {"wound": "tusks", "cards": ["shield-1", "shield-2"]},
            {"wound": "hide", "cards": ["spear-1"]},
        ],
    )
    assert table.game["hunt"]["wounds"] == ["tusks", "hide"]
    assert table.words() == "Ann's hero wounded the Stoneback Boar (tusks, hide)"


def test_a_wound_is_inflicted_once(table):
    _hunt(table)
    table.refuses(
        "HeroAttacked",
        "the Stoneback Boar's hide is already wounded",
        player="ann",
        wounds=[{"wound": "hide", "cards": ["spear-1"]}, {"wound": "hide", "cards": ["spear-1"]}],
    )


def test_an_attack_that_wounds_nothing_ends_the_hunt_at_once(table):
    _hunt(table)
    table.play("HeroAttacked", player="ann", wounds=[])
    assert table.game["hunt"]["status"] == "failed"
    assert table.words() == "Ann's hero could not wound the Stoneback Boar, and the hunt failed"
    table.refuses("MonsterAttacked", "Ann is not hunting a monster", player="ann", roll=[3])
    table.play("TurnEnded", player="ann")
    assert table.game["hunt"] is None


def test_the_monster_attacks_between_the_heros_attacks(table):
    _hunt(table)
    table.refuses("MonsterAttacked", "the hero attacks next in the hunt", player="ann", roll=[3])
    table.play("HeroAttacked", player="ann", wounds=[{"wound": "hide", "cards": ["spear-1"]}])
    table.refuses(
        "HeroAttacked",
        "the Stoneback Boar attacks next in the hunt",
        player="ann",
        wounds=[{"wound": "tusks", "cards": ["shield-1", "shield-1"]}],
    )
    table.play("MonsterAttacked", player="ann", roll=[3])
    assert table.game["heroes"]["ann"]["wounds"] == 1
    assert table.words() == (
        "The Stoneback Boar struck Ann's hero with a tusk rake (rolled 3, 1 wound)"
    )
    assert table.game["hunt"]["status"] == "hero"


def test_a_monster_attack_may_wound_the_hero_and_end_the_hunt(table):
    _hunt(table, "boar")
    table.play("HeroAttacked", player="ann", wounds=[{"wound": "hide", "cards": ["spear-1"]}])
    table.play("MonsterAttacked", player="ann", roll=[6])
    assert table.game["hunt"]["status"] == "failed"
    assert table.words().endswith("and the hunt failed")


def test_nothing_else_happens_while_a_hunt_goes_on(table):
    _hunt(table)
    table.refuses(
        "TurnEnded",
        "the hunt of the Stoneback Boar goes on until the monster is slain or the hunt fails",
        player="ann",
    )


def test_the_last_wound_slays_the_monster_and_counts_for_the_slayer(table):
    _hunt(table)
    table.play(
        "HeroAttacked",
        player="ann",
        wounds=[
            {"wound": "hide", "cards": ["spear-1"]},
            {"wound": "tusks", "cards": ["shield-1", "shield-1"]},
        ],
    )
    table.play("MonsterAttacked", player="ann", roll=[1])
    table.play(
        "HeroAttacked", player="ann", wounds=[{"wound": "heart", "cards": ["helm-1", "spear-2"]}]
    )
    assert table.words() == "Ann's hero wounded the Stoneback Boar (heart) and slew it"
    assert "boar" not in table.game["monsters"]
    assert table.game["slain"]["ann"] == ["boar"]
    assert table.game["hunt"]["status"] == "slain"
    table.play("TurnEnded", player="ann")


def test_after_a_failed_hunt_one_reward_of_an_inflicted_wound_may_be_claimed(table):
    _hunt(table)
    table.play(
        "HeroAttacked",
        player="ann",
        wounds=[
            {"wound": "hide", "cards": ["spear-1"]},
            {"wound": "heart", "cards": ["spear-1", "helm-1"]},
        ],
    )
    table.play("MonsterAttacked", player="ann", roll=[6])
    table.refuses(
        "HuntRewardClaimed",
        "the reward is one of a wound inflicted (the Stoneback Boar's tusks was not)",
        player="ann",
        wound="tusks",
    )
    table.play("HuntRewardClaimed", player="ann", wound="heart", artifact="oak-crown")
    assert table.game["artifacts"]["oak-crown"] == {"owner": "ann", "charged": True}
    assert table.words() == "Ann claimed the Oak Crown for the heart wound of the failed hunt"
    table.refuses(
        "HuntRewardClaimed",
        "after a failed hunt a player claims one reward (Ann has one)",
        player="ann",
        wound="hide",
    )


def test_a_priest_reward_brings_a_priest_up_to_the_limit(table):
    _hunt(table)
    table.play("HeroAttacked", player="ann", wounds=[{"wound": "hide", "cards": ["spear-1"]}])
    table.play("MonsterAttacked", player="ann", roll=[6])
    table.game["priests"]["ann"] = 4
    table.refuses(
        "HuntRewardClaimed",
        "a player has at most 4 priests (Ann has 4)",
        player="ann",
        wound="hide",
    )
    table.game["priests"]["ann"] = 2
    table.play("HuntRewardClaimed", player="ann", wound="hide")
    assert table.game["priests"]["ann"] == 3


def test_a_wound_without_an_artifact_or_priest_gives_no_reward(table):
    _hunt(table)
    table.play(
        "HeroAttacked", player="ann", wounds=[{"wound": "tusks", "cards": ["shield-1", "shield-1"]}]
    )
    table.play("MonsterAttacked", player="ann", roll=[6])
    table.refuses(
        "HuntRewardClaimed",
        "only a wound showing an artifact or a priest gives a "
        "reward (the Stoneback Boar's tusks shows neither)",
        player="ann",
        wound="tusks",
    )


def test_a_successful_hunt_gives_no_failed_hunt_reward(table):
    _hunt(table, "harpy")
    table.play(
        "HeroAttacked",
        player="ann",
        wounds=[
            {"wound": "wings", "cards": ["spear-1"]},
            {"wound": "talons", "cards": ["shield-1"]},
        ],
    )
    table.refuses(
        "HuntRewardClaimed",
        "a reward is claimed after a failed hunt (Ann has none this turn)",
        player="ann",
        wound="wings",
        artifact="oak-crown",
    )


def test_a_failed_hunt_may_wound_the_hero_too(table):
    _hunt(table, "boar")
    table.play("HeroAttacked", player="ann", wounds=[{"wound": "hide", "cards": ["spear-1"]}])
    table.play("MonsterAttacked", player="ann", roll=[5])
    table.play("HeroAttacked", player="ann", wounds=[])
    assert table.game["heroes"]["ann"]["wounds"] == 2
    assert table.game["hunt"]["status"] == "failed"
