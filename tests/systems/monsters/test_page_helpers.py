"""The helpers the pages call: what the rules allow now, and the text a form sends."""

import pytest

from tracker.errors import InvalidEvent, RuleViolation
from tracker.systems.monsters import formtext, system

KINGS = {"alice-knight": (2, 2), "bob-knight": (8, 8)}


def test_a_king_is_offered_only_its_castle_and_the_others_wait_for_it(table):
    table.begin(figures=("knight", "bear", "pigeon"))
    assert system.views.placements(table.state, "alice-knight") == ["3,1"]
    assert system.views.placements(table.state, "alice-bear") == []
    table.do("FigurePlaced", battle="b1", piece="alice-knight", at=[3, 1])
    offered = system.views.placements(table.state, "alice-bear")
    castle = table.battle["castles"]["alice"]
    assert offered and castle not in offered
    for space in offered:  # every space offered is one the rules accept
        trial = type(table)()
        trial.begin(figures=("knight", "bear", "pigeon"))
        trial.do("FigurePlaced", battle="b1", piece="alice-knight", at=[3, 1])
        trial.do(
            "FigurePlaced", battle="b1", piece="alice-bear", at=list(map(int, space.split(",")))
        )


def test_nothing_is_offered_for_placing_once_the_battle_is_fought(table):
    table.begin().arrange(KINGS)
    assert system.views.placements(table.state, "alice-cat") == []


def test_the_moves_offered_are_those_of_the_player_whose_turn_it_is(table):
    table.begin().arrange({**KINGS, "alice-bear": (4, 4), "bob-bear": (6, 6)})
    assert system.views.moves(table.state, "alice-bear")
    assert system.views.moves(table.state, "bob-bear") == {}
    assert set(system.views.movers(table.state)) == {"alice-knight", "alice-bear"}
    for end, path in system.views.moves(table.state, "alice-bear").items():
        assert path[-1] == end


def test_a_lone_king_is_offered_only_its_march_toward_an_enemy(table):
    table.begin().arrange({**KINGS, "bob-cat": (6, 2)})
    offered = system.views.moves(table.state, "alice-knight")
    assert offered and "1,2" not in offered and "3,2" in offered
    for end in offered:
        trial = type(table)()
        trial.begin().arrange({**KINGS, "bob-cat": (6, 2)})
        trial.do(
            "FigureMoved",
            battle="b1",
            piece="alice-knight",
            path=[list(map(int, s.split(","))) for s in offered[end]],
        )


def test_no_move_is_offered_while_a_lone_king_owes_its_attack(table):
    table.begin().arrange({**KINGS, "bob-cat": (5, 2)})
    table.move("alice-knight", (3, 2), (4, 2))
    assert system.views.moves(table.state, "bob-knight") == {}
    with pytest.raises(RuleViolation):
        table.move("bob-knight", (8, 7))


def test_a_flier_attacked_by_a_walker_is_asked_first_unless_it_may_not_refuse(table):
    table.begin().arrange({**KINGS, "alice-bear": (4, 4), "bob-pigeon": (6, 4), "bob-cat": (7, 7)})
    table.move("alice-bear", (5, 4))
    assert system.views.attack_options(table.state, "alice-bear") == [
        {"defender": "bob-pigeon", "ask": True}
    ]
    assert system.views.may_stay_aloft(table.state, "bob-pigeon")
    table.do("FlierCameDown", battle="b1", flier="bob-pigeon", attacker="alice-bear")
    assert system.views.attack_options(table.state, "alice-bear") == [
        {"defender": "bob-pigeon", "ask": False}
    ]


def test_a_flier_that_is_its_sides_last_but_the_king_may_not_stay_aloft(table):
    table.begin().arrange({**KINGS, "alice-bear": (4, 4), "bob-pigeon": (6, 4)})
    assert not system.views.may_stay_aloft(table.state, "bob-pigeon")


def test_outcome_words_and_map_layout_for_the_pages(table):
    table.begin()
    assert system.views.outcome_words(table.state) == ""
    layout = system.views.map_layout(table.state, "twin-peaks")
    assert layout["castles"] == {"alice": "3,1", "bob": "1,6"}
    assert layout["spaces"]["3,1"] == "castle"


# -- what a form sends ------------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["3,2", "(3, 2)", " 3 2 ", "3 , 2"])
def test_a_space_is_read_from_the_ways_people_type_it(typed):
    assert formtext.space(typed) == [3, 2]


def test_a_path_is_read_as_the_spaces_one_after_another():
    assert formtext.path("3,2 3,3 -1,4") == [[3, 2], [3, 3], [-1, 4]]
    assert formtext.path("(3, 2) → (3, 3); 4,3") == [[3, 2], [3, 3], [4, 3]]
    with pytest.raises(ValueError, match="a path is the spaces it enters"):
        formtext.path("north twice")


def test_attack_dice_are_read_round_by_round_with_the_sixes_extra_die():
    assert formtext.rounds("1 / 6 3; 4 / 5") == [
        {"attacker": [1], "defender": [6, 3]},
        {"attacker": [4], "defender": [5]},
    ]
    assert formtext.rounds("63/2") == [{"attacker": [6, 3], "defender": [2]}]
    with pytest.raises(ValueError, match="the attacker's dice / the defender's dice"):
        formtext.rounds("4 5")


def test_the_schemas_take_a_forms_text_and_keep_the_json_shapes():
    placed = system.load("FigurePlaced", {"battle": "b1", "piece": "p", "at": ["3,1"]})
    assert placed["at"] == [3, 1]
    assert system.load("FigurePlaced", {"battle": "b1", "piece": "p", "at": [3, 1]})["at"] == [3, 1]
    moved = system.load("FigureMoved", {"battle": "b1", "piece": "p", "path": ["3,2 3,3"]})
    assert moved["path"] == [[3, 2], [3, 3]]
    attack = system.load(
        "AttackMade", {"battle": "b1", "attacker": "a", "defender": "d", "rounds": "6 6 / 2"}
    )
    assert attack["rounds"] == [{"attacker": [6, 6], "defender": [2]}]
    with pytest.raises(InvalidEvent, match="a space is written q,r"):
        system.load("FigurePlaced", {"battle": "b1", "piece": "p", "at": ["castle"]})
    with pytest.raises(InvalidEvent, match="Not a valid integer"):
        system.load("FigurePlaced", {"battle": "b1", "piece": "p", "at": [3.5, 1]})


def test_a_path_box_read_as_numbers_is_taken_two_by_two():
    moved = system.load("FigureMoved", {"battle": "b1", "piece": "p", "path": [[3, 2, 3, 3]]})
    assert moved["path"] == [[3, 2], [3, 3]]
    with pytest.raises(InvalidEvent, match="Length must be 2"):
        system.load("FigureMoved", {"battle": "b1", "piece": "p", "path": [[3, 2, 3]]})


def _at(space: str) -> list[int]:
    return [int(n) for n in space.split(",")]


def test_the_placements_offered_are_exactly_the_spaces_the_rules_allow(table):
    table.begin(figures=("knight", "bear", "pigeon"))
    table.do("FigurePlaced", battle="b1", piece="alice-knight", at=[3, 1])
    for piece in ("alice-bear", "alice-pigeon", "bob-bear"):
        allowed = [
            space
            for space in table.battle["spaces"]
            if system.allows(
                table.state, "FigurePlaced", {"battle": "b1", "piece": piece, "at": _at(space)}
            )
            is None
        ]
        assert sorted(system.views.placements(table.state, piece)) == sorted(allowed), piece
        assert bool(allowed) == piece.startswith("alice")  # Bob's king is not placed yet


def test_every_move_offered_is_allowed_and_every_destination_left_out_is_refused(table):
    table.begin().arrange({**KINGS, "bob-cat": (6, 2)})  # Alice's king alone must march
    offered = system.views.moves(table.state, "alice-knight")
    reach = system.views.destinations(table.state, "alice-knight")
    assert offered and set(reach) - set(offered)
    for end, path in reach.items():
        data = {"battle": "b1", "piece": "alice-knight", "path": [_at(s) for s in path]}
        refused = system.allows(table.state, "FigureMoved", data)
        assert (end in offered) == (refused is None), (end, refused)
