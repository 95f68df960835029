"""Recruitment: from the row onto the player's own free recruitment spaces, once a turn."""

from __future__ import annotations

from leaders_table import ALICE, BOB, DECK, Table, arranged


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
