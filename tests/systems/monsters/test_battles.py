"""The lone king's march, victory, the end of a battle, and the campaign's standings."""

import pytest

from tracker.errors import RuleViolation
from tracker.systems.monsters import system, views

KINGS = {"alice-knight": (2, 2), "bob-knight": (6, 6)}


class TestLoneKing:
    def test_a_king_left_alone_moves_toward_an_enemy_every_turn(self, table):
        table.begin().arrange({**KINGS, "bob-cat": (6, 2)})
        with pytest.raises(
            RuleViolation,
            match=r"a king left alone moves at least one space toward an enemy monster every "
            r"turn \(Alice's Knight from \(2, 2\) to \(1, 2\)\)",
        ):
            table.move("alice-knight", (1, 2))
        table.move("alice-knight", (3, 2))

    def test_a_king_left_alone_attacks_the_enemy_it_reaches(self, table):
        table.begin().arrange({**KINGS, "bob-cat": (5, 2)})
        table.move("alice-knight", (3, 2), (4, 2))
        with pytest.raises(
            RuleViolation,
            match=r"a king left alone attacks the enemy it reaches \(Alice's Knight stands next "
            r"to Bob's Cat, and the turn cannot pass before it attacks\)",
        ):
            table.move("bob-knight", (6, 5))
        table.attack("alice-knight", "bob-cat", ([4], [1]))
        table.move("bob-knight", (6, 5))

    def test_a_king_that_cannot_get_closer_moves_as_it_can(self, table):
        water = {
            (5, 4): "water",
            (5, 3): "water",
            (4, 3): "water",
            (3, 5): "water",
            (4, 5): "water",
        }
        table.begin(figures=("bear", "cat"), king="bear")
        table.arrange({"alice-bear": (4, 4), "bob-bear": (8, 8)}, terrain=water)
        table.move("alice-bear", (3, 4))
        assert table.pos("alice-bear") == "3,4"

    def test_a_king_with_friends_left_moves_freely(self, table):
        table.begin().arrange({**KINGS, "alice-cat": (0, 5)})
        table.move("alice-knight", (1, 2))


class TestVictory:
    def test_killing_the_enemy_king_wins_the_battle(self, table):
        table.begin().arrange({"alice-knight": (4, 4), "bob-knight": (6, 4), "bob-cat": (8, 0)})
        table.piece("bob-knight")["lives"] = 1
        table.move("alice-knight", (5, 4))
        table.attack("alice-knight", "bob-knight", ([5], [1]))
        assert table.battle["outcome"] == {"winner": "alice", "reason": "king-killed"}
        assert table.battle["phase"] == "decided"
        with pytest.raises(
            RuleViolation, match=r"battle b1 is decided \(Bob's king was killed\); record its end"
        ):
            table.move("bob-cat", (7, 0))

    def test_a_king_that_loses_its_own_attack_can_lose_the_battle(self, table):
        table.begin().arrange({"alice-knight": (4, 4), "bob-bear": (6, 4), "bob-knight": (8, 8)})
        table.piece("alice-knight")["lives"] = 1
        table.move("alice-knight", (5, 4))
        table.attack("alice-knight", "bob-bear", ([1], [5]))
        assert table.battle["outcome"] == {"winner": "bob", "reason": "king-killed"}

    def test_a_king_entering_the_enemy_castle_wins_the_battle(self, table):
        table.begin().arrange(
            {"alice-knight": (6, 7), "alice-cat": (0, 5), "bob-knight": (2, 2), "bob-cat": (0, 8)}
        )
        table.move("alice-knight", (7, 7), (7, 8), (8, 8))
        assert table.battle["outcome"] == {"winner": "alice", "reason": "castle-taken"}
        assert table.describe() == (
            "Alice's Knight moved from (6, 7) to (8, 8) (3 steps) and Alice's king entered "
            "Bob's castle"
        )

    def test_a_king_whose_move_passes_through_the_enemy_castle_has_entered_it_and_wins(self, table):
        table.begin().arrange(
            {"alice-knight": (6, 7), "alice-cat": (0, 5), "bob-knight": (2, 2), "bob-cat": (0, 8)}
        )
        table.move("alice-knight", (7, 7), (8, 7), (8, 8), (7, 8))
        assert table.battle["outcome"] == {"winner": "alice", "reason": "castle-taken"}
        assert table.battle["phase"] == "decided"
        assert table.describe() == (
            "Alice's Knight moved from (6, 7) to (7, 8) (4 steps) and Alice's king entered "
            "Bob's castle"
        )
        table.do("BattleEnded", battle="b1", winner="alice", reason="castle-taken")
        assert table.state["standings"]["alice"]["won"] == 1

    def test_a_lone_king_may_pass_through_the_enemy_castle_whatever_its_march(self, table):
        table.begin().arrange({"alice-knight": (6, 7), "bob-knight": (2, 2), "bob-cat": (7, 6)})
        # away from both enemies, but through Bob's castle: the castle is entered, and won
        table.move("alice-knight", (7, 7), (8, 7), (8, 8))
        assert table.battle["outcome"] == {"winner": "alice", "reason": "castle-taken"}

    def test_another_figure_passing_through_the_enemy_castle_wins_nothing(self, table):
        table.begin().arrange({**KINGS, "alice-cat": (7, 7)})
        table.move("alice-cat", (8, 7), (8, 8), (7, 8))
        assert table.battle["outcome"] is None

    def test_another_figure_entering_the_enemy_castle_wins_nothing(self, table):
        table.begin().arrange({**KINGS, "alice-cat": (7, 7)})
        table.move("alice-cat", (8, 7), (8, 8))
        assert table.battle["outcome"] is None

    def test_both_kings_falling_at_once_is_a_draw(self, table):
        table.begin().arrange({"alice-knight": (4, 4), "bob-knight": (6, 4)})
        table.move("alice-knight", (5, 4))
        table.attack("alice-knight", "bob-knight", ([6, 6], [6, 6]))
        assert table.battle["outcome"] == {"winner": None, "reason": "both-kings-fell"}
        table.do("BattleEnded", battle="b1", winner=None, reason="both-kings-fell")
        assert table.describe() == "Battle b1 ended in a draw: both kings fell at once"
        assert table.state["standings"]["alice"] == {"played": 1, "won": 0, "lost": 0, "drawn": 1}


class TestTheEnd:
    def decided(self, table):
        table.begin().arrange(
            {"alice-knight": (6, 7), "alice-cat": (0, 5), "bob-knight": (2, 2), "bob-cat": (0, 8)}
        )
        table.move("alice-knight", (7, 7), (7, 8), (8, 8))
        return table

    def test_a_battle_ends_as_the_board_says(self, table):
        self.decided(table)
        with pytest.raises(
            RuleViolation,
            match=r"battle b1 ended as the board says: Alice's king entered Bob's castle",
        ):
            table.do("BattleEnded", battle="b1", winner="bob", reason="castle-taken")
        table.do("BattleEnded", battle="b1", winner="alice", reason="castle-taken")
        assert table.describe() == "Battle b1 ended: Alice won (Alice's king entered Bob's castle)"
        assert table.state["battles"] == [
            {
                "id": "b1",
                "map": "twin-peaks",
                "winner": "alice",
                "reason": "castle-taken",
                "turns": 1,
            }
        ]
        assert table.state["standings"] == {
            "alice": {"played": 1, "won": 1, "lost": 0, "drawn": 0},
            "bob": {"played": 1, "won": 0, "lost": 1, "drawn": 0},
        }

    def test_an_undecided_battle_ends_only_when_a_player_concedes(self, table):
        table.begin().arrange({**KINGS, "bob-cat": (0, 8)})
        with pytest.raises(
            RuleViolation,
            match=r"battle b1 is not decided .* ends early only when a player concedes",
        ):
            table.do("BattleEnded", battle="b1", winner="alice", reason="king-killed")
        data = {"battle": "b1", "winner": "bob", "reason": "conceded"}
        assert system.sides_of(table.state, "BattleEnded", data) == {"alice"}
        table.do("BattleEnded", **data)
        assert table.describe() == "Battle b1 ended: Bob won (Alice conceded)"

    def test_an_ended_battle_takes_no_more_events(self, table):
        self.decided(table)
        table.do("BattleEnded", battle="b1", winner="alice", reason="castle-taken")
        with pytest.raises(RuleViolation, match="no battle is under way: begin one first"):
            table.move("bob-cat", (1, 8))

    def test_a_campaign_is_a_series_of_battles_with_standings_and_records(self, table):
        self.decided(table)
        table.do("BattleEnded", battle="b1", winner="alice", reason="castle-taken")
        with pytest.raises(RuleViolation, match="this campaign already had a battle called b1"):
            table.do("BattleBegun", battle="b1", map="river-crossing", first="bob")
        table.do("BattleBegun", battle="b2", map="river-crossing", first="bob")
        table.do("FiguresChosen", battle="b2", figures=["knight", "cat"], king="knight")
        table.do("BattleEnded", battle="b2", winner="bob", reason="conceded")
        assert table.state["standings"]["alice"] == {"played": 2, "won": 1, "lost": 1, "drawn": 0}
        assert table.state["records"]["alice-knight"]["battles"] == 2
        assert table.state["records"]["alice-bear"]["battles"] == 1


class TestReading:
    def test_events_act_for_the_side_of_their_figure(self, table):
        table.begin().arrange({**KINGS, "bob-pigeon": (3, 3)})
        state = table.state
        assert system.sides(state) == {"alice": "Alice", "bob": "Bob"}
        assert system.sides_of(state, "FigureMoved", {"piece": "bob-knight"}) == {"bob"}
        assert system.sides_of(state, "AttackMade", {"attacker": "alice-knight"}) == {"alice"}
        assert system.sides_of(state, "FlierStayedAloft", {"flier": "bob-pigeon"}) == {"bob"}
        assert system.sides_of(state, "FiguresChosen", {}) == {"alice", "bob"}
        assert system.sides_of(
            state, "BattleEnded", {"winner": "alice", "reason": "king-killed"}
        ) == {"alice"}

    def test_a_player_sees_everything_and_the_pages_may_ask_what_a_figure_can_do(self, table):
        table.begin().arrange({**KINGS, "bob-cat": (4, 2), "alice-bear": (2, 3)})
        assert views.visible_state(table.state, "bob") is table.state
        reach = views.destinations(table.state, "alice-bear")
        assert "3,2" in reach and "4,2" not in reach
        assert views.destinations(table.state, "bob-cat") == {}
        table.move("alice-bear", *[tuple(map(int, s.split(","))) for s in reach["3,2"]])
        assert views.targets(table.state, "alice-bear") == ["bob-cat"]
