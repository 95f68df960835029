"""A turn: the action phase (who acts, with what, where to) and the turn passing on."""

from __future__ import annotations

from leaders_table import ALICE, BOB, QUEEN, REGENT, Table, arranged, pass_turn

from tracker.systems.leaders import system


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


def test_the_turn_passes_to_the_other_player_in_its_action_phase():
    table = Table().start()
    table.do("ActionPhaseEnded", player=ALICE)
    table.recruit(ALICE, "rider", (1, 2))
    table.do("TurnEnded", player=ALICE)
    assert (table.match["active"], table.match["phase"], table.match["turn"]) == (BOB, "action", 2)
    assert table.match["acted"] == []


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


def test_a_full_turn_cycle_keeps_alternating_players():
    table = Table().start(first=BOB)
    pass_turn(table, BOB)
    pass_turn(table, ALICE)
    assert (table.match["active"], table.match["turn"]) == (BOB, 3)
    assert len(table.match["hands"][ALICE]) == 2
