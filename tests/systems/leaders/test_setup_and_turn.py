"""Setup, the action phase, recruitment and the turn."""

from __future__ import annotations

from leaders_table import ALICE, BOB, DECK, QUEEN, REGENT, Table, arranged, pass_turn

from tracker.systems.leaders import system


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


def test_a_character_moves_to_an_adjacent_free_space():
    table = Table().start()
    table.move(ALICE, QUEEN, (0, 2))
    assert table.at(QUEEN) == (0, 2)
    assert table.match["last"]["moves"] == [{"piece": QUEEN, "from": [0, 3], "to": [0, 2]}]


def test_a_move_goes_to_an_adjacent_space_only():
    table = Table().start()
    table.refuses(
        "CharacterMoved",
        "a move goes to an adjacent space",
        player=ALICE,
        character=QUEEN,
        path=[[0, 1]],
    )


def test_a_move_goes_to_a_free_space_only():
    table = arranged({"rider": (ALICE, (0, 2))})
    table.refuses(
        "CharacterMoved",
        "a move goes to a free space",
        player=ALICE,
        character=QUEEN,
        path=[[0, 2]],
    )


def test_a_move_stays_on_the_board():
    table = Table().start()
    table.refuses(
        "CharacterMoved",
        "a move must stay on the board",
        player=ALICE,
        character=QUEEN,
        path=[[1, 3]],
    )


def test_each_character_acts_once_a_turn():
    table = arranged({"rider": (ALICE, (1, 1))})
    table.move(ALICE, "rider", (1, 0))
    table.refuses(
        "CharacterMoved",
        "each character acts once a turn",
        player=ALICE,
        character="rider",
        path=[[1, -1]],
    )
    table.move(ALICE, QUEEN, (0, 2))


def test_a_character_acts_again_in_its_next_turn():
    table = arranged({"rider": (ALICE, (1, 1))})
    table.move(ALICE, "rider", (1, 0))
    pass_turn(table, ALICE)
    pass_turn(table, BOB)
    table.move(ALICE, "rider", (1, -1))
    assert table.at("rider") == (1, -1)


def test_only_the_active_player_acts():
    table = Table().start(first=ALICE)
    table.refuses(
        "CharacterMoved",
        "it is Alice's turn, not Bob's",
        player=BOB,
        character=REGENT,
        path=[[0, -2]],
    )


def test_a_player_acts_only_with_its_own_characters():
    table = Table().start(first=ALICE)
    table.refuses(
        "CharacterMoved",
        "it belongs to the enemy",
        player=ALICE,
        character=REGENT,
        path=[[0, -2]],
    )


def test_nobody_must_act_and_the_action_phase_may_end_at_once():
    table = Table().start()
    table.do("ActionPhaseEnded", player=ALICE)
    assert table.match["phase"] == "recruitment"


def test_no_character_acts_after_the_action_phase():
    table = Table().start()
    table.do("ActionPhaseEnded", player=ALICE)
    table.refuses(
        "CharacterMoved",
        "Alice's action phase is over",
        player=ALICE,
        character=QUEEN,
        path=[[0, 2]],
    )


def test_recruitment_comes_after_the_action_phase():
    table = Table().start()
    table.refuses(
        "CharacterRecruited",
        "still in the action phase",
        player=ALICE,
        card="rider",
        spaces=[[1, 2]],
    )


def test_a_recruit_comes_from_the_row_which_is_refilled_from_the_deck():
    table = Table().start()
    table.do("ActionPhaseEnded", player=ALICE)
    table.recruit(ALICE, "rider", (1, 2))
    assert table.at("rider") == (1, 2)
    assert table.match["row"] == ["acrobat", "colossus", "royal-guard"]
    assert table.match["hands"][ALICE] == ["rider"]


def test_a_card_outside_the_row_cannot_be_recruited():
    table = Table().start()
    table.do("ActionPhaseEnded", player=ALICE)
    table.refuses(
        "CharacterRecruited",
        "Alice recruits only from the face-up row ('vizier' is not in it",
        player=ALICE,
        card="vizier",
        spaces=[[1, 2]],
    )


def test_a_recruit_goes_on_its_own_players_recruitment_space_only():
    table = Table().start()
    table.do("ActionPhaseEnded", player=ALICE)
    table.refuses(
        "CharacterRecruited",
        "a recruit goes on one of its player's own recruitment spaces",
        player=ALICE,
        card="rider",
        spaces=[[1, -3]],
    )
    table.refuses(
        "CharacterRecruited",
        "own recruitment spaces",
        player=ALICE,
        card="rider",
        spaces=[[0, 2]],
    )


def test_a_recruit_goes_on_a_free_recruitment_space():
    table = arranged({"wanderer": (ALICE, (1, 2))})
    table.do("ActionPhaseEnded", player=ALICE)
    table.refuses(
        "CharacterRecruited",
        "a recruit goes on a free recruitment space",
        player=ALICE,
        card="rider",
        spaces=[[1, 2]],
    )


def test_a_player_recruits_once_a_turn():
    table = Table().start()
    table.do("ActionPhaseEnded", player=ALICE)
    table.recruit(ALICE, "rider", (1, 2))
    table.refuses(
        "CharacterRecruited",
        "Alice has already recruited this turn",
        player=ALICE,
        card="acrobat",
        spaces=[[2, 1]],
    )


def test_the_second_player_recruits_twice_in_its_first_turn_only():
    table = Table().start(first=ALICE)
    table.do("ActionPhaseEnded", player=ALICE)
    table.recruit(ALICE, "rider", (1, 2))
    table.do("TurnEnded", player=ALICE)
    table.do("ActionPhaseEnded", player=BOB)
    table.recruit(BOB, "acrobat", (1, -3))
    table.refuses("TurnEnded", "Bob still has a recruitment to make", player=BOB)
    table.recruit(BOB, "colossus", (2, -3))
    table.do("TurnEnded", player=BOB)
    table.do("ActionPhaseEnded", player=ALICE)
    table.recruit(ALICE, "royal-guard", (2, 1))
    table.do("TurnEnded", player=ALICE)
    table.do("ActionPhaseEnded", player=BOB)
    table.recruit(BOB, "illusionist", (-1, -2))
    table.refuses(
        "CharacterRecruited",
        "Bob has already recruited this turn",
        player=BOB,
        card="claw",
        spaces=[[-2, -1]],
    )


def test_the_turn_cannot_end_while_a_recruitment_is_due_and_possible():
    table = Table().start()
    table.do("ActionPhaseEnded", player=ALICE)
    table.refuses("TurnEnded", "Alice still has a recruitment to make this turn", player=ALICE)


def test_a_player_whose_recruitment_spaces_are_all_taken_cannot_recruit_that_turn():
    table = arranged(
        {
            "rider": (ALICE, (-1, 3)),
            "acrobat": (ALICE, (-2, 3)),
            "claw": (BOB, (1, 2)),
            "jailer": (BOB, (2, 1)),
        }
    )
    table.do("ActionPhaseEnded", player=ALICE)
    table.do("TurnEnded", player=ALICE)
    assert table.match["active"] == BOB


def test_a_player_holding_five_cards_recruits_no_more():
    table = arranged(
        {
            "rider": (ALICE, (0, 0)),
            "acrobat": (ALICE, (1, 0)),
            "claw": (ALICE, (-1, 0)),
            "jailer": (ALICE, (2, 0)),
        }
    )
    table.do("ActionPhaseEnded", player=ALICE)
    table.refuses(
        "CharacterRecruited",
        "a player holding five cards recruits no more (Alice holds 5)",
        player=ALICE,
        card="colossus",
        spaces=[[1, 2]],
    )
    table.do("TurnEnded", player=ALICE)


def test_the_turn_passes_to_the_other_player_in_its_action_phase():
    table = Table().start()
    table.do("ActionPhaseEnded", player=ALICE)
    table.recruit(ALICE, "rider", (1, 2))
    table.do("TurnEnded", player=ALICE)
    assert (table.match["active"], table.match["phase"], table.match["turn"]) == (BOB, "action", 2)
    assert table.match["acted"] == []


def test_hermit_and_cub_are_recruited_together_as_one_card_on_two_spaces():
    deck = ["hermit-and-cub", *[c for c in DECK if c != "hermit-and-cub"]]
    table = Table().start(deck=deck)
    table.do("ActionPhaseEnded", player=ALICE)
    table.recruit(ALICE, "hermit-and-cub", (-2, 3), (2, 1))
    assert table.at("hermit") == (-2, 3)
    assert table.at("cub") == (2, 1)
    assert table.match["hands"][ALICE] == ["hermit-and-cub"]


def test_hermit_and_cub_need_two_free_recruitment_spaces():
    deck = ["hermit-and-cub", *[c for c in DECK if c != "hermit-and-cub"]]
    table = Table().start(deck=deck)
    table.do("ActionPhaseEnded", player=ALICE)
    table.refuses(
        "CharacterRecruited",
        "go on two free recruitment spaces (Alice gave 1)",
        player=ALICE,
        card="hermit-and-cub",
        spaces=[[-2, 3]],
    )


def test_hermit_and_cub_may_each_act_in_the_same_action_phase():
    table = arranged({"hermit": (ALICE, (0, 0)), "cub": (ALICE, (2, 0))})
    table.refuses(
        "AbilityUsed",
        "has no active ability: it can only move",
        player=ALICE,
        character="hermit",
        path=[[0, -1]],
    )
    table.move(ALICE, "hermit", (0, 1))
    table.move(ALICE, "cub", (2, -1))
    assert (table.at("hermit"), table.at("cub")) == ((0, 1), (2, -1))


# -- the action phase ends by itself ------------------------------------------------------
# The source: "the phase ends when every character has acted, or when the player decides to
# stop".


def test_the_action_phase_ends_by_itself_when_every_character_of_the_player_has_acted():
    table = arranged({"rider": (ALICE, (1, 1)), "wanderer": (BOB, (0, -1))})
    table.move(ALICE, "rider", (1, 0))
    assert table.match["phase"] == "action"
    table.move(ALICE, QUEEN, (0, 2))
    assert table.match["phase"] == "recruitment"
    assert system.describe(table.state, table.last_event) == (
        "The Ember Queen (Alice's Leader) moved to (0, 2), and every character has acted: "
        "the action phase is over"
    )
    table.refuses(
        "CharacterMoved",
        "Alice's action phase is over",
        player=ALICE,
        character="rider",
        path=[[1, -1]],
    )


def test_the_action_phase_goes_on_while_a_character_of_the_player_has_not_acted():
    table = arranged({"rider": (ALICE, (1, 1)), "wanderer": (BOB, (0, -1))})
    table.move(ALICE, QUEEN, (0, 2))
    assert table.match["phase"] == "action" and table.match["acted"] == [QUEEN]


def test_the_nemesis_is_not_waited_for_since_it_never_acts_in_the_action_phase():
    table = arranged({"nemesis": (ALICE, (2, -2)), "rider": (BOB, (-1, -1))})
    table.move(ALICE, QUEEN, (0, 2))
    assert table.match["phase"] == "recruitment"


def test_a_phase_that_ended_by_itself_still_waits_for_the_enemy_nemesis():
    table = arranged({"nemesis": (BOB, (2, -2))})
    table.move(ALICE, QUEEN, (0, 2))
    assert table.match["phase"] == "recruitment" and table.match["nemesis"]["owner"] == BOB
    table.refuses(
        "CharacterRecruited",
        "the match waits for Bob to move the Nemesis first",
        player=ALICE,
        card="acrobat",
        spaces=[[-1, 3]],
    )
    table.do("NemesisMoved", player=BOB, path=[[2, -1], [2, 0]])
    table.recruit(ALICE, "acrobat", (-1, 3))


def test_saying_the_phase_is_over_after_it_ended_by_itself_changes_nothing():
    # logs written before the phase ended by itself end it by hand after the last action
    table = Table().start()
    table.move(ALICE, QUEEN, (0, 2))
    before = table.match["phase"], table.match["recruits_due"]
    table.do("ActionPhaseEnded", player=ALICE)
    assert (table.match["phase"], table.match["recruits_due"]) == before == ("recruitment", 1)
    table.refuses("ActionPhaseEnded", "Alice's action phase is over", player=ALICE)
    table.recruit(ALICE, "acrobat", (-1, 3))
    table.refuses("ActionPhaseEnded", "Alice's action phase is over", player=ALICE)
