"""Property: no legal move crosses water or an enemy or costs more steps than the figure has,
and the spaces the rules offer a figure are exactly the ends of the moves they accept."""

import copy

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tracker.errors import RuleViolation
from tracker.systems.monsters import rules
from tracker.systems.monsters.hexes import DIRECTIONS, coords, key

SIZE = 6
SPACES = [(q, r) for q in range(SIZE) for r in range(SIZE)]
TERRAIN = st.sampled_from(["plain", "plain", "plain", "forest", "mountains", "water", "bridge"])
ENEMIES = ["bob-knight", "bob-bear", "bob-cat", "bob-pigeon"]

# the factory fixture is a class, the same for every example
FIXTURE = {"deadline": None, "suppress_health_check": [HealthCheck.function_scoped_fixture]}


@st.composite
def boards(draw):
    terrain = {space: draw(TERRAIN) for space in SPACES}
    places = draw(st.lists(st.sampled_from(SPACES), min_size=6, max_size=6, unique=True))
    mover = draw(st.sampled_from(["alice-bear", "alice-cat", "alice-pigeon"]))
    where = {"alice-knight": places[0], mover: places[1]}
    for piece, place in zip(ENEMIES, places[2:], strict=True):
        where[piece] = place
    if mover != "alice-pigeon" and terrain[places[1]] == "water":
        terrain[places[1]] = "plain"  # a walker never stands in water
    steps = draw(st.lists(st.sampled_from(DIRECTIONS), min_size=1, max_size=6))
    return terrain, where, mover, steps


BASE = {}


def arranged(table_factory, terrain, where):
    if "state" not in BASE:
        BASE["state"] = table_factory().begin().state
    table = table_factory.__new__(table_factory)
    table.state = copy.deepcopy(BASE["state"])
    table.version = 3
    table.arrange(where, terrain=terrain, size=SIZE)
    return table


@settings(max_examples=80, **FIXTURE)
@given(board=boards())
def test_no_legal_move_crosses_water_or_an_enemy_or_costs_more_than_the_figure_has(
    table_factory, board
):
    terrain, where, mover, steps = board
    table = arranged(table_factory, terrain, where)
    battle = table.battle
    piece = battle["pieces"][mover]
    q, r = where[mover]
    path = []
    for dq, dr in steps:
        q, r = q + dq, r + dr
        path.append((q, r))
    reach = rules.reachable(table.state, battle, piece)
    start = piece["pos"]
    enemies = {battle["pieces"][p]["pos"] for p in ENEMIES}
    spaces = dict(battle["spaces"])
    try:
        table.move(mover, *path)
    except RuleViolation:
        assert key(*path[-1]) not in reach or reach[key(*path[-1])] != [key(*p) for p in path]
        return
    keys = [key(*p) for p in path]
    assert all(k in spaces for k in keys)
    assert keys[-1] in reach, "an accepted move ends on a space the rules offer"
    if piece["movement"] != "flier":
        assert not any(spaces[k] == "water" for k in keys)
        assert not any(k in enemies for k in keys)
        cost = sum(2 if spaces[k] == "forest" else 1 for k in keys)
        assert cost <= rules.STEPS[piece["movement"]]
        if spaces[start] == "mountains" or any(spaces[k] == "mountains" for k in keys):
            assert len(keys) == 1
    else:
        around = [
            n
            for n in (
                key(coords(keys[-1])[0] + dq, coords(keys[-1])[1] + dr) for dq, dr in DIRECTIONS
            )
            if n in spaces
        ]
        assert not around or not all(n in enemies for n in around)


@settings(max_examples=50, **FIXTURE)
@given(board=boards())
def test_every_space_the_rules_offer_is_reached_by_a_legal_move(table_factory, board):
    terrain, where, mover, _steps = board
    table = arranged(table_factory, terrain, where)
    offered = rules.reachable(table.state, table.battle, table.battle["pieces"][mover])
    for space, path in offered.items():
        trial = arranged(table_factory, terrain, where)
        trial.move(mover, *[coords(k) for k in path])
        assert trial.battle["pieces"][mover]["pos"] == space
