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
from tracker.systems.i18n import _, listed, localised

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


def card_name(card: str | None, names: dict | None = None, first: bool = False) -> str:
    """A card in words: "the 7 of Knights" ("The 7 of Knights" `first` in a sentence)."""
    if card is None:
        return _("A hidden card") if first else _("a hidden card")
    kind, _dash, number = card.rpartition("-")
    name = (names or {}).get(kind) or kind.capitalize()
    if first:
        return _("The %(value)s of %(faction)s", value=number, faction=name)
    return _("the %(value)s of %(faction)s", value=number, faction=name)


def faction_names(factions: list[dict]) -> dict:
    """Faction id -> its name, in the reader's language where the deck has one."""
    return {f["id"]: localised(f, "name") for f in factions}


def deck_cards(factions: list[dict]) -> list[str]:
    """Every card of a deck, faction by faction, from its content description."""
    return [f"{f['id']}-{v}" for f in factions for v in f["values"]]


def decks() -> dict[str, str]:
    """The decks in the content folder: id -> title (in the reader's language where the
    deck has one)."""
    return {
        path.stem: localised(load_json(path), "title") for path in sorted(CONTENT.glob("*.json"))
    }


def load_deck(deck_id: str) -> dict:
    """A deck as a campaign's settings carry it: without its names in other languages,
    which `with_versions` gives to the state."""
    deck = load_json(CONTENT / f"{deck_id}.json")
    deck.pop("i18n", None)
    deck["factions"] = [{k: v for k, v in f.items() if k != "i18n"} for f in deck["factions"]]
    return deck


def with_versions(factions: list[dict], deck_id: str) -> list[dict]:
    """`factions` with the deck's names in other languages, for each faction the campaign
    names as the deck does. They stay out of the settings (the first event, which the log's
    hashes cover): a campaign keeps its deck as it started and reads in any language the
    deck speaks now."""
    path = CONTENT / f"{deck_id}.json"
    known = {f["id"]: f for f in load_json(path)["factions"]} if path.is_file() else {}
    out = []
    for f in factions:
        found = known.get(f["id"], {})
        if "i18n" in found and found.get("name") == f["name"] and found.get("one") == f["one"]:
            f = {**f, "i18n": found["i18n"]}
        out.append(f)
    return out


def difference(cards: list[str], deck: list[str]) -> str | None:
    """Words for how `cards` differ from `deck` as collections, or None when they match."""
    have, want = Counter(cards), Counter(deck)
    if have == want:
        return None
    words = []
    for card in sorted(set(have) | set(want)):
        if have[card] != want[card]:
            words.append(
                _(
                    "%(card)s %(have)s times (the deck has %(want)s)",
                    card=card,
                    have=have[card],
                    want=want[card],
                )
            )
    if len(words) > 4:
        return _("%(cards)s ...", cards=listed(words[:4]))
    return listed(words)
