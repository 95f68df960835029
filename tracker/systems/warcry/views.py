"""What a Warcry side may see and may choose next: the page helpers its templates call as
``system.views.<name>(...)``.

Nothing here decides a rule: the helpers read the state the rules folded, and a page that
asks whether an event may be recorded asks `system.allows`.
"""

from __future__ import annotations

from tracker.systems.warcry import tables as t
from tracker.systems.warcry.rules import (
    battle,
    convergence_point,
    muster_limit,
    owed,
    profiles,
    quest_of,
    report,
)

__all__ = [
    "aftermath_view",
    "battle",
    "convergence_point",
    "muster_limit",
    "owed",
    "profiles",
    "public_state",
    "report",
    "visible_state",
]


def visible_state(state: dict, side: str | None) -> dict:
    """Everything of a Warcry campaign lies open on the table: every side sees it all."""
    return state


def aftermath_view(state, wb) -> dict | None:
    """Where a warband stands in its aftermath, and what it still owes, for its pages."""
    am = wb["aftermath"]
    if am is None:
        return None
    return {
        "battle": am["battle"],
        "step": am["step"],
        "step_title": t.STEPS[am["step"]],
        "owed": owed(state, wb),
        "found": am["found"],
        "reward": am["reward"],
    }


def public_state(state) -> dict:
    """The campaign as `manage.py state` and the API show it."""
    warbands = {}
    for wid, wb in state["warbands"].items():
        quest = quest_of(state, wb)
        view = {key: value for key, value in wb.items() if key != "aftermath"}
        view["quest_title"] = quest["title"]
        view["map_point"] = quest["map"][wb["map_position"]]
        view["aftermath"] = aftermath_view(state, wb)
        view["fighters_alive"] = len(wb["active"])
        warbands[wid] = view
    return {
        "quest": state["quest"],
        "warbands": warbands,
        # A battle whose aftermath is under way shows the report as it stands (only those
        # are copied: this is read by every page).
        "battles": [
            kept
            if None not in kept["aftermath"].values()
            else {
                **kept,
                "aftermath": {wid: report(state, kept, wid) for wid in kept["warbands"]},
            }
            for kept in state["battles"]
        ],
        "archived_battles": len(state["battle_ids"]) - len(state["battles"]),
    }
