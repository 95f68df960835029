"""Cards of Claim: how a card is written, read and named, and the decks a campaign may use.

A card is a string ``"<faction>-<value>"`` such as ``"knights-7"``. Cards of the same faction
and value are alike (the standard deck has five ``"goblins-0"``), so hands and piles are
lists in which a card may occur more than once.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from tracker.systems.base import load_json

CONTENT = Path(__file__).parent / "content"

CARD = re.compile(r"^(?P<faction>[a-z]+)-(?P<value>[0-9]{1,2})$")

GOBLINS = "goblins"
KNIGHTS = "knights"
UNDEAD = "undead"
DWARVES = "dwarves"
DOPPELGANGERS = "doppelgangers"

#: the factions the rules know, each with its power (see rules.py)
FACTIONS = (GOBLINS, KNIGHTS, UNDEAD, DWARVES, DOPPELGANGERS)


def faction(card: str) -> str:
    return card.rpartition("-")[0]


def value(card: str) -> int:
    return int(card.rpartition("-")[2])


def card_name(card: str | None, names: dict[str, str] | None = None) -> str:
    """A card in words: "the 7 of Knights"."""
    if card is None:
        return "a hidden card"
    kind, _, number = card.rpartition("-")
    name = (names or {}).get(kind) or kind.capitalize()
    return f"the {number} of {name}"


def deck_cards(factions: list[dict]) -> list[str]:
    """Every card of a deck, faction by faction, from its content description."""
    return [f"{f['id']}-{v}" for f in factions for v in f["values"]]


def decks() -> dict[str, str]:
    """The decks in the content folder: id -> title."""
    return {path.stem: load_json(path)["title"] for path in sorted(CONTENT.glob("*.json"))}


def load_deck(deck_id: str) -> dict:
    return load_json(CONTENT / f"{deck_id}.json")


def difference(cards: list[str], deck: list[str]) -> str | None:
    """Words for how `cards` differ from `deck` as collections, or None when they match."""
    have, want = Counter(cards), Counter(deck)
    if have == want:
        return None
    words = []
    for card in sorted(set(have) | set(want)):
        if have[card] != want[card]:
            words.append(f"{card} {have[card]} times (the deck has {want[card]})")
    return ", ".join(words[:4]) + (" ..." if len(words) > 4 else "")
