"""Attacks: who may attack whom, the totals, sixes, ties, lives lost, fliers' choice."""

import pytest

from tracker.errors import InvalidEvent, RuleViolation
from tracker.systems.monsters import system

BEAR_NEXT_TO_CAT = {
    "alice-bear": (2, 2),
    "bob-cat": (4, 2),
    "alice-knight": (0, 0),
    "bob-knight": (8, 8),
}


def bear_meets_cat(table, **arrange):
    """Alice's Bear (7) steps next to Bob's Cat (4, two lives) at (4, 2)."""
    table.begin().arrange({**BEAR_NEXT_TO_CAT, **arrange.pop("where", {})}, **arrange)
    table.move("alice-bear", (3, 2))
    return table


def test_a_monster_attacks_only_an_enemy_right_next_to_it(table):
    table.begin().arrange(BEAR_NEXT_TO_CAT)
    table.move("alice-bear", (2, 3))
    with pytest.raises(
        RuleViolation,
        match=r"a monster attacks only an enemy right next to it \(Alice's Bear at \(2, 3\), "
        r"Bob's Cat at \(4, 2\)\)",
    ):
        table.attack("alice-bear", "bob-cat", ([3], [3]))


def test_a_monster_attacks_only_enemies(table):
    table.begin().arrange({**BEAR_NEXT_TO_CAT, "alice-cat": (3, 3)})
    table.move("alice-bear", (3, 2))
    with pytest.raises(
        RuleViolation, match=r"attacks only enemies \(Alice's Bear against Alice's Cat\)"
    ):
        table.attack("alice-bear", "alice-cat", ([3], [3]))


def test_a_monster_moves_before_it_attacks(table):
    table.begin().arrange({**BEAR_NEXT_TO_CAT, "alice-bear": (3, 2)})
    with pytest.raises(RuleViolation, match=r"a monster moves and then attacks: every turn moves"):
        table.attack("alice-bear", "bob-cat", ([3], [3]))


def test_an_attack_sent_before_moving_is_refused_with_the_move_then_attack_rule(table):
    table.begin().arrange({**BEAR_NEXT_TO_CAT, "bob-cat": (3, 3)}, turn="alice")
    table.move("alice-bear", (3, 2))
    # Alice has moved: Bob's turn comes, and it begins with a move, not an attack
    with pytest.raises(
        RuleViolation,
        match=r"a monster moves and then attacks: Bob's turn begins with a move, and the figure "
        r"that moved attacks \(Bob's Cat\)",
    ) as refused:
        table.attack("bob-cat", "alice-bear", ([3], [3]))
    assert "Alice's turn" not in str(refused.value)
    table.move("bob-cat", (4, 3), (3, 3))
    table.attack("bob-cat", "alice-bear", ([5], [1]))


def test_an_attack_out_of_turn_still_names_whose_turn_it_is(table):
    bear_meets_cat(table)
    table.attack("alice-bear", "bob-cat", ([3], [1]))
    with pytest.raises(RuleViolation, match=r"players take turns: it is Bob's turn"):
        table.attack("alice-bear", "bob-cat", ([3], [1]))


def test_the_figure_that_moved_is_the_one_that_attacks(table):
    table.begin().arrange({**BEAR_NEXT_TO_CAT, "alice-bear": (3, 2), "alice-cat": (6, 6)})
    table.move("alice-cat", (6, 5))
    with pytest.raises(
        RuleViolation,
        match=r"the figure that moved is the one that attacks \(Cat moved, not Bear\)",
    ):
        table.attack("alice-bear", "bob-cat", ([3], [3]))


def test_a_monster_never_attacks_and_then_moves(table):
    bear_meets_cat(table)
    table.attack("alice-bear", "bob-cat", ([3], [1]))
    with pytest.raises(
        RuleViolation,
        match=r"a monster moves and then attacks, never attacks and then moves \(Alice attacked; "
        r"it is Bob's turn\)",
    ):
        table.move("alice-bear", (3, 3))


def test_an_attack_ends_the_turn(table):
    bear_meets_cat(table)
    table.attack("alice-bear", "bob-cat", ([3], [1]))
    assert table.battle["turn"] == {"side": "bob", "number": 2, "moved": None, "answers": []}


def test_the_attacker_adds_one_to_its_strength_and_die(table):
    bear_meets_cat(table)
    table.attack("alice-bear", "bob-cat", ([2], [6]), ([4], [1]))
    action = table.battle["last_action"]
    assert action["base"]["attacker"] == {"strength": 7, "attack": 1, "friends": 0, "base": 8}
    assert action["base"]["defender"] == {
        "strength": 4,
        "ground": "plain",
        "ground_bonus": 0,
        "base": 4,
    }
    assert [(r["attacker_total"], r["defender_total"], r["result"]) for r in action["rounds"]] == [
        (10, 10, "tie"),
        (12, 5, "attacker"),
    ]


def test_each_other_friend_next_to_the_defender_adds_one(table):
    bear_meets_cat(
        table, where={"alice-cat": (5, 2), "alice-pigeon": (4, 3), "alice-knight": (6, 6)}
    )
    table.attack("alice-bear", "bob-cat", ([1], [6]))
    action = table.battle["last_action"]
    assert action["base"]["attacker"]["friends"] == 2
    assert action["rounds"][0]["attacker_total"] == 7 + 1 + 2 + 1


@pytest.mark.parametrize(
    ("ground", "bonus"), [("forest", 1), ("mountains", 3), ("plain", 0), ("bridge", 0)]
)
def test_a_defender_adds_its_ground_forest_one_mountains_three(table, ground, bonus):
    bear_meets_cat(table, terrain={(4, 2): ground})
    table.attack("alice-bear", "bob-cat", ([6, 1], [1]))
    assert table.battle["last_action"]["base"]["defender"]["ground_bonus"] == bonus


def test_a_defender_in_its_castle_adds_three(table):
    table.begin().arrange(
        {"alice-bear": (6, 8), "bob-cat": (8, 8), "bob-knight": (5, 5), "alice-knight": (0, 0)}
    )
    table.move("alice-bear", (7, 8))
    table.attack("alice-bear", "bob-cat", ([4], [1]))
    defender = table.battle["last_action"]["base"]["defender"]
    assert (defender["ground"], defender["ground_bonus"]) == ("castle", 3)


@pytest.mark.parametrize("ground", ["mountains", "forest"])
def test_a_castle_in_mountains_or_forest_still_adds_only_three(table, ground):
    table.begin().arrange(
        {"alice-bear": (6, 8), "bob-cat": (8, 8), "bob-knight": (5, 5), "alice-knight": (0, 0)},
        terrain={(8, 8): ground},
    )
    table.move("alice-bear", (7, 8))
    table.attack("alice-bear", "bob-cat", ([4], [1]))
    assert table.battle["last_action"]["base"]["defender"]["ground_bonus"] == 3


def test_an_attacker_gets_nothing_for_its_own_ground(table):
    bear_meets_cat(table, terrain={(3, 2): "forest"}, where={"alice-bear": (2, 3)})
    table.attack("alice-bear", "bob-cat", ([1], [1]))
    assert table.battle["last_action"]["base"]["attacker"]["base"] == 8


def test_the_loser_of_an_attack_loses_a_life_and_fights_weaker(table):
    bear_meets_cat(table)
    table.attack("alice-bear", "bob-cat", ([3], [1]))
    cat = table.piece("bob-cat")
    assert (cat["lives"], cat["lives_lost"]) == (1, 1)
    assert table.state["records"]["bob-cat"]["lives_lost"] == 1
    assert system.describe(table.state, table.last) == (
        "Alice's Bear attacked Bob's Cat: 11 against 5; the Cat lost a life (1 life left)"
    )
    table.move("bob-cat", (5, 2), (4, 2))
    table.attack("bob-cat", "alice-bear", ([1], [1]))
    # the wounded Cat fights with 2: 2 + 1 + 1 = 4 against Bear 7 + 1 = 8
    assert table.battle["last_action"]["rounds"][0]["attacker_total"] == 4


def test_a_defender_that_wins_wounds_the_attacker(table):
    bear_meets_cat(table)
    table.attack("alice-bear", "bob-cat", ([1], [6, 2]))  # 9 against 10
    assert table.piece("alice-bear")["lives"] == 1
    assert table.piece("bob-cat")["lives"] == 2


def test_a_figure_with_no_life_left_is_removed(table):
    bear_meets_cat(table)
    table.piece("bob-cat")["lives"] = 1
    table.attack("alice-bear", "bob-cat", ([3], [1]))
    cat = table.piece("bob-cat")
    assert cat["pos"] is None and cat["lives"] == 0
    assert "4,2" not in table.battle["board"]
    assert table.battle["last_action"]["removed"] == ["bob-cat"]
    assert table.state["records"]["alice-bear"]["kills"] == 1
    assert table.state["records"]["bob-cat"]["deaths"] == 1
    assert table.describe().endswith("the Cat was killed")


class TestSixes:
    def test_a_first_six_is_added_and_the_second_die_is_not(self, table):
        bear_meets_cat(table)
        table.attack("alice-bear", "bob-cat", ([1], [6, 5]))
        first = table.battle["last_action"]["rounds"][0]
        assert (first["attacker_total"], first["defender_total"]) == (9, 10)
        assert table.piece("alice-bear")["lives"] == 1

    def test_two_sixes_wound_the_enemy_whatever_the_totals(self, table):
        table.begin().arrange(
            {
                "alice-pigeon": (2, 2),
                "bob-cat": (4, 2),
                "alice-knight": (0, 0),
                "bob-knight": (8, 8),
            }
        )
        table.move("alice-pigeon", (3, 2))
        table.attack("alice-pigeon", "bob-cat", ([6, 6], [6, 1]))  # 2+1+6 = 9 against 4+6 = 10
        assert table.battle["last_action"]["outcome"] == "attacker-sixes"
        assert table.piece("bob-cat")["lives"] == 1
        assert table.piece("alice-pigeon")["lives"] == 1

    def test_a_defenders_two_sixes_wound_the_attacker(self, table):
        bear_meets_cat(table)
        table.attack("alice-bear", "bob-cat", ([5], [6, 6]))
        assert table.piece("alice-bear")["lives"] == 1

    def test_two_sixes_on_both_sides_kill_both_monsters_whatever_their_lives(self, table):
        table.begin(figures=("knight", "stone-giant", "cat"))
        table.arrange(
            {
                "alice-stone-giant": (2, 2),
                "bob-cat": (4, 2),
                "alice-knight": (0, 0),
                "bob-knight": (8, 8),
            }
        )
        table.move("alice-stone-giant", (3, 2))
        table.attack("alice-stone-giant", "bob-cat", ([6, 6], [6, 6]))
        for piece in ("alice-stone-giant", "bob-cat"):
            assert table.piece(piece)["pos"] is None
        assert table.piece("alice-stone-giant")["lives_lost"] == 3
        assert table.state["records"]["bob-cat"]["kills"] == 1
        assert table.describe().endswith("both rolled two sixes and both died")

    def test_a_second_die_is_rolled_only_after_a_first_six(self, table):
        bear_meets_cat(table)
        with pytest.raises(
            InvalidEvent, match=r"a second die is rolled only after a first 6 \(not after 5\)"
        ):
            table.attack("alice-bear", "bob-cat", ([5, 6], [1]))

    def test_a_die_shows_one_to_six(self, table):
        bear_meets_cat(table)
        with pytest.raises(InvalidEvent, match="a die shows 1 to 6, not 7"):
            table.attack("alice-bear", "bob-cat", ([7], [1]))


class TestTies:
    def test_equal_totals_are_rolled_again(self, table):
        bear_meets_cat(table)
        table.attack("alice-bear", "bob-cat", ([2], [6]), ([2], [6, 1]), ([1], [1]))
        rounds = table.battle["last_action"]["rounds"]
        assert [r["result"] for r in rounds] == ["tie", "tie", "attacker"]
        assert table.describe() == (
            "Alice's Bear attacked Bob's Cat: 10 against 10, rolled again, then 10 against 10, "
            "rolled again, then 9 against 5; the Cat lost a life (1 life left)"
        )

    def test_an_attack_never_ends_on_a_tie(self, table):
        bear_meets_cat(table)
        with pytest.raises(
            RuleViolation,
            match=r"equal totals are rolled again \(round 1 ended 10 against 10, and no round follows\)",
        ):
            table.attack("alice-bear", "bob-cat", ([2], [6]))

    def test_only_a_tie_is_rolled_again(self, table):
        bear_meets_cat(table)
        with pytest.raises(
            RuleViolation,
            match=r"only a tie is rolled again \(round 1 was decided, 11 against 5, yet 1 more followed\)",
        ):
            table.attack("alice-bear", "bob-cat", ([3], [1]), ([1], [1]))


class TestFliersChoice:
    where = {
        "alice-bear": (2, 2),
        "bob-pigeon": (4, 2),
        "bob-cat": (6, 6),
        "alice-knight": (0, 0),
        "bob-knight": (8, 8),
    }

    def test_a_flier_attacked_by_a_walker_chooses_first_whether_it_comes_down(self, table):
        table.begin().arrange(self.where)
        table.move("alice-bear", (3, 2))
        with pytest.raises(
            RuleViolation,
            match=r"a flier's owner first chooses whether it comes down to fight a walker "
            r"\(Bob's Pigeon, attacked by Alice's Bear\)",
        ):
            table.attack("alice-bear", "bob-pigeon", ([3], [1]))
        table.do("FlierCameDown", battle="b1", flier="bob-pigeon", attacker="alice-bear")
        assert table.describe() == "Bob's Pigeon came down to fight Alice's Bear"
        table.attack("alice-bear", "bob-pigeon", ([3], [1]))
        assert table.piece("bob-pigeon")["pos"] is None

    def test_a_flier_that_stayed_aloft_is_not_attacked_and_the_turn_goes_on(self, table):
        table.begin().arrange({**self.where, "bob-cat": (3, 3)})
        table.move("alice-bear", (3, 2))
        table.do("FlierStayedAloft", battle="b1", flier="bob-pigeon", attacker="alice-bear")
        assert table.describe() == "Bob's Pigeon stayed aloft and would not fight Alice's Bear"
        with pytest.raises(
            RuleViolation,
            match=r"a flier that stayed aloft cannot be attacked this turn \(Bob's Pigeon refused "
            r"Alice's Bear\)",
        ):
            table.attack("alice-bear", "bob-pigeon", ([3], [1]))
        table.attack("alice-bear", "bob-cat", ([3], [1]))
        assert table.piece("bob-cat")["lives"] == 1

    def test_a_flier_may_be_asked_before_the_attacker_moves(self, table):
        table.begin().arrange({**self.where, "alice-bear": (3, 2)})
        table.do("FlierCameDown", battle="b1", flier="bob-pigeon", attacker="alice-bear")
        table.move("alice-bear", (3, 1), (3, 2))
        table.attack("alice-bear", "bob-pigeon", ([3], [1]))

    def test_a_flier_may_answer_once_its_side_has_moved_for_the_attackers_coming_turn(self, table):
        table.begin().arrange({**self.where, "alice-bear": (3, 2)}, turn="bob")
        table.move("bob-cat", (6, 5))
        # Bob has moved: Alice's turn comes, and Bob may say now whether the Pigeon comes down
        table.do("FlierStayedAloft", battle="b1", flier="bob-pigeon", attacker="alice-bear")
        with pytest.raises(RuleViolation, match="already answered Alice's Bear this turn"):
            table.do("FlierCameDown", battle="b1", flier="bob-pigeon", attacker="alice-bear")
        assert table.battle["turn"]["answers"] == []
        table.move("alice-bear", (3, 1), (3, 2))
        assert table.battle["turn"]["answers"] == [
            {"flier": "bob-pigeon", "attacker": "alice-bear", "came_down": False}
        ]
        with pytest.raises(RuleViolation, match="a flier that stayed aloft cannot be attacked"):
            table.attack("alice-bear", "bob-pigeon", ([3], [1]))

    def test_a_flier_answers_no_attack_of_its_own_side_s_turn(self, table):
        table.begin().arrange({**self.where, "alice-bear": (3, 2)}, turn="bob")
        with pytest.raises(
            RuleViolation,
            match=r"a flier answers an attack during its enemy's turn, and it is "
            r"Bob's turn",
        ):
            table.do("FlierCameDown", battle="b1", flier="bob-pigeon", attacker="alice-bear")

    def test_a_flier_answers_each_attacker_once_a_turn(self, table):
        table.begin().arrange({**self.where, "alice-bear": (3, 2)})
        table.do("FlierStayedAloft", battle="b1", flier="bob-pigeon", attacker="alice-bear")
        with pytest.raises(
            RuleViolation, match="Bob's Pigeon already answered Alice's Bear this turn"
        ):
            table.do("FlierCameDown", battle="b1", flier="bob-pigeon", attacker="alice-bear")

    def test_a_flier_attacked_by_a_flier_cannot_refuse(self, table):
        table.begin().arrange({**self.where, "alice-pigeon": (2, 3)})
        table.move("alice-pigeon", (3, 3))
        with pytest.raises(
            RuleViolation,
            match=r"a flier attacked by a flier cannot refuse, so there is nothing to choose",
        ):
            table.do("FlierStayedAloft", battle="b1", flier="bob-pigeon", attacker="alice-pigeon")
        table.attack("alice-pigeon", "bob-pigeon", ([4], [1]))
        assert table.piece("bob-pigeon")["pos"] is None

    def test_a_flier_that_is_its_sides_last_figure_besides_the_king_cannot_refuse(self, table):
        where = dict(self.where)
        del where["bob-cat"]
        table.begin().arrange(where)
        table.move("alice-bear", (3, 2))
        with pytest.raises(
            RuleViolation,
            match=r"a flier that is its side's last figure besides the king cannot refuse to "
            r"fight \(Bob's Pigeon\)",
        ):
            table.do("FlierStayedAloft", battle="b1", flier="bob-pigeon", attacker="alice-bear")
        table.attack("alice-bear", "bob-pigeon", ([3], [1]))

    def test_only_a_flier_chooses_whether_to_come_down(self, table):
        bear_meets_cat(table)
        with pytest.raises(
            RuleViolation, match=r"only a flier chooses whether to come down \(Bob's Cat walks\)"
        ):
            table.do("FlierStayedAloft", battle="b1", flier="bob-cat", attacker="alice-bear")
