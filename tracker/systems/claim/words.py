"""What each event of Claim says in the audit log.

Each sentence is one message with its parameters (`tracker.systems.i18n`), read in the reader's
language; a sentence with optional parts is a choice between whole messages.
"""

from __future__ import annotations

from tracker.events import Event
from tracker.systems.i18n import _, ngettext

from .cards import card_name, faction_names, listed


def describe(state: dict, event: Event) -> str:
    """One line of the audit log for `event`; `state` is the state just after it."""
    data = event.data
    names = {p["id"]: p["name"] for p in state["players"]}
    factions = faction_names(state["factions"])
    number = data.get("game")
    if event.type == "GameDealt":
        return ngettext(
            "Game %(game)s was dealt, %(num)d card each; %(leader)s leads the first trick",
            "Game %(game)s was dealt, %(num)d cards each; %(leader)s leads the first trick",
            state["hand_size"],
            game=number,
            leader=names.get(data["leader"], data["leader"]),
        )
    if event.type == "CardTurnedUp":
        return _(
            "%(card)s was turned up for trick %(trick)s",
            card=card_name(data["card"], factions, first=True),
            trick=state["game"]["trick"]["number"],
        )
    if event.type == "CardPlayed":
        player = names.get(data["player"], data["player"])
        card = card_name(data["card"], factions)
        game = state["game"]
        current = game["trick"]
        if current and current["cards"] and current["cards"][-1]["player"] == data["player"]:
            return _(
                "%(player)s led %(card)s in trick %(trick)s",
                player=player,
                card=card,
                trick=current["number"],
            )
        done = game["tricks"][-1]
        params = {
            "player": player,
            "card": card,
            "winner": names[done["winner"]],
            "trick": done["number"],
        }
        if game["over"]:
            return _(
                "%(player)s followed with %(card)s; %(winner)s won trick %(trick)s; %(result)s",
                result=result_words(state, game),
                **params,
            )
        if current and current["number"] == state["hand_size"] + 1:
            return _(
                "%(player)s followed with %(card)s; %(winner)s won trick %(trick)s; phase two "
                "begins",
                **params,
            )
        return _("%(player)s followed with %(card)s; %(winner)s won trick %(trick)s", **params)
    return event.type


def result_words(state: dict, game: dict) -> str:
    names = {p["id"]: p["name"] for p in state["players"]}
    result = game["result"]
    counts = list(result["won"].items())
    won = listed(
        [
            ngettext(
                "%(player)s won %(num)d faction",
                "%(player)s won %(num)d factions",
                n,
                player=names[p],
            )
            if i == 0
            else _("%(player)s %(won)s", player=names[p], won=n)
            for i, (p, n) in enumerate(counts)
        ]
    )
    if result["winner"]:
        return _(
            "game %(game)s is over: %(winner)s wins (%(won)s)",
            game=game["number"],
            winner=names[result["winner"]],
            won=won,
        )
    return _("game %(game)s is over with no winner (%(won)s)", game=game["number"], won=won)
