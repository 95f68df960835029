"""What each person at the table may see of a game of Claim, and what the pages offer.

The state knows every card (the tracker keeps the record); a player sees its own hand, both
score piles, the turned-up card, the cards played and discarded, and only the number of
cards in the other hand, in each follower pile and in the stock. A blind card taken into
the followers stays hidden until the game is over.

The page helpers (what to deal next, what a player may play and why, cards as faces, piles
sorted by faction, when each trick was settled) read the state and never change it; Claim's
templates call them as ``system.views.play_hint(...)``, so no rule is written in a template.
"""

from __future__ import annotations

import json

from markupsafe import escape

from tracker.errors import NotFound
from tracker.systems import i18n
from tracker.systems.base import next_step
from tracker.systems.i18n import _, localised, ngettext

from . import rules
from .cards import DOPPELGANGERS, card_name, faction, faction_names, value


def visible_state(state: dict, player: str | None) -> dict:
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
    return visible_state(state, None)


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
    shown = {p: (cards if p == viewer else _hidden(cards)) for p, cards in hands.items()}
    stock = data["deal"].get("stock", [])
    return {**data, "deal": {"hands": shown, "stock": _hidden(stock)}}


def _hidden(cards: list) -> str:
    return ngettext("%(num)d card, hidden", "%(num)d cards, hidden", len(cards))


# -- what the pages offer ------------------------------------------------------------------


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
        return _("lead any card of your hand")
    if game["awaiting"] != "follow":
        return None
    names = faction_names(state["factions"])
    lead = game["trick"]["cards"][0]["card"]
    led = faction(lead)
    if not any(faction(card) == led for card in game["hands"][player]):
        return _("you hold no %(faction)s: play any card", faction=names.get(led, led))
    if led == DOPPELGANGERS:
        return _("a Doppelganger was led: follow with a Doppelganger")
    return _(
        "follow %(faction)s, or play one of your %(doppelgangers)s",
        faction=names.get(led, led),
        doppelgangers=names.get(DOPPELGANGERS, DOPPELGANGERS),
    )


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
            "words": card_name(None),
        }
    kind = faction(card)
    known = {f["id"]: f for f in state["factions"]}.get(kind, {})
    name = localised(known, "name") if known else kind.capitalize()
    return {
        "card": card,
        "faction": kind,
        "name": name,
        "one": localised(known, "one") if known else name,
        "value": value(card),
        "words": card_name(card, {kind: name}),
    }


def by_faction(state: dict, cards: list[str]) -> list[dict]:
    """`cards` grouped by faction in the deck's order, low to high: the score pile sorted.

    Each group is {"faction", "name", "cards"}; a faction without a card is left out.
    """
    groups = []
    for known in state["factions"]:
        mine = sorted((c for c in cards if faction(c) == known["id"]), key=value)
        if mine:
            groups.append({"faction": known["id"], "name": localised(known, "name"), "cards": mine})
    return groups


def trick_versions(events, game: int) -> list[int]:
    """The event number at which each trick of game `game` was settled, trick 1 first.

    `events` are the campaign's events in order (with ``type``, ``data``, ``version``), the
    voided ones left out: the second card played to a trick settles it.
    """
    plays = [e.version for e in events if e.type == "CardPlayed" and e.data.get("game") == game]
    return plays[1::2]


def _number(text: str) -> int:
    return int(text) if text.isdecimal() else 0


def seat_shown(names: dict, player: str) -> str:
    """The seat a page is asked to show (`?player=`, empty for an onlooker); NotFound when
    the campaign has no such player."""
    if player and player not in names:
        raise NotFound(_("this campaign has no player %(player)s", player=json.dumps(player)))
    return player


def game_shown(pub: dict, asked: str) -> dict:
    """Game `asked` (`?game=`) as its page shows it: its number, its summary once it is over,
    else the game under way; NotFound when the campaign has neither."""
    number = _number(asked)
    found = [summary for summary in pub["games"] if summary["number"] == number]
    game = pub["game"]
    playing = game if game and not game["over"] and game["number"] == number else None
    if not found and not playing:
        raise NotFound(_("this campaign has no game %(game)s", game=json.dumps(asked)))
    return {"number": number, "summary": found[0] if found else None, "playing": playing}


def finished_game(pub: dict, asked: str) -> dict:
    """The summary of finished game `asked` (`?game=`), which a replay steps through;
    NotFound while it is still being played or when there is none."""
    number = _number(asked)
    game = pub["game"]
    if game and not game["over"] and game["number"] == number:
        raise NotFound(
            _(
                "game %(game)s is still being played: its replay opens when it is over",
                game=number,
            )
        )
    for summary in pub["games"]:
        if summary["number"] == number:
            return summary
    raise NotFound(_("this campaign has no finished game %(game)s", game=json.dumps(asked)))


def trick_shown(versions: list[int], number: int, asked: str) -> int:
    """The trick a replay shows (`?trick=`, 0 for the deal) of a game whose tricks were
    settled at `versions`; NotFound past its last trick."""
    step = int(asked) if asked.isdecimal() else -1
    if not 0 <= step <= len(versions):
        raise NotFound(
            _(
                "game %(game)s has tricks 1 to %(last)s (0 is the deal), not %(asked)s",
                game=number,
                last=len(versions),
                asked=json.dumps(asked),
            )
        )
    return step


def faction_name(state: dict, faction_id: str) -> str:
    """A faction of the campaign's deck by its name, in the reader's language."""
    return faction_names(state["factions"]).get(faction_id, faction_id)


class _Start(str):
    """The first letters of a name as the reader reads it (a card's corner)."""

    def __new__(cls, words, length: int):
        start = super().__new__(cls, str(words)[:length])
        start.words, start.length = words, length
        return start

    def __html__(self) -> str:
        return str(escape(i18n.translate(self.words, i18n.reader())[: self.length]))


def start(words, length: int) -> str:
    """The first `length` letters of `words` in the reader's language."""
    return _Start(words, length)


def next_steps(state: dict, seat: str | None, role: str | None) -> list[dict]:
    """What the campaign waits for now (`base.next_step`): the next deal, the top card to
    turn up, or the player to lead or follow and what it may play. The play's words name
    only the player's own hand, and only that player (or a referee) is shown them."""
    names = {p["id"]: p["name"] for p in state["players"]}
    everyone = list(names)
    game = state["game"]
    number = next_game(state)
    if number is not None:
        return [
            next_step(
                everyone,
                _("Deal game %(game)s", game=number),
                _("A player of the campaign deals game %(game)s here.", game=number),
                "dashboard",
            )
        ]
    trick = game["trick"]
    seat = seat if seat in names else trick["leader"]
    if game["awaiting"] == "turn-up":
        return [
            next_step(
                everyone,
                _("Turn up the top card of the deck for trick %(trick)s", trick=trick["number"]),
                _(
                    "A player turns up the top card of the deck for trick %(trick)s here.",
                    trick=trick["number"],
                ),
                "table",
                watch=("game", {"game": game["number"]}),
                player=seat,
            )
        ]
    turn = game["turn"]
    waits = (
        _("Waiting for %(player)s to lead.", player=names[turn])
        if game["awaiting"] == "lead"
        else _("Waiting for %(player)s to follow.", player=names[turn])
    )
    hint = play_hint(state, turn)
    watch = ("game", {"game": game["number"]})
    do = _("Your move: %(hint)s", hint=hint)
    return [next_step(turn, do, waits, "table", watch=watch, player=turn)]
