"""Plain states and events for the unit tests of monster battles."""

import pytest

from tracker.events import Event
from tracker.systems.monsters import system
from tracker.systems.monsters.hexes import key

PLAYERS = [{"id": "alice", "name": "Alice"}, {"id": "bob", "name": "Bob"}]


class Table:
    """A campaign's state and the events applied to it, one call per event."""

    def __init__(self, settings=None):
        raw = {"players": PLAYERS, **(settings or {})}
        self.settings = system.load_settings(system.prepare_settings(raw))
        self.state = system.initial_state(self.settings)
        self.version = 1

    def do(self, type_, **data):
        """Apply one event, its data loaded through its schema as the service would."""
        self.version += 1
        loaded = system.load(type_, data)
        event = Event(None, "test", self.version, type_, loaded, {}, None, None)
        self.state = system.apply(self.state, event)
        self.last = event
        return self.state

    @property
    def battle(self):
        return self.state["battle"]

    def piece(self, piece_id):
        return self.battle["pieces"][piece_id]

    def pos(self, piece_id):
        return self.battle["pieces"][piece_id]["pos"]

    def describe(self):
        return system.describe(self.state, self.last)

    # -- helpers for a battle in the middle of play -----------------------------------------

    def begin(self, figures=("knight", "bear", "cat", "pigeon"), king="knight", first="alice"):
        self.do("BattleBegun", battle="b1", map="twin-peaks", first=first)
        self.do("FiguresChosen", battle="b1", figures=list(figures), king=king)
        return self

    def arrange(self, where, terrain=None, turn="alice", size=9):
        """Open ground q, r in 0..size-1, castles at (0, 0) and (size-1, size-1).

        `where` maps a figure to (q, r); figures not named are off the board (killed).
        """
        battle = self.battle
        battle["spaces"] = {key(q, r): "plain" for q in range(size) for r in range(size)}
        battle["castles"] = {"alice": key(0, 0), "bob": key(size - 1, size - 1)}
        battle["spaces"][key(0, 0)] = battle["spaces"][key(size - 1, size - 1)] = "castle"
        for (q, r), ground in (terrain or {}).items():
            if ground is None:
                del battle["spaces"][key(q, r)]
            else:
                battle["spaces"][key(q, r)] = ground
        battle["board"] = {}
        for piece in battle["pieces"].values():
            if piece["id"] in where:
                q, r = where[piece["id"]]
                piece["pos"] = key(q, r)
                battle["board"][piece["pos"]] = piece["id"]
            else:
                piece["pos"], piece["lives"] = None, 0
        battle["phase"] = "fighting"
        battle["turn"] = {"side": turn, "number": 1, "moved": None, "answers": []}
        return self

    def move(self, piece_id, *path):
        return self.do("FigureMoved", battle="b1", piece=piece_id, path=[list(p) for p in path])

    def attack(self, attacker, defender, *rounds):
        dice = [{"attacker": list(a), "defender": list(d)} for a, d in rounds]
        return self.do("AttackMade", battle="b1", attacker=attacker, defender=defender, rounds=dice)


@pytest.fixture
def table():
    return Table()


@pytest.fixture
def table_factory():
    return Table
