"""What each event of Claim says in the audit log."""

from __future__ import annotations

from tracker.events import Event

from .cards import card_name


def describe(state: dict, event: Event) -> str:
    """One line of the audit log for `event`; `state` is the state just after it."""
    data = event.data
    names = {p["id"]: p["name"] for p in state["players"]}
    factions = {f["id"]: f["name"] for f in state["factions"]}
    number = data.get("game")
    if event.type == "GameDealt":
        leader = names.get(data["leader"], data["leader"])
        size = state["hand_size"]
        return f"Game {number} was dealt, {size} cards each; {leader} leads the first trick"
    if event.type == "CardTurnedUp":
        trick = state["game"]["trick"]["number"]
        card = card_name(data["card"], factions)
        return f"{card[0].upper()}{card[1:]} was turned up for trick {trick}"
    if event.type == "CardPlayed":
        player = names.get(data["player"], data["player"])
        card = card_name(data["card"], factions)
        game = state["game"]
        current = game["trick"]
        if current and current["cards"] and current["cards"][-1]["player"] == data["player"]:
            return f"{player} led {card} in trick {current['number']}"
        done = game["tricks"][-1]
        winner = names[done["winner"]]
        words = f"{player} followed with {card}; {winner} won trick {done['number']}"
        if game["over"]:
            words += "; " + result_words(state, game)
        elif current and current["number"] == state["hand_size"] + 1:
            words += "; phase two begins"
        return words
    return event.type


def result_words(state: dict, game: dict) -> str:
    names = {p["id"]: p["name"] for p in state["players"]}
    result = game["result"]
    counts = list(result["won"].items())
    won = ", ".join(
        f"{names[p]} won {n} faction{'' if n == 1 else 's'}" if i == 0 else f"{names[p]} {n}"
        for i, (p, n) in enumerate(counts)
    )
    if result["winner"]:
        return f"game {game['number']} is over: {names[result['winner']]} wins ({won})"
    return f"game {game['number']} is over with no winner ({won})"
