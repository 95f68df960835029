"""Small pure helpers for Claim's pages: what to deal next, what a player may play and why,
cards as faces, piles sorted by faction, and when each trick of a game was settled.

They read the state (or a player's view of it) and never change it; the pages call them
through the system (``system.play_hint(...)``), so no rule is written in a template.
"""

from __future__ import annotations

from .cards import DOPPELGANGERS, faction, value


def next_game(state: dict) -> int | None:
    """The number of the game to deal next, or None while a game is under way."""
    game = state["game"]
    if game is None:
        return 1
    return game["number"] + 1 if game["over"] else None


def play_hint(state: dict, player: str) -> str | None:
    """What `player` may play now, in words; None when it is not that player's turn."""
    game = state["game"]
    if not game or game["over"] or game["turn"] != player:
        return None
    if game["awaiting"] == "lead":
        return "lead any card of your hand"
    if game["awaiting"] != "follow":
        return None
    names = {f["id"]: f["name"] for f in state["factions"]}
    lead = game["trick"]["cards"][0]["card"]
    led = faction(lead)
    if not any(faction(card) == led for card in game["hands"][player]):
        return f"you hold no {names.get(led, led)}: play any card"
    if led == DOPPELGANGERS:
        return "a Doppelganger was led: follow with a Doppelganger"
    doppel = names.get(DOPPELGANGERS, DOPPELGANGERS)
    return f"follow {names.get(led, led)}, or play one of your {doppel}"


def face(state: dict, card: str | None) -> dict:
    """A card as the pages draw it: its faction, the faction's names, its value, its words.

    None (a card the viewer may not see) is a face-down card.
    """
    if card is None:
        return {
            "card": None,
            "faction": None,
            "name": "",
            "one": "",
            "value": None,
            "words": "a hidden card",
        }
    kind = faction(card)
    known = {f["id"]: f for f in state["factions"]}.get(kind, {})
    name = known.get("name", kind.capitalize())
    return {
        "card": card,
        "faction": kind,
        "name": name,
        "one": known.get("one", name),
        "value": value(card),
        "words": f"the {value(card)} of {name}",
    }


def by_faction(state: dict, cards: list[str]) -> list[dict]:
    """`cards` grouped by faction in the deck's order, low to high: the score pile sorted.

    Each group is {"faction", "name", "cards"}; a faction without a card is left out.
    """
    groups = []
    for known in state["factions"]:
        mine = sorted((c for c in cards if faction(c) == known["id"]), key=value)
        if mine:
            groups.append({"faction": known["id"], "name": known["name"], "cards": mine})
    return groups


def trick_versions(events, game: int) -> list[int]:
    """The event number at which each trick of game `game` was settled, trick 1 first.

    `events` are the campaign's events in order (with ``type``, ``data``, ``version``), the
    voided ones left out: the second card played to a trick settles it.
    """
    plays = [e.version for e in events if e.type == "CardPlayed" and e.data.get("game") == game]
    return plays[1::2]
