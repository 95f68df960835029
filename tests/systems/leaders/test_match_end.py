"""The end of a match: capture and encirclement, never against its own Leader, standings."""

from __future__ import annotations

from leaders_table import ALICE, BOB, QUEEN, REGENT, arranged


def test_two_adjacent_enemies_capture_a_leader_and_end_the_match():
    table = arranged({"rider": (ALICE, (-1, -2)), "claw": (ALICE, (2, -3))})
    table.move(ALICE, "claw", (1, -3))
    match = table.match
    assert (match["phase"], match["winner"], match["how"]) == ("over", ALICE, "capture")
    assert table.state["standings"][ALICE] == {
        "played": 1,
        "won": 1,
        "lost": 0,
        "by_capture": 1,
        "by_encirclement": 0,
    }
    assert table.state["standings"][BOB]["lost"] == 1
    assert table.state["matches"][0]["winner"] == ALICE


def test_one_adjacent_enemy_does_not_capture():
    table = arranged({"claw": (ALICE, (2, -3))})
    table.move(ALICE, "claw", (1, -3))
    assert table.match["phase"] == "action"


def test_a_leader_whose_every_neighbour_is_taken_is_encircled_whoever_takes_them():
    table = arranged(
        {"rider": (BOB, (0, -2)), "acrobat": (BOB, (-1, -2)), "claw": (ALICE, (2, -3))}
    )
    table.move(ALICE, "claw", (1, -3))
    assert (table.match["winner"], table.match["how"]) == (ALICE, "encirclement")
    assert table.state["standings"][ALICE]["by_encirclement"] == 1


def test_nothing_is_played_in_a_match_after_its_end():
    table = arranged({"rider": (ALICE, (-1, -2)), "claw": (ALICE, (2, -3))})
    table.move(ALICE, "claw", (1, -3))
    table.refuses(
        "CharacterMoved",
        "match 'm1' is over (Alice won by capture): nothing more is played",
        player=ALICE,
        character=QUEEN,
        path=[[0, 2]],
    )
    table.refuses("TurnEnded", "nothing more is played", player=ALICE)


def test_a_campaign_plays_match_after_match_with_standings():
    table = arranged({"rider": (ALICE, (-1, -2)), "claw": (ALICE, (2, -3))})
    table.move(ALICE, "claw", (1, -3))
    table.refuses("MatchStarted", "already had a match called 'm1'", match="m1")
    table.start(first=BOB)
    assert table.match["id"] == "m2" and table.match["number"] == 2
    assert table.at(QUEEN) == (0, 3)
    assert "claw" not in table.match["pieces"]
    assert table.state["standings"][BOB]["played"] == 1


def test_a_leader_may_not_move_where_the_move_alone_would_end_the_game_against_it():
    table = arranged({QUEEN: (ALICE, (0, 0)), "rider": (BOB, (1, -1)), "claw": (BOB, (-1, -1))})
    table.refuses(
        "CharacterMoved",
        "a player may not end the game against its own Leader",
        player=ALICE,
        character=QUEEN,
        path=[[0, -1]],
    )


def test_no_action_may_encircle_its_own_leader_with_its_own_allies():
    table = arranged(
        {"rider": (ALICE, (1, 2)), "acrobat": (ALICE, (-1, 3)), "claw": (ALICE, (0, 1))}
    )
    message = table.refuses(
        "CharacterMoved",
        "a player may not end the game against its own Leader",
        player=ALICE,
        character="claw",
        path=[[0, 2]],
    )
    assert "would encircle Alice's the Ember Queen" in message


def test_no_recruitment_may_encircle_its_own_leader():
    table = arranged({"rider": (ALICE, (1, 2)), "claw": (ALICE, (0, 2))})
    table.do("ActionPhaseEnded", player=ALICE)
    table.refuses(
        "CharacterRecruited",
        "a player may not end the game against its own Leader",
        player=ALICE,
        card="acrobat",
        spaces=[[-1, 3]],
    )


def test_a_recruitment_that_captures_the_enemy_leader_ends_the_match():
    table = arranged({REGENT: (BOB, (-2, 2)), "claw": (ALICE, (-1, 2))})
    table.do("ActionPhaseEnded", player=ALICE)
    table.recruit(ALICE, "acrobat", (-2, 3))
    assert (table.match["winner"], table.match["how"]) == (ALICE, "capture")
