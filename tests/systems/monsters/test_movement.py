"""Turns and movement: one figure a turn, steps, forest, friends and enemies, mountains, water, fliers."""

import pytest

from tracker.errors import InvalidEvent, RuleViolation


def test_players_take_turns(table):
    table.begin().arrange({"alice-bear": (2, 2), "bob-cat": (6, 6)}, turn="alice")
    with pytest.raises(RuleViolation, match=r"it is Alice's turn \(Bob's Cat waits\)"):
        table.move("bob-cat", (6, 5))
    table.move("alice-bear", (3, 2))
    table.move("bob-cat", (6, 5))
    assert table.battle["turn"] == {"side": "bob", "number": 2, "moved": "bob-cat", "answers": []}


def test_a_player_moves_only_one_figure_a_turn(table):
    table.begin().arrange({"alice-bear": (2, 2), "alice-cat": (4, 4), "bob-cat": (7, 7)})
    table.move("alice-bear", (3, 2))
    with pytest.raises(
        RuleViolation, match=r"moves one figure a turn \(Alice already moved the Bear"
    ):
        table.move("alice-cat", (4, 5))
    with pytest.raises(RuleViolation, match="moves one figure a turn"):
        table.move("alice-bear", (4, 2))


def test_a_move_is_at_least_one_step(table):
    table.begin().arrange({"alice-bear": (2, 2), "bob-cat": (7, 7)})
    with pytest.raises(InvalidEvent, match="path"):
        table.move("alice-bear")


def test_a_figure_may_come_back_to_the_space_it_started_on(table):
    table.begin().arrange({"alice-bear": (2, 2), "bob-cat": (7, 7)})
    table.move("alice-bear", (3, 2), (2, 2))
    assert table.pos("alice-bear") == "2,2"
    assert table.battle["last_action"]["steps"] == 2


def test_a_move_goes_step_by_step_to_neighbouring_spaces(table):
    table.begin().arrange({"alice-bear": (2, 2), "bob-cat": (7, 7)})
    with pytest.raises(RuleViolation, match=r"step by step \(Alice's Bear: \(2, 2\) to \(4, 2\)"):
        table.move("alice-bear", (4, 2))


def test_a_figure_stays_on_the_map(table):
    table.begin().arrange({"alice-bear": (0, 1), "bob-cat": (7, 7)})
    with pytest.raises(RuleViolation, match=r"\(-1, 1\) is not on the map \(Alice's Bear\)"):
        table.move("alice-bear", (-1, 1))


def test_a_walker_moves_at_most_three_steps(table):
    table.begin().arrange({"alice-bear": (1, 2), "bob-cat": (7, 7)})
    with pytest.raises(
        RuleViolation,
        match=r"a walker moves at most 3 steps a turn, a forest costing 2 "
        r"\(Alice's Bear would spend 4 to reach \(5, 2\)\)",
    ):
        table.move("alice-bear", (2, 2), (3, 2), (4, 2), (5, 2))
    table.move("alice-bear", (2, 2), (3, 2), (4, 2))
    assert table.pos("alice-bear") == "4,2"


def test_a_runner_moves_at_most_five_steps(table):
    table.begin().arrange({"alice-cat": (1, 2), "bob-cat": (7, 7)})
    with pytest.raises(RuleViolation, match="a runner moves at most 5 steps"):
        table.move("alice-cat", (2, 2), (3, 2), (4, 2), (5, 2), (6, 2), (7, 2))
    table.move("alice-cat", (2, 2), (3, 2), (4, 2), (5, 2), (6, 2))
    assert table.pos("alice-cat") == "6,2"


def test_a_figure_need_not_use_its_full_movement(table):
    table.begin().arrange({"alice-cat": (1, 2), "bob-cat": (7, 7)})
    table.move("alice-cat", (2, 2))
    assert table.battle["last_action"]["steps"] == 1


def test_a_forest_costs_a_walker_two_steps_so_a_bear_crosses_one_forest_and_one_plain(table):
    forest = {(2, 2): "forest", (3, 2): "forest"}
    table.begin().arrange({"alice-bear": (1, 2), "bob-cat": (7, 7)}, terrain=forest)
    with pytest.raises(RuleViolation, match=r"would spend 4 to reach \(3, 2\)"):
        table.move("alice-bear", (2, 2), (3, 2))
    table.move("alice-bear", (2, 2), (2, 3))
    assert table.battle["last_action"]["steps"] == 3


def test_a_forest_costs_a_runner_two_steps_so_a_knight_crosses_two_forests_and_a_plain(table):
    forest = {(2, 2): "forest", (3, 2): "forest", (4, 2): "forest"}
    table.begin().arrange({"alice-knight": (1, 2), "bob-cat": (7, 7)}, terrain=forest)
    with pytest.raises(RuleViolation, match=r"a runner moves at most 5 steps.*spend 6"):
        table.move("alice-knight", (2, 2), (3, 2), (4, 2))
    table.move("alice-knight", (2, 2), (3, 2), (3, 3))
    assert table.battle["last_action"]["steps"] == 5


def test_figures_pass_through_friends_but_never_stop_on_them(table):
    table.begin().arrange({"alice-bear": (1, 2), "alice-cat": (2, 2), "bob-cat": (7, 7)})
    with pytest.raises(
        RuleViolation, match=r"two figures never share a space \(\(2, 2\) holds Alice's Cat\)"
    ):
        table.move("alice-bear", (2, 2))
    table.move("alice-bear", (2, 2), (3, 2))
    assert table.pos("alice-bear") == "3,2"


def test_a_walker_cannot_pass_through_an_enemy(table):
    table.begin().arrange({"alice-bear": (1, 2), "bob-cat": (2, 2)})
    with pytest.raises(
        RuleViolation,
        match=r"a walker cannot move through or onto an enemy \(Alice's Bear into Bob's Cat at "
        r"\(2, 2\)\)",
    ):
        table.move("alice-bear", (2, 2), (3, 2))
    table.move("alice-bear", (1, 3), (2, 3), (3, 2))
    assert table.pos("alice-bear") == "3,2"


def test_a_walker_cannot_pass_an_enemy_flier_only_go_around_it(table):
    table.begin().arrange({"alice-bear": (1, 2), "bob-pigeon": (2, 2), "bob-cat": (7, 7)})
    with pytest.raises(
        RuleViolation,
        match=r"a walker cannot pass an enemy flier, only go around it "
        r"\(Alice's Bear into Bob's Pigeon at \(2, 2\)\)",
    ):
        table.move("alice-bear", (2, 2), (3, 2))
    table.move("alice-bear", (2, 1), (3, 1))


def test_a_runner_may_pass_a_friendly_flier(table):
    table.begin().arrange({"alice-cat": (1, 2), "alice-pigeon": (2, 2), "bob-cat": (7, 7)})
    table.move("alice-cat", (2, 2), (3, 2))
    assert table.pos("alice-cat") == "3,2"


def test_walkers_and_runners_cannot_enter_water(table):
    water = {(2, 2): "water"}
    table.begin().arrange({"alice-bear": (1, 2), "bob-cat": (7, 7)}, terrain=water)
    with pytest.raises(
        RuleViolation, match=r"a walker cannot enter water \(Alice's Bear to \(2, 2\)\)"
    ):
        table.move("alice-bear", (2, 2), (3, 2))


def test_a_bridge_is_crossed_like_plain(table):
    terrain = {(2, 1): "water", (2, 2): "bridge", (2, 3): "water"}
    table.begin().arrange({"alice-bear": (1, 2), "bob-cat": (7, 7)}, terrain=terrain)
    table.move("alice-bear", (2, 2), (3, 2), (4, 2))
    assert table.battle["last_action"]["steps"] == 3


class TestMountains:
    terrain = {(3, 2): "mountains", (4, 2): "mountains", (5, 2): "plain"}

    def test_a_walker_stops_before_the_mountains(self, table):
        table.begin().arrange({"alice-bear": (1, 2), "bob-cat": (7, 7)}, terrain=self.terrain)
        with pytest.raises(
            RuleViolation,
            match=r"a walker stops before the mountains and enters them on a later turn "
            r"\(Alice's Bear to \(3, 2\)\)",
        ):
            table.move("alice-bear", (2, 2), (3, 2))

    def test_entering_the_mountains_takes_the_whole_turn(self, table):
        table.begin().arrange({"alice-bear": (2, 2), "bob-cat": (7, 7)}, terrain=self.terrain)
        with pytest.raises(
            RuleViolation, match="entering the mountains takes a walker a whole turn"
        ):
            table.move("alice-bear", (3, 2), (4, 2))
        table.move("alice-bear", (3, 2))
        assert table.pos("alice-bear") == "3,2"

    def test_in_the_mountains_a_runner_moves_one_space_a_turn(self, table):
        table.begin().arrange({"alice-cat": (3, 2), "bob-cat": (7, 7)}, terrain=self.terrain)
        with pytest.raises(
            RuleViolation,
            match=r"in the mountains a runner moves one space a turn "
            r"\(Alice's Cat from \(3, 2\) to \(4, 2\)\)",
        ):
            table.move("alice-cat", (4, 2), (5, 2))
        table.move("alice-cat", (4, 2))
        assert table.pos("alice-cat") == "4,2"

    def test_leaving_the_mountains_takes_a_whole_turn(self, table):
        table.begin().arrange({"alice-bear": (4, 2), "bob-cat": (7, 7)}, terrain=self.terrain)
        with pytest.raises(
            RuleViolation, match="leaving the mountains takes a walker a whole turn"
        ):
            table.move("alice-bear", (5, 2), (6, 2))
        table.move("alice-bear", (5, 2))
        assert table.pos("alice-bear") == "5,2"


class TestFliers:
    def test_a_flier_flies_anywhere_over_water_and_enemies_into_the_mountains(self, table):
        terrain = {(2, 2): "water", (4, 2): "mountains"}
        table.begin().arrange(
            {"alice-pigeon": (1, 2), "bob-cat": (3, 2), "bob-bear": (7, 7)}, terrain=terrain
        )
        table.move("alice-pigeon", (2, 2), (3, 2), (4, 2))
        assert table.pos("alice-pigeon") == "4,2"
        assert table.battle["last_action"]["steps"] == 3

    def test_a_flier_may_hover_over_water(self, table):
        table.begin().arrange(
            {"alice-pigeon": (1, 2), "bob-cat": (7, 7)}, terrain={(2, 2): "water"}
        )
        table.move("alice-pigeon", (2, 2))
        assert table.pos("alice-pigeon") == "2,2"

    def test_a_flier_cannot_land_on_a_space_surrounded_by_enemies(self, table_factory):
        table = table_factory().begin(
            figures=("knight", "cat", "bear", "little-man", "little-man", "pigeon", "pigeon")
        )
        ring = [(4, 3), (4, 2), (3, 2), (2, 3), (2, 4), (3, 4)]
        enemies = [
            "bob-knight",
            "bob-cat",
            "bob-bear",
            "bob-little-man",
            "bob-little-man-2",
            "bob-pigeon",
        ]
        where = dict(zip(enemies, ring, strict=True))
        where["alice-pigeon"] = (6, 6)
        table.arrange(where)
        with pytest.raises(
            RuleViolation,
            match=r"a flier cannot land on a space surrounded by enemy monsters "
            r"\(Alice's Pigeon to \(3, 3\)\)",
        ):
            table.move("alice-pigeon", (5, 6), (4, 6), (4, 5), (3, 5), (3, 4), (3, 3))

    def test_a_corner_is_surrounded_when_its_neighbours_on_the_map_hold_enemies(self, table):
        # (0, 0) is a corner of the open ground: its only neighbours are (1, 0) and (0, 1)
        table.begin().arrange({"alice-pigeon": (2, 1), "bob-cat": (1, 0), "bob-bear": (0, 1)})
        with pytest.raises(RuleViolation, match=r"surrounded by enemy monsters .*\(0, 0\)"):
            table.move("alice-pigeon", (1, 1), (0, 1), (0, 0))
