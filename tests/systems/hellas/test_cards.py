"""Combat cards: a deck from the content, starting hands, draws up to the hand limit, the
discard pile shuffled back, and hands hidden from the other players."""

from tracker.dice import SeededRoller
from tracker.systems.hellas import system
from tracker.systems.hellas.cards import server_draw


def test_the_deck_holds_each_card_of_the_content_as_many_times_as_it_says(table):
    table.start()
    deck = dict(table.game["deck"])
    for cards in table.game["hands"].values():
        for cid in cards:
            deck[cid] = deck.get(cid, 0) + 1
    assert deck == {
        cid: card["copies"] for cid, card in table.state["content"]["combat_cards"].items()
    }
    assert sum(deck.values()) == 24


def test_each_player_starts_with_the_contents_number_of_cards(table):
    table.refuses(
        "GameStarted",
        "each player starts with 2 combat card(s) (Bo has 1)",
        game="g1",
        order=["ann", "bo"],
        hands={"ann": ["spear-1", "helm-1"], "bo": ["spear-1"]},
    )


def test_starting_hands_hold_no_more_copies_of_a_card_than_the_deck(table3):
    table3.refuses(
        "GameStarted",
        "the starting hands hold more copies of a card than the deck",
        game="g1",
        order=["ann", "bo", "cy"],
        hands={"ann": ["charge-3", "charge-3"], "bo": ["charge-3", "helm-1"], "cy": ["helm-1"] * 2},
    )


def test_cards_granted_are_drawn_up_to_the_hand_limit(table):
    table.start()
    table.hand("ann", "spear-1", "spear-2")
    table.grant("ann", "cards", source="the event The Harvest Feast", count=2)
    table.refuses(
        "CombatCardsDrawn",
        "Ann draws 1 combat card(s) here, not 2 (a draw of 2, a hand holds at most 5, Ann holds 4)",
        player="ann",
        cards=["helm-3", "charge-3"],
    )
    table.refuses(
        "CombatCardsDrawn",
        "there is no combat card 'joker' in this game's deck",
        player="ann",
        cards=["joker"],
    )
    table.play("CombatCardsDrawn", player="ann", cards=["helm-3"])
    assert len(table.game["hands"]["ann"]) == 5
    assert table.words() == "Ann drew 1 combat card (the event The Harvest Feast)"


def test_a_card_is_drawn_only_while_the_deck_holds_it(table):
    table.start()
    table.grant("ann", "cards", count=1)
    table.hand("ann", "charge-3", "charge-3")
    table.refuses(
        "CombatCardsDrawn",
        "a card is drawn from the deck: no Bronze Charge is left in it",
        player="ann",
        cards=["charge-3"],
    )


def test_the_discard_pile_is_shuffled_into_the_deck_when_the_deck_runs_out(table):
    table.start()
    game = table.game
    game["discard"] = dict(game["deck"])
    game["deck"] = {"spear-1": 1}
    table.grant("ann", "cards", count=2)
    table.play("CombatCardsDrawn", player="ann", cards=["spear-1", "spear-2"])
    assert table.game["reshuffles"] == 1 and table.game["discard"] == {}
    assert "spear-2" in table.game["hands"]["ann"]


def test_the_server_draws_what_is_left_in_the_deck(table):
    table.start()
    table.grant("ann", "cards", count=3)
    drawn = server_draw(table.state, "grant", {"player": "ann"}, SeededRoller(3))
    assert len(drawn) == 3
    table.play("CombatCardsDrawn", player="ann", cards=drawn)
    hands = server_draw(table.state, "game", {"order": ["ann", "bo"]}, SeededRoller(3))
    assert [len(h) for h in hands.values()] == [2, 2]


def test_a_hand_is_hidden_from_the_other_players_and_its_count_is_public(table):
    table.start()
    public = system.public_state(table.state)
    assert "hands" not in public["game"] and "deck" not in public["game"]
    assert public["game"]["hand_counts"] == {"ann": 2, "bo": 2}
    assert public["game"]["deck_count"] == 20
    assert system.visible_state(table.state, "ann")["hand"] == ["feint-0", "helm-1"]
    assert "hand" not in system.visible_state(table.state, None)


def test_drawn_cards_show_in_the_log_only_to_the_player_who_drew_them_until_the_game_ends(table):
    table.start(heroes={"ann": "eirinos", "bo": "phlios"})
    data = {"player": "ann", "monster": "boar", "cards": ["spear-1"]}
    table.play("HuntBegan", **data)
    state = table.state
    assert system.visible_event_data(state, "HuntBegan", data, 3, "ann") is data
    assert system.visible_event_data(state, "HuntBegan", data, 3, "bo")["cards"] == (
        "1 cards, hidden"
    )
    assert system.visible_event_data(state, "HuntBegan", data, 3, None)["cards"] == (
        "1 cards, hidden"
    )
    table.play("HeroAttacked", player="ann", wounds=[])
    table.play("TurnEnded", player="ann")
    table.play("GameAbandoned", reason="the night is late")
    assert system.visible_event_data(table.state, "HuntBegan", data, 3, "bo") is data
