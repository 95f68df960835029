"""Helpers for Claim's tests: plain states, events, deals arranged card by card."""

from __future__ import annotations

from collections import Counter

import pytest

from tracker.events import Event
from tracker.systems.claim import system
from tracker.systems.claim.cards import faction
from tracker.systems.claim.rules import legal_cards

PLAYERS = [{"id": "ana", "name": "Ana"}, {"id": "ben", "name": "Ben"}]


def settings() -> dict:
    return system.load_settings(system.prepare_settings({"players": PLAYERS}))


def fresh() -> dict:
    """A campaign just started, no game dealt."""
    return system.initial_state(settings())


_version = iter(range(2, 10**9))


def event(type_: str, **data) -> Event:
    return Event(None, "t", next(_version), type_, data, {}, None, None)


def apply(state: dict, type_: str, **data) -> dict:
    return system.apply(state, event(type_, **data))


def arrange(ana=(), ben=(), stock=(), void=None, deck=None) -> dict:
    """A deal with the given cards in front: the rest of the deck fills the hands and stock.

    `void` maps a player to factions its hand must not receive from the filling cards.
    """
    deck = list(deck or fresh()["deck"])
    rest = Counter(deck)
    rest.subtract(Counter(list(ana) + list(ben) + list(stock)))
    assert all(n >= 0 for n in rest.values()), "arranged cards not in the deck"
    pool = sorted(rest.elements(), key=lambda c: (faction(c) == "knights", c))
    void = void or {}

    def fill(start, size, avoid):
        cards = list(start)
        for card in list(pool):
            if len(cards) == size:
                break
            if faction(card) not in avoid:
                cards.append(card)
                pool.remove(card)
        assert len(cards) == size, "cannot fill the hand as asked"
        return cards

    hands = {
        "ana": fill(ana, 13, void.get("ana", ())),
        "ben": fill(ben, 13, void.get("ben", ())),
    }
    return {"hands": hands, "stock": fill(stock, 26, ())}


def dealt(leader="ana", game=1, state=None, **arranged) -> dict:
    state = state or fresh()
    return apply(state, "GameDealt", game=game, leader=leader, deal=arrange(**arranged))


def turn_up(state: dict) -> dict:
    game = state["game"]
    return apply(state, "CardTurnedUp", game=game["number"], card=game["stock"][0])


def play(state: dict, player: str, card: str) -> dict:
    return apply(state, "CardPlayed", game=state["game"]["number"], player=player, card=card)


def play_trick(state: dict, lead: str | None = None, follow: str | None = None) -> dict:
    """Play one whole trick; cards left out are the first legal card of the hand."""
    game = state["game"]
    if game["phase"] == 1:
        turn_up(state)
    leader = game["trick"]["leader"]
    other = "ben" if leader == "ana" else "ana"
    lead = lead or game["hands"][leader][0]
    play(state, leader, lead)
    follow = follow or legal_cards(game["hands"][other], lead)[0]
    return play(state, other, follow)


def play_until(state: dict, trick: int) -> dict:
    """Play tricks with the first legal cards until `trick` is the one to be played."""
    while state["game"]["trick"]["number"] < trick:
        play_trick(state)
    return state


def at_trick(number: int, ana, ben, leader="ana", scores=None, state=None) -> dict:
    """A game of a dealt state set by hand to the start of trick `number` of phase two.

    Hands, score piles and trick are put in place directly: a plain state for unit tests of
    phase two and the end of a game, not one reached by play.
    """
    state = dealt(state=state, game=(state["game"]["number"] + 1) if state and state["game"] else 1)
    game = state["game"]
    game.update(
        phase=2,
        hands={"ana": list(ana), "ben": list(ben)},
        followers={"ana": [], "ben": []},
        scores={"ana": [], "ben": [], **(scores or {})},
        stock=[],
        trick={"number": number, "phase": 2, "leader": leader, "turned_up": None, "cards": []},
        awaiting="lead",
        turn=leader,
    )
    return state


def all_cards(state: dict) -> Counter:
    game = state["game"]
    cards = Counter(game["stock"] + game["discards"])
    for pile in ("hands", "followers", "scores"):
        for held in game[pile].values():
            cards.update(held)
    if game["trick"]:
        cards.update(c["card"] for c in game["trick"]["cards"])
        if game["trick"]["turned_up"]:
            cards[game["trick"]["turned_up"]] += 1
    return cards


@pytest.fixture
def state() -> dict:
    return fresh()


@pytest.fixture
def h():
    """The helpers above, for tests (a conftest cannot be imported with importlib mode)."""
    import types

    names = [
        "fresh",
        "event",
        "apply",
        "arrange",
        "dealt",
        "turn_up",
        "play",
        "play_trick",
        "play_until",
        "at_trick",
        "all_cards",
        "settings",
        "PLAYERS",
    ]
    return types.SimpleNamespace(**{name: globals()[name] for name in names})
