"""Random legal play never leaves the board in an illegal state; the accepted events, applied
again as a writer applies them (to a copy made as the rules reach into it), give the same
state and leave each state copied from as it was."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from leaders_table import ALICE, BOB, DECK, QUEEN, REGENT, Table

from tracker.errors import RuleViolation
from tracker.events import state_text
from tracker.systems.base import copy_for_rules, settled
from tracker.systems.leaders import geometry as geo
from tracker.systems.leaders import system
from tracker.systems.leaders.rules import Board, fallen, recruitment_options

MAX_EVENTS = 150


def _nemesis_paths(table: Table) -> list[list]:
    board = Board(table.state)
    start = board.at["nemesis"]
    paths = []
    for first in geo.neighbours(start, board.cells):
        paths.append([first])
        paths.extend([first, second] for second in geo.neighbours(first, board.cells))
    return [[list(s) for s in path] for path in paths]


def _candidates(rng, table: Table) -> list[tuple[str, dict]]:
    match = table.match
    player = match["active"]
    if match["nemesis"]:
        owner = match["nemesis"]["owner"]
        paths = _nemesis_paths(table)
        rng.shuffle(paths)
        return [("NemesisMoved", {"player": owner, "path": p}) for p in paths]
    if match["exile"]:
        due = match["exile"]["order"][match["exile"]["next"]]
        return [("CharacterExiled", {"player": due, "card": rng.choice(match["available"])})]
    if match["phase"] == "recruitment":
        tries = [("TurnEnded", {"player": player})]
        options = list(recruitment_options(table.state, player))
        if options:
            card, spaces = rng.choice(options)
            recruit = ("CharacterRecruited", {"player": player, "card": card, "spaces": spaces})
            tries.insert(0 if rng.random() < 0.9 else 1, recruit)
        return tries
    board = Board(table.state)
    own = sorted(
        p for p, piece in board.pieces.items() if piece["owner"] == player and p in board.at
    )
    everyone = sorted(board.at)
    cells = sorted(board.cells)
    tries = []
    for _ in range(12):
        piece = rng.choice(own)
        here = board.at[piece]
        near = [c for c in cells if 0 < geo.distance(c, here) <= 3]
        if rng.random() < 0.4:
            first = rng.choice(geo.neighbours(here))
            path = [first] if rng.random() < 0.7 else [first, rng.choice(geo.neighbours(first))]
            tries.append(
                (
                    "CharacterMoved",
                    {"player": player, "character": piece, "path": [list(s) for s in path]},
                )
            )
        else:
            data = {
                "player": player,
                "character": piece,
                "path": [list(rng.choice(near)) for _ in range(rng.choice((0, 1, 1, 2)))],
            }
            if rng.random() < 0.5:
                data["target"] = rng.choice(everyone)
                data["form"] = rng.choice(("move", "pull"))
            tries.append(("AbilityUsed", data))
    if rng.random() < 0.15:
        tries.insert(0, ("ActionPhaseEnded", {"player": player}))
    tries.append(("ActionPhaseEnded", {"player": player}))
    return tries


def _snapshot(table: Table) -> str:
    # Only the match and the standings ever change; the content copied in stays as it is.
    return json.dumps([table.match, table.state["standings"]], sort_keys=True)


def _check_board(table: Table) -> None:
    board = Board(table.state)
    spaces = list(board.at.values())
    assert len(spaces) == len(set(spaces)), "two pieces on one space"
    assert all(s in board.cells for s in spaces), "a piece off the board"
    match = table.match
    taken = fallen(table.state, board, board.at)
    if match["phase"] == "over":
        assert match["loser"] in taken and match["winner"] != match["loser"]
    else:
        assert not taken, f"the game should have ended: {taken}"


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), expert=st.booleans())
def test_random_legal_play_never_leaves_the_board_in_an_illegal_state(seed, expert):
    # One seed drives the whole game: a Random the test owns draws far less from Hypothesis
    # than st.randoms() does over a long game.
    rng = random.Random(seed)
    table = Table()
    deck = list(DECK)
    rng.shuffle(deck)
    start = copy.deepcopy(table.state)  # the table changes its own in place
    accepted = []
    for type_, data in (
        ("MatchStarted", {"match": "m1", "mode": "expert" if expert else "standard"}),
        ("LeaderChosen", {"player": ALICE, "leader": QUEEN}),
        ("LeaderChosen", {"player": BOB, "leader": REGENT}),
        *([] if expert else [("DeckShuffled", {"deck": deck})]),
        ("FirstPlayerDrawn", {"first": rng.choice((ALICE, BOB))}),
    ):
        table.do(type_, **data)
        accepted.append(table.last_event)
    for _ in range(MAX_EVENTS):
        if table.match["phase"] == "over":
            break
        for type_, data in _candidates(rng, table):
            before = _snapshot(table)
            try:
                table.do(type_, **data)
            except RuleViolation:
                table.version -= 1
                assert _snapshot(table) == before, "a refused event changed the state"
                continue
            accepted.append(table.last_event)
            break
        else:
            pytest.fail("no candidate event was accepted")
        _check_board(table)
    _through_copies(start, accepted, table.state)
    if table.match["phase"] == "over":
        with pytest.raises(RuleViolation, match="nothing more is played"):
            table.do("ActionPhaseEnded", player=table.match["winner"])


def _through_copies(start: dict, accepted: list, end: dict) -> None:
    """The accepted events applied again from `start`, each to a copy made as the rules reach
    into it: `end` again, and each state copied from unchanged."""
    state = start
    for event in accepted:
        before = state_text(state)
        after = settled(system.apply(copy_for_rules(state), event))
        assert state_text(state) == before, f"{event.type} changed the state it was copied from"
        state = after
    assert state_text(state) == state_text(end)
