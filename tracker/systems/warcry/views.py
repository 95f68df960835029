"""What a Warcry side may see and may choose next: the page helpers its templates call as
``system.views.<name>(...)``.

Nothing here decides a rule: the helpers read the state the rules folded, or ask the rules'
own checks (`trait_bearers`, `artefact_takers`); a page that asks whether an event may be
recorded asks `system.allows`. `tables` gives the pages the campaign's numbers (prices,
limits) as the rules use them.
"""

from __future__ import annotations

import json

from tracker.errors import NotFound, RuleViolation, ShownAt
from tracker.systems.base import free_id, next_step
from tracker.systems.i18n import N_, _, localised
from tracker.systems.warcry import rules, tables
from tracker.systems.warcry.rules import (
    battle,
    convergence_point,
    muster_limit,
    named,
    owed,
    profiles,
    quest_of,
    report,
)
from tracker.systems.warcry.words import INJURED

__all__ = [
    "INJURED",
    "KIND_WORDS",
    "POINT_WORDS",
    "STATUSES",
    "INJURY_ROLLED",
    "INJURY_WORDS",
    "aftermath_view",
    "artefact_takers",
    "battle",
    "battle_shown",
    "convergence_point",
    "in_words",
    "injury_rows",
    "leader_profiles",
    "localised",
    "lost_for_good",
    "muster_limit",
    "named",
    "next_free",
    "next_steps",
    "owed",
    "profile_shown",
    "profiles",
    "public_state",
    "quest_maps",
    "report",
    "stat_line",
    "tables",
    "trait_bearers",
    "visible_state",
    "warband_shown",
]


def visible_state(state: dict, side: str | None) -> dict:
    """Everything of a Warcry campaign lies open on the table: every side sees it all."""
    return state


def lost_for_good(before: dict, after: dict) -> list[str]:
    """What an event took for good, by the states the rules left before and after it: each
    fighter no longer in its warband's ranks (slain), each artefact no longer held (crumbled
    to dust), by name. The rules decided; this only compares (`GameSystem.final_outcome`)."""
    gone = []
    for wid, wb in before["warbands"].items():
        now = after["warbands"].get(wid, {"active": [], "fighters": {}})
        for fid in wb["active"]:
            if fid not in now["active"]:
                gone.append(wb["fighters"][fid]["name"])
        for fid, fighter in wb["fighters"].items():
            for slot in ("lesser_artefact", "artefact_of_power"):
                held = fighter.get(slot)
                if held and fid in now["active"] and not now["fighters"][fid].get(slot):
                    gone.append(held.get("name", slot) if isinstance(held, dict) else str(held))
    return gone


def aftermath_view(state, wb) -> dict | None:
    """Where a warband stands in its aftermath, and what it still owes, for its pages."""
    am = wb["aftermath"]
    if am is None:
        return None
    return {
        "battle": am["battle"],
        "step": am["step"],
        "step_title": _(tables.STEPS[am["step"]]),
        "owed": owed(state, wb),
        "found": am["found"],
        "reward": am["reward"],
    }


def quests_open(state, wid: str) -> list[tuple[str, dict]]:
    """The quests warband `wid` may begin now (none until its quest is complete), as the
    rules of `QuestBegun` judge them."""
    if not state["warbands"][wid]["quest_complete"]:
        return []
    quests = state["content"]["quests"]
    return [
        (qid, quest) for qid, quest in quests.items() if not rules.quest_refused(state, wid, qid)
    ]


def public_state(state) -> dict:
    """The campaign as `manage.py state` and the API show it."""
    warbands = {}
    for wid, wb in state["warbands"].items():
        quest = quest_of(state, wb)
        view = {key: value for key, value in wb.items() if key != "aftermath"}
        view["quest_title"] = localised(quest, "title")
        view["map_point"] = in_words(quest["map"][wb["map_position"]])
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


STATS = ("movement", "toughness", "wounds", "weapons")


def stat_line(state, wb, fighter) -> dict | None:
    """The stat line and weapons of a fighter's profile, as the campaign's content holds it
    now, or None when its profile gives none (a custom fighter, or a profile without)."""
    profile = profiles(state, wb).get(fighter.get("profile")) if fighter.get("profile") else None
    if not profile or not any(profile.get(key) for key in STATS):
        return None
    return {key: profile.get(key) for key in STATS}


def leader_profiles(found: dict) -> list[str]:
    """The profiles of `found` (id -> profile, as `profiles` gives them) that bear the leader
    runemark: a fighter added from one is the leader."""
    return [pid for pid, p in found.items() if tables.bears(p["runemarks"], tables.LEADER_RUNEMARK)]


def next_free(state, event_type: str, field: str) -> str | None:
    """The id a form left empty is given (a battle's: b1, b2, ... the first that no battle
    of the campaign has had), or None when the system makes none for that field."""
    if (event_type, field) != ("BattleFought", "battle"):
        return None
    return free_id("b", state["battle_ids"])


def profile_shown(state, wb, fighter) -> dict | None:
    """The content's profile a fighter was founded from, as its sheet prints it: the
    profile's name in the reader's language and its stat line and weapons (`stat_line`: None
    where the profile gives none). None for a custom fighter, or a profile the content no
    longer holds."""
    pid = fighter.get("profile")
    profile = profiles(state, wb).get(pid) if pid else None
    if profile is None:
        return None
    return {"name": localised(profile, "name"), "stats": stat_line(state, wb, fighter)}


def artefact_takers(state, wb) -> list[str]:
    """The active fighters a new artefact of power may go to now, as the rules say (only the
    fighter who made room for it, once one did)."""
    am = wb["aftermath"]
    return [fid for fid in wb["active"] if _accepted(rules.check_made_room, wb, am, fid)]


def trait_bearers(state, wb) -> list[str | None]:
    """Whom a new command trait may go to now, as the rules say: [None] when it goes to the
    leader without naming anyone, else the fighters who may be named its favoured warrior."""
    leader_id = rules.leader(wb)
    if _accepted(rules.trait_bearer, wb, leader_id, None):
        return [None]
    others = [fid for fid in wb["active"] if fid != leader_id]
    return [fid for fid in others if _accepted(rules.trait_bearer, wb, leader_id, fid)]


def _accepted(rule, *args) -> bool:
    try:
        rule(*args)
    except RuleViolation:
        return False
    return True


def warband_shown(pub: dict, wid: str) -> dict:
    """The warband `wid` as `public_state` shows it; NotFound when the campaign has none."""
    found = pub["warbands"].get(wid)
    if found is None:
        raise NotFound(_("this campaign has no warband %(warband)s", warband=json.dumps(wid)))
    return found


def battle_shown(state: dict, bid: str) -> dict:
    """The battle `bid` as the state keeps it whole; ShownAt the moment just before it left
    the state (which still holds it: `state["battle_ids"]`); NotFound when it was never
    fought."""
    found = battle(state, bid)
    if found is None:
        if not state["battle_ids"].get(bid):
            raise NotFound(_("this campaign has no battle %(battle)s", battle=json.dumps(bid)))
        raise ShownAt(state["battle_ids"][bid] - 1)
    return found


# What the aftermath's page says of each outcome of the injury table, and the table's rows
# in those words (the rules read the same rows: `tables.INJURY_TABLE`).
# Each a text for the catalogue, translated where it is shown (`_(INJURY_WORDS[outcome])`).
INJURY_WORDS = {
    tables.KILLED: N_("slain"),
    tables.LOSES_FAVOUR: N_("loses the favour of the gods"),
    tables.RECOVERS: N_("recovers"),
}
# What a battle's report says of an outcome after its roll ("1 + 2 → slain"); the
# chronicle tells it as a sentence, as the audit log does (`INJURED`: "Grim was slain.").
INJURY_ROLLED = {
    tables.KILLED: N_("slain"),
    tables.LOSES_FAVOUR: N_("lost the favour of the gods"),
    tables.RECOVERS: N_("recovered"),
}
# A row of the injury table as the aftermath's page says it, its note with it.
_INJURY_ROWS = {
    tables.KILLED: N_("slain (a leader loses the favour of the gods instead)"),
    tables.LOSES_FAVOUR: N_("loses the favour of the gods (−1 destiny)"),
    tables.RECOVERS: N_("recovers"),
}
KIND_WORDS = tables.KIND_WORDS
POINT_WORDS = tables.POINT_WORDS
STATUSES = rules.STATUSES


def injury_rows() -> list[dict]:
    """The injury table as the aftermath's page shows it: each row's 2D6 totals and words."""
    return [
        {"lowest": lowest, "highest": highest, "words": _(_INJURY_ROWS[outcome])}
        for lowest, highest, outcome in tables.INJURY_TABLE
    ]


def in_words(words):
    """Content as a page shows it: every entry's texts that a pack gives in other languages
    (`i18n`) as those texts, each read in the reader's language (`localised`), all through."""
    if isinstance(words, dict):
        versions = words.get("i18n")
        out = {k: in_words(v) for k, v in words.items() if k != "i18n"}
        if isinstance(versions, dict):
            for key in {k for texts in versions.values() if isinstance(texts, dict) for k in texts}:
                if isinstance(words.get(key), str):
                    out[key] = localised(words, key)
        return out
    if isinstance(words, list):
        return [in_words(v) for v in words]
    return words


def quest_maps(quests: dict) -> dict:
    """What the dashboard shows of each quest, read in the reader's language as `in_words`
    reads it: its title, its runemark and its map's points (name and kind). Only these: the
    quest map, a part, is kept under them (a whole quest carries its tables and summaries)."""
    return {
        qid: {
            "title": localised(quest, "title"),
            "runemark": localised(quest, "runemark"),
            "map": [
                {"name": localised(point, "name"), "kind": point.get("kind")}
                for point in quest.get("map") or []
            ],
        }
        for qid, quest in quests.items()
    }


def next_steps(state: dict, seat: str | None, role: str | None) -> list[dict]:
    """What the campaign waits for now (`base.next_step`): each aftermath step a warband
    owes, then its next battle once none is owed; a player without a warband founds one
    first, and a campaign of fewer than two warbands waits for them. `seat` is the reader's
    warband, `role` its part in the campaign (None: a reader)."""
    warbands = state["warbands"]
    steps, founding = [], _("The campaign waits for its players to found their warbands.")
    if role == "player" and seat not in warbands:
        steps.append(
            next_step(
                None,
                _("Found your warband"),
                founding,
                "dashboard",
                anchor="found",
            )
        )
    for wid, wb in warbands.items():
        am = wb["aftermath"]
        if am is None:
            continue
        said = {
            "warband": wb["name"],
            "player": wb["player"],
            "step": am["step"],
            "battle": am["battle"],
            "title": _(tables.STEPS[am["step"]]),
        }
        steps.append(
            next_step(
                wid,
                _("%(warband)s: step %(step)s of battle %(battle)s, %(title)s", **said),
                _(
                    "Waiting for %(player)s (%(warband)s): step %(step)s of battle %(battle)s, "
                    "%(title)s",
                    **said,
                ),
                "wizard",
                warband=wid,
            )
        )
    if len(warbands) < 2 and not (role == "player" and seat not in warbands):
        steps.append(
            next_step(
                None if role == "organiser" else [],
                _("Found a warband"),
                founding,
                "dashboard",
                anchor="found",
            )
        )
    elif len(warbands) >= 2 and not any(wb["aftermath"] for wb in warbands.values()):
        steps.append(
            next_step(
                list(warbands),
                _("Record the next battle"),
                _("The campaign waits for its next battle."),
                "battle-new",
            )
        )
    return steps
