"""The rules of Claim: who may play what, who wins a trick, where cards go, and the handlers
that check each event against them and fold it into the state.
"""

from __future__ import annotations

from tracker.errors import RuleViolation
from tracker.events import Event
from tracker.systems.base import Handlers

from .cards import (
    DOPPELGANGERS,
    DWARVES,
    GOBLINS,
    KNIGHTS,
    UNDEAD,
    card_name,
    difference,
    faction,
    value,
)

#: the rules' handlers, one per event type
handlers = Handlers()

#: factions a player must win to win the game
FACTIONS_TO_WIN = 3

# Where a played card goes.
SCORE = "score"
FOLLOWERS = "followers"
DISCARD = "discard"


def may_follow(hand: list[str], lead: str, card: str) -> bool:
    """Whether `card` may follow `lead` from `hand` (which still holds `card`).

    The follower plays the led faction, or a Doppelganger at any time, or anything when it
    holds no card of the led faction. A led Doppelganger makes Doppelganger the led faction.
    """
    led = faction(lead)
    played = faction(card)
    if played == led or played == DOPPELGANGERS:
        return True
    return not any(faction(held) == led for held in hand)


def legal_cards(hand: list[str], lead: str | None) -> list[str]:
    """The cards of `hand` that may be played now: any to lead, the allowed ones to follow."""
    if lead is None:
        return list(hand)
    return [card for card in hand if may_follow(hand, lead, card)]


def follower_wins(lead: str, follow: str) -> bool:
    """Whether the second card of a trick beats the first.

    Knights beat Goblins whatever the values. Otherwise only a card of the led faction can
    win, and a following Doppelganger counts as the led faction without its power; the
    higher value wins and equal values go to the leader.
    """
    led, played = faction(lead), faction(follow)
    if led == GOBLINS and played == KNIGHTS:
        return True
    if played != led and played != DOPPELGANGERS:
        return False
    return value(follow) > value(lead)


def played_card_goes(phase: int, card: str, winner: str, loser: str) -> tuple[str, str | None]:
    """The pile a card played in a trick goes to: (SCORE, player) or (DISCARD, None).

    Phase one: Undead go to the winner's score pile, the rest are discarded. Phase two: both
    cards go to the winner's score pile, except Dwarves, which go to the loser's. A
    Doppelganger has no faction's power, so it follows the common rule of its phase.
    """
    kind = faction(card)
    if phase == 1:
        return (SCORE, winner) if kind == UNDEAD else (DISCARD, None)
    return (SCORE, loser) if kind == DWARVES else (SCORE, winner)


def faction_results(scores: dict[str, list[str]], factions: list[str]) -> dict[str, dict]:
    """Who wins each faction from the score piles: the most cards, then the highest card.

    Returns {faction: {"winner": player or None, "counts": {player: n},
    "highest": {player: value or None}}}; a faction tied on both counts is won by nobody.
    """
    results = {}
    players = list(scores)
    for kind in factions:
        counts = {p: 0 for p in players}
        highest: dict[str, int | None] = {p: None for p in players}
        for player in players:
            for card in scores[player]:
                if faction(card) == kind:
                    counts[player] += 1
                    number = value(card)
                    if highest[player] is None or number > highest[player]:
                        highest[player] = number
        first, second = players
        winner = None
        if counts[first] != counts[second]:
            winner = first if counts[first] > counts[second] else second
        elif counts[first] and highest[first] != highest[second]:
            winner = first if highest[first] > highest[second] else second
        results[kind] = {"winner": winner, "counts": counts, "highest": highest}
    return results


def game_winner(results: dict[str, dict], players: list[str]) -> str | None:
    """The player who won at least three factions, or None."""
    for player in players:
        if sum(1 for r in results.values() if r["winner"] == player) >= FACTIONS_TO_WIN:
            return player
    return None


# -- the handlers: each checks every rule, then changes the state in place ---------------


def _name(state: dict, player: str) -> str:
    for p in state["players"]:
        if p["id"] == player:
            return p["name"]
    return repr(player)


def _other(state: dict, player: str) -> str:
    first, second = state["players"]
    return second["id"] if player == first["id"] else first["id"]


def _faction_names(state: dict) -> dict[str, str]:
    return {f["id"]: f["name"] for f in state["factions"]}


def _game_under_way(state: dict, data: dict, what: str) -> dict:
    """The game in progress, or RuleViolation when there is none or it is another game."""
    game = state["game"]
    if game is None:
        raise RuleViolation(f"no game has been dealt yet: deal game 1 before {what}")
    if game["over"]:
        raise RuleViolation(
            f"game {game['number']} is over after {2 * state['hand_size']} tricks: "
            f"deal game {game['number'] + 1} before {what}"
        )
    if data["game"] != game["number"]:
        raise RuleViolation(f"game {game['number']} is being played, not game {data['game']}")
    return game


@handlers.on("GameDealt")
def game_dealt(state: dict, event: Event) -> None:
    data, version = event.data, event.version
    game = state["game"]
    if game is not None and not game["over"]:
        raise RuleViolation(
            f"game {game['number']} is still being played (trick {game['trick']['number']} of "
            f"{2 * state['hand_size']}): finish it before dealing another"
        )
    number = game["number"] + 1 if game else 1
    if data["game"] != number:
        raise RuleViolation(f"the next game to deal is game {number}, not game {data['game']}")
    ids = [p["id"] for p in state["players"]]
    leader = data["leader"]
    if leader not in ids:
        raise RuleViolation(
            f"the first leader is one of the players ({' or '.join(ids)}), not {leader!r}"
        )
    deal = data["deal"]
    _check_deal(state, deal, ids)
    hands = deal["hands"]
    state["game"] = {
        "number": number,
        "leader": leader,
        "phase": 1,
        "over": False,
        # Copies: the event's own lists are stored as they came and must not change.
        "hands": {p: list(hands[p]) for p in ids},
        "followers": {p: [] for p in ids},
        "scores": {p: [] for p in ids},
        "discards": [],
        "stock": list(deal["stock"]),
        "trick": _new_trick(1, 1, leader),
        "tricks": [],
        "awaiting": "turn-up",
        "turn": None,
        "result": None,
        "first_version": version,
        "last_version": version,
    }
    state["last"] = {"event": "GameDealt", "game": number, "player": leader, "card": None}


def _check_deal(state: dict, deal: dict, ids: list[str]) -> None:
    """A deal gives each player a hand and leaves the rest as the deck, every card once."""
    hands = deal["hands"]
    if sorted(hands) != sorted(ids):
        raise RuleViolation(
            f"a deal gives one hand to each player ({' and '.join(ids)}), "
            f"not to {', '.join(sorted(hands)) or 'nobody'}"
        )
    size = state["hand_size"]
    for player in ids:
        if len(hands[player]) != size:
            raise RuleViolation(
                f"each player is dealt {size} cards ({_name(state, player)} was dealt "
                f"{len(hands[player])})"
            )
    if len(deal["stock"]) != 2 * size:
        raise RuleViolation(
            f"the deck left after the deal holds {2 * size} cards, not {len(deal['stock'])}"
        )
    wrong = difference(hands[ids[0]] + hands[ids[1]] + deal["stock"], state["deck"])
    if wrong:
        raise RuleViolation(f"a deal uses every card of the deck exactly once (it has {wrong})")


def _new_trick(number: int, phase: int, leader: str) -> dict:
    return {"number": number, "phase": phase, "leader": leader, "turned_up": None, "cards": []}


@handlers.on("CardTurnedUp")
def card_turned_up(state: dict, event: Event) -> None:
    data, version = event.data, event.version
    game = _game_under_way(state, data, "turning up a card")
    trick = game["trick"]
    if game["phase"] != 1:
        raise RuleViolation(f"nothing is turned up in phase two (trick {trick['number']})")
    if trick["turned_up"] is not None:
        names = _faction_names(state)
        raise RuleViolation(
            f"a card is already turned up for trick {trick['number']} "
            f"({card_name(trick['turned_up'], names)})"
        )
    card = data["card"]
    if card is None or card != game["stock"][0]:
        raise RuleViolation(
            f"the turned-up card is the top card of the deck, and {card or 'nothing'} is not "
            f"(trick {trick['number']})"
        )
    trick["turned_up"] = game["stock"].pop(0)
    game["awaiting"], game["turn"] = "lead", trick["leader"]
    game["last_version"] = version
    state["last"] = {"event": "CardTurnedUp", "game": game["number"], "player": None, "card": card}


@handlers.on("CardPlayed")
def card_played(state: dict, event: Event) -> None:
    data, version = event.data, event.version
    game = _game_under_way(state, data, "playing a card")
    player, card = data["player"], data["card"]
    ids = [p["id"] for p in state["players"]]
    if player not in ids:
        raise RuleViolation(f"{player!r} is not a player of this campaign ({' or '.join(ids)})")
    trick = game["trick"]
    names = _faction_names(state)
    if game["phase"] == 1 and trick["turned_up"] is None:
        raise RuleViolation(
            f"a card is turned up before the leader plays (trick {trick['number']}: "
            f"{_name(state, player)} played {card_name(card, names)} too soon)"
        )
    leading = not trick["cards"]
    due = trick["leader"] if leading else _other(state, trick["leader"])
    if player != due:
        role = "lead" if leading else "follow in"
        raise RuleViolation(
            f"it is {_name(state, due)}'s turn to {role} trick {trick['number']}, "
            f"not {_name(state, player)}'s"
        )
    hand = game["hands"][player]
    if card not in hand:
        where = "hand" if game["phase"] == 1 else "hand (the followers won in phase one)"
        raise RuleViolation(
            f"{_name(state, player)} does not hold {card_name(card, names)} in {where}"
        )
    if not leading:
        lead = trick["cards"][0]["card"]
        if not may_follow(hand, lead, card):
            led = names.get(faction(lead), faction(lead))
            rule = (
                "a Doppelganger led must be followed by a Doppelganger while you hold one"
                if faction(lead) == DOPPELGANGERS
                else f"a player holding {led} must follow {led} or play a Doppelganger"
            )
            raise RuleViolation(
                f"{rule} ({_name(state, player)} played {card_name(card, names)} on "
                f"{card_name(lead, names)})"
            )

    hand.remove(card)
    trick["cards"].append({"player": player, "card": card})
    game["last_version"] = version
    state["last"] = {"event": "CardPlayed", "game": game["number"], "player": player, "card": card}
    if leading:
        game["awaiting"], game["turn"] = "follow", _other(state, player)
        return
    _resolve_trick(state, game, trick)


def _resolve_trick(state: dict, game: dict, trick: dict) -> None:
    """Move the trick's cards where the rules send them and set up the next trick."""
    lead, follow = trick["cards"]
    winner = follow["player"] if follower_wins(lead["card"], follow["card"]) else lead["player"]
    loser = _other(state, winner)
    phase = game["phase"]
    moves = []
    for played in (lead, follow):
        pile, owner = played_card_goes(phase, played["card"], winner, loser)
        if pile == SCORE:
            game["scores"][owner].append(played["card"])
        else:
            game["discards"].append(played["card"])
        moves.append({"card": played["card"], "pile": pile, "player": owner})
    blind = None
    if phase == 1:
        game["followers"][winner].append(trick["turned_up"])
        moves.append({"card": trick["turned_up"], "pile": FOLLOWERS, "player": winner})
        blind = game["stock"].pop(0)
        game["followers"][loser].append(blind)
        moves.append({"card": blind, "pile": FOLLOWERS, "player": loser, "blind": True})
    game["tricks"].append(
        {
            "number": trick["number"],
            "phase": phase,
            "leader": lead["player"],
            "turned_up": trick["turned_up"],
            "cards": trick["cards"],
            "led": faction(lead["card"]),
            "winner": winner,
            "loser": loser,
            "moves": moves,
        }
    )
    size = state["hand_size"]
    done = trick["number"]
    if done == 2 * size:
        _end_game(state, game)
        return
    if done == size:
        # Phase two: each player takes up the followers it collected as its new hand.
        game["phase"] = 2
        game["hands"] = game["followers"]
        game["followers"] = {p: [] for p in game["hands"]}
    game["trick"] = _new_trick(done + 1, game["phase"], winner)
    if game["phase"] == 1:
        game["awaiting"], game["turn"] = "turn-up", None
    else:
        game["awaiting"], game["turn"] = "lead", winner


def _end_game(state: dict, game: dict) -> None:
    ids = [p["id"] for p in state["players"]]
    results = faction_results(game["scores"], [f["id"] for f in state["factions"]])
    won = {p: sum(1 for r in results.values() if r["winner"] == p) for p in ids}
    winner = game_winner(results, ids)
    game["over"] = True
    game["trick"] = None
    game["awaiting"], game["turn"] = None, None
    game["result"] = {"factions": results, "won": won, "winner": winner}
    for player in ids:
        standing = state["standings"][player]
        standing["factions_won"] += won[player]
        if winner == player:
            standing["games_won"] += 1
        elif winner is not None:
            standing["games_lost"] += 1
    state["games_played"] += 1
    if winner is None:
        state["games_drawn"] += 1
    state["games"].append(
        {
            "number": game["number"],
            "winner": winner,
            "won": won,
            "factions": {kind: r["winner"] for kind, r in results.items()},
            "first_version": game["first_version"],
            "last_version": game["last_version"],
        }
    )
