"""A table for the Leaders tests: events applied one after another to a plain state."""

from __future__ import annotations

import json

import pytest

from tracker.errors import RuleViolation
from tracker.events import Event
from tracker.systems.leaders import system

ALICE, BOB = "alice", "bob"
QUEEN, REGENT = "ember-queen", "grey-regent"
PLAYERS = [{"id": ALICE, "name": "Alice"}, {"id": BOB, "name": "Bob"}]
#: a fixed shuffle for the standard mode: the row starts as acrobat, rider, colossus
DECK = [
    "acrobat",
    "rider",
    "colossus",
    "royal-guard",
    "illusionist",
    "claw",
    "manipulator",
    "wanderer",
    "brewmaster",
    "archer",
    "assassin",
    "jailer",
    "protector",
    "vizier",
    "hermit-and-cub",
    "nemesis",
]


def new_state(board: str = "default") -> dict:
    settings = system.load_settings(system.prepare_settings({"players": PLAYERS, "board": board}))
    return system.initial_state(settings)


class Table:
    """A campaign's state and the events applied to it, one version after another."""

    def __init__(self, state: dict | None = None):
        self.state = state if state is not None else new_state()
        self.version = 1

    @property
    def match(self) -> dict:
        return self.state["match"]

    def at(self, piece: str):
        where = self.match["pieces"][piece]["at"]
        return tuple(where) if where is not None else None

    def do(self, type_: str, **data) -> dict:
        loaded = system.load(type_, data)
        self.version += 1
        event = Event(None, "c", self.version, type_, loaded, {}, None, None)
        self.state = system.apply(self.state, event)
        self.last_event = event
        return self.state

    def refuses(self, type_: str, words: str, **data) -> str:
        """Assert the event is refused with `words` in its message, and nothing changed."""
        before = json.dumps(self.state, sort_keys=True)
        with pytest.raises(RuleViolation) as caught:
            self.do(type_, **data)
        self.version -= 1
        assert words in caught.value.message, caught.value.message
        assert json.dumps(self.state, sort_keys=True) == before
        return caught.value.message

    # -- shortcuts ---------------------------------------------------------------------------

    def start(self, mode: str = "standard", first: str = ALICE, deck=None) -> Table:
        self.do("MatchStarted", match=f"m{len(self.state['matches']) + 1}", mode=mode)
        self.do("LeaderChosen", player=ALICE, leader=QUEEN)
        self.do("LeaderChosen", player=BOB, leader=REGENT)
        if mode == "standard":
            self.do("DeckShuffled", deck=list(deck or DECK))
        self.do("FirstPlayerDrawn", first=first)
        return self

    def move(self, player, piece, *path):
        return self.do(
            "CharacterMoved", player=player, character=piece, path=[list(s) for s in path]
        )

    def use(self, player, piece, *path, target=None, form=None):
        data = {"player": player, "character": piece, "path": [list(s) for s in path]}
        if target is not None:
            data["target"] = target
        if form is not None:
            data["form"] = form
        return self.do("AbilityUsed", **data)

    def recruit(self, player, card, *spaces):
        return self.do(
            "CharacterRecruited", player=player, card=card, spaces=[list(s) for s in spaces]
        )

    def end_turn(self, player):
        if self.match["phase"] == "action":
            self.do("ActionPhaseEnded", player=player)
        return self.do("TurnEnded", player=player)


def arranged(layout: dict, active: str = ALICE, mode: str = "standard") -> Table:
    """A match in `active`'s action phase with pieces put where `layout` says.

    `layout` maps piece ids to (owner, (q, r)); the Leaders stand on their corners unless
    the layout places them. Every card whose piece is placed is in its owner's hand.
    """
    table = Table().start(mode=mode, first=active)
    match = table.match
    pieces = {pid: p for pid, p in match["pieces"].items() if p["ability"] == "leader"}
    cards = {c["id"]: c for c in table.state["characters"]["cards"]}
    by_piece = {p["id"]: (c, p) for c in cards.values() for p in c["pieces"]}
    for pid, (owner, space) in layout.items():
        if pid in pieces:
            pieces[pid]["at"] = list(space)
            continue
        card, piece = by_piece[pid]
        pieces[pid] = {
            "owner": owner,
            "name": piece["name"],
            "ability": piece["ability"],
            "card": card["id"],
            "at": list(space),
        }
        if card["id"] not in match["hands"][owner]:
            match["hands"][owner].append(card["id"])
        for where in (match["row"], match["deck"], match["available"]):
            if card["id"] in where:
                where.remove(card["id"])
    match["pieces"] = pieces
    return table


def pass_turn(table: Table, player: str) -> None:
    """End the player's turn, making the first legal recruitments it owes."""
    from tracker.systems.leaders.rules import recruitment_options

    if table.match["phase"] == "action":
        table.do("ActionPhaseEnded", player=player)
    while True:
        option = next(recruitment_options(table.state, player), None)
        if option is None:
            break
        table.recruit(player, option[0], *option[1])
    table.do("TurnEnded", player=player)
