"""The nine active abilities, each as written on the rules page."""

from __future__ import annotations

from leaders_table import ALICE, BOB, QUEEN, arranged


def test_the_acrobat_jumps_over_one_character_in_a_straight_line():
    table = arranged({"acrobat": (ALICE, (0, 0)), "rider": (BOB, (1, 0))})
    table.use(ALICE, "acrobat", (2, 0))
    assert table.at("acrobat") == (2, 0)
    assert table.at("rider") == (1, 0)


def test_the_acrobat_may_make_two_jumps_in_a_row():
    table = arranged({"acrobat": (ALICE, (0, 0)), "rider": (ALICE, (1, 0)), "claw": (BOB, (2, -1))})
    table.use(ALICE, "acrobat", (2, 0), (2, -2))
    assert table.at("acrobat") == (2, -2)


def test_the_acrobat_cannot_jump_over_an_empty_space():
    table = arranged({"acrobat": (ALICE, (0, 0))})
    table.refuses(
        "AbilityUsed",
        "the Acrobat jumps over a character, and (1, 0) is empty",
        player=ALICE,
        character="acrobat",
        path=[[2, 0]],
    )


def test_the_acrobat_jumps_only_in_a_straight_line():
    table = arranged({"acrobat": (ALICE, (0, 0)), "rider": (ALICE, (1, 0))})
    table.refuses(
        "AbilityUsed",
        "the Acrobat jumps in a straight line over one adjacent character",
        player=ALICE,
        character="acrobat",
        path=[[1, 1]],
    )


def test_the_acrobat_cannot_land_on_an_occupied_space():
    table = arranged({"acrobat": (ALICE, (0, 0)), "rider": (ALICE, (1, 0)), "claw": (BOB, (2, 0))})
    table.refuses(
        "AbilityUsed",
        "the Acrobat lands on a free space of the board",
        player=ALICE,
        character="acrobat",
        path=[[2, 0]],
    )


def test_the_rider_moves_two_spaces_in_a_straight_line():
    table = arranged({"rider": (ALICE, (0, 0))})
    table.use(ALICE, "rider", (0, -2))
    assert table.at("rider") == (0, -2)


def test_the_rider_moves_exactly_two_spaces_in_a_straight_line():
    table = arranged({"rider": (ALICE, (0, 0))})
    table.refuses(
        "AbilityUsed",
        "the Rider moves exactly two spaces in a straight line",
        player=ALICE,
        character="rider",
        path=[[1, 1]],
    )
    table.refuses(
        "AbilityUsed",
        "the Rider moves exactly two spaces",
        player=ALICE,
        character="rider",
        path=[[0, -1]],
    )


def test_the_rider_cannot_pass_through_a_character():
    table = arranged({"rider": (ALICE, (0, 0)), "claw": (BOB, (0, -1))})
    table.refuses(
        "AbilityUsed",
        "the Rider passes through and ends on free spaces",
        player=ALICE,
        character="rider",
        path=[[0, -2]],
    )


def test_the_colossus_enters_an_enemys_space_and_pushes_it_into_one_of_three_behind():
    for behind in ((2, 0), (2, -1), (1, 1)):
        table = arranged({"colossus": (ALICE, (0, 0)), "rider": (BOB, (1, 0))})
        table.use(ALICE, "colossus", behind, target="rider")
        assert table.at("colossus") == (1, 0)
        assert table.at("rider") == behind


def test_the_colossus_cannot_push_to_a_space_not_behind_the_enemy():
    table = arranged({"colossus": (ALICE, (0, 0)), "rider": (BOB, (1, 0))})
    table.refuses(
        "AbilityUsed",
        "pushes its enemy into one of the three spaces behind it",
        player=ALICE,
        character="colossus",
        target="rider",
        path=[[1, -1]],
    )


def test_a_pushed_character_must_land_on_a_free_space_of_the_board():
    table = arranged({"colossus": (ALICE, (0, 0)), "rider": (BOB, (1, 0)), "claw": (BOB, (2, 0))})
    table.refuses(
        "AbilityUsed",
        "a pushed character must land on a free space of the board",
        player=ALICE,
        character="colossus",
        target="rider",
        path=[[2, 0]],
    )
    edge = arranged({"colossus": (ALICE, (2, 0)), "rider": (BOB, (3, 0))})
    edge.refuses(
        "AbilityUsed",
        "a pushed character must land on a free space of the board",
        player=ALICE,
        character="colossus",
        target="rider",
        path=[[4, 0]],
    )


def test_the_colossus_pushes_only_an_adjacent_enemy():
    table = arranged(
        {"colossus": (ALICE, (0, 0)), "rider": (ALICE, (1, 0)), "claw": (BOB, (-2, 0))}
    )
    table.refuses(
        "AbilityUsed",
        "the Colossus acts on an enemy",
        player=ALICE,
        character="colossus",
        target="rider",
        path=[[2, 0]],
    )
    table.refuses(
        "AbilityUsed",
        "the Colossus pushes an adjacent enemy",
        player=ALICE,
        character="colossus",
        target="claw",
        path=[[-3, 0]],
    )


def test_the_royal_guard_goes_from_anywhere_to_a_space_next_to_its_leader():
    table = arranged({"royal-guard": (ALICE, (0, -1))})
    table.use(ALICE, "royal-guard", (0, 2))
    assert table.at("royal-guard") == (0, 2)


def test_the_royal_guard_may_then_take_one_more_step():
    table = arranged({"royal-guard": (ALICE, (0, -1))})
    table.use(ALICE, "royal-guard", (0, 2), (0, 1))
    assert table.at("royal-guard") == (0, 1)


def test_the_royal_guard_must_arrive_next_to_its_own_leader():
    table = arranged({"royal-guard": (ALICE, (0, -1))})
    table.refuses(
        "AbilityUsed",
        "the Royal Guard moves to a space next to its own Leader",
        player=ALICE,
        character="royal-guard",
        path=[[0, 1]],
    )


def test_the_royal_guards_extra_step_is_one_adjacent_space():
    table = arranged({"royal-guard": (ALICE, (0, -1))})
    table.refuses(
        "AbilityUsed",
        "the Royal Guard's extra step goes to an adjacent space",
        player=ALICE,
        character="royal-guard",
        path=[[0, 2], [0, 0]],
    )


def test_the_illusionist_swaps_with_a_visible_character_in_a_straight_line():
    table = arranged({"illusionist": (ALICE, (0, 0)), "rider": (BOB, (0, -2))})
    table.use(ALICE, "illusionist", target="rider")
    assert table.at("illusionist") == (0, -2)
    assert table.at("rider") == (0, 0)


def test_the_illusionist_cannot_swap_with_an_adjacent_character():
    table = arranged({"illusionist": (ALICE, (0, 0)), "rider": (BOB, (0, -1))})
    table.refuses(
        "AbilityUsed",
        "the Illusionist swaps with a character it sees in a straight line and "
        "that is not adjacent",
        player=ALICE,
        character="illusionist",
        target="rider",
    )


def test_the_illusionist_cannot_swap_with_a_character_it_does_not_see():
    table = arranged(
        {"illusionist": (ALICE, (0, 0)), "rider": (BOB, (0, -2)), "claw": (BOB, (0, -1))}
    )
    table.refuses(
        "AbilityUsed",
        "the Illusionist swaps with a character it sees",
        player=ALICE,
        character="illusionist",
        target="rider",
    )
    off_line = arranged({"illusionist": (ALICE, (0, 0)), "rider": (BOB, (1, -2))})
    off_line.refuses(
        "AbilityUsed",
        "sees in a straight line",
        player=ALICE,
        character="illusionist",
        target="rider",
    )


def test_the_claw_moves_in_a_straight_line_until_next_to_a_visible_character():
    table = arranged({"claw": (ALICE, (0, 0)), "rider": (BOB, (3, 0))})
    table.use(ALICE, "claw", target="rider", form="move")
    assert table.at("claw") == (2, 0)
    assert table.at("rider") == (3, 0)


def test_the_claw_pulls_a_visible_character_until_next_to_it():
    table = arranged({"claw": (ALICE, (0, 0)), "rider": (BOB, (3, 0))})
    table.use(ALICE, "claw", target="rider", form="pull")
    assert table.at("claw") == (0, 0)
    assert table.at("rider") == (1, 0)


def test_the_claw_reaches_only_a_visible_non_adjacent_character():
    table = arranged({"claw": (ALICE, (0, 0)), "rider": (BOB, (3, 0)), "acrobat": (BOB, (1, 0))})
    table.refuses(
        "AbilityUsed",
        "the Claw reaches a character it sees in a straight line and that is not adjacent",
        player=ALICE,
        character="claw",
        target="rider",
        form="pull",
    )
    table.refuses(
        "AbilityUsed",
        "that is not adjacent",
        player=ALICE,
        character="claw",
        target="acrobat",
        form="move",
    )


def test_the_claw_says_whether_it_moves_or_pulls():
    table = arranged({"claw": (ALICE, (0, 0)), "rider": (BOB, (3, 0))})
    table.refuses(
        "AbilityUsed", "either moves or pulls", player=ALICE, character="claw", target="rider"
    )


def test_the_manipulator_moves_a_visible_non_adjacent_enemy_one_space():
    table = arranged({"manipulator": (ALICE, (0, 0)), "rider": (BOB, (0, -2))})
    table.use(ALICE, "manipulator", (1, -2), target="rider")
    assert table.at("rider") == (1, -2)
    assert table.at("manipulator") == (0, 0)


def test_the_manipulator_cannot_move_an_adjacent_or_hidden_enemy():
    table = arranged(
        {"manipulator": (ALICE, (0, 0)), "rider": (BOB, (0, -1)), "claw": (BOB, (0, -2))}
    )
    table.refuses(
        "AbilityUsed",
        "the Manipulator moves an enemy it sees in a straight line and that is not adjacent",
        player=ALICE,
        character="manipulator",
        target="rider",
        path=[[1, -1]],
    )
    table.refuses(
        "AbilityUsed",
        "the Manipulator moves an enemy it sees",
        player=ALICE,
        character="manipulator",
        target="claw",
        path=[[1, -2]],
    )


def test_the_manipulator_moves_only_enemies_and_only_one_space():
    table = arranged(
        {"manipulator": (ALICE, (0, 0)), "rider": (ALICE, (0, -2)), "claw": (BOB, (-2, 0))}
    )
    table.refuses(
        "AbilityUsed",
        "the Manipulator acts on an enemy",
        player=ALICE,
        character="manipulator",
        target="rider",
        path=[[1, -2]],
    )
    table.refuses(
        "AbilityUsed",
        "a Manipulator's move goes to an adjacent space",
        player=ALICE,
        character="manipulator",
        target="claw",
        path=[[-2, 2]],
    )


def test_the_wanderer_goes_to_any_space_not_adjacent_to_an_enemy():
    table = arranged({"wanderer": (ALICE, (0, 0))})
    table.use(ALICE, "wanderer", (-3, 0))
    assert table.at("wanderer") == (-3, 0)


def test_the_wanderer_cannot_go_next_to_an_enemy():
    table = arranged({"wanderer": (ALICE, (0, 0))})
    table.refuses(
        "AbilityUsed",
        "the Wanderer goes only to a space not adjacent to an enemy",
        player=ALICE,
        character="wanderer",
        path=[[0, -2]],
    )


def test_the_brewmaster_moves_an_adjacent_ally_one_space():
    table = arranged({"brewmaster": (ALICE, (0, 0)), "rider": (ALICE, (1, 0))})
    table.use(ALICE, "brewmaster", (2, 0), target="rider")
    assert table.at("rider") == (2, 0)
    assert table.at("brewmaster") == (0, 0)
    table.move(ALICE, "rider", (2, -1))  # being moved is not acting


def test_the_brewmaster_moves_only_an_adjacent_ally():
    table = arranged(
        {"brewmaster": (ALICE, (0, 0)), "rider": (BOB, (1, 0)), "claw": (ALICE, (-2, 0))}
    )
    table.refuses(
        "AbilityUsed",
        "the Brewmaster acts on an ally",
        player=ALICE,
        character="brewmaster",
        target="rider",
        path=[[2, 0]],
    )
    table.refuses(
        "AbilityUsed",
        "the Brewmaster moves an adjacent ally",
        player=ALICE,
        character="brewmaster",
        target="claw",
        path=[[-3, 0]],
    )


def test_an_ability_is_the_characters_one_action_of_the_turn():
    table = arranged({"rider": (ALICE, (0, 0))})
    table.use(ALICE, "rider", (0, -2))
    table.refuses(
        "CharacterMoved",
        "each character acts once a turn",
        player=ALICE,
        character="rider",
        path=[[0, -1]],
    )


def test_a_leader_has_no_active_ability():
    table = arranged({})
    table.refuses(
        "AbilityUsed", "a Leader can only move", player=ALICE, character=QUEEN, path=[[0, 2]]
    )
