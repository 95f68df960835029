"""What each Warcry event says in the audit log: the sentence a player would say of it.

Each function reads the event's data and the state just after the event.
"""

from __future__ import annotations

from collections.abc import Callable

from tracker.systems.warcry import tables as t
from tracker.systems.warcry.rules import battle, profiles

SAYINGS: dict[str, Callable[[dict, dict, dict], str]] = {}

# What befell a fighter on each outcome of the injury table, as a sentence tells it once
# rolled: the audit log's, and the chronicle's.
INJURED = {
    t.KILLED: "was slain",
    t.LOSES_FAVOUR: "lost the favour of the gods",
    t.RECOVERS: "recovered",
}


def says(event_type: str) -> Callable:
    def register(saying: Callable) -> Callable:
        SAYINGS[event_type] = saying
        return saying

    return register


def describe(state, event) -> str:
    d = event.data
    wb = state["warbands"].get(d.get("warband"), {})
    saying = SAYINGS.get(event.type)
    return saying(state, d, wb) if saying else event.type


def possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _fname(wb, fid) -> str:
    return wb.get("fighters", {}).get(fid, {}).get("name", fid)


@says("WarbandFounded")
def _warband_founded(state, d, wb):
    return f"{d['player']} founded {d['name']}, a warband of the {wb.get('faction', d['faction'])}"


@says("FighterAdded")
def _fighter_added(state, d, wb):
    fighter = wb.get("fighters", {}).get(d["fighter"], {})
    profile = profiles(state, wb).get(d["profile"]) if d["profile"] else None
    what = f"a {profile['name']}, " if profile else ""
    return (
        f"{d['name']} joined {wb.get('name', d['warband'])}"
        + (" as its leader" if fighter.get("leader", d["leader"]) else "")
        + f" ({what}{fighter.get('points', d['points'])} points)"
    )


@says("FighterRemoved")
def _fighter_removed(state, d, wb):
    return f"{_fname(wb, d['fighter'])} left {wb.get('name', d['warband'])}" + (
        f": {d['reason']}" if d["reason"] else ""
    )


@says("ReinforcementsBought")
def _reinforcements_bought(state, d, wb):
    enemy = state["warbands"].get(d["against"], {}).get("name", d["against"])
    glory = t.reinforcement_price(state["rules"], d["points"])
    return (
        f"{wb.get('name', d['warband'])} bought {d['points']} points of reinforcements "
        f"for {glory} glory, to muster against {enemy}"
    )


@says("BattleFought")
def _battle_fought(state, d, wb):
    warbands = state["warbands"]
    sides = [warbands[s["warband"]]["name"] for s in d["sides"]]
    result = f"{warbands[d['winner']]['name']} won" if d["winner"] else "a draw"
    fought = battle(state, d["battle"]) or {}
    where = ""
    aspirants = fought.get("convergence", [])
    if len(aspirants) == 2:
        where = " at the convergence point of both, both Aspirants"
    elif aspirants:
        where = (
            f" at {possessive(warbands[aspirants[0]]['name'])} convergence point, "
            f"{warbands[fought['adversary']]['name']} the Adversary"
        )
    scenario = f" ({d['scenario']})" if d["scenario"] else ""
    return f"Battle {d['battle']}{scenario}: {sides[0]} against {sides[1]}{where}, {result}"


@says("TerritoryConquered")
def _territory_conquered(state, d, wb):
    return f"{wb.get('name')} conquered {d['territory']} for {t.TERRITORY_PRICE} glory"


@says("AftermathStepCompleted")
def _aftermath_step_completed(state, d, wb):
    if d["step"] == 7:
        return f"{wb.get('name')} declined the reward of its map point"
    return f"{wb.get('name')} completed step {d['step']} ({t.STEPS[d['step']]})"


@says("InjuryRolled")
def _injury_rolled(state, d, wb):
    dice = "+".join(map(str, d["dice"]))
    fighter = wb.get("fighters", {}).get(d["fighter"], {})
    outcome = t.injury(d["dice"], fighter.get("leader", False))
    injured = INJURED[outcome]
    return f"{possessive(wb.get('name'))} {_fname(wb, d['fighter'])} {injured}: injury roll {dice}"


@says("DestinyRolled")
def _destiny_rolled(state, d, wb):
    gained = t.destiny_gained(d["dice"])
    return (
        f"{possessive(wb.get('name'))} {_fname(wb, d['fighter'])} "
        + (
            "caught the gods' eye and gained a destiny level"
            if gained
            else "went unnoticed by the gods"
        )
        + f": destiny roll {d['dice'][0]}"
    )


@says("PerishableRolled")
def _perishable_rolled(state, d, wb):
    fighter = wb.get("fighters", {}).get(d["fighter"], {})
    crumbled = t.perishable_crumbles(d["dice"])
    held = fighter.get("dropped") if crumbled else (fighter.get("lesser_artefact") or {})
    name = held if isinstance(held, str) else held.get("name", "fragile artefact")
    verdict = "crumbled to dust" if crumbled else "held"
    return (
        f"The {name} of {possessive(wb.get('name'))} {fighter.get('name', d['fighter'])} "
        f"{verdict}: roll {d['dice'][0]}"
    )


@says("SearchRolled")
def _search_rolled(state, d, wb):
    entry = t.search(state["content"]["lesser_artefacts"], d["dice"])
    what = f"found the {entry['name']}" if entry else "found nothing"
    extra = " once more, buying the search for 3 glory," if d["extra"] else ""
    if d["adversary"]:
        extra = " once more as the Adversary"
    return (
        f"{wb.get('name')} searched the battlefield{extra} and {what}: "
        f"search roll {t.d66(d['dice'])}"
    )


@says("ArtefactGiven")
def _artefact_given(state, d, wb):
    return f"{wb.get('name')} gave the {d['artefact']} to {_fname(wb, d['fighter'])}"


@says("ArtefactUsed")
def _artefact_used(state, d, wb):
    fighter = wb.get("fighters", {}).get(d["fighter"], {})
    return (
        f"{possessive(wb.get('name'))} {fighter.get('name', d['fighter'])} used up the "
        f"{fighter.get('dropped') or 'lesser artefact'}"
    )


@says("ArtefactDiscarded")
def _artefact_discarded(state, d, wb):
    fighter = wb.get("fighters", {}).get(d["fighter"], {})
    kind = "lesser artefact" if d["discarded"] == "lesser" else "artefact of power"
    return (
        f"{possessive(wb.get('name'))} {fighter.get('name', d['fighter'])} discarded the "
        f"{kind} {fighter.get('dropped') or ''}".rstrip()
    )


@says("ArtefactPassed")
def _artefact_passed(state, d, wb):
    receiver = wb.get("fighters", {}).get(d["receiver"], {})
    held = (receiver.get("artefact_of_power") or {}).get("name", "artefact of power")
    return (
        f"{possessive(wb.get('name'))} {_fname(wb, d['giver'])} passed the {held} to "
        f"{receiver.get('name', d['receiver'])} to make room for a new one"
    )


@says("ArtefactOfPowerGained")
def _artefact_of_power_gained(state, d, wb):
    fighters = wb.get("fighters", {})
    held = fighters.get(d["fighter"], {}).get("artefact_of_power") or {}
    words = (
        f"{possessive(wb.get('name'))} {_fname(wb, d['fighter'])} gained the "
        f"artefact of power {held.get('name', d['artefact'])}"
    )
    if d["pass_to"]:
        passed = (fighters.get(d["pass_to"], {}).get("artefact_of_power") or {}).get("name")
        words += f", passing the {passed} to {_fname(wb, d['pass_to'])} to make room"
    return words


@says("CommandTraitGained")
def _command_trait_gained(state, d, wb):
    trait = next(
        (
            c["name"]
            for q in state["content"]["quests"].values()
            for c in q["command_traits"]
            if c["id"] == d["trait"]
        ),
        d["trait"],
    )
    fighters = wb.get("fighters", {})
    who = _fname(wb, d["fighter"]) if d["fighter"] else "its leader"
    favoured = (
        " as favoured warrior"
        if d["fighter"] and fighters.get(d["fighter"], {}).get("favoured")
        else ""
    )
    return f"{wb.get('name')} gained the command trait {trait}: given to {who}{favoured}"


@says("QuestBegun")
def _quest_begun(state, d, wb):
    title = state["content"]["quests"][d["quest"]]["title"]
    done = len(wb.get("quests_completed", []))
    left = "" if state["rules"] == t.FIRST_RULES else " with no territories and no glory"
    return (
        f"{wb.get('name')} began the quest {title}, back at its start{left} "
        f"({done} quest{'s' if done != 1 else ''} completed)"
    )


@says("FighterCorrected")
def _fighter_corrected(state, d, wb):
    fighter = wb.get("fighters", {}).get(d["fighter"], {})
    was = fighter.get("was") or {}
    old, new = was.get("name", d["fighter"]), fighter.get("name", d["name"])
    changes = []
    if d["name"] is not None and d["name"] != old:
        changes.append(f"renamed {new}")
    if d["points"] is not None and d["points"] != was.get("points"):
        changes.append(f"{was.get('points')} points corrected to {d['points']}")
    return f"{possessive(wb.get('name', d['warband']))} {old}: " + " and ".join(changes)


# -- the campaign's own content -----------------------------------------------------------------


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


@says("FactionsImported")
def _factions_imported(state, d, wb):
    factions = d["factions"]
    profiles_ = sum(len(f["profiles"]) for f in factions.values())
    names = ", ".join(f["name"] for f in factions.values())
    source = f" from {d['source']}" if d["source"] else ""
    return (
        f"The organiser imported {_count(len(factions), 'faction')} "
        f"({_count(profiles_, 'fighter profile')}){source}: {names}"
    )


@says("FactionDefined")
def _faction_defined(state, d, wb):
    return f"The organiser set out the faction {d['name']} (runemark {d['runemark']})"


def _stat_words(d) -> str:
    stats = [
        f"{label} {d[key]}"
        for label, key in (("move", "movement"), ("toughness", "toughness"), ("wounds", "wounds"))
        if d.get(key) is not None
    ]
    return (", " + ", ".join(stats)) if stats else ""


@says("ProfileDefined")
def _profile_defined(state, d, wb):
    faction = (state["content"].get("factions") or {}).get(d["faction"], {})
    return (
        f"The organiser set out the {faction.get('name', d['faction'])} profile {d['name']}: "
        f"{', '.join(d['runemarks'])}, {d['points']} points{_stat_words(d)}"
    )


@says("ArtefactDefined")
def _artefact_defined(state, d, wb):
    title = state["content"]["quests"].get(d["quest"], {}).get("title", d["quest"])
    return f"The organiser set out the artefact of power {d['name']} of the quest {title}"


@says("TerritoryDefined")
def _territory_defined(state, d, wb):
    return f"The organiser set out the territory {d['name']}"


@says("QuestDefined")
def _quest_defined(state, d, wb):
    return f"The organiser set out the quest {d['title']} (runemark {d['runemark']})"
