"""Unit tests of Claim's games: settings, the deal, the end of a game and the standings."""

import copy

import pytest

from tracker.errors import InvalidEvent, RuleViolation
from tracker.systems.claim import system
from tracker.systems.claim.rules import faction_results


def refused(h, state, type_, words, **data):
    before = copy.deepcopy(state)
    with pytest.raises(RuleViolation) as caught:
        h.apply(state, type_, **data)
    assert caught.value.message == words
    assert state == before


def finish(h, state, ana_scores, ben_scores, last=("goblins-1", "goblins-2")):
    """Play the last trick (26) from a state whose score piles are set by hand.

    The last trick is won by Ben (goblins-2 over goblins-1) and scores both cards for him.
    """
    game = h.at_trick(
        26,
        ana=[last[0]],
        ben=[last[1]],
        scores={"ana": ana_scores, "ben": ben_scores},
        state=state,
    )
    h.play(game, "ana", last[0])
    return h.play(game, "ben", last[1])


# -- settings ----------------------------------------------------------------------------------


def test_claim_is_played_by_exactly_two_players():
    with pytest.raises(InvalidEvent) as caught:
        system.load_settings(system.prepare_settings({"players": [{"id": "a", "name": "A"}]}))
    assert "Claim is played by exactly 2 players" in caught.value.message


def test_the_two_players_need_different_ids(h):
    settings = system.load_settings(
        system.prepare_settings({"players": [{"id": "a", "name": "A"}, {"id": "a", "name": "B"}]})
    )
    with pytest.raises(RuleViolation) as caught:
        system.initial_state(settings)
    assert caught.value.message == "the two players need different ids (both are 'a')"


def test_a_campaign_carries_its_deck_in_its_settings(h):
    settings = h.settings()
    assert settings["deck"] == "standard"
    assert settings["hand_size"] == 13
    assert [f["id"] for f in settings["factions"]] == [
        "goblins",
        "knights",
        "undead",
        "dwarves",
        "doppelgangers",
    ]
    assert system.prepare_settings(settings) is settings


def test_the_standard_deck_holds_52_cards_in_five_factions(h):
    deck = h.fresh()["deck"]
    assert len(deck) == 52
    assert deck.count("goblins-0") == 5
    assert sum(card.startswith("knights-") for card in deck) == 8
    assert "knights-0" not in deck and "knights-1" not in deck


def test_an_unknown_deck_is_refused(h):
    with pytest.raises(InvalidEvent) as caught:
        system.prepare_settings({"players": h.PLAYERS, "deck": "tarot"})
    assert caught.value.message == "settings: there is no deck 'tarot' (there are: standard)"


def test_a_deck_of_a_faction_the_rules_do_not_know_is_refused(h):
    settings = h.settings()
    settings["factions"] = [
        *settings["factions"],
        {"id": "elves", "name": "Elves", "one": "Elf", "values": [1, 2, 3, 4]},
    ]
    with pytest.raises(RuleViolation) as caught:
        system.initial_state(settings)
    assert caught.value.message.endswith("not elves")


# -- the deal ----------------------------------------------------------------------------------


def test_a_deal_gives_each_player_its_hand_and_leaves_the_rest_as_the_deck(h):
    deal = h.arrange(ana=["knights-9"], stock=["undead-3"])
    state = h.apply(h.fresh(), "GameDealt", game=1, leader="ben", deal=deal)
    game = state["game"]
    assert game["hands"] == deal["hands"]
    assert game["hands"] is not deal["hands"]
    assert game["stock"] == deal["stock"]
    assert game["trick"] == {
        "number": 1,
        "phase": 1,
        "leader": "ben",
        "turned_up": None,
        "cards": [],
    }
    assert game["awaiting"] == "turn-up"


def test_playing_never_changes_the_events_deal(h):
    deal = h.arrange()
    kept = copy.deepcopy(deal)
    state = h.apply(h.fresh(), "GameDealt", game=1, leader="ana", deal=deal)
    h.play_until(state, 15)
    assert deal == kept


def test_no_card_can_be_played_before_a_deal(h, state):
    refused(
        h,
        state,
        "CardPlayed",
        "no game has been dealt yet: deal game 1 before playing a card",
        game=1,
        player="ana",
        card="goblins-5",
    )


def test_a_deal_uses_every_card_of_the_deck_exactly_once(h, state):
    deal = h.arrange(ana=["knights-9"], stock=["knights-8"])
    deal["stock"][0] = "knights-9"
    refused(
        h,
        state,
        "GameDealt",
        "a deal uses every card of the deck exactly once (it has knights-8 0 times (the deck "
        "has 1), knights-9 2 times (the deck has 1))",
        game=1,
        leader="ana",
        deal=deal,
    )


def test_each_player_is_dealt_13_cards(h, state):
    deal = h.arrange()
    deal["hands"]["ben"].append(deal["hands"]["ana"].pop())
    refused(
        h,
        state,
        "GameDealt",
        "each player is dealt 13 cards (Ana was dealt 12)",
        game=1,
        leader="ana",
        deal=deal,
    )


def test_the_deck_left_after_the_deal_holds_26_cards(h, state):
    deal = h.arrange()
    deal["stock"].pop()
    refused(
        h,
        state,
        "GameDealt",
        "the deck left after the deal holds 26 cards, not 25",
        game=1,
        leader="ana",
        deal=deal,
    )


def test_a_deal_gives_one_hand_to_each_player(h, state):
    deal = h.arrange()
    deal["hands"]["zed"] = deal["hands"].pop("ben")
    refused(
        h,
        state,
        "GameDealt",
        "a deal gives one hand to each player (ana and ben), not to ana, zed",
        game=1,
        leader="ana",
        deal=deal,
    )


def test_the_first_leader_is_one_of_the_players(h, state):
    refused(
        h,
        state,
        "GameDealt",
        "the first leader is one of the players (ana or ben), not 'zed'",
        game=1,
        leader="zed",
        deal=h.arrange(),
    )


def test_games_are_dealt_in_order(h, state):
    refused(
        h,
        state,
        "GameDealt",
        "the next game to deal is game 1, not game 2",
        game=2,
        leader="ana",
        deal=h.arrange(),
    )


def test_a_game_cannot_be_dealt_while_another_is_under_way(h):
    state = h.play_until(h.dealt(), 3)
    refused(
        h,
        state,
        "GameDealt",
        "game 1 is still being played (trick 3 of 26): finish it before dealing another",
        game=2,
        leader="ana",
        deal=h.arrange(),
    )


def test_a_card_for_another_game_is_refused(h):
    state = h.dealt()
    refused(
        h,
        state,
        "CardTurnedUp",
        "game 1 is being played, not game 2",
        game=2,
        card="goblins-0",
    )


# -- the end of a game -------------------------------------------------------------------------


def test_the_game_ends_after_26_tricks_with_every_card_played(h):
    state = h.dealt()
    while not state["game"]["over"]:
        h.play_trick(state)
    game = state["game"]
    assert len(game["tricks"]) == 26
    assert [t["phase"] for t in game["tricks"]] == [1] * 13 + [2] * 13
    assert game["hands"] == {"ana": [], "ben": []}
    assert game["followers"] == {"ana": [], "ben": []}
    assert game["stock"] == []
    assert game["trick"] is None and game["awaiting"] is None
    assert sorted(game["discards"] + game["scores"]["ana"] + game["scores"]["ben"]) == sorted(
        state["deck"]
    )
    assert state["games_played"] == 1


def test_a_card_played_after_the_end_of_the_game_is_refused(h):
    state = finish(h, None, [], [])
    refused(
        h,
        state,
        "CardPlayed",
        "game 1 is over after 26 tricks: deal game 2 before playing a card",
        game=1,
        player="ana",
        card="goblins-5",
    )


def test_a_card_turned_up_after_the_end_of_the_game_is_refused(h):
    state = h.dealt()
    while not state["game"]["over"]:
        h.play_trick(state)
    refused(
        h,
        state,
        "CardTurnedUp",
        "game 1 is over after 26 tricks: deal game 2 before turning up a card",
        game=1,
        card="goblins-5",
    )


def test_the_player_with_more_cards_of_a_faction_wins_it():
    results = faction_results({"ana": ["undead-0", "undead-1"], "ben": ["undead-9"]}, ["undead"])
    assert results["undead"]["winner"] == "ana"
    assert results["undead"]["counts"] == {"ana": 2, "ben": 1}


def test_on_equal_counts_the_highest_card_wins_the_faction():
    results = faction_results(
        {"ana": ["knights-2", "knights-9"], "ben": ["knights-8", "knights-7"]}, ["knights"]
    )
    assert results["knights"]["winner"] == "ana"
    assert results["knights"]["highest"] == {"ana": 9, "ben": 8}


def test_a_faction_tied_on_count_and_highest_card_is_won_by_nobody():
    results = faction_results(
        {"ana": ["goblins-0", "goblins-4"], "ben": ["goblins-0", "goblins-4"]},
        ["goblins", "dwarves"],
    )
    assert results["goblins"]["winner"] is None
    assert results["dwarves"] == {
        "winner": None,
        "counts": {"ana": 0, "ben": 0},
        "highest": {"ana": None, "ben": None},
    }


def test_a_doppelganger_in_a_score_pile_counts_only_for_the_doppelgangers():
    results = faction_results(
        {"ana": ["doppelgangers-3"], "ben": ["undead-1"]}, ["undead", "doppelgangers"]
    )
    assert results["undead"]["winner"] == "ben"
    assert results["doppelgangers"]["winner"] == "ana"


def test_the_player_who_wins_3_factions_wins_the_game(h):
    state = finish(
        h,
        None,
        ana_scores=["goblins-3", "goblins-4", "knights-2", "undead-5"],
        ben_scores=["knights-9", "dwarves-1", "doppelgangers-0"],
    )
    # Ben also scores goblins-1 and goblins-2 in the last trick: goblins tied 2-2, Ana's 4 wins.
    result = state["game"]["result"]
    assert {k: r["winner"] for k, r in result["factions"].items()} == {
        "goblins": "ana",
        "knights": "ben",
        "undead": "ana",
        "dwarves": "ben",
        "doppelgangers": "ben",
    }
    assert result["won"] == {"ana": 2, "ben": 3}
    assert result["winner"] == "ben"


def test_a_game_without_3_factions_for_anyone_has_no_winner(h):
    state = finish(h, None, ana_scores=["knights-3"], ben_scores=["knights-3"])
    result = state["game"]["result"]
    assert result["won"] == {"ana": 0, "ben": 1}
    assert result["winner"] is None
    assert state["games_drawn"] == 1
    assert state["games"][-1]["winner"] is None


def test_winning_3_factions_wins_the_game_and_counts_in_the_standings(h):
    state = finish(
        h,
        None,
        ana_scores=["knights-3", "undead-5", "dwarves-0", "doppelgangers-1"],
        ben_scores=[],
    )
    result = state["game"]["result"]
    assert result["won"] == {"ana": 4, "ben": 1}
    assert result["winner"] == "ana"
    assert state["standings"] == {
        "ana": {"games_won": 1, "games_lost": 0, "factions_won": 4},
        "ben": {"games_won": 0, "games_lost": 1, "factions_won": 1},
    }
    assert state["games"] == [
        {
            "number": 1,
            "winner": "ana",
            "won": {"ana": 4, "ben": 1},
            "factions": {
                "goblins": "ben",
                "knights": "ana",
                "undead": "ana",
                "dwarves": "ana",
                "doppelgangers": "ana",
            },
            "first_version": state["game"]["first_version"],
            "last_version": state["game"]["last_version"],
        }
    ]


def test_the_standings_add_up_over_a_series_of_games(h):
    state = finish(h, None, ana_scores=["knights-3", "undead-5", "dwarves-0"], ben_scores=[])
    state = finish(h, state, ana_scores=[], ben_scores=["knights-3", "undead-5"])
    assert state["game"]["number"] == 2
    assert state["games_played"] == 2
    assert [g["winner"] for g in state["games"]] == ["ana", "ben"]
    assert state["standings"]["ana"] == {"games_won": 1, "games_lost": 1, "factions_won": 3}
    assert state["standings"]["ben"] == {"games_won": 1, "games_lost": 1, "factions_won": 4}


def test_a_new_game_is_dealt_after_the_last_one_ended(h):
    state = finish(h, None, [], [])
    h.apply(state, "GameDealt", game=2, leader="ben", deal=h.arrange())
    assert state["game"]["number"] == 2
    assert state["game"]["over"] is False
    assert state["games_played"] == 1
