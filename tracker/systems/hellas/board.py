"""The board and content of a campaign: checks that content can start a game, and lookups."""

from __future__ import annotations

from tracker.errors import RuleViolation

REWARDS = (None, "artifact", "priest")


def neighbours(content: dict) -> dict[str, list[str]]:
    """Each region's adjacent regions, by land or by sea, from the content's routes."""
    found: dict[str, list[str]] = {region: [] for region in content["regions"]}
    for a, b, _kind in content["routes"]:
        found[a].append(b)
        found[b].append(a)
    for adjacent in found.values():
        adjacent.sort()
    return found


def check_content(content: dict) -> None:
    """Raise RuleViolation naming the first thing that keeps this content from a game."""
    try:
        lands, regions = content["lands"], content["regions"]
        for key in (
            "routes",
            "monuments",
            "monsters",
            "combat_cards",
            "artifacts",
            "event_cards",
            "limits",
            "start",
            "victory",
            "players",
            "battle",
        ):
            content[key]  # noqa: B018 - each must be there
    except (KeyError, TypeError) as missing:
        raise RuleViolation(f"the board's content lacks {missing}") from None
    _check_board(content, lands, regions)
    _check_monsters(content)
    for players in content["victory"]["warlord"]:
        if not players.isdigit():
            raise RuleViolation("Warlord needs are given per number of players")
    _check_cards_and_quests(content)


def _check_board(content: dict, lands, regions) -> None:
    """Every region lies in a land, every route and monument on the board."""
    for rid, region in regions.items():
        if region.get("land") not in lands:
            raise RuleViolation(f"region {rid} lies in no land of this board")
        if not isinstance(region.get("population"), int):
            raise RuleViolation(f"region {rid} has no population strength")
    for route in content["routes"]:
        if len(route) != 3 or route[0] not in regions or route[1] not in regions:
            raise RuleViolation(f"the route {route} joins regions that are not on this board")
    for mid, monument in content["monuments"].items():
        if monument.get("region") not in regions:
            raise RuleViolation(f"the {mid} monument stands in no region of this board")


def _check_monsters(content: dict) -> None:
    """Each monster has an attack for each face of a die, and well-formed wounds."""
    symbols = {card["symbol"] for card in content["combat_cards"].values()}
    for mid, monster in content["monsters"].items():
        if len(monster.get("attacks", ())) != 6:
            raise RuleViolation(f"the monster {mid} needs one attack for each face of a die")
        for wound in monster.get("wounds", ()):
            if wound.get("reward") not in REWARDS or not set(wound["symbols"]) <= symbols:
                raise RuleViolation(f"the {mid}'s wound {wound.get('id')} is not well formed")


GRANTS = ("temple", "fortify", "artifact", "attribute", "control", "cards")
ATTRIBUTES = ("leadership", "strength", "speed")


def _check_items(content: dict, items, where: str) -> None:
    """Grants and priests given by a quest, an event card or a Monument."""
    for item in items:
        kind = item.get("grant") if isinstance(item, dict) else None
        if kind is None and isinstance(item, dict) and isinstance(item.get("priests"), int):
            continue
        if kind is None and isinstance(item, dict) and isinstance(item.get("ravage"), int):
            continue
        if kind not in GRANTS:
            raise RuleViolation(f"{where} gives something the rules do not know: {item}")
        if kind == "control" and item.get("region") not in content["regions"]:
            raise RuleViolation(f"{where} grants control of no region of this board")
        if kind == "attribute" and item.get("attribute") not in (None, *ATTRIBUTES):
            raise RuleViolation(f"{where} raises an attribute heroes do not have")


def _check_cards_and_quests(content: dict) -> None:
    """The combat deck, the event deck, the quests, the Monuments' gifts and the setup."""
    regions, monsters = content["regions"], content["monsters"]
    for cid, card in content["combat_cards"].items():
        if not isinstance(card.get("copies", 1), int) or card.get("copies", 1) < 1:
            raise RuleViolation(f"the combat card {cid} needs at least one copy in the deck")
    if not isinstance(content["limits"].get("hand"), int):
        raise RuleViolation("the board's content gives no hand limit for combat cards")
    for eid, card in content["event_cards"].items():
        if card.get("monster") not in monsters or card.get("region") not in regions:
            raise RuleViolation(f"the event card {eid} names no monster or region of this board")
        _check_items(content, card.get("effects", ()), f"the event card {eid}")
    for qid, quest in content.get("quests", {}).items():
        if quest.get("region") not in regions or not quest.get("steps"):
            raise RuleViolation(f"the quest {qid} needs a region of this board and steps")
        if not set(quest.get("needs", {})) <= set(ATTRIBUTES):
            raise RuleViolation(f"the quest {qid} needs an attribute heroes do not have")
        _check_items(content, quest.get("rewards", ()), f"the quest {qid}")
    for mid, monument in content["monuments"].items():
        gifts = [monument["blessing"]] if monument.get("blessing") else []
        _check_items(content, gifts + list(monument.get("activation", ())), f"the {mid} monument")
    start = content["start"]
    for seat in start.get("seats", ()):
        if seat.get("hero") not in regions or not set(seat.get("hoplites", {})) <= set(regions):
            raise RuleViolation("a seat of the board's setup stands on no region of this board")
    for mid, rid in start.get("monsters", {}).items():
        if mid not in monsters or rid not in regions:
            raise RuleViolation(f"the setup puts {mid} where the board has no place for it")
