"""Unit tests of what Claim shows: each player's view, the public state, sides and words."""

from tracker.systems.claim import system


def test_a_player_sees_its_hand_and_both_score_piles_but_not_the_other_hand_or_followers(h):
    state = h.dealt(ana=["undead-3"], ben=["undead-7"], stock=["knights-9", "dwarves-0"])
    h.play_trick(state, "undead-3", "undead-7")
    view = system.visible_state(state, "ana")
    game = view["game"]
    assert game["hand"] == state["game"]["hands"]["ana"]
    assert game["hand_counts"] == {"ana": 12, "ben": 12}
    assert game["scores"] == {"ana": [], "ben": ["undead-3", "undead-7"]}
    assert game["follower_counts"] == {"ana": 1, "ben": 1}
    assert "hands" not in game and "followers" not in game and "stock" not in game
    assert game["stock_count"] == 24
    assert state["game"]["hands"]["ben"] not in game.values()


def test_a_player_sees_the_turned_up_card_and_the_cards_played(h):
    state = h.dealt(ana=["goblins-5"], stock=["knights-9"])
    h.turn_up(state)
    h.play(state, "ana", "goblins-5")
    trick = system.visible_state(state, "ben")["game"]["trick"]
    assert trick["turned_up"] == "knights-9"
    assert trick["cards"] == [{"player": "ana", "card": "goblins-5"}]


def test_a_blind_follower_card_stays_hidden_until_the_game_is_over(h):
    state = h.dealt(ana=["goblins-5"], ben=["goblins-7"], stock=["knights-9", "dwarves-0"])
    h.play_trick(state, "goblins-5", "goblins-7")
    moves = system.visible_state(state, "ana")["game"]["tricks"][0]["moves"]
    assert {"card": "knights-9", "pile": "followers", "player": "ben"} in moves
    assert {"card": None, "pile": "followers", "player": "ana", "blind": True} in moves
    assert state["game"]["tricks"][0]["moves"][-1]["card"] == "dwarves-0"
    while not state["game"]["over"]:
        h.play_trick(state)
    moves = system.visible_state(state, "ana")["game"]["tricks"][0]["moves"]
    assert {"card": "dwarves-0", "pile": "followers", "player": "ana", "blind": True} in moves


def test_the_player_to_move_is_offered_only_the_cards_it_may_play(h):
    state = h.dealt(ana=["goblins-5"], ben=["goblins-2", "doppelgangers-1", "knights-9"])
    h.turn_up(state)
    assert system.visible_state(state, "ben")["game"]["legal"] == []
    h.play(state, "ana", "goblins-5")
    legal = system.visible_state(state, "ben")["game"]["legal"]
    assert "goblins-2" in legal and "doppelgangers-1" in legal
    assert "knights-9" not in legal
    assert system.visible_state(state, "ana")["game"]["legal"] == []


def test_the_public_state_shows_no_hand_of_a_game_in_progress(h):
    state = h.dealt()
    public = system.public_state(state)
    assert public["game"]["hand"] is None
    assert public["game"]["hand_counts"] == {"ana": 13, "ben": 13}
    assert "hands" not in public["game"]
    assert public["standings"] == state["standings"]


def test_the_sides_are_the_two_players(h, state):
    assert system.sides(state) == {"ana": "Ana", "ben": "Ben"}


def test_a_card_is_played_for_its_player_and_a_deal_for_both(h, state):
    assert system.sides_of(state, "CardPlayed", {"player": "ben"}) == {"ben"}
    assert system.sides_of(state, "GameDealt", {"game": 1}) == {"ana", "ben"}
    assert system.sides_of(state, "CardTurnedUp", {"game": 1}) == {"ana", "ben"}


def test_each_event_is_told_in_one_line_of_words(h):
    state = h.fresh()
    deal = h.arrange(ana=["goblins-5"], ben=["goblins-7"], stock=["knights-9"])
    dealt = h.event("GameDealt", game=1, leader="ana", deal=deal)
    system.apply(state, dealt)
    assert system.describe(state, dealt) == (
        "Game 1 was dealt, 13 cards each; Ana leads the first trick"
    )
    turned = h.event("CardTurnedUp", game=1, card="knights-9")
    system.apply(state, turned)
    assert system.describe(state, turned) == "The 9 of Knights was turned up for trick 1"
    led = h.event("CardPlayed", game=1, player="ana", card="goblins-5")
    system.apply(state, led)
    assert system.describe(state, led) == "Ana led the 5 of Goblins in trick 1"
    followed = h.event("CardPlayed", game=1, player="ben", card="goblins-7")
    system.apply(state, followed)
    assert system.describe(state, followed) == (
        "Ben followed with the 7 of Goblins; Ben won trick 1"
    )


def test_the_last_card_of_a_game_tells_its_result(h):
    state = h.at_trick(26, ana=["goblins-1"], ben=["goblins-2"])
    h.play(state, "ana", "goblins-1")
    last = h.event("CardPlayed", game=1, player="ben", card="goblins-2")
    system.apply(state, last)
    assert system.describe(state, last) == (
        "Ben followed with the 2 of Goblins; Ben won trick 26; "
        "game 1 is over with no winner (Ana won 0 factions, Ben 1)"
    )
