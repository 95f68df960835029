"""A match's setup: the Leaders chosen, the deck shuffled, the first player drawn."""

from __future__ import annotations

from leaders_table import ALICE, BOB, DECK, QUEEN, REGENT, Table


def test_each_player_chooses_a_leader_that_stands_on_its_own_corner(table):
    table.do("MatchStarted", match="m1")
    table.do("LeaderChosen", player=ALICE, leader=QUEEN)
    table.do("LeaderChosen", player=BOB, leader=REGENT)
    assert table.at(QUEEN) == (0, 3)
    assert table.at(REGENT) == (0, -3)
    assert table.match["phase"] == "deck"


def test_a_leader_already_chosen_cannot_be_chosen_again(table):
    table.do("MatchStarted", match="m1")
    table.do("LeaderChosen", player=ALICE, leader=QUEEN)
    table.refuses(
        "LeaderChosen", "the Ember Queen is already Alice's Leader", player=BOB, leader=QUEEN
    )
    table.refuses("LeaderChosen", "Alice has already chosen a Leader", player=ALICE, leader=REGENT)


def test_the_shuffled_deck_turns_up_a_row_of_three(table):
    table.do("MatchStarted", match="m1")
    table.do("LeaderChosen", player=ALICE, leader=QUEEN)
    table.do("LeaderChosen", player=BOB, leader=REGENT)
    table.do("DeckShuffled", deck=DECK)
    assert table.match["row"] == ["acrobat", "rider", "colossus"]
    assert table.match["deck"] == DECK[3:]


def test_a_shuffled_deck_holds_every_character_card_once(table):
    table.do("MatchStarted", match="m1")
    table.do("LeaderChosen", player=ALICE, leader=QUEEN)
    table.do("LeaderChosen", player=BOB, leader=REGENT)
    table.refuses("DeckShuffled", "missing: nemesis", deck=DECK[:-1])
    table.refuses("DeckShuffled", "unknown: dragon", deck=[*DECK, "dragon"])


def test_the_first_player_is_drawn_after_the_row_and_takes_the_first_turn(table):
    table.do("MatchStarted", match="m1")
    table.refuses("FirstPlayerDrawn", "once the Leaders are chosen", first=ALICE)
    table.do("LeaderChosen", player=ALICE, leader=QUEEN)
    table.do("LeaderChosen", player=BOB, leader=REGENT)
    table.do("DeckShuffled", deck=DECK)
    table.do("FirstPlayerDrawn", first=BOB)
    assert (table.match["active"], table.match["phase"], table.match["turn"]) == (BOB, "action", 1)


def test_a_new_match_cannot_start_while_one_is_under_way():
    table = Table().start()
    table.refuses("MatchStarted", "match 'm1' is still under way", match="m2")
