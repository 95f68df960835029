"""What each person at the table may see of a game of Claim.

The state knows every card (the tracker keeps the record); a player sees its own hand, both
score piles, the turned-up card, the cards played and discarded, and only the number of
cards in the other hand, in each follower pile and in the stock. A blind card taken into
the followers stays hidden until the game is over.
"""

from __future__ import annotations

from . import rules


def player_view(state: dict, player: str | None) -> dict:
    """The campaign as `player` may see it; None is an onlooker, who sees no hand."""
    game = state["game"]
    view = {
        "players": state["players"],
        "factions": state["factions"],
        "hand_size": state["hand_size"],
        "standings": state["standings"],
        "games_played": state["games_played"],
        "games_drawn": state["games_drawn"],
        "games": state["games"],
        "viewer": player,
        "last": state["last"],
        "game": None if game is None else _game_view(game, player),
    }
    return view


def public_view(state: dict) -> dict:
    """The campaign as anyone may see it: a game in progress shows no hidden card."""
    return player_view(state, None)


def _game_view(game: dict, player: str | None) -> dict:
    over = game["over"]
    hand = game["hands"].get(player) if player else None
    trick = game["trick"]
    legal: list[str] = []
    if hand is not None and game["turn"] == player and game["awaiting"] in ("lead", "follow"):
        lead = trick["cards"][0]["card"] if trick["cards"] else None
        legal = rules.legal_cards(hand, lead)
    return {
        "number": game["number"],
        "leader": game["leader"],
        "phase": game["phase"],
        "over": over,
        "awaiting": game["awaiting"],
        "turn": game["turn"],
        "hand": None if hand is None else list(hand),
        "legal": legal,
        "hand_counts": {p: len(cards) for p, cards in game["hands"].items()},
        "follower_counts": {p: len(cards) for p, cards in game["followers"].items()},
        "stock_count": len(game["stock"]),
        "scores": game["scores"],
        "discards": game["discards"],
        "trick": trick,
        "tricks": game["tricks"] if over else [_hide_blind(t) for t in game["tricks"]],
        "result": game["result"],
        "first_version": game["first_version"],
        "last_version": game["last_version"],
    }


def _hide_blind(trick: dict) -> dict:
    if trick["phase"] != 1:
        return trick
    moves = [{**m, "card": None} if m.get("blind") else m for m in trick["moves"]]
    return {**trick, "moves": moves}


def visible_event_data(
    state: dict, event_type: str, data: dict, version: int, viewer: str | None
) -> dict:
    """A deal, read while its game is under way, shows the reader its own hand and the
    sizes of the rest: the other hand and the stock's order stay hidden."""
    if event_type != "GameDealt" or not isinstance(data.get("deal"), dict):
        return data
    game = state["game"]
    if game is None or game["over"] or game["number"] != data.get("game"):
        return data
    hands = data["deal"].get("hands", {})
    shown = {
        p: (cards if p == viewer else f"{len(cards)} cards, hidden") for p, cards in hands.items()
    }
    stock = data["deal"].get("stock", [])
    return {**data, "deal": {"hands": shown, "stock": f"{len(stock)} cards, hidden"}}
