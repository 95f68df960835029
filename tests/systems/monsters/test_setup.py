"""Setting up a battle: the map, the figures both sides field, the king, the placements."""

import pytest

from tracker.errors import InvalidEvent, RuleViolation
from tracker.systems.monsters import system


def test_both_sides_field_the_same_figures(table):
    table.do("BattleBegun", battle="b1", map="twin-peaks", first="bob")
    table.do(
        "FiguresChosen", battle="b1", figures=["knight", "cat", "cat", "pigeon"], king="knight"
    )
    pieces = table.battle["pieces"]
    for side in ("alice", "bob"):
        mine = sorted(p["name"] for p in pieces.values() if p["side"] == side)
        assert mine == ["Cat", "Cat 2", "Knight", "Pigeon"]
    assert pieces["bob-cat-2"]["lives"] == 2
    assert table.battle["kings"] == {"alice": "alice-knight", "bob": "bob-knight"}
    assert table.describe() == "Each side fields Knight, Cat, Cat, Pigeon, with the Knight as king"


def test_a_battle_is_fought_on_a_map_the_campaign_carries(table):
    with pytest.raises(RuleViolation, match=r"there is no map called 'moon' \(there are: "):
        table.do("BattleBegun", battle="b1", map="moon", first="alice")
    table.do("BattleBegun", battle="b1", map="river-crossing", first="alice")
    assert table.battle["castles"] == {"alice": "4,1", "bob": "1,7"}
    assert table.battle["spaces"]["0,4"] == table.battle["spaces"]["5,4"] == "bridge"
    assert table.describe() == "Battle b1 began on River Crossing; Alice moves first"


def test_the_king_is_one_of_the_chosen_figures(table):
    table.do("BattleBegun", battle="b1", map="twin-peaks", first="alice")
    with pytest.raises(
        RuleViolation, match=r"the king is one of the chosen figures \('bear' is not\)"
    ):
        table.do("FiguresChosen", battle="b1", figures=["knight", "cat"], king="bear")


def test_a_king_is_a_walker_or_a_runner_never_a_flier(table):
    table.do("BattleBegun", battle="b1", map="twin-peaks", first="alice")
    with pytest.raises(
        RuleViolation, match=r"a king is a walker or a runner, never a flier \(Pigeon\)"
    ):
        table.do("FiguresChosen", battle="b1", figures=["knight", "pigeon"], king="pigeon")


def test_only_figures_the_campaign_knows_are_chosen(table):
    table.do("BattleBegun", battle="b1", map="twin-peaks", first="alice")
    with pytest.raises(RuleViolation, match=r"there is no figure called 'dragon'"):
        table.do("FiguresChosen", battle="b1", figures=["knight", "dragon"], king="knight")


def test_the_king_starts_in_its_own_castle(table):
    table.begin()
    with pytest.raises(
        RuleViolation,
        match=r"the king starts in its own castle \(Alice's Knight to \(3, 2\); the castle is "
        r"\(3, 1\)\)",
    ):
        table.do("FigurePlaced", battle="b1", piece="alice-knight", at=[3, 2])
    table.do("FigurePlaced", battle="b1", piece="alice-knight", at=[3, 1])
    assert table.describe() == "Alice's Knight (king) was placed at (3, 1)"


def test_the_king_is_placed_before_the_other_figures(table):
    table.begin()
    with pytest.raises(RuleViolation, match=r"the king is placed in its castle before the other"):
        table.do("FigurePlaced", battle="b1", piece="alice-bear", at=[3, 2])


def test_figures_start_as_close_around_their_castle_as_free_spaces_allow(table):
    table.begin()
    table.do("FigurePlaced", battle="b1", piece="alice-knight", at=[3, 1])
    with pytest.raises(
        RuleViolation,
        match=r"as close around their castle as free spaces allow \(Alice's Bear to \(3, 3\) is "
        r"2 from the castle; free spaces 1 away remain\)",
    ):
        table.do("FigurePlaced", battle="b1", piece="alice-bear", at=[3, 3])
    for piece, at in (("alice-bear", [4, 1]), ("alice-cat", [4, 0]), ("alice-pigeon", [3, 0])):
        table.do("FigurePlaced", battle="b1", piece=piece, at=at)


def test_a_placed_figure_is_not_placed_again(table):
    table.begin()
    table.do("FigurePlaced", battle="b1", piece="alice-knight", at=[3, 1])
    with pytest.raises(RuleViolation, match=r"Alice's Knight is already placed at \(3, 1\)"):
        table.do("FigurePlaced", battle="b1", piece="alice-knight", at=[3, 1])


def test_two_figures_never_share_a_space_when_placed(table):
    table.begin()
    table.do("FigurePlaced", battle="b1", piece="alice-knight", at=[3, 1])
    table.do("FigurePlaced", battle="b1", piece="alice-bear", at=[4, 1])
    with pytest.raises(RuleViolation, match=r"\(4, 1\) holds Alice's Bear"):
        table.do("FigurePlaced", battle="b1", piece="alice-cat", at=[4, 1])


def test_every_figure_is_placed_before_the_first_move(table):
    table.begin()
    table.do("FigurePlaced", battle="b1", piece="alice-knight", at=[3, 1])
    with pytest.raises(RuleViolation, match=r"every figure is placed before the first move"):
        table.move("alice-knight", (3, 2))


def test_the_battle_starts_when_every_figure_is_placed(table):
    table.begin(figures=("knight", "cat"), first="bob")
    for piece, at in (
        ("alice-knight", [3, 1]),
        ("alice-cat", [3, 2]),
        ("bob-knight", [1, 6]),
        ("bob-cat", [1, 5]),
    ):
        table.do("FigurePlaced", battle="b1", piece=piece, at=at)
    assert table.battle["phase"] == "fighting"
    assert table.battle["turn"] == {"side": "bob", "number": 1, "moved": None, "answers": []}
    with pytest.raises(RuleViolation, match="figures are placed only before the first move"):
        table.do("FigurePlaced", battle="b1", piece="alice-cat", at=[4, 1])


def test_a_new_battle_begins_only_after_the_last_one_ended(table):
    table.begin()
    with pytest.raises(RuleViolation, match="battle b1 is still under way: end it before"):
        table.do("BattleBegun", battle="b2", map="twin-peaks", first="alice")


def test_a_figure_has_a_strength_for_each_of_its_lives(table_factory):
    figures = {"imp": {"name": "Imp", "movement": "runner", "lives": 2, "strength": {"2": 3}}}
    with pytest.raises(InvalidEvent, match="a figure with 2 lives has a strength for each of 1, 2"):
        table_factory({"figures": figures})


@pytest.mark.parametrize(
    "lives, strength, words",
    [
        (2, {"2": 3, "1": 3}, r"Imp: 3 with 1 life left is not less than 3 with 2 lives"),
        (2, {"2": 3, "1": 4}, r"Imp: 4 with 1 life left is not less than 3 with 2 lives"),
        (3, {"3": 5, "2": 6, "1": 3}, r"Imp: 6 with 2 lives left is not less than 5 with 3"),
    ],
)
def test_a_wounded_figure_has_less_strength_or_the_content_is_refused_at_setup(
    table_factory, lives, strength, words
):
    figures = {"imp": {"name": "Imp", "movement": "runner", "lives": lives, "strength": strength}}
    with pytest.raises(
        InvalidEvent,
        match=r"settings: figures: imp: strength: a wounded figure has less strength \(" + words,
    ):
        table_factory({"figures": figures})


def test_a_wounded_figure_typed_in_the_start_form_must_be_weaker_too():
    with pytest.raises(
        InvalidEvent, match=r"own_figures: imp: strength: a wounded figure has less"
    ):
        system.prepare_settings(
            {
                "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
                "own_figures": "imp, Imp, walker, 3 4",
            }
        )


def test_every_shipped_figure_is_weaker_when_wounded():
    figures = system.prepare_settings(
        {"players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]}
    )["figures"]
    for figure in figures.values():
        by_lives = [figure["strength"][str(n)] for n in range(figure["lives"], 0, -1)]
        assert by_lives == sorted(by_lives, reverse=True) and len(set(by_lives)) == len(by_lives)


def test_a_figure_has_one_to_three_lives(table_factory):
    figures = {
        "hydra": {
            "name": "Hydra",
            "movement": "walker",
            "lives": 4,
            "strength": {"1": 1, "2": 2, "3": 3, "4": 4},
        }
    }
    with pytest.raises(InvalidEvent, match="lives"):
        table_factory({"figures": figures})


def test_a_campaign_may_bring_its_own_figures_and_maps(table_factory):
    figures = {
        "troll": {
            "name": "Troll",
            "movement": "walker",
            "lives": 3,
            "strength": {"3": 9, "2": 6, "1": 3},
        },
    }
    maps = {"pond": {"name": "Pond", "rows": [". . A . .", " . ~ ~ .", ". . B . ."]}}
    table = table_factory({"figures": figures, "maps": maps})
    table.do("BattleBegun", battle="b1", map="pond", first="alice")
    table.do("FiguresChosen", battle="b1", figures=["troll"], king="troll")
    assert table.piece("bob-troll")["lives"] == 3


def test_a_map_has_both_castles(table_factory):
    maps = {"pond": {"name": "Pond", "rows": [". . A . .", " . ~ ~ ."]}}
    with pytest.raises(InvalidEvent, match=r"a map needs castle B"):
        table_factory({"maps": maps})


def test_the_content_pack_is_copied_into_the_settings():
    settings = system.prepare_settings(
        {"players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]}
    )
    assert {"river-crossing", "twin-peaks"} <= set(settings["maps"])
    assert settings["figures"]["bear"] == {
        "name": "Bear",
        "movement": "walker",
        "lives": 2,
        "strength": {"2": 7, "1": 5},
    }
    assert system.prepare_settings(settings) == settings
