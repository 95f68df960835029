"""The rules of Claim: who may play what, who wins a trick, where cards go, and the handlers
that check each event against them and fold it into the state.
"""

from __future__ import annotations

from tracker.errors import RuleViolation
from tracker.events import Event
from tracker.systems.base import Handlers
from tracker.systems.i18n import N_, _

from .cards import (
    DOPPELGANGERS,
    DWARVES,
    GOBLINS,
    KNIGHTS,
    UNDEAD,
    card_name,
    difference,
    faction,
    faction_names,
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


def _faction_names(state: dict) -> dict:
    return faction_names(state["factions"])


#: what a player was about to do when no game is under way for it, in words
TURNING_UP = N_("turning up a card")
PLAYING = N_("playing a card")


def _game_under_way(state: dict, data: dict, what: str) -> dict:
    """The game in progress, or RuleViolation when there is none or it is another game."""
    game = state["game"]
    if game is None:
        raise RuleViolation(
            _("no game has been dealt yet: deal game 1 before %(what)s", what=_(what))
        )
    if game["over"]:
        raise RuleViolation(
            _(
                "game %(game)s is over after %(tricks)s tricks: deal game %(next)s before %(what)s",
                game=game["number"],
                tricks=2 * state["hand_size"],
                next=game["number"] + 1,
                what=_(what),
            )
        )
    if data["game"] != game["number"]:
        raise RuleViolation(
            _(
                "game %(game)s is being played, not game %(asked)s",
                game=game["number"],
                asked=data["game"],
            )
        )
    return game


@handlers.on("GameDealt")
def game_dealt(state: dict, event: Event) -> None:
    data, version = event.data, event.version
    game = state["game"]
    if game is not None and not game["over"]:
        raise RuleViolation(
            _(
                "game %(game)s is still being played (trick %(trick)s of %(tricks)s): finish "
                "it before dealing another",
                game=game["number"],
                trick=game["trick"]["number"],
                tricks=2 * state["hand_size"],
            )
        )
    number = game["number"] + 1 if game else 1
    if data["game"] != number:
        raise RuleViolation(
            _(
                "the next game to deal is game %(game)s, not game %(asked)s",
                game=number,
                asked=data["game"],
            )
        )
    ids = [p["id"] for p in state["players"]]
    leader = data["leader"]
    if leader not in ids:
        raise RuleViolation(
            _(
                "the first leader is one of the players (%(first)s or %(second)s), not %(leader)s",
                first=ids[0],
                second=ids[1],
                leader=repr(leader),
            )
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
        given = ", ".join(sorted(hands))
        raise RuleViolation(
            _(
                "a deal gives one hand to each player (%(first)s and %(second)s), not to %(given)s",
                first=ids[0],
                second=ids[1],
                given=given,
            )
            if given
            else _(
                "a deal gives one hand to each player (%(first)s and %(second)s), not to nobody",
                first=ids[0],
                second=ids[1],
            )
        )
    size = state["hand_size"]
    for player in ids:
        if len(hands[player]) != size:
            raise RuleViolation(
                _(
                    "each player is dealt %(size)s cards (%(player)s was dealt %(dealt)s)",
                    size=size,
                    player=_name(state, player),
                    dealt=len(hands[player]),
                )
            )
    if len(deal["stock"]) != 2 * size:
        raise RuleViolation(
            _(
                "the deck left after the deal holds %(size)s cards, not %(stock)s",
                size=2 * size,
                stock=len(deal["stock"]),
            )
        )
    wrong = difference(hands[ids[0]] + hands[ids[1]] + deal["stock"], state["deck"])
    if wrong:
        raise RuleViolation(
            _("a deal uses every card of the deck exactly once (it has %(wrong)s)", wrong=wrong)
        )


def _new_trick(number: int, phase: int, leader: str) -> dict:
    return {"number": number, "phase": phase, "leader": leader, "turned_up": None, "cards": []}


@handlers.on("CardTurnedUp")
def card_turned_up(state: dict, event: Event) -> None:
    data, version = event.data, event.version
    game = _game_under_way(state, data, TURNING_UP)
    trick = game["trick"]
    if game["phase"] != 1:
        raise RuleViolation(
            _("nothing is turned up in phase two (trick %(trick)s)", trick=trick["number"])
        )
    if trick["turned_up"] is not None:
        names = _faction_names(state)
        raise RuleViolation(
            _(
                "a card is already turned up for trick %(trick)s (%(card)s)",
                trick=trick["number"],
                card=card_name(trick["turned_up"], names),
            )
        )
    card = data["card"]
    if card is None or card != game["stock"][0]:
        raise RuleViolation(
            _(
                "the turned-up card is the top card of the deck, and %(card)s is not "
                "(trick %(trick)s)",
                card=card,
                trick=trick["number"],
            )
            if card
            else _(
                "the turned-up card is the top card of the deck, and nothing is not "
                "(trick %(trick)s)",
                trick=trick["number"],
            )
        )
    trick["turned_up"] = game["stock"].pop(0)
    game["awaiting"], game["turn"] = "lead", trick["leader"]
    game["last_version"] = version
    state["last"] = {"event": "CardTurnedUp", "game": game["number"], "player": None, "card": card}


@handlers.on("CardPlayed")
def card_played(state: dict, event: Event) -> None:
    data, version = event.data, event.version
    game = _game_under_way(state, data, PLAYING)
    player, card = data["player"], data["card"]
    ids = [p["id"] for p in state["players"]]
    if player not in ids:
        raise RuleViolation(
            _(
                "%(player)s is not a player of this campaign (%(first)s or %(second)s)",
                player=repr(player),
                first=ids[0],
                second=ids[1],
            )
        )
    trick = game["trick"]
    names = _faction_names(state)
    if game["phase"] == 1 and trick["turned_up"] is None:
        raise RuleViolation(
            _(
                "a card is turned up before the leader plays (trick %(trick)s: %(player)s "
                "played %(card)s too soon)",
                trick=trick["number"],
                player=_name(state, player),
                card=card_name(card, names),
            )
        )
    leading = not trick["cards"]
    due = trick["leader"] if leading else _other(state, trick["leader"])
    if player != due:
        turn = (
            N_("it is %(due)s's turn to lead trick %(trick)s, not %(player)s's")
            if leading
            else N_("it is %(due)s's turn to follow in trick %(trick)s, not %(player)s's")
        )
        raise RuleViolation(
            _(turn, due=_name(state, due), trick=trick["number"], player=_name(state, player))
        )
    hand = game["hands"][player]
    if card not in hand:
        holds = (
            N_("%(player)s does not hold %(card)s in hand")
            if game["phase"] == 1
            else N_("%(player)s does not hold %(card)s in hand (the followers won in phase one)")
        )
        raise RuleViolation(_(holds, player=_name(state, player), card=card_name(card, names)))
    if not leading:
        lead = trick["cards"][0]["card"]
        if not may_follow(hand, lead, card):
            params = {
                "player": _name(state, player),
                "card": card_name(card, names),
                "lead": card_name(lead, names),
            }
            if faction(lead) == DOPPELGANGERS:
                raise RuleViolation(
                    _(
                        "a Doppelganger led must be followed by a Doppelganger while you hold "
                        "one (%(player)s played %(card)s on %(lead)s)",
                        **params,
                    )
                )
            raise RuleViolation(
                _(
                    "a player holding %(led)s must follow %(led)s or play a Doppelganger "
                    "(%(player)s played %(card)s on %(lead)s)",
                    led=names.get(faction(lead), faction(lead)),
                    **params,
                )
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
