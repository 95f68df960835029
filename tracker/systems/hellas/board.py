"""The board and content of a campaign: checks that content can start a game, and lookups."""

from __future__ import annotations

from tracker.errors import RuleViolation
from tracker.systems.i18n import _

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
        raise RuleViolation(_("the board's content lacks %(missing)s", missing=missing)) from None
    _check_board(content, lands, regions)
    _check_monsters(content)
    for players in content["victory"]["warlord"]:
        if not players.isdigit():
            raise RuleViolation(_("Warlord needs are given per number of players"))
    _check_cards_and_quests(content)


def _check_board(content: dict, lands, regions) -> None:
    """Every region lies in a land, every route and monument on the board."""
    for rid, region in regions.items():
        if region.get("land") not in lands:
            raise RuleViolation(_("region %(region)s lies in no land of this board", region=rid))
        if not isinstance(region.get("population"), int):
            raise RuleViolation(_("region %(region)s has no population strength", region=rid))
    for route in content["routes"]:
        if len(route) != 3 or route[0] not in regions or route[1] not in regions:
            raise RuleViolation(
                _("the route %(route)s joins regions that are not on this board", route=route)
            )
    for mid, monument in content["monuments"].items():
        if monument.get("region") not in regions:
            raise RuleViolation(
                _("the %(monument)s monument stands in no region of this board", monument=mid)
            )


def _check_monsters(content: dict) -> None:
    """Each monster has an attack for each face of a die, and well-formed wounds."""
    symbols = {card["symbol"] for card in content["combat_cards"].values()}
    for mid, monster in content["monsters"].items():
        if len(monster.get("attacks", ())) != 6:
            raise RuleViolation(
                _("the monster %(monster)s needs one attack for each face of a die", monster=mid)
            )
        for wound in monster.get("wounds", ()):
            if wound.get("reward") not in REWARDS or not set(wound["symbols"]) <= symbols:
                raise RuleViolation(
                    _(
                        "the %(monster)s's wound %(wound)s is not well formed",
                        monster=mid,
                        wound=wound.get("id"),
                    )
                )


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
            raise RuleViolation(
                _(
                    "%(where)s gives something the rules do not know: %(item)s",
                    where=where,
                    item=item,
                )
            )
        if kind == "control" and item.get("region") not in content["regions"]:
            raise RuleViolation(
                _("%(where)s grants control of no region of this board", where=where)
            )
        if kind == "attribute" and item.get("attribute") not in (None, *ATTRIBUTES):
            raise RuleViolation(_("%(where)s raises an attribute heroes do not have", where=where))


def _check_cards_and_quests(content: dict) -> None:
    """The combat deck, the event deck, the quests, the Monuments' gifts and the setup."""
    regions, monsters = content["regions"], content["monsters"]
    for cid, card in content["combat_cards"].items():
        if not isinstance(card.get("copies", 1), int) or card.get("copies", 1) < 1:
            raise RuleViolation(
                _("the combat card %(card)s needs at least one copy in the deck", card=cid)
            )
    if not isinstance(content["limits"].get("hand"), int):
        raise RuleViolation(_("the board's content gives no hand limit for combat cards"))
    for eid, card in content["event_cards"].items():
        if card.get("monster") not in monsters or card.get("region") not in regions:
            raise RuleViolation(
                _("the event card %(card)s names no monster or region of this board", card=eid)
            )
        _check_items(content, card.get("effects", ()), _("the event card %(card)s", card=eid))
    for qid, quest in content.get("quests", {}).items():
        if quest.get("region") not in regions or not quest.get("steps"):
            raise RuleViolation(
                _("the quest %(quest)s needs a region of this board and steps", quest=qid)
            )
        if not set(quest.get("needs", {})) <= set(ATTRIBUTES):
            raise RuleViolation(
                _("the quest %(quest)s needs an attribute heroes do not have", quest=qid)
            )
        _check_items(content, quest.get("rewards", ()), _("the quest %(quest)s", quest=qid))
    for mid, monument in content["monuments"].items():
        gifts = [monument["blessing"]] if monument.get("blessing") else []
        where = _("the %(monument)s monument", monument=mid)
        _check_items(content, gifts + list(monument.get("activation", ())), where)
    start = content["start"]
    for seat in start.get("seats", ()):
        if seat.get("hero") not in regions or not set(seat.get("hoplites", {})) <= set(regions):
            raise RuleViolation(_("a seat of the board's setup stands on no region of this board"))
    for mid, rid in start.get("monsters", {}).items():
        if mid not in monsters or rid not in regions:
            raise RuleViolation(
                _("the setup puts %(monster)s where the board has no place for it", monster=mid)
            )
