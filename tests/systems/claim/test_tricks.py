"""Unit tests of Claim's tricks: turning up, leading, following, winning, where cards go."""

import copy

import pytest

from tracker.errors import RuleViolation


def refused(h, state, type_, words, **data):
    """Assert that the event is refused with `words` and leaves the state as it was."""
    before = copy.deepcopy(state)
    with pytest.raises(RuleViolation) as caught:
        h.apply(state, type_, **data)
    assert caught.value.message == words
    assert state == before


# -- turning up --------------------------------------------------------------------------------


def test_the_turned_up_card_is_the_top_card_of_the_deck(h):
    state = h.dealt(stock=["knights-9", "undead-0"])
    h.turn_up(state)
    assert state["game"]["trick"]["turned_up"] == "knights-9"
    assert state["game"]["stock"][0] == "undead-0"
    assert state["game"]["awaiting"] == "lead"


def test_a_turned_up_card_other_than_the_top_of_the_deck_is_refused(h):
    state = h.dealt(stock=["knights-9"])
    refused(
        h,
        state,
        "CardTurnedUp",
        "the turned-up card is the top card of the deck, and knights-2 is not (trick 1)",
        game=1,
        card="knights-2",
    )


def test_a_card_is_turned_up_before_the_leader_plays(h):
    state = h.dealt(ana=["goblins-5"])
    refused(
        h,
        state,
        "CardPlayed",
        "a card is turned up before the leader plays (trick 1: Ana played the 5 of Goblins "
        "too soon)",
        game=1,
        player="ana",
        card="goblins-5",
    )


def test_only_one_card_is_turned_up_for_a_trick(h):
    state = h.dealt(stock=["knights-9", "undead-0"])
    h.turn_up(state)
    refused(
        h,
        state,
        "CardTurnedUp",
        "a card is already turned up for trick 1 (the 9 of Knights)",
        game=1,
        card="undead-0",
    )


# -- leading and following ---------------------------------------------------------------------


def test_the_leader_may_lead_any_card_whatever_the_turned_up_card(h):
    state = h.dealt(ana=["dwarves-3"], stock=["knights-9"])
    h.turn_up(state)
    h.play(state, "ana", "dwarves-3")
    assert state["game"]["trick"]["cards"] == [{"player": "ana", "card": "dwarves-3"}]
    assert state["game"]["turn"] == "ben"


def test_the_follower_must_follow_the_led_faction_when_it_holds_one(h):
    state = h.dealt(ana=["goblins-5"], ben=["goblins-2", "knights-9"])
    h.turn_up(state)
    h.play(state, "ana", "goblins-5")
    refused(
        h,
        state,
        "CardPlayed",
        "a player holding Goblins must follow Goblins or play a Doppelganger "
        "(Ben played the 9 of Knights on the 5 of Goblins)",
        game=1,
        player="ben",
        card="knights-9",
    )


def test_a_doppelganger_may_follow_even_when_holding_the_led_faction(h):
    state = h.dealt(ana=["goblins-5"], ben=["goblins-2", "doppelgangers-1"])
    h.turn_up(state)
    h.play(state, "ana", "goblins-5")
    h.play(state, "ben", "doppelgangers-1")
    assert state["game"]["tricks"][0]["winner"] == "ana"


def test_a_follower_without_the_led_faction_may_play_any_card(h):
    state = h.dealt(ana=["goblins-5"], ben=["dwarves-9"], void={"ben": {"goblins"}})
    h.turn_up(state)
    h.play(state, "ana", "goblins-5")
    h.play(state, "ben", "dwarves-9")
    assert state["game"]["tricks"][0]["winner"] == "ana"


def test_a_led_doppelganger_must_be_followed_by_a_doppelganger_while_one_is_held(h):
    state = h.dealt(ana=["doppelgangers-4"], ben=["doppelgangers-1", "knights-9"])
    h.turn_up(state)
    h.play(state, "ana", "doppelgangers-4")
    refused(
        h,
        state,
        "CardPlayed",
        "a Doppelganger led must be followed by a Doppelganger while you hold one "
        "(Ben played the 9 of Knights on the 4 of Doppelgangers)",
        game=1,
        player="ben",
        card="knights-9",
    )


def test_a_led_doppelganger_makes_doppelganger_the_led_faction(h):
    state = h.dealt(ana=["doppelgangers-4"], ben=["knights-9"], void={"ben": {"doppelgangers"}})
    h.turn_up(state)
    h.play(state, "ana", "doppelgangers-4")
    h.play(state, "ben", "knights-9")
    trick = state["game"]["tricks"][0]
    assert trick["led"] == "doppelgangers"
    assert trick["winner"] == "ana"


def test_the_leader_leads_and_the_follower_follows_in_turn(h):
    state = h.dealt(ana=["goblins-5"], ben=["goblins-7"])
    h.turn_up(state)
    refused(
        h,
        state,
        "CardPlayed",
        "it is Ana's turn to lead trick 1, not Ben's",
        game=1,
        player="ben",
        card="goblins-7",
    )
    h.play(state, "ana", "goblins-5")
    refused(
        h,
        state,
        "CardPlayed",
        "it is Ben's turn to follow in trick 1, not Ana's",
        game=1,
        player="ana",
        card=state["game"]["hands"]["ana"][0],
    )


def test_a_card_the_player_does_not_hold_is_refused(h):
    state = h.dealt(ana=["goblins-5"], ben=["knights-9"])
    h.turn_up(state)
    refused(
        h,
        state,
        "CardPlayed",
        "Ana does not hold the 9 of Knights in hand",
        game=1,
        player="ana",
        card="knights-9",
    )


def test_someone_who_is_not_a_player_cannot_play(h):
    state = h.dealt()
    h.turn_up(state)
    refused(
        h,
        state,
        "CardPlayed",
        "'zed' is not a player of this campaign (ana or ben)",
        game=1,
        player="zed",
        card="goblins-5",
    )


# -- winning a trick ---------------------------------------------------------------------------


def test_the_highest_card_of_the_led_faction_wins_the_trick(h):
    state = h.dealt(ana=["undead-3"], ben=["undead-7"])
    h.play_trick(state, "undead-3", "undead-7")
    assert state["game"]["tricks"][0]["winner"] == "ben"


def test_a_card_of_another_faction_never_wins_whatever_its_value(h):
    state = h.dealt(ana=["undead-0"], ben=["dwarves-9"], void={"ben": {"undead"}})
    h.play_trick(state, "undead-0", "dwarves-9")
    assert state["game"]["tricks"][0]["winner"] == "ana"


def test_equal_values_of_the_led_faction_go_to_the_leader(h):
    state = h.dealt(ana=["goblins-0"], ben=["goblins-0"])
    h.play_trick(state, "goblins-0", "goblins-0")
    assert state["game"]["tricks"][0]["winner"] == "ana"


def test_a_doppelganger_of_equal_value_loses_to_the_leader(h):
    state = h.dealt(ana=["undead-5"], ben=["doppelgangers-5"])
    h.play_trick(state, "undead-5", "doppelgangers-5")
    assert state["game"]["tricks"][0]["winner"] == "ana"


def test_a_knight_beats_a_goblin_whatever_the_values(h):
    state = h.dealt(ana=["goblins-9"], ben=["knights-2"], void={"ben": {"goblins"}})
    h.play_trick(state, "goblins-9", "knights-2")
    assert state["game"]["tricks"][0]["winner"] == "ben"


def test_a_goblin_never_beats_a_led_knight(h):
    state = h.dealt(ana=["knights-2"], ben=["goblins-9"], void={"ben": {"knights"}})
    h.play_trick(state, "knights-2", "goblins-9")
    assert state["game"]["tricks"][0]["winner"] == "ana"


def test_a_following_doppelganger_counts_as_the_led_faction(h):
    state = h.dealt(ana=["knights-5"], ben=["doppelgangers-8"])
    h.play_trick(state, "knights-5", "doppelgangers-8")
    assert state["game"]["tricks"][0]["winner"] == "ben"


def test_a_doppelganger_has_no_knight_power_over_goblins(h):
    state = h.dealt(ana=["goblins-6"], ben=["doppelgangers-2"])
    h.play_trick(state, "goblins-6", "doppelgangers-2")
    assert state["game"]["tricks"][0]["winner"] == "ana"


def test_the_winner_of_a_trick_leads_the_next(h):
    state = h.dealt(ana=["goblins-5"], ben=["goblins-7"])
    h.play_trick(state, "goblins-5", "goblins-7")
    game = state["game"]
    assert game["trick"]["number"] == 2
    assert game["trick"]["leader"] == "ben"
    h.turn_up(state)
    refused(
        h,
        state,
        "CardPlayed",
        "it is Ben's turn to lead trick 2, not Ana's",
        game=1,
        player="ana",
        card=game["hands"]["ana"][0],
    )


# -- where the cards go in phase one -----------------------------------------------------------


def test_the_winner_takes_the_turned_up_card_and_the_loser_the_next_deck_card(h):
    state = h.dealt(ana=["goblins-5"], ben=["goblins-7"], stock=["knights-9", "dwarves-0"])
    h.play_trick(state, "goblins-5", "goblins-7")
    game = state["game"]
    assert game["followers"] == {"ana": ["dwarves-0"], "ben": ["knights-9"]}
    assert len(game["stock"]) == 24
    assert game["awaiting"] == "turn-up"


def test_undead_played_in_phase_one_go_to_the_winners_score_pile(h):
    state = h.dealt(ana=["undead-3", "undead-8"], ben=["undead-7", "goblins-1"])
    h.play_trick(state, "undead-3", "undead-7")
    assert state["game"]["scores"] == {"ana": [], "ben": ["undead-3", "undead-7"]}
    assert state["game"]["discards"] == []


def test_an_undead_played_with_another_card_scores_alone(h):
    state = h.dealt(ana=["undead-8"], ben=["goblins-1"], void={"ben": {"undead"}})
    h.play_trick(state, "undead-8", "goblins-1")
    assert state["game"]["scores"] == {"ana": ["undead-8"], "ben": []}
    assert state["game"]["discards"] == ["goblins-1"]


def test_a_turned_up_undead_goes_to_the_followers_not_the_score_pile(h):
    state = h.dealt(ana=["goblins-5"], ben=["goblins-7"], stock=["undead-9"])
    h.play_trick(state, "goblins-5", "goblins-7")
    assert state["game"]["followers"]["ben"] == ["undead-9"]
    assert state["game"]["scores"] == {"ana": [], "ben": []}


def test_other_cards_played_in_phase_one_are_discarded(h):
    state = h.dealt(ana=["dwarves-5", "knights-3"], ben=["dwarves-7", "knights-8"])
    h.play_trick(state, "dwarves-5", "dwarves-7")
    h.play_trick(state, "knights-8", "knights-3")
    assert state["game"]["discards"] == ["dwarves-5", "dwarves-7", "knights-8", "knights-3"]
    assert state["game"]["scores"] == {"ana": [], "ben": []}


def test_a_doppelganger_played_in_phase_one_is_discarded_without_the_undead_power(h):
    state = h.dealt(ana=["undead-2"], ben=["doppelgangers-6"])
    h.play_trick(state, "undead-2", "doppelgangers-6")
    assert state["game"]["scores"] == {"ana": [], "ben": ["undead-2"]}
    assert state["game"]["discards"] == ["doppelgangers-6"]


def test_phase_one_ends_after_13_tricks_and_the_followers_become_the_hands(h):
    state = h.play_until(h.dealt(), 13)
    h.play_trick(state)
    game = state["game"]
    collected = {"ana": [], "ben": []}
    for trick in game["tricks"]:
        for move in trick["moves"]:
            if move["pile"] == "followers":
                collected[move["player"]].append(move["card"])
    assert game["phase"] == 2
    assert game["trick"]["number"] == 14
    assert game["stock"] == []
    assert game["hands"] == collected
    assert {p: len(cards) for p, cards in game["hands"].items()} == {"ana": 13, "ben": 13}
    assert game["followers"] == {"ana": [], "ben": []}


# -- phase two ---------------------------------------------------------------------------------


def test_nothing_is_turned_up_in_phase_two(h):
    state = h.at_trick(14, ana=["goblins-5"], ben=["goblins-7"])
    refused(
        h,
        state,
        "CardTurnedUp",
        "nothing is turned up in phase two (trick 14)",
        game=1,
        card="goblins-5",
    )


def test_the_leader_plays_at_once_in_phase_two(h):
    state = h.at_trick(14, ana=["goblins-5"], ben=["goblins-7"])
    h.play(state, "ana", "goblins-5")
    assert state["game"]["awaiting"] == "follow"


def test_in_phase_two_a_player_plays_only_the_followers_it_collected(h):
    state = h.play_until(h.dealt(), 14)
    game = state["game"]
    leader = game["trick"]["leader"]
    name = {"ana": "Ana", "ben": "Ben"}[leader]
    card = game["discards"][0]
    assert card not in game["hands"][leader]
    refused(
        h,
        state,
        "CardPlayed",
        f"{name} does not hold the {card.split('-')[1]} of {card.split('-')[0].capitalize()} "
        "in hand (the followers won in phase one)",
        game=1,
        player=leader,
        card=card,
    )


def test_in_phase_two_the_winner_scores_both_cards(h):
    state = h.at_trick(14, ana=["goblins-5", "undead-1"], ben=["goblins-7", "undead-0"])
    h.play(state, "ana", "goblins-5")
    h.play(state, "ben", "goblins-7")
    assert state["game"]["scores"] == {"ana": [], "ben": ["goblins-5", "goblins-7"]}
    assert state["game"]["followers"] == {"ana": [], "ben": []}
    assert state["game"]["discards"] == []


def test_undead_played_in_phase_two_score_for_the_winner_like_any_card(h):
    state = h.at_trick(14, ana=["undead-4"], ben=["undead-2"])
    h.play(state, "ana", "undead-4")
    h.play(state, "ben", "undead-2")
    assert state["game"]["scores"] == {"ana": ["undead-4", "undead-2"], "ben": []}


def test_dwarves_played_in_phase_two_go_to_the_losers_score_pile(h):
    state = h.at_trick(14, ana=["dwarves-8", "goblins-3"], ben=["dwarves-2", "dwarves-9"])
    h.play(state, "ana", "dwarves-8")
    h.play(state, "ben", "dwarves-2")
    assert state["game"]["scores"] == {"ana": [], "ben": ["dwarves-8", "dwarves-2"]}
    h.play(state, "ana", "goblins-3")
    h.play(state, "ben", "dwarves-9")
    assert state["game"]["tricks"][-1]["winner"] == "ana"
    assert state["game"]["scores"] == {
        "ana": ["goblins-3"],
        "ben": ["dwarves-8", "dwarves-2", "dwarves-9"],
    }


def test_dwarves_played_in_phase_one_are_discarded(h):
    state = h.dealt(ana=["dwarves-8"], ben=["dwarves-2"])
    h.play_trick(state, "dwarves-8", "dwarves-2")
    assert state["game"]["discards"] == ["dwarves-8", "dwarves-2"]
    assert state["game"]["scores"] == {"ana": [], "ben": []}


def test_following_is_enforced_in_phase_two_too(h):
    state = h.at_trick(14, ana=["knights-5"], ben=["knights-2", "goblins-9"])
    h.play(state, "ana", "knights-5")
    refused(
        h,
        state,
        "CardPlayed",
        "a player holding Knights must follow Knights or play a Doppelganger "
        "(Ben played the 9 of Goblins on the 5 of Knights)",
        game=1,
        player="ben",
        card="goblins-9",
    )
