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
    symbols = {card["symbol"] for card in content["combat_cards"].values()}
    for mid, monster in content["monsters"].items():
        if len(monster.get("attacks", ())) != 6:
            raise RuleViolation(f"the monster {mid} needs one attack for each face of a die")
        for wound in monster.get("wounds", ()):
            if wound.get("reward") not in REWARDS or not set(wound["symbols"]) <= symbols:
                raise RuleViolation(f"the {mid}'s wound {wound.get('id')} is not well formed")
    for players in content["victory"]["warlord"]:
        if not players.isdigit():
            raise RuleViolation("Warlord needs are given per number of players")
