"""Build Monument: a level, priests home, priests per temple, the end of the round."""


def _build(table, player, monument="zeus", card="red-comet"):
    table.play("MonumentBuilt", player=player, monument=monument)
    table.end_round(player, card)


def test_building_a_monument_adds_its_level(table):
    table.start()
    table.play("MonumentBuilt", player="ann", monument="zeus")
    assert table.game["monuments"]["zeus"]["level"] == 2
    assert table.words() == (
        "Ann built the Monument of Zeus to level 2, gained 0 priests, and the round ended"
    )


def test_building_a_monument_returns_priests_and_gives_the_builder_one_per_temple(table):
    table.start()
    table.control("ann", "eirinos", "dymara")
    table.region("eirinos")["temple"] = True
    table.region("dymara")["temple"] = True
    table.play("PriestsSent", player="ann", monument="athena", count=1)
    table.game["monuments"]["zeus"]["priests"]["bo"] = 1
    table.game["priests"]["bo"] = 0
    table.play("MonumentBuilt", player="ann", monument="hermes")
    assert all(not m["priests"] for m in table.game["monuments"].values())
    assert table.game["priests"] == {"ann": 3, "bo": 1}


def test_the_player_with_most_priests_on_a_monument_receives_its_blessing(table):
    table.start()
    table.play("PriestsSent", player="ann", monument="athena", count=1)
    table.game["monuments"]["zeus"]["priests"] = {"ann": 1, "bo": 1}  # a tie blesses nobody
    table.play("MonumentBuilt", player="ann", monument="hermes")
    assert table.game["grants"] == [
        {
            "kind": "attribute",
            "player": "ann",
            "source": "the blessing of the Monument of Athena",
            "attribute": "strength",
        }
    ]
    assert table.words().endswith("; Ann received the blessing of the Monument of Athena")
    table.end_round("ann", "harvest-feast")
    table.refuses(
        "HeroAttributeChanged",
        "the blessing of the Monument of Athena raises Ann's Strength by one, from 1 to 2, not to 3",
        player="ann",
        attribute="strength",
        value=3,
    )
    table.play("HeroAttributeChanged", player="ann", attribute="strength", value=2)
    assert table.game["heroes"]["ann"]["strength"] == 2


def test_a_completed_monument_activates_for_its_builder(table):
    table.start()
    table.game["monuments"]["athena"]["level"] = 4
    table.play("MonumentBuilt", player="ann", monument="athena")
    assert table.words().endswith("; the Monument of Athena is complete and active")
    assert table.game["grants"] == [
        {
            "kind": "fortify",
            "player": "ann",
            "source": "the activation of the Monument of Athena",
            "count": 3,
        }
    ]


def test_the_priests_gained_by_building_stop_at_4(table):
    table.start()
    table.control("ann", "eirinos", "dymara", "argea", "orchia")
    for rid in ("eirinos", "dymara", "argea", "orchia"):
        table.region(rid)["temple"] = True
    table.play("MonumentBuilt", player="ann", monument="hermes")
    assert table.game["priests"]["ann"] == 4


def test_building_a_monument_ends_the_round_removing_tokens_and_charging_artifacts(table):
    table.start()
    table.grant("bo", "artifact")
    table.play("ArtifactGained", player="bo", artifact="dusk-bow")
    table.pray_and_end("ann")
    table.play("ArtifactsUsed", player="bo", artifacts=["dusk-bow"])
    table.pray_and_end("bo")
    assert table.game["tokens"] == {"ann": ["prayer"], "bo": ["prayer"]}
    table.play("MonumentBuilt", player="ann", monument="athena")
    assert table.game["tokens"] == {"ann": [], "bo": []}
    assert table.game["artifacts"]["dusk-bow"] == {"owner": "bo", "charged": True}
    assert table.game["round"] == 2


def test_the_monster_and_event_phases_follow_a_monument_in_order(table):
    table.start()
    table.play("MonumentBuilt", player="ann", monument="zeus")
    table.refuses(
        "TurnEnded", "after a Monument is built, the Monster Phase comes next", player="ann"
    )
    table.refuses(
        "EventResolved", "after a Monument is built, the Monster Phase comes next", player="ann"
    )
    table.play("MonsterPhaseResolved", player="ann", card="fever-rumour")
    assert table.game["monsters"] == {"boar": "eirinos", "harpy": "thyrea", "chimera": "nemessa"}
    assert table.words() == (
        "Ann drew the event card Rumours of Fever for the Monster Phase: the Howling Chimera "
        "appeared in Nemessa"
    )
    table.refuses("TurnEnded", "after the Monster Phase, the Event Phase comes next", player="ann")
    table.play("EventResolved", player="ann")
    assert table.region("nemessa")["hoplites"] == {}
    assert table.words() == (
        "Ann resolved the event Rumours of Fever: the monster of the card kills 2 hoplites of "
        "every player in its region (Bo lost 2 hoplites)"
    )
    table.play("TurnEnded", player="ann")


def test_the_event_cards_monster_goes_to_the_cards_region(table):
    table.start()
    table.play("MonumentBuilt", player="ann", monument="zeus")
    table.play("MonsterPhaseResolved", player="ann", card="long-drought")
    assert table.game["monsters"]["boar"] == "dymara"
    assert table.words().endswith("the Stoneback Boar went to Dymara")
    table.play("EventResolved", player="ann")
    assert table.game["priests"] == {"ann": 0, "bo": 0}


def test_an_event_card_grants_what_it_says_to_whom_it_says(table):
    table.start()
    table.play("MonumentBuilt", player="ann", monument="zeus")
    table.end_round("ann", "silent-oracle")
    assert [(g["kind"], g["player"], g["count"]) for g in table.game["grants"]] == [
        ("fortify", "ann", 1),
        ("fortify", "bo", 1),
    ]
    table.play("HoplitesFortified", player="bo", region="phlios", count=1)
    assert table.words() == "Bo fortified 1 hoplite in Phlios (the event The Oracle Falls Silent)"
    table.refuses(
        "HoplitesFortified",
        "hoplites are fortified only when an event card or a Monument's activation "
        "grants it (nothing grants Bo fortified hoplites now)",
        player="bo",
        region="phlios",
        count=1,
    )


def test_the_monster_phase_comes_only_after_a_monument(table):
    table.start()
    table.refuses(
        "MonsterPhaseResolved",
        "the Monster Phase comes only after a Monument is built",
        player="ann",
        card="red-comet",
    )


def test_a_monster_slain_in_this_game_does_not_come_back(table):
    table.start()
    table.game["slain"]["bo"].append("serpent")
    table.play("MonumentBuilt", player="ann", monument="zeus")
    table.play("MonsterPhaseResolved", player="ann", card="harvest-feast")
    assert "serpent" not in table.game["monsters"]
    assert table.words().endswith("the Ashen Serpent was slain in this game, and nothing stirred")


def test_an_event_card_is_not_drawn_twice_before_the_deck_is_shuffled(table):
    table.start()
    _build(table, "ann", card="red-comet")
    table.play("TurnEnded", player="ann")
    table.play("MonumentBuilt", player="bo", monument="zeus")
    table.refuses(
        "MonsterPhaseResolved",
        "the event card A Red Comet was drawn already from this deck",
        player="bo",
        card="red-comet",
    )


def test_the_event_deck_is_shuffled_once_every_card_was_drawn(table):
    table.start()
    deck = sorted(table.state["content"]["event_cards"])
    table.game["events_drawn"] = deck[:-1]
    table.play("MonumentBuilt", player="ann", monument="zeus")
    table.end_round("ann", deck[-1])
    assert table.game["events_drawn"] == []


def test_a_complete_monument_takes_no_more_levels(table):
    table.start()
    table.game["monuments"]["zeus"]["level"] = 5
    table.refuses(
        "MonumentBuilt",
        "the Monument of Zeus is complete at 5 levels",
        player="ann",
        monument="zeus",
    )


def test_completing_a_monument_starts_the_king_of_kings_count(table3):
    table3.start3()
    table3.game["monuments"]["hermes"]["level"] = 4
    table3.play("MonumentBuilt", player="ann", monument="hermes")
    assert table3.game["king"] == {
        "monument": "hermes",
        "region": "tritaia",
        "builder": "ann",
        "tokens": 3,
        "resolved": False,
    }
    # Three of Ann's six tokens lie on the activation card.
    from tracker.systems.hellas import rules

    assert rules.free_tokens(table3.state, table3.game, "ann") == 3
