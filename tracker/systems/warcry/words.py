"""What each Warcry event says in the audit log: the sentence a player would say of it.

Each function reads the event's data and the state just after the event, and gives a
message with its parameters (`tracker.systems.i18n`), read in the reader's language. A sentence
whose parts are optional is a choice between whole messages, as word order differs from one
language to another.
"""

from __future__ import annotations

from collections.abc import Callable

from tracker.systems.i18n import N_, _, localised, ngettext
from tracker.systems.warcry import tables as t
from tracker.systems.warcry.rules import battle, named, profiles

SAYINGS: dict[str, Callable[[dict, dict, dict], str]] = {}

# What befell a fighter on each outcome of the injury table, as a sentence tells it once
# rolled ("Grim was slain"): the chronicle's, each a whole sentence with the fighter's name.
INJURED = {
    t.KILLED: N_("%(fighter)s was slain."),
    t.LOSES_FAVOUR: N_("%(fighter)s lost the favour of the gods."),
    t.RECOVERS: N_("%(fighter)s recovered."),
}
# The audit log's sentence for each outcome, a warband's fighter and the dice.
_INJURY_SAID = {
    t.KILLED: N_("%(who)s was slain: injury roll %(dice)s"),
    t.LOSES_FAVOUR: N_("%(who)s lost the favour of the gods: injury roll %(dice)s"),
    t.RECOVERS: N_("%(who)s recovered: injury roll %(dice)s"),
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


def whose(warband: str, fighter: str):
    """A warband's fighter as a sentence names it ("Ironjaws' Grim"): English puts the
    warband first with its possessive, other languages as they say it."""
    if warband.endswith("s"):
        return _("%(warband)s' %(fighter)s", warband=warband, fighter=fighter)
    return _("%(warband)s's %(fighter)s", warband=warband, fighter=fighter)


def _fname(wb, fid) -> str:
    return wb.get("fighters", {}).get(fid, {}).get("name", fid)


def _joined(parts):
    """Messages or names joined by ", ", each part kept as it is (a message stays one)."""
    parts = list(parts)
    if len(parts) == 1:
        return parts[0]
    return _("%(first)s, %(rest)s", first=parts[0], rest=_joined(parts[1:]))


@says("WarbandFounded")
def _warband_founded(state, d, wb):
    return _(
        "%(player)s founded %(warband)s, a warband of the %(faction)s",
        player=d["player"],
        warband=d["name"],
        faction=wb.get("faction", d["faction"]),
    )


@says("FighterAdded")
def _fighter_added(state, d, wb):
    fighter = wb.get("fighters", {}).get(d["fighter"], {})
    profile = profiles(state, wb).get(d["profile"]) if d["profile"] else None
    leads = fighter.get("leader", d["leader"])
    params = {
        "fighter": d["name"],
        "warband": wb.get("name", d["warband"]),
        "points": fighter.get("points", d["points"]),
    }
    if profile:
        params["profile"] = localised(profile, "name")
        if leads:
            return _(
                "%(fighter)s joined %(warband)s as its leader (a %(profile)s, %(points)s points)",
                **params,
            )
        return _("%(fighter)s joined %(warband)s (a %(profile)s, %(points)s points)", **params)
    if leads:
        return _("%(fighter)s joined %(warband)s as its leader (%(points)s points)", **params)
    return _("%(fighter)s joined %(warband)s (%(points)s points)", **params)


@says("FighterRemoved")
def _fighter_removed(state, d, wb):
    fighter, warband = _fname(wb, d["fighter"]), wb.get("name", d["warband"])
    if d["reason"]:
        return _(
            "%(fighter)s left %(warband)s: %(reason)s",
            fighter=fighter,
            warband=warband,
            reason=d["reason"],
        )
    return _("%(fighter)s left %(warband)s", fighter=fighter, warband=warband)


@says("ReinforcementsBought")
def _reinforcements_bought(state, d, wb):
    enemy = state["warbands"].get(d["against"], {}).get("name", d["against"])
    glory = t.reinforcement_price(state["rules"], d["points"])
    return _(
        "%(warband)s bought %(points)s points of reinforcements for %(glory)s glory, to muster "
        "against %(enemy)s",
        warband=wb.get("name", d["warband"]),
        points=d["points"],
        glory=glory,
        enemy=enemy,
    )


# A battle in the audit log: where it was fought (anywhere, at both convergence points, at
# one's) and how it ended (a winner, a draw), one whole sentence for each.
_BATTLE = {
    (None, True): N_("%(battle)s: %(first)s against %(second)s, %(winner)s won"),
    (None, False): N_("%(battle)s: %(first)s against %(second)s, a draw"),
    ("both", True): N_(
        "%(battle)s: %(first)s against %(second)s at the convergence point of both, both "
        "Aspirants, %(winner)s won"
    ),
    ("both", False): N_(
        "%(battle)s: %(first)s against %(second)s at the convergence point of both, both "
        "Aspirants, a draw"
    ),
    ("s'", True): N_(
        "%(battle)s: %(first)s against %(second)s at %(aspirant)s' convergence point, "
        "%(adversary)s the Adversary, %(winner)s won"
    ),
    ("s'", False): N_(
        "%(battle)s: %(first)s against %(second)s at %(aspirant)s' convergence point, "
        "%(adversary)s the Adversary, a draw"
    ),
    ("'s", True): N_(
        "%(battle)s: %(first)s against %(second)s at %(aspirant)s's convergence point, "
        "%(adversary)s the Adversary, %(winner)s won"
    ),
    ("'s", False): N_(
        "%(battle)s: %(first)s against %(second)s at %(aspirant)s's convergence point, "
        "%(adversary)s the Adversary, a draw"
    ),
}


@says("BattleFought")
def _battle_fought(state, d, wb):
    warbands = state["warbands"]
    sides = [warbands[s["warband"]]["name"] for s in d["sides"]]
    fought = battle(state, d["battle"]) or {}
    aspirants = fought.get("convergence", [])
    params = {"first": sides[0], "second": sides[1]}
    if d["scenario"]:
        params["battle"] = _(
            "Battle %(battle)s (%(scenario)s)", battle=d["battle"], scenario=d["scenario"]
        )
    else:
        params["battle"] = _("Battle %(battle)s", battle=d["battle"])
    if d["winner"]:
        params["winner"] = warbands[d["winner"]]["name"]
    where = None
    if len(aspirants) == 2:
        where = "both"
    elif aspirants:
        aspirant = warbands[aspirants[0]]["name"]
        where = "s'" if aspirant.endswith("s") else "'s"
        params.update(aspirant=aspirant, adversary=warbands[fought["adversary"]]["name"])
    return _(_BATTLE[where, bool(d["winner"])], **params)


@says("TerritoryConquered")
def _territory_conquered(state, d, wb):
    return _(
        "%(warband)s conquered %(territory)s for %(glory)s glory",
        warband=wb.get("name"),
        territory=d["territory"],
        glory=t.TERRITORY_PRICE,
    )


@says("AftermathStepCompleted")
def _aftermath_step_completed(state, d, wb):
    if d["step"] == 7:
        return _("%(warband)s declined the reward of its map point", warband=wb.get("name"))
    return _(
        "%(warband)s completed step %(step)s (%(title)s)",
        warband=wb.get("name"),
        step=d["step"],
        title=_(t.STEPS[d["step"]]),
    )


@says("InjuryRolled")
def _injury_rolled(state, d, wb):
    dice = "+".join(map(str, d["dice"]))
    fighter = wb.get("fighters", {}).get(d["fighter"], {})
    outcome = t.injury(d["dice"], fighter.get("leader", False))
    who = whose(wb.get("name"), _fname(wb, d["fighter"]))
    return _(_INJURY_SAID[outcome], who=who, dice=dice)


@says("DestinyRolled")
def _destiny_rolled(state, d, wb):
    who = whose(wb.get("name"), _fname(wb, d["fighter"]))
    if t.destiny_gained(d["dice"]):
        return _(
            "%(who)s caught the gods' eye and gained a destiny level: destiny roll %(roll)s",
            who=who,
            roll=d["dice"][0],
        )
    return _(
        "%(who)s went unnoticed by the gods: destiny roll %(roll)s", who=who, roll=d["dice"][0]
    )


@says("PerishableRolled")
def _perishable_rolled(state, d, wb):
    fighter = wb.get("fighters", {}).get(d["fighter"], {})
    crumbled = t.perishable_crumbles(d["dice"])
    held = fighter.get("dropped") if crumbled else (fighter.get("lesser_artefact") or {})
    if isinstance(held, str):
        name = named(state, held)
    else:
        name = localised(held) if held.get("name") else _("fragile artefact")
    who = whose(wb.get("name"), fighter.get("name", d["fighter"]))
    if crumbled:
        return _(
            "The %(artefact)s of %(who)s crumbled to dust: roll %(roll)s",
            artefact=name,
            who=who,
            roll=d["dice"][0],
        )
    return _(
        "The %(artefact)s of %(who)s held: roll %(roll)s", artefact=name, who=who, roll=d["dice"][0]
    )


# A search in the audit log: the free one, a bought one, the Adversary's; found or not.
_SEARCHED = {
    ("free", True): N_(
        "%(warband)s searched the battlefield and found the %(artefact)s: search roll %(roll)s"
    ),
    ("free", False): N_(
        "%(warband)s searched the battlefield and found nothing: search roll %(roll)s"
    ),
    ("extra", True): N_(
        "%(warband)s searched the battlefield once more, buying the search for 3 glory, and "
        "found the %(artefact)s: search roll %(roll)s"
    ),
    ("extra", False): N_(
        "%(warband)s searched the battlefield once more, buying the search for 3 glory, and "
        "found nothing: search roll %(roll)s"
    ),
    ("adversary", True): N_(
        "%(warband)s searched the battlefield once more as the Adversary and found the "
        "%(artefact)s: search roll %(roll)s"
    ),
    ("adversary", False): N_(
        "%(warband)s searched the battlefield once more as the Adversary and found nothing: "
        "search roll %(roll)s"
    ),
}


@says("SearchRolled")
def _search_rolled(state, d, wb):
    entry = t.search(state["content"]["lesser_artefacts"], d["dice"])
    kind = "adversary" if d["adversary"] else "extra" if d["extra"] else "free"
    params = {"warband": wb.get("name"), "roll": t.d66(d["dice"])}
    if entry:
        params["artefact"] = localised(entry)
    return _(_SEARCHED[kind, bool(entry)], **params)


@says("ArtefactGiven")
def _artefact_given(state, d, wb):
    return _(
        "%(warband)s gave the %(artefact)s to %(fighter)s",
        warband=wb.get("name"),
        artefact=named(state, d["artefact"]),
        fighter=_fname(wb, d["fighter"]),
    )


@says("ArtefactUsed")
def _artefact_used(state, d, wb):
    fighter = wb.get("fighters", {}).get(d["fighter"], {})
    return _(
        "%(who)s used up the %(artefact)s",
        who=whose(wb.get("name"), fighter.get("name", d["fighter"])),
        artefact=named(state, fighter["dropped"])
        if fighter.get("dropped")
        else _("lesser artefact"),
    )


_DISCARDED = {
    (True, True): N_("%(who)s discarded the lesser artefact %(artefact)s"),
    (True, False): N_("%(who)s discarded the lesser artefact"),
    (False, True): N_("%(who)s discarded the artefact of power %(artefact)s"),
    (False, False): N_("%(who)s discarded the artefact of power"),
}


@says("ArtefactDiscarded")
def _artefact_discarded(state, d, wb):
    fighter = wb.get("fighters", {}).get(d["fighter"], {})
    dropped = fighter.get("dropped")
    return _(
        _DISCARDED[d["discarded"] == "lesser", bool(dropped)],
        who=whose(wb.get("name"), fighter.get("name", d["fighter"])),
        artefact=named(state, dropped) if dropped else dropped,
    )


@says("ArtefactPassed")
def _artefact_passed(state, d, wb):
    receiver = wb.get("fighters", {}).get(d["receiver"], {})
    held = receiver.get("artefact_of_power")
    return _(
        "%(who)s passed the %(artefact)s to %(receiver)s to make room for a new one",
        who=whose(wb.get("name"), _fname(wb, d["giver"])),
        artefact=localised(held) if held else _("artefact of power"),
        receiver=receiver.get("name", d["receiver"]),
    )


@says("ArtefactOfPowerGained")
def _artefact_of_power_gained(state, d, wb):
    fighters = wb.get("fighters", {})
    held = fighters.get(d["fighter"], {}).get("artefact_of_power")
    params = {
        "who": whose(wb.get("name"), _fname(wb, d["fighter"])),
        "artefact": localised(held) if held else d["artefact"],
    }
    if d["pass_to"]:
        passed = fighters.get(d["pass_to"], {}).get("artefact_of_power")
        return _(
            "%(who)s gained the artefact of power %(artefact)s, passing the %(passed)s to "
            "%(receiver)s to make room",
            passed=localised(passed) if passed else None,
            receiver=_fname(wb, d["pass_to"]),
            **params,
        )
    return _("%(who)s gained the artefact of power %(artefact)s", **params)


@says("CommandTraitGained")
def _command_trait_gained(state, d, wb):
    trait = next(
        (
            localised(c)
            for q in state["content"]["quests"].values()
            for c in q["command_traits"]
            if c["id"] == d["trait"]
        ),
        d["trait"],
    )
    params = {"warband": wb.get("name"), "trait": trait}
    if not d["fighter"]:
        return _("%(warband)s gained the command trait %(trait)s: given to its leader", **params)
    params["fighter"] = _fname(wb, d["fighter"])
    if wb.get("fighters", {}).get(d["fighter"], {}).get("favoured"):
        return _(
            "%(warband)s gained the command trait %(trait)s: given to %(fighter)s as favoured "
            "warrior",
            **params,
        )
    return _("%(warband)s gained the command trait %(trait)s: given to %(fighter)s", **params)


@says("QuestBegun")
def _quest_begun(state, d, wb):
    params = {
        "warband": wb.get("name"),
        "quest": localised(state["content"]["quests"][d["quest"]], "title"),
    }
    done = len(wb.get("quests_completed", []))
    if state["rules"] == t.FIRST_RULES:
        return ngettext(
            "%(warband)s began the quest %(quest)s, back at its start (%(num)d quest completed)",
            "%(warband)s began the quest %(quest)s, back at its start (%(num)d quests completed)",
            done,
            **params,
        )
    return ngettext(
        "%(warband)s began the quest %(quest)s, back at its start with no territories and no "
        "glory (%(num)d quest completed)",
        "%(warband)s began the quest %(quest)s, back at its start with no territories and no "
        "glory (%(num)d quests completed)",
        done,
        **params,
    )


@says("FighterCorrected")
def _fighter_corrected(state, d, wb):
    fighter = wb.get("fighters", {}).get(d["fighter"], {})
    was = fighter.get("was") or {}
    old, new = was.get("name", d["fighter"]), fighter.get("name", d["name"])
    renamed = d["name"] is not None and d["name"] != old
    repointed = d["points"] is not None and d["points"] != was.get("points")
    params = {
        "who": whose(wb.get("name", d["warband"]), old),
        "name": new,
        "was": was.get("points"),
        "points": d["points"],
    }
    if renamed and repointed:
        return _("%(who)s: renamed %(name)s and %(was)s points corrected to %(points)s", **params)
    if renamed:
        return _("%(who)s: renamed %(name)s", **params)
    if repointed:
        return _("%(who)s: %(was)s points corrected to %(points)s", **params)
    return _("%(who)s: corrected", **params)


# -- the campaign's own content -----------------------------------------------------------------


@says("FactionsImported")
def _factions_imported(state, d, wb):
    factions = d["factions"]
    count = len(factions)
    profiles_ = sum(len(f["profiles"]) for f in factions.values())
    params = {
        "factions": ngettext("%(num)d faction", "%(num)d factions", count),
        "profiles": ngettext("%(num)d fighter profile", "%(num)d fighter profiles", profiles_),
        "names": ", ".join(f["name"] for f in factions.values()),
    }
    if d["source"]:
        return _(
            "The organiser imported %(factions)s (%(profiles)s) from %(source)s: %(names)s",
            source=d["source"],
            **params,
        )
    return _("The organiser imported %(factions)s (%(profiles)s): %(names)s", **params)


@says("FactionDefined")
def _faction_defined(state, d, wb):
    return _(
        "The organiser set out the faction %(faction)s (runemark %(runemark)s)",
        faction=d["name"],
        runemark=d["runemark"],
    )


_STATS = (
    (N_("move %(value)s"), "movement"),
    (N_("toughness %(value)s"), "toughness"),
    (N_("wounds %(value)s"), "wounds"),
)


@says("ProfileDefined")
def _profile_defined(state, d, wb):
    faction = (state["content"].get("factions") or {}).get(d["faction"], {})
    params = {
        "faction": localised(faction) if faction.get("name") else d["faction"],
        "profile": d["name"],
        "runemarks": ", ".join(d["runemarks"]),
        "points": d["points"],
    }
    stats = [_(label, value=d[key]) for label, key in _STATS if d.get(key) is not None]
    if stats:
        return _(
            "The organiser set out the %(faction)s profile %(profile)s: %(runemarks)s, "
            "%(points)s points, %(stats)s",
            stats=_joined(stats),
            **params,
        )
    return _(
        "The organiser set out the %(faction)s profile %(profile)s: %(runemarks)s, %(points)s "
        "points",
        **params,
    )


@says("ArtefactDefined")
def _artefact_defined(state, d, wb):
    quest = state["content"]["quests"].get(d["quest"])
    return _(
        "The organiser set out the artefact of power %(artefact)s of the quest %(quest)s",
        artefact=d["name"],
        quest=localised(quest, "title") if quest else d["quest"],
    )


@says("TerritoryDefined")
def _territory_defined(state, d, wb):
    return _("The organiser set out the territory %(territory)s", territory=d["name"])


@says("QuestDefined")
def _quest_defined(state, d, wb):
    return _(
        "The organiser set out the quest %(quest)s (runemark %(runemark)s)",
        quest=d["title"],
        runemark=d["runemark"],
    )
