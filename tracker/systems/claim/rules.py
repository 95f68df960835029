"""The rules of Claim as pure functions: who may play what, who wins a trick, where cards go.

These know nothing of events or of the state's layout; `system.py` calls them.
"""

from __future__ import annotations

from .cards import DOPPELGANGERS, DWARVES, GOBLINS, KNIGHTS, UNDEAD, faction, value

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
