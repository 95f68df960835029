"""A table of Lords of Hellas for unit tests: events loaded through their schemas, then applied."""

from __future__ import annotations

import json

import pytest

from tracker.errors import RuleViolation
from tracker.events import Event
from tracker.systems.hellas import system

PLAYERS = [
    {"id": "ann", "name": "Ann"},
    {"id": "bo", "name": "Bo"},
    {"id": "cy", "name": "Cy"},
]


class Table:
    """A campaign's state and the next version, with a way to play events and see refusals."""

    def __init__(self, players: int = 2):
        settings = system.load_settings(system.prepare_settings({"players": PLAYERS[:players]}))
        self.state = system.initial_state(settings)
        self.version = 1
        self.last = None

    def play(self, type_: str, **data) -> dict:
        loaded = system.load(type_, data)
        event = Event(None, "table", self.version + 1, type_, loaded, {}, None, None)
        self.state = system.apply(self.state, event)
        self.version += 1
        self.last = event
        return self.state

    def refuses(self, type_: str, words: str, **data) -> str:
        """The event is refused with these words, and the state is left as it was."""
        before = json.dumps(self.state, sort_keys=True)
        with pytest.raises(RuleViolation) as raised:
            self.play(type_, **data)
        assert words in raised.value.message
        assert json.dumps(self.state, sort_keys=True) == before
        return raised.value.message

    def words(self) -> str:
        return system.describe(self.state, self.last)

    @property
    def game(self) -> dict:
        return self.state["game"]

    def region(self, rid: str) -> dict:
        return self.state["game"]["regions"][rid]

    # -- shortcuts ---------------------------------------------------------------------

    def start(self, **overrides):
        data = {
            "game": "g1",
            "order": ["ann", "bo"],
            "heroes": {"ann": "korythos", "bo": "phlios"},
            "hoplites": {"ann": {"korythos": 3, "melanthe": 2}, "bo": {"phlios": 3, "nemessa": 2}},
            "monsters": {"boar": "eirinos", "harpy": "thyrea"},
            "hands": {"ann": ["feint-0", "helm-1"], "bo": ["feint-0", "helm-1"]},
        }
        data.update(overrides)
        return self.play("GameStarted", **data)

    def start3(self, **overrides):
        data = {
            "game": "g1",
            "order": ["ann", "bo", "cy"],
            "heroes": {"ann": "korythos", "bo": "phlios", "cy": "chalkea"},
            "hoplites": {"ann": {"korythos": 3}, "bo": {"phlios": 3}, "cy": {"chalkea": 3}},
            "monsters": {"boar": "eirinos"},
            "excluded_lands": ["euboikos"],
            "hands": {p: ["helm-1", "spear-1"] for p in ("ann", "bo", "cy")},
        }
        data.update(overrides)
        return self.play("GameStarted", **data)

    def pray_and_end(self, player: str):
        self.play("Prayed", player=player)
        self.play("TurnEnded", player=player)

    def hand(self, player: str, *cards: str):
        """Put cards from the deck into a player's hand: a test's shortcut past the draws."""
        game = self.state["game"]
        for cid in cards:
            game["deck"][cid] -= 1
            if not game["deck"][cid]:
                del game["deck"][cid]
        game["hands"][player] = sorted(game["hands"][player] + list(cards))

    def grant(self, player: str, kind: str, source: str = "a test", **more):
        """Give a player a grant directly, as a quest or an event card would."""
        self.state["game"]["grants"].append(
            {"kind": kind, "player": player, "source": source, **more}
        )

    def end_round(self, player: str, card: str):
        """The Monster and Event Phases after a Monument, with this event card."""
        self.play("MonsterPhaseResolved", player=player, card=card)
        self.play("EventResolved", player=player)

    def control(self, player: str | None, *regions: str):
        """Hand regions to a player directly: a test's shortcut past many turns."""
        for rid in regions:
            self.region(rid)["controller"] = player


@pytest.fixture
def table() -> Table:
    return Table(2)


@pytest.fixture
def table3() -> Table:
    return Table(3)


@pytest.fixture
def make_table() -> type[Table]:
    """The Table class itself, for tests that need a fresh table per example."""
    return Table
