"""The passive abilities: Archer, Assassin, Cub and Hermit, Jailer, Protector, Vizier, Nemesis."""

from __future__ import annotations

from leaders_table import ALICE, BOB, QUEEN, REGENT, arranged


def test_an_archer_two_spaces_away_in_line_helps_capture_even_unseen():
    table = arranged(
        {"archer": (ALICE, (0, -1)), "rider": (BOB, (0, -2)), "claw": (ALICE, (2, -3))}
    )
    table.move(ALICE, "claw", (1, -3))
    assert (table.match["winner"], table.match["how"]) == (ALICE, "capture")


def test_an_archer_two_spaces_away_off_the_straight_lines_does_not_help():
    table = arranged({"archer": (ALICE, (-1, -1)), "claw": (ALICE, (2, -3))})
    table.move(ALICE, "claw", (1, -3))
    assert table.match["phase"] == "action"


def test_an_adjacent_archer_does_not_help_capture():
    table = arranged({"archer": (ALICE, (0, -2)), "claw": (ALICE, (2, -3))})
    table.move(ALICE, "claw", (1, -3))
    assert table.match["phase"] == "action"


def test_an_assassin_captures_the_enemy_leader_alone():
    table = arranged({"assassin": (ALICE, (2, -3))})
    table.move(ALICE, "assassin", (1, -3))
    assert (table.match["winner"], table.match["how"]) == (ALICE, "capture")


def test_the_cub_does_not_help_capture_but_the_hermit_does():
    cub = arranged({"cub": (ALICE, (-1, -2)), "claw": (ALICE, (2, -3))})
    cub.move(ALICE, "claw", (1, -3))
    assert cub.match["phase"] == "action"
    hermit = arranged({"hermit": (ALICE, (-1, -2)), "claw": (ALICE, (2, -3))})
    hermit.move(ALICE, "claw", (1, -3))
    assert hermit.match["winner"] == ALICE


def test_a_jailer_keeps_adjacent_enemies_from_using_their_abilities():
    table = arranged(
        {"acrobat": (ALICE, (0, 0)), "rider": (ALICE, (1, 0)), "jailer": (BOB, (0, -1))}
    )
    table.refuses(
        "AbilityUsed",
        "a Jailer keeps adjacent enemies from using their abilities",
        player=ALICE,
        character="acrobat",
        path=[[2, 0]],
    )


def test_a_jailer_does_not_stop_a_plain_move():
    table = arranged({"acrobat": (ALICE, (0, 0)), "jailer": (BOB, (0, -1))})
    table.move(ALICE, "acrobat", (-1, 0))
    assert table.at("acrobat") == (-1, 0)


def test_a_jailer_does_not_interrupt_an_ability_already_under_way():
    table = arranged(
        {
            "acrobat": (ALICE, (2, 1)),
            "rider": (ALICE, (1, 1)),
            "jailer": (BOB, (0, 0)),
            "claw": (BOB, (-1, 1)),
        }
    )
    table.use(ALICE, "acrobat", (0, 1), (-2, 1))
    assert table.at("acrobat") == (-2, 1)


def test_a_protector_cannot_be_moved_by_enemy_abilities():
    table = arranged({"colossus": (ALICE, (0, 0)), "protector": (BOB, (1, 0))})
    table.refuses(
        "AbilityUsed",
        "a Protector cannot be moved by enemy abilities",
        player=ALICE,
        character="colossus",
        target="protector",
        path=[[2, 0]],
    )


def test_a_protector_keeps_its_adjacent_allies_from_being_moved_by_enemy_abilities():
    table = arranged(
        {
            "colossus": (ALICE, (0, 0)),
            "rider": (BOB, (1, 0)),
            "protector": (BOB, (2, -1)),
        }
    )
    table.refuses(
        "AbilityUsed",
        "the Protector keeps its adjacent allies from being moved",
        player=ALICE,
        character="colossus",
        target="rider",
        path=[[2, 0]],
    )
    swap = arranged(
        {"illusionist": (ALICE, (-2, 0)), "rider": (BOB, (1, 0)), "protector": (BOB, (2, -1))}
    )
    swap.refuses(
        "AbilityUsed",
        "the Protector keeps its adjacent allies",
        player=ALICE,
        character="illusionist",
        target="rider",
    )


def test_a_protector_does_not_stop_its_own_sides_abilities():
    table = arranged(
        {"brewmaster": (ALICE, (0, 0)), "rider": (ALICE, (1, 0)), "protector": (ALICE, (2, -1))}
    )
    table.use(ALICE, "brewmaster", (1, 1), target="rider")
    assert table.at("rider") == (1, 1)


def test_the_vizier_gives_its_leader_a_second_space():
    table = arranged({"vizier": (ALICE, (-3, 0))})
    table.move(ALICE, QUEEN, (0, 2), (0, 1))
    assert table.at(QUEEN) == (0, 1)


def test_without_a_vizier_a_leader_moves_one_space():
    table = arranged({})
    table.refuses(
        "CharacterMoved",
        "only a Vizier on the board gives it a second",
        player=ALICE,
        character=QUEEN,
        path=[[0, 2], [0, 1]],
    )


def test_only_a_leader_gets_the_viziers_second_space():
    table = arranged({"vizier": (ALICE, (-3, 0)), "rider": (ALICE, (0, 0))})
    table.refuses(
        "CharacterMoved",
        "a move is one space to an adjacent free space",
        player=ALICE,
        character="rider",
        path=[[0, -1], [0, -2]],
    )


def test_the_nemesis_moves_two_spaces_each_time_the_enemy_leader_moves():
    table = arranged({"nemesis": (BOB, (0, 0)), "rider": (ALICE, (-2, 0))})
    table.move(ALICE, QUEEN, (0, 2))
    assert table.match["nemesis"] == {"owner": BOB, "piece": "nemesis", "steps": 2}
    table.do("NemesisMoved", player=BOB, path=[[1, -1], [2, -2]])
    assert table.at("nemesis") == (2, -2)
    assert table.match["nemesis"] is None
    table.move(ALICE, "rider", (-2, 1))


def test_the_match_waits_for_the_nemesis_to_move():
    table = arranged({"nemesis": (BOB, (0, 0)), "rider": (ALICE, (-2, 0))})
    table.move(ALICE, QUEEN, (0, 2))
    table.refuses(
        "CharacterMoved",
        "the match waits for Bob to move the Nemesis first",
        player=ALICE,
        character="rider",
        path=[[-2, 1]],
    )
    table.refuses(
        "NemesisMoved",
        "the Nemesis is Bob's to move, not Alice's",
        player=ALICE,
        path=[[1, -1], [2, -2]],
    )


def test_the_nemesis_may_not_end_where_it_started():
    table = arranged({"nemesis": (BOB, (0, 0))})
    table.move(ALICE, QUEEN, (0, 2))
    table.refuses(
        "NemesisMoved",
        "the Nemesis may not end where it started",
        player=BOB,
        path=[[1, -1], [0, 0]],
    )


def test_the_nemesis_moves_two_spaces_when_it_can():
    table = arranged({"nemesis": (BOB, (0, 0))})
    table.move(ALICE, QUEEN, (0, 2))
    table.refuses("NemesisMoved", "the Nemesis moves two spaces", player=BOB, path=[[1, -1]])


def _boxed(extra: dict) -> dict:
    # The Nemesis in the corner (3, -3): its one way out is (3, -2), a dead end.
    return {
        "nemesis": (BOB, (3, -3)),
        "rider": (BOB, (2, -3)),
        "acrobat": (BOB, (2, -2)),
        "claw": (BOB, (2, -1)),
        "jailer": (BOB, (3, -1)),
        **extra,
    }


def test_the_nemesis_moves_one_space_when_it_cannot_move_two():
    table = arranged(_boxed({}))
    table.move(ALICE, QUEEN, (0, 2))
    assert table.match["nemesis"]["steps"] == 1
    table.refuses(
        "NemesisMoved",
        "the Nemesis moves one space, as it cannot move two",
        player=BOB,
        path=[[3, -2], [3, -3]],
    )
    table.do("NemesisMoved", player=BOB, path=[[3, -2]])
    assert table.at("nemesis") == (3, -2)


def test_a_nemesis_that_cannot_move_stays_and_play_goes_on():
    table = arranged(_boxed({"wanderer": (BOB, (3, -2))}))
    table.move(ALICE, QUEEN, (0, 2))
    assert table.match["nemesis"] is None
    table.refuses(
        "NemesisMoved",
        "the Nemesis moves only when the enemy Leader has just moved",
        player=BOB,
        path=[[3, -2]],
    )


def test_the_nemesis_never_acts_in_the_action_phase():
    table = arranged({"nemesis": (BOB, (0, 0))}, active=BOB)
    table.refuses(
        "CharacterMoved",
        "the Nemesis never acts in the action phase",
        player=BOB,
        character="nemesis",
        path=[[0, 1]],
    )
    table.refuses(
        "AbilityUsed",
        "the Nemesis never acts in the action phase",
        player=BOB,
        character="nemesis",
        path=[[0, 1]],
    )


def test_the_nemesis_does_not_follow_its_own_leader():
    table = arranged({"nemesis": (BOB, (0, 0))}, active=BOB)
    table.move(BOB, REGENT, (0, -2))
    assert table.match["nemesis"] is None


def test_the_nemesis_follows_the_enemy_leader_moved_in_its_own_players_turn():
    table = arranged(
        {"nemesis": (BOB, (-3, 0)), "manipulator": (BOB, (0, -1)), QUEEN: (ALICE, (0, 1))},
        active=BOB,
    )
    table.use(BOB, "manipulator", (1, 1), target=QUEEN)
    assert table.at(QUEEN) == (1, 1)
    assert table.match["nemesis"]["owner"] == BOB


def test_a_forced_nemesis_move_may_end_the_game_against_its_own_leader():
    # The Nemesis on (1, -2) has one free neighbour, (1, -3), the last free space by Bob's
    # Leader: its forced step encircles its own Leader, and Bob loses.
    table = arranged(
        {
            "nemesis": (BOB, (1, -2)),
            "rider": (BOB, (0, -2)),
            "acrobat": (BOB, (-1, -2)),
            "claw": (ALICE, (2, -3)),
            "jailer": (ALICE, (2, -2)),
            "colossus": (ALICE, (1, -1)),
            "wanderer": (ALICE, (0, -1)),
        }
    )
    table.move(ALICE, QUEEN, (0, 2))
    assert table.match["nemesis"]["steps"] == 1
    table.do("NemesisMoved", player=BOB, path=[[1, -3]])
    assert (table.match["winner"], table.match["how"]) == (ALICE, "encirclement")


def test_a_move_that_ends_the_game_leaves_no_nemesis_move_due():
    table = arranged(
        {"nemesis": (BOB, (0, 0)), "rider": (ALICE, (-1, -2)), "claw": (ALICE, (2, -3))}
    )
    table.move(ALICE, "claw", (1, -3))
    assert table.match["phase"] == "over" and table.match["nemesis"] is None
