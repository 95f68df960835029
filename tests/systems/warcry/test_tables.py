"""The tables of the aftermath, checked against every worked example of the source."""

import pytest

from tracker.systems.warcry import tables as t

# The fifteen injury examples of the source: dice, outcome for a fighter (and for a leader).
INJURY_EXAMPLES = [
    ((1, 1), t.KILLED),
    ((3, 2), t.LOSES_FAVOUR),
    ((5, 1), t.RECOVERS),
    ((6, 3), t.RECOVERS),
    ((1, 1), t.KILLED),
    ((3, 4), t.RECOVERS),
    ((3, 3), t.RECOVERS),
    ((1, 2), t.KILLED),
    ((3, 6), t.RECOVERS),
    ((5, 2), t.RECOVERS),
    ((1, 6), t.RECOVERS),
    ((1, 6), t.RECOVERS),
    ((3, 5), t.RECOVERS),
    ((6, 6), t.RECOVERS),
    ((6, 6), t.RECOVERS),
]
# The fifteen destiny examples: the D6 and whether the gods noticed.
DESTINY_EXAMPLES = [
    (2, False),
    (2, False),
    (3, False),
    (1, False),
    (6, True),
    (6, True),
    (2, False),
    (6, True),
    (5, False),
    (4, False),
    (3, False),
    (5, False),
    (5, False),
    (2, False),
    (6, True),
]
# The twelve perishable examples: the D6 and whether the artefact crumbled.
PERISHABLE_EXAMPLES = [
    (3, True),
    (2, True),
    (2, True),
    (6, False),
    (2, True),
    (5, False),
    (4, False),
    (4, False),
    (1, True),
    (6, False),
    (1, True),
    (4, False),
]


@pytest.mark.parametrize("dice, outcome", INJURY_EXAMPLES)
def test_the_injury_examples_of_the_source(dice, outcome):
    assert t.injury(list(dice), leader=False) == outcome


@pytest.mark.parametrize("dice, outcome", INJURY_EXAMPLES)
def test_a_leader_is_never_killed_on_the_injury_roll_but_loses_favour_instead(dice, outcome):
    expected = t.LOSES_FAVOUR if outcome == t.KILLED else outcome
    assert t.injury(list(dice), leader=True) == expected


@pytest.mark.parametrize(
    "total, outcome",
    [
        (2, t.KILLED),
        (3, t.KILLED),
        (4, t.LOSES_FAVOUR),
        (5, t.LOSES_FAVOUR),
        (6, t.RECOVERS),
        (12, t.RECOVERS),
    ],
)
def test_the_injury_table_follows_the_sum_of_two_dice(total, outcome):
    first = min(6, total - 1)
    assert t.injury([first, total - first], leader=False) == outcome


@pytest.mark.parametrize("die, gained", DESTINY_EXAMPLES)
def test_the_destiny_examples_of_the_source(die, gained):
    assert t.destiny_gained([die]) is gained


@pytest.mark.parametrize("die, crumbled", PERISHABLE_EXAMPLES)
def test_the_perishable_examples_of_the_source(die, crumbled):
    assert t.perishable_crumbles([die]) is crumbled


@pytest.mark.parametrize(
    "down, fielded, glory",
    [
        (0, 6, 0),
        (1, 6, 0),
        (2, 6, 1),
        (3, 6, 1),
        (4, 6, 2),
        (5, 6, 2),
        (6, 6, 3),
        (1, 3, 1),
        (2, 5, 1),
        (4, 5, 2),
        (5, 5, 3),
    ],
)
def test_glory_for_each_full_third_of_the_enemy_taken_down(down, fielded, glory):
    assert t.thirds(down, fielded) == glory


def test_battle_glory_lists_every_line_of_the_table():
    lines = t.battle_glory(
        won=True, enemy_leader_down=True, enemy_down=6, enemy_fielded=6, territory_gap=2
    )
    assert [amount for amount, _ in lines] == [3, 2, 1, 3, 1]
    assert sum(a for a, _ in t.battle_glory(False, False, 0, 5, 1)) == 3


def test_a_d66_search_reads_tens_then_units_in_the_campaigns_table():
    table = [
        {"from": 11, "to": 16, "find": False, "name": "nothing"},
        {"from": 21, "to": 66, "name": "Trinket", "kind": "permanent", "effect": "x"},
    ]
    assert t.search(table, [1, 6]) is None
    assert t.search(table, [2, 1])["name"] == "Trinket"
    assert t.d66([3, 5]) == 35
