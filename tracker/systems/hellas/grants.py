"""Grants: what a quest's reward, an event card or a Monument gives a player, waiting in
`game["grants"]` for the effect that takes it (effects.py), or priests given at once.

This module reads nothing of the rules' module, which calls it when a Monument is built.
"""

from __future__ import annotations

from tracker.systems.i18n import _, localised


def _priests_owned(game: dict, player: str) -> int:
    on_monuments = sum(m["priests"].get(player, 0) for m in game["monuments"].values())
    return game["priests"][player] + on_monuments


def monument_name(state: dict, monument: str) -> str:
    found = state["content"]["monuments"].get(monument)
    return _("the %(name)s", name=localised(found, "name")) if found else monument


def give(state: dict, game: dict, item: dict, player: str, source: str) -> None:
    """One item of a reward, an event or a blessing, to `player`: a grant, or priests."""
    if "grant" in item:
        grant = {"kind": item["grant"], "player": player, "source": source}
        for key in ("count", "attribute", "region"):
            if key in item:
                grant[key] = item[key]
        if grant["kind"] == "fortify" or grant["kind"] == "cards":
            grant.setdefault("count", 1)
        game["grants"].append(grant)
    elif "priests" in item:
        limit = state["content"]["limits"]["priests"]
        if item["priests"] > 0:
            gain = min(item["priests"], limit - _priests_owned(game, player))
            game["priests"][player] += max(gain, 0)
        else:
            game["priests"][player] = max(0, game["priests"][player] + item["priests"])


# -- Monuments: blessings and activation ---------------------------------------------------


def bless(state: dict, game: dict) -> list[list[str]]:
    """When a Monument is built, the player with the most priests on each Monument (a tie
    blesses nobody) receives that Monument's blessing, before the priests go home. Each
    blessed as [player, monument]: a list, as the state reads back from a copy or a snapshot."""
    blessed = []
    for mid, monument in game["monuments"].items():
        blessing = state["content"]["monuments"][mid].get("blessing")
        counts = monument["priests"]
        if not blessing or not counts:
            continue
        top = max(counts.values())
        leaders = [p for p, n in counts.items() if n == top]
        if len(leaders) == 1:
            source = _("the blessing of %(monument)s", monument=monument_name(state, mid))
            give(state, game, blessing, leaders[0], source)
            blessed.append([leaders[0], mid])
    return blessed


def activate(state: dict, game: dict, mid: str, player: str) -> None:
    """The 5th level: the Monument's activation gives its builder what the content says."""
    source = _("the activation of %(monument)s", monument=monument_name(state, mid))
    for item in state["content"]["monuments"][mid].get("activation", ()):
        give(state, game, item, player, source)
