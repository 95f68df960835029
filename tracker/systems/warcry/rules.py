"""The Warcry campaign's rules: one handler for each event, folding it into the state.

Every handler checks all of its rules before it changes anything, and raises `RuleViolation`
with the rule in words. The state is rosters, glory, the seven-step aftermath and the map.
"""

from __future__ import annotations

from tracker.errors import RuleViolation
from tracker.systems.base import Handlers
from tracker.systems.i18n import N_, _, localised
from tracker.systems.warcry import tables as t
from tracker.systems.warcry.tables import listed

handlers = Handlers()

# Steps with nothing to choose are passed by themselves once nothing is owed in them.
SELF_PASSING = (2, 3, 6)

# The state keeps what the rules need and the latest part of the history: it does not grow
# with the length of the log. Once more than twice this many battles are kept, the oldest
# finished ones leave the state (only their ids stay, with the event that archived them); the
# campaign as it stood just before that event still holds each of them, whole and final.
KEPT_BATTLES = 16
# The same for each warband's glory ledger: its latest lines; earlier ones are read as of an
# earlier event (every line names its event).
KEPT_LEDGER = 40
# The points of each warband's glory and territories after its battles (the campaign's
# picture): past this many, the older ones are thinned.
KEPT_STORY = 120


def initial_state(settings: dict) -> dict:
    t.check_content(settings["content"], settings["quest"])
    return {
        # Which rules the campaign follows: the first, unless its settings name others.
        "rules": settings.get("rules", t.FIRST_RULES),
        "quest": settings["quest"],
        "content": settings["content"],
        "warbands": {},
        "battles": [],
        # Every battle's id: None while `battles` keeps it whole, else the event at which
        # it left the state (the state just before that event still holds it).
        "battle_ids": {},
    }


# A fighter's status as a refusal or a page says it.
STATUSES = {"active": N_("active"), "dead": N_("dead"), "removed": N_("removed")}


def names(fighters: dict, ids) -> str:
    return ", ".join(fighters[i]["name"] for i in ids)


# -- looking things up ------------------------------------------------------------------------


def warband(state, wid) -> dict:
    try:
        return state["warbands"][wid]
    except KeyError:
        raise RuleViolation(
            _("there is no warband %(warband)r in this campaign", warband=wid)
        ) from None


def fighter_of(wb, fid, *, active=True) -> dict:
    fighter = wb["fighters"].get(fid)
    if fighter is None:
        raise RuleViolation(
            _("%(warband)s has no fighter %(fighter)r", warband=wb["name"], fighter=fid)
        )
    if active and fighter["status"] != "active":
        raise RuleViolation(
            _(
                "%(fighter)s of %(warband)s is %(status)s",
                fighter=fighter["name"],
                warband=wb["name"],
                status=_(STATUSES.get(fighter["status"], fighter["status"])),
            )
        )
    return fighter


def faction(state, name) -> tuple[str | None, dict | None]:
    """The content's faction named by its id or its name (whatever the case), or
    (None, None) for a faction of the group's own, without profiles."""
    factions = state["content"].get("factions") or {}
    if name in factions:
        return name, factions[name]
    wanted = t.mark(name)
    for fid, found in factions.items():
        if t.mark(found["name"]) == wanted:
            return fid, found
    return None, None


def profiles(state, wb) -> dict:
    """The fighter profiles a warband adds fighters from: its faction's."""
    found = (state["content"].get("factions") or {}).get(wb.get("faction_id"))
    return found["profiles"] if found else {}


def named(state, name):
    """An artefact or a command trait the state keeps by its name (a find, a dropped or given
    artefact), as the content's entry of that name says it in the reader's language; any
    other name as it is."""
    content = state["content"]
    for entry in content.get("lesser_artefacts") or []:
        if entry.get("name") == name:
            return localised(entry)
    for quest in (content.get("quests") or {}).values():
        for entry in (*quest.get("artefacts_of_power", ()), *quest.get("command_traits", ())):
            if entry.get("name") == name:
                return localised(entry)
    return name


def quest_of(state, wb) -> dict:
    return state["content"]["quests"][wb["quest"]]


def leader(wb) -> str | None:
    """The id of the warband's leader among its active fighters, or None."""
    fighters = wb["fighters"]
    for fid in wb["active"]:
        if fighters[fid]["leader"]:
            return fid
    return None


def battle(state, bid) -> dict | None:
    """A battle the state still keeps whole, or None (never fought, or archived)."""
    for kept in reversed(state["battles"]):
        if kept["id"] == bid:
            return kept
    return None


def report(state, kept, wid) -> dict:
    """A warband's part of a battle's report, finished or still under way."""
    found = kept["aftermath"].get(wid)
    if found is None:
        am = state["warbands"][wid]["aftermath"]
        if am is not None and am["battle"] == kept["id"]:
            return am["report"]
    return found


def convergence_point(state, wb) -> dict | None:
    """The convergence point the warband stands on, or None."""
    if wb["quest_complete"]:
        return None
    point = quest_of(state, wb)["map"][wb["map_position"]]
    return point if point["kind"] == "convergence" else None


def muster_limit(state, wb, enemy_id=None) -> int:
    """The points the warband may field: 1000, its territories' bonus, and the
    reinforcements it bought for a battle against `enemy_id`."""
    bought = wb["reinforcements"]
    extra = bought["points"] if bought and bought["against"] == enemy_id else 0
    return t.muster_limit(len(wb["territories"]), extra)


# -- glory, losses and the battle's report -----------------------------------------------------


def _glory(wb, amount, cause, version):
    wb["glory"] = balance = wb["glory"] + amount
    ledger = wb["ledger"]
    ledger.append({"version": version, "amount": amount, "cause": cause, "balance": balance})
    if len(ledger) > 2 * KEPT_LEDGER:
        # Whole events leave together, so the lines before the first kept one are exactly
        # the ledger as of the event before it.
        cut = len(ledger) - KEPT_LEDGER
        while cut > 0 and ledger[cut - 1]["version"] == ledger[cut]["version"]:
            cut -= 1
        del ledger[:cut]
        wb["ledger_archived"] += cut


def _spend(wb, amount, what):
    if wb["glory"] < amount:
        raise RuleViolation(
            _(
                "%(what)s costs %(amount)s glory and %(warband)s has only %(glory)s",
                what=what,
                amount=amount,
                warband=wb["name"],
                glory=wb["glory"],
            )
        )


def _lose_fighter(wb, fid, status):
    fighter = wb["fighters"][fid]
    fighter["status"] = status
    wb["active"].remove(fid)
    wb["lost"].append(fid)
    fighter["lesser_artefact"] = None
    fighter["artefact_of_power"] = None
    if fighter["favoured"]:
        fighter["favoured"] = False
        fighter["command_trait"] = None
        wb["favoured"] = None


def _finish(state, wb):
    """The aftermath is over: its report is filed with its battle (written in the aftermath
    while it is under way, so no event looks the battle up)."""
    am = wb["aftermath"]
    battle(state, am["battle"])["aftermath"][wb["id"]] = am["report"]
    wb["aftermath"] = None
    story = wb["story"]
    story.append(
        {
            "battle": am["battle"],
            "n": wb["battles"],
            "glory": wb["glory"],
            "territories": len(wb["territories"]),
        }
    )
    if len(story) > KEPT_STORY:
        # The picture keeps the whole campaign at a coarser grain: every other one of the
        # older points goes, the latest stay.
        keep = KEPT_STORY // 2
        story[:] = story[:-keep:2] + story[-keep:]


def _archive(state, version):
    """Let the oldest battles leave the state once their aftermaths are over."""
    battles, warbands, battle_ids = state["battles"], state["warbands"], state["battle_ids"]
    cut, last = 0, len(battles) - KEPT_BATTLES
    while cut < last:
        bid = battles[cut]["id"]
        for wid in battles[cut]["warbands"]:
            am = warbands[wid]["aftermath"]
            if am is not None and am["battle"] == bid:
                last = cut  # still under way: it and every later battle stay
                break
        else:
            battle_ids[bid] = version
            cut += 1
    del battles[:cut]


# -- the aftermath as a guided procedure ------------------------------------------------------


def owed(state, wb, am=None) -> list[str]:
    """What the warband still owes in the step it is at (or at `am`, an aftermath as it will
    stand), in words."""
    am = wb["aftermath"] if am is None else am
    if am is None:
        return []
    step, fighters = am["step"], wb["fighters"]
    if step == 2 and am["injuries"]:
        return [_("an injury roll for %(fighters)s", fighters=names(fighters, am["injuries"]))]
    if step == 3 and am["destiny"]:
        return [_("a destiny roll for %(fighters)s", fighters=names(fighters, am["destiny"]))]
    if step == 4:
        count = len(wb["active"])
        if count < t.MIN_FIGHTERS:
            return [
                _(
                    "fighters: %(warband)s has %(count)s and a warband holds at least %(least)s",
                    warband=wb["name"],
                    count=count,
                    least=t.MIN_FIGHTERS,
                )
            ]
    if step == 5:
        # The search itself is not owed: a warband *may* search ("Both players may try").
        out = [
            _("giving the %(artefact)s to a fighter", artefact=localised(artefact, "name"))
            for artefact in am["found"]
        ]
        if am["perishable"]:
            out.append(
                _("a perishable roll for %(fighters)s", fighters=names(fighters, am["perishable"]))
            )
        return out
    # Step 7 owes nothing: the source says a warband *may* take the reward of its point.
    return []


def _fragile(wb, am) -> list[str]:
    """The fighters who fought and hold a fragile artefact: each owes a perishable roll."""
    fighters, out = wb["fighters"], []
    for fid in am["fielded"]:
        fighter = fighters[fid]
        held = fighter["lesser_artefact"]
        if held is not None and held.get("kind") == "fragile" and fighter["status"] == "active":
            out.append(fid)
    return out


def _next_point(state, wb, am) -> dict | None:
    """The map point step 6 moves the warband to, or None when it stays where it is."""
    if am["lost_at_convergence"] or wb["quest_complete"]:
        return None
    return quest_of(state, wb)["map"][wb["map_position"] + 1]


def _passed(state, wb, am) -> dict | None:
    """The aftermath `am` as it will stand once its step is left, or None once it is over.

    Changes nothing: the step an event belongs to is reached, and the event's rules checked
    against it, before anything changes.
    """
    ahead = dict(am, step=am["step"] + 1)
    if ahead["step"] == 5:
        ahead["perishable"] = _fragile(wb, am)
    elif ahead["step"] == 6:
        point = _next_point(state, wb, am)
        kind = point["kind"] if point else None
        ahead["reward"] = kind if kind in ("artefact", "trait") else None
        ahead["step"] = 7
        if not ahead["reward"]:
            return None
    return ahead


def reach(state, wb, step, what) -> dict:
    """The warband's aftermath as it will stand at `step`, the steps before it passed.

    Refuses when the warband is past that step, owes an earlier one, or is in no aftermath
    (or will have finished it). Changes nothing: `_advance` then passes the steps. `what`
    names the event in a refusal: words, or a function that makes them (so the words are
    only made when there is a refusal to put them in).
    """
    am = wb["aftermath"]
    if am is not None and am["step"] == step:
        return am  # the usual case: the warband is at the event's step
    if callable(what):
        what = what()
    if am is None:
        raise RuleViolation(
            _(
                "%(warband)s is not in a battle's aftermath, and %(what)s is part of one "
                "(%(title)s)",
                what=what,
                title=_(t.STEPS[step]),
                warband=wb["name"],
            )
        )
    if step < am["step"]:
        raise RuleViolation(
            _(
                "%(what)s belongs to step %(step)s (%(title)s), and %(warband)s is already at "
                "step %(current)s (%(current_title)s)",
                what=what,
                step=step,
                title=_(t.STEPS[step]),
                warband=wb["name"],
                current=am["step"],
                current_title=_(t.STEPS[am["step"]]),
            )
        )
    while am is not None and am["step"] < step:
        if still := owed(state, wb, am):
            current = am["step"]
            raise RuleViolation(
                _(
                    "step %(step)s (%(title)s) comes first: %(warband)s still owes %(owed)s",
                    step=current,
                    title=_(t.STEPS[current]),
                    warband=wb["name"],
                    owed=listed(still, "; "),
                )
            )
        am = _passed(state, wb, am)
    if am is None:
        raise RuleViolation(
            _(
                "%(what)s is not owed: %(warband)s has finished the aftermath",
                what=what,
                warband=wb["name"],
            )
        )
    return am


def _advance(state, wb, step, version):
    """Pass the warband's steps up to `step` (`reach` has found that it may)."""
    while wb["aftermath"]["step"] < step:
        _leave_step(state, wb, version)


def _leave_step(state, wb, version):
    am = wb["aftermath"]
    am["step"] += 1
    if am["step"] == 5:
        am["perishable"] = _fragile(wb, am)
    elif am["step"] == 6:
        _progress(state, wb, version)


def _settle(state, wb, version):
    """Pass the steps that hold no choice once nothing is owed in them."""
    while (am := wb["aftermath"]) is not None and am["step"] in SELF_PASSING:
        if owed(state, wb, am):
            return
        _leave_step(state, wb, version)


def _progress(state, wb, version):
    """Step 6: one step forward on the map, unless the warband lost at its convergence."""
    am = wb["aftermath"]
    here = wb["map_position"]
    point = _next_point(state, wb, am)
    if point is None:
        why = (
            _("lost a battle at its convergence point: no advance")
            if am["lost_at_convergence"]
            else _("its quest is complete")
        )
        am["report"]["map"] = {"from": here, "to": here, "why": why}
    else:
        wb["map_position"] = here + 1
        am["report"]["map"] = {
            "from": here,
            "to": here + 1,
            "why": _(
                "advanced to %(point)s (%(kind)s)",
                point=localised(point, "name"),
                kind=_(t.POINT_WORDS.get(point["kind"], point["kind"])),
            ),
        }
        if point["kind"] in ("artefact", "trait"):
            am["reward"] = point["kind"]
        elif point["kind"] == "goal":
            _complete_quest(state, wb, version)
    am["step"] = 7
    if not am["reward"]:
        _finish(state, wb)


def _complete_quest(state, wb, version):
    quest = quest_of(state, wb)
    wb["quest_complete"] = True
    reward = quest.get("reward") or {}
    wb["aftermath"]["report"]["quest_reward"] = localised(reward, "text") or ""
    if reward.get("glory"):
        title = localised(quest, "title")
        _glory(wb, reward["glory"], _("completed the quest %(quest)s", quest=title), version)


# -- warbands and fighters ----------------------------------------------------------------------


@handlers.on("WarbandFounded")
def warband_founded(state, event):
    data = event.data
    wid = data["warband"]
    if wid in state["warbands"]:
        raise RuleViolation(_("there is already a warband %(warband)r", warband=wid))
    quest = data["quest"] or state["quest"]
    quests = state["content"]["quests"]
    if quest not in quests:
        raise RuleViolation(
            _(
                "there is no quest %(quest)r in this campaign (there are: %(quests)s)",
                quest=quest,
                quests=", ".join(quests),
            )
        )
    faction_id, found = faction(state, data["faction"])
    state["warbands"][wid] = {
        "id": wid,
        "name": data["name"],
        "player": data["player"],
        "faction": found["name"] if found else data["faction"],
        "faction_id": faction_id,
        "faction_runemark": found.get("runemark") if found else None,
        "quest": quest,
        "runemark": quests[quest]["runemark"],
        "glory": 0,
        "ledger": [],
        "ledger_archived": 0,
        "territories": [],
        "map_position": 0,
        "quest_complete": False,
        "quests_completed": [],
        "aftermath": None,
        "favoured": None,
        "fighters": {},
        "active": [],
        "lost": [],
        "battles": 0,
        "wins": 0,
        "draws": 0,
        "losses": 0,
        "reinforcements": None,
        # Glory and territories after each battle's aftermath: the campaign's picture.
        "story": [],
        "founded": event.version,
    }


@handlers.on("FighterAdded")
def fighter_added(state, event):
    data, version = event.data, event.version
    wb = warband(state, data["warband"])
    fid, name = data["fighter"], data["name"]
    if wb["aftermath"] is not None:
        reach(state, wb, 4, lambda: _("adding %(fighter)s", fighter=name))
    if fid in wb["fighters"]:
        raise RuleViolation(
            _("%(warband)s already has a fighter %(fighter)r", warband=wb["name"], fighter=fid)
        )
    if data["faction"]:
        _same_faction(state, wb, data["faction"])
    runemarks, points, is_leader = _recruit(state, wb, data)
    _check_recruit(wb, name, runemarks, is_leader)
    if is_leader and not t.bears(runemarks, t.LEADER_RUNEMARK):
        runemarks.insert(0, t.LEADER_RUNEMARK)
    if wb["aftermath"] is not None:
        _advance(state, wb, 4, version)
        wb["aftermath"]["report"]["fighters_added"].append(fid)
    wb["fighters"][fid] = _new_fighter(data, runemarks, points, is_leader, version)
    wb["active"].append(fid)


def _check_recruit(wb, name, runemarks, is_leader):
    if not t.bears(runemarks, wb["runemark"]):
        raise RuleViolation(
            _(
                "every fighter bears the runemark of the warband's quest (%(runemark)s); "
                "%(fighter)s does not",
                runemark=wb["runemark"],
                fighter=name,
            )
        )
    if t.bears(runemarks, t.LEADER_RUNEMARK) and not is_leader:
        raise RuleViolation(
            _(
                "the fighter who bears the leader runemark is the leader; add %(fighter)s as "
                "the leader or without that runemark",
                fighter=name,
            )
        )
    if is_leader:
        current = leader(wb)
        if current:
            raise RuleViolation(
                _(
                    "at most one fighter bears the leader runemark: %(warband)s already has "
                    "%(leader)s",
                    warband=wb["name"],
                    leader=wb["fighters"][current]["name"],
                )
            )
    count = len(wb["active"])
    if count >= t.MAX_FIGHTERS:
        raise RuleViolation(
            _(
                "a warband holds at most %(most)s fighters (%(warband)s would have %(count)s)",
                most=t.MAX_FIGHTERS,
                warband=wb["name"],
                count=count + 1,
            )
        )


def _new_fighter(data, runemarks, points, is_leader, version) -> dict:
    return {
        "name": data["name"],
        "runemarks": runemarks,
        "leader": is_leader,
        "points": points,
        "profile": data["profile"],
        "destiny": 0,
        "status": "active",
        "lesser_artefact": None,
        "artefact_of_power": None,
        "command_trait": None,
        "favoured": False,
        "added": version,
        "dropped": None,  # the name of the artefact it last used up, discarded or lost
        "career": {
            "battles": 0,
            "taken_down": 0,
            "favour_lost": 0,
            "destiny_gained": 0,
            "finds": [],
        },
    }


def _same_faction(state, wb, given):
    named = faction(state, given)[0]
    if wb["faction_id"]:
        same = named == wb["faction_id"]
    else:
        same = named is None and t.mark(given) == t.mark(wb["faction"])
    if not same:
        raise RuleViolation(
            _(
                "every fighter of %(warband)s belongs to the %(faction)s faction, not %(given)s",
                warband=wb["name"],
                faction=wb["faction"],
                given=given,
            )
        )


def _recruit(state, wb, data) -> tuple[list[str], int, bool]:
    """A new fighter's runemarks, points and leadership: from its faction's profile, or
    as typed for a custom fighter. A fighter of a faction of the content bears the
    faction's runemark."""
    if data["profile"] is not None:
        runemarks, points, is_leader = _from_profile(state, wb, data)
    else:
        if data["runemarks"] is None or data["points"] is None:
            raise RuleViolation(
                _(
                    "a custom fighter needs its runemarks and points (%(fighter)s lacks its "
                    "runemarks); or add it from a profile of its faction",
                    fighter=data["name"],
                )
                if data["runemarks"] is None
                else _(
                    "a custom fighter needs its runemarks and points (%(fighter)s lacks its "
                    "points); or add it from a profile of its faction",
                    fighter=data["name"],
                )
            )
        runemarks, points, is_leader = list(data["runemarks"]), data["points"], data["leader"]
    if wb.get("faction_runemark"):
        runemarks.append(wb["faction_runemark"])
    return t.unique_marks(runemarks), points, is_leader


def _from_profile(state, wb, data) -> tuple[list[str], int, bool]:
    known_profiles = profiles(state, wb)
    profile = known_profiles.get(data["profile"])
    if profile is None:
        known = ", ".join(p["name"] for p in known_profiles.values()) or _("none")
        raise RuleViolation(
            _(
                "the %(faction)s faction has no fighter profile %(profile)r (its profiles: "
                "%(profiles)s)",
                faction=wb["faction"],
                profile=data["profile"],
                profiles=known,
            )
        )
    if data["runemarks"] is not None or data["points"] is not None:
        raise RuleViolation(
            _(
                "%(fighter)s comes from the %(profile)s profile, which gives its runemarks and "
                "points: leave them out, or add a custom fighter",
                fighter=data["name"],
                profile=localised(profile, "name"),
            )
        )
    runemarks = list(profile["runemarks"])
    if data["leader"] and not t.bears(runemarks, t.LEADER_RUNEMARK):
        raise RuleViolation(
            _(
                "the leader comes from a profile bearing the leader runemark, and the "
                "%(profile)s profile does not",
                profile=localised(profile, "name"),
            )
        )
    return runemarks, profile["points"], data["leader"] or t.bears(runemarks, t.LEADER_RUNEMARK)


@handlers.on("FighterRemoved")
def fighter_removed(state, event):
    data = event.data
    wb = warband(state, data["warband"])
    fighter = fighter_of(wb, data["fighter"])
    if wb["aftermath"] is not None:
        reach(state, wb, 4, lambda: _("removing %(fighter)s", fighter=fighter["name"]))
    if fighter["leader"]:
        raise RuleViolation(
            _(
                "the leader can never be removed (%(fighter)s leads %(warband)s)",
                fighter=fighter["name"],
                warband=wb["name"],
            )
        )
    count = len(wb["active"])
    if count - 1 < t.MIN_FIGHTERS:
        raise RuleViolation(
            _(
                "a warband holds at least %(least)s fighters (%(warband)s would have %(count)s)",
                least=t.MIN_FIGHTERS,
                warband=wb["name"],
                count=count - 1,
            )
        )
    if wb["aftermath"] is not None:
        _advance(state, wb, 4, event.version)
        wb["aftermath"]["report"]["fighters_removed"].append(data["fighter"])
    _lose_fighter(wb, data["fighter"], "removed")


# -- battles -----------------------------------------------------------------------------------


@handlers.on("BattleFought")
def battle_fought(state, event):
    data, version = event.data, event.version
    bid = data["battle"]
    if bid in state["battle_ids"]:
        raise RuleViolation(_("there is already a battle %(battle)r", battle=bid))
    sides = data["sides"]  # two: the schema says so
    ids = [sides[0]["warband"], sides[1]["warband"]]
    if ids[0] == ids[1]:
        raise RuleViolation(_("a warband cannot fight itself"))
    wbs = (warband(state, ids[0]), warband(state, ids[1]))
    leaders = [_check_side(state, wb, side) for wb, side in zip(wbs, sides, strict=True)]
    winner = data["winner"]
    if winner is not None and winner not in ids:
        raise RuleViolation(
            _("the winner must be one of the two warbands, not %(winner)r", winner=winner)
        )
    convergence = _convergence(state, wbs, data["convergence"])
    adversary = None
    if len(convergence) == 1:
        adversary = ids[1] if convergence[0] == ids[0] else ids[0]
    _muster(state, wbs, sides)

    fought = _new_battle(data, version, ids, convergence, adversary)
    for n in (0, 1):
        wb, side, enemy, enemy_side = wbs[n], sides[n], wbs[1 - n], sides[1 - n]
        fought["glory"][wb["id"]] = _battle_glory(
            wb, enemy, winner, enemy_side, leaders[1 - n], bid, version
        )
        destiny = _fought(wb, winner, enemy["id"], side["fighters"], side["taken_down"])
        lost_at_convergence = wb["id"] in convergence and winner not in (None, wb["id"])
        wb["aftermath"] = _new_aftermath(
            bid, side, destiny, wb["id"] == adversary, lost_at_convergence
        )
        fought["aftermath"][wb["id"]] = None  # filed when the aftermath ends
    state["battles"].append(fought)
    state["battle_ids"][bid] = None
    if len(state["battles"]) > 2 * KEPT_BATTLES:
        _archive(state, version)


def _check_side(state, wb, side) -> str:
    """Refuse a side that may not fight as listed; return its warband's leader."""
    if wb["aftermath"] is not None:
        still = owed(state, wb) or [_("the rest of its steps")]
        raise RuleViolation(
            _(
                "%(warband)s has not finished the aftermath of battle %(battle)s (step "
                "%(step)s: %(owed)s)",
                warband=wb["name"],
                battle=wb["aftermath"]["battle"],
                step=wb["aftermath"]["step"],
                owed=listed(still, "; "),
            )
        )
    active = wb["active"]
    its_leader = leader(wb)
    if len(active) < t.MIN_FIGHTERS or its_leader is None:
        words = (
            "a warband fights with its leader and at least %(least)s fighters; %(warband)s "
            "has %(count)s"
            if its_leader
            else "a warband fights with its leader and at least %(least)s fighters; "
            "%(warband)s has %(count)s and no leader"
        )
        raise RuleViolation(_(words, least=t.MIN_FIGHTERS, warband=wb["name"], count=len(active)))
    fielded, taken = side["fighters"], side["taken_down"]
    chosen = set(fielded)
    if len(chosen) != len(fielded):
        raise RuleViolation(_("a fighter of %(warband)s is listed twice", warband=wb["name"]))
    if len(fielded) > t.MAX_FIELDED:
        raise RuleViolation(
            _(
                "a battle fields at most %(most)s fighters of a warband (%(warband)s fielded "
                "%(count)s)",
                most=t.MAX_FIELDED,
                warband=wb["name"],
                count=len(fielded),
            )
        )
    if not chosen.issubset(active):  # `active` holds exactly the active fighters
        for fid in fielded:
            fighter_of(wb, fid)  # refuses the first one not active, in words
    if not chosen.issuperset(taken):
        outside = [fid for fid in taken if fid not in chosen]
        raise RuleViolation(
            _(
                "only fighters who took part can be taken down (%(fighters)s of %(warband)s "
                "did not fight)",
                fighters=", ".join(outside),
                warband=wb["name"],
            )
        )
    if len(set(taken)) != len(taken):
        raise RuleViolation(_("a fighter of %(warband)s is taken down twice", warband=wb["name"]))
    return its_leader


def _new_battle(data, version, ids, convergence, adversary) -> dict:
    sides = data["sides"]
    return {
        "id": data["battle"],
        "version": version,
        "warbands": ids,
        "winner": data["winner"],
        "convergence": convergence,
        "adversary": adversary,
        "scenario": data["scenario"],
        "notes": data["notes"],
        "sides": {
            side["warband"]: {"fighters": side["fighters"], "taken_down": side["taken_down"]}
            for side in sides
        },
        "glory": {},
        "aftermath": {},
    }


def _battle_glory(wb, enemy, winner, enemy_side, enemy_leader, bid, version) -> list[dict]:
    """The glory a warband earned in a battle, into its ledger; the battle's list of it."""
    enemy_taken = enemy_side["taken_down"]
    lines = t.battle_glory(
        won=winner == wb["id"],
        enemy_leader_down=enemy_leader in enemy_taken,
        enemy_down=len(enemy_taken),
        enemy_fielded=len(enemy_side["fighters"]),
        territory_gap=len(enemy["territories"]) - len(wb["territories"]),
    )
    out = []
    for amount, cause in lines:
        out.append({"amount": amount, "cause": cause})
        _glory(wb, amount, _("%(cause)s (battle %(battle)s)", cause=cause, battle=bid), version)
    return out


def _new_aftermath(bid, side, destiny, adversary, lost_at_convergence) -> dict:
    return {
        "battle": bid,
        "step": 1,
        "fielded": side["fighters"],
        "injuries": list(side["taken_down"]),
        "destiny": destiny,
        "searched": False,
        "extra_searched": False,
        # The Adversary of a convergence battle may search once more, for nothing.
        "adversary_search": adversary,
        "found": [],
        "perishable": [],
        "reward": None,
        "room_for": None,
        "lost_at_convergence": lost_at_convergence,
        "report": {
            "injuries": [],
            "destiny": [],
            "searches": [],
            "given": [],
            "perishable": [],
            "territories": [],
            "fighters_added": [],
            "fighters_removed": [],
            "map": None,
            "reward": None,
            "quest_reward": None,
        },
    }


def _fought(wb, winner, enemy_id, fielded, taken) -> list[str]:
    """A battle in the warband's record and its fighters' careers; the fighters who owe
    a destiny roll (those left standing, below the highest destiny)."""
    wb["battles"] += 1
    if winner is None:
        wb["draws"] += 1
    elif winner == wb["id"]:
        wb["wins"] += 1
    else:
        wb["losses"] += 1
    reinforcements = wb["reinforcements"]
    if reinforcements is not None and reinforcements["against"] == enemy_id:
        wb["reinforcements"] = None  # spent on this battle
    fighters, destiny = wb["fighters"], []
    for fid in fielded:
        fighter = fighters[fid]
        career = fighter["career"]
        career["battles"] += 1
        if fid in taken:
            career["taken_down"] += 1
        elif fighter["destiny"] < t.MAX_DESTINY:
            destiny.append(fid)
    return destiny


def _convergence(state, wbs, named) -> list[str]:
    """Whose convergence battle a battle is, from where the warbands stand.

    A warband on a convergence point fights its convergence battle, as the Aspirant, and
    its opponent is the Adversary. When both stand on one, both are Aspirants, unless
    the event names one of them (the winner of a roll-off for whose battle it is).
    """
    at = [wb["id"] for wb in wbs if convergence_point(state, wb) is not None]
    for wid in named:
        if wid not in (wbs[0]["id"], wbs[1]["id"]):
            raise RuleViolation(_("%(warband)r did not fight in this battle", warband=wid))
        if wid not in at:
            wb = state["warbands"][wid]
            point = quest_of(state, wb)["map"][wb["map_position"]]
            raise RuleViolation(
                _(
                    "%(warband)s is at %(point)s, not at a convergence point",
                    warband=wb["name"],
                    point=localised(point, "name"),
                )
            )
    if len(at) < 2 or not named:
        return at
    return [wid for wid in at if wid in named]


def _muster(state, wbs, sides):
    for wb, side, enemy in ((wbs[0], sides[0], wbs[1]), (wbs[1], sides[1], wbs[0])):
        fighters = wb["fighters"]
        points = sum(fighters[fid]["points"] or 0 for fid in side["fighters"])
        limit = muster_limit(state, wb, enemy["id"])
        if points > limit:
            raise RuleViolation(
                _(
                    "a warband musters at most %(limit)s points for this battle (%(warband)s "
                    "fielded %(points)s)",
                    limit=limit,
                    warband=wb["name"],
                    points=points,
                )
            )


@handlers.on("ReinforcementsBought")
def reinforcements_bought(state, event):
    data, version = event.data, event.version
    wb = warband(state, data["warband"])
    enemy = warband(state, data["against"])
    points = data["points"]
    if enemy is wb:
        raise RuleViolation(_("a warband buys reinforcements against another warband"))
    if wb["aftermath"] is not None:
        raise RuleViolation(
            _(
                "reinforcements are bought before mustering for a battle, and %(warband)s is "
                "in the aftermath of battle %(battle)s",
                warband=wb["name"],
                battle=wb["aftermath"]["battle"],
            )
        )
    if len(wb["territories"]) >= len(enemy["territories"]):
        raise RuleViolation(
            _(
                "only the warband with fewer territories buys reinforcements: %(warband)s "
                "holds %(held)s and %(enemy)s %(enemy_held)s",
                warband=wb["name"],
                held=len(wb["territories"]),
                enemy=enemy["name"],
                enemy_held=len(enemy["territories"]),
            )
        )
    cost = _reinforcement_price(state, points)
    bought = wb["reinforcements"]
    if bought is not None:
        if state["rules"] == t.FIRST_RULES:
            raise RuleViolation(
                _(
                    "%(warband)s has already bought reinforcements for its next battle",
                    warband=wb["name"],
                )
            )
        price = t.reinforcement_price(state["rules"], bought["points"])
        raise RuleViolation(
            _(
                "a warband spends at most %(most)s glory on reinforcements for a battle, in one "
                "purchase: %(warband)s has already bought %(points)s points for %(price)s "
                "glory for its next battle",
                most=t.MAX_REINFORCEMENT_GLORY,
                warband=wb["name"],
                points=bought["points"],
                price=price,
            )
        )
    _spend(wb, cost, _("%(points)s points of reinforcements", points=points))
    wb["reinforcements"] = {"against": enemy["id"], "points": points, "version": version}
    bought_words = _(
        "bought %(points)s points of reinforcements against %(enemy)s",
        points=points,
        enemy=enemy["name"],
    )
    _glory(wb, -cost, bought_words, version)


def _reinforcement_price(state, points) -> int:
    """The glory `points` of reinforcements cost, or a refusal saying what may be bought."""
    cost = t.reinforcement_price(state["rules"], points)
    if cost is not None:
        return cost
    if state["rules"] == t.FIRST_RULES:
        raise RuleViolation(
            _(
                "reinforcements come %(rate)s points for each glory",
                rate=t.REINFORCEMENT_POINTS_PER_GLORY,
            )
        )
    offers = [
        _("%(points)s points for %(glory)s glory", points=extra, glory=glory)
        for extra, glory in t.REINFORCEMENTS.items()
    ]
    raise RuleViolation(
        _(
            "reinforcements come as %(offers)s (at most %(most)s glory a battle), not "
            "%(points)s points",
            offers=_("%(first)s or %(second)s", first=offers[0], second=offers[1]),
            most=t.MAX_REINFORCEMENT_GLORY,
            points=points,
        )
    )


# -- the aftermath -----------------------------------------------------------------------------


@handlers.on("TerritoryConquered")
def territory_conquered(state, event):
    data, version = event.data, event.version
    wb = warband(state, data["warband"])
    territory = data["territory"]
    reach(state, wb, 1, _("conquering a territory"))
    if len(wb["territories"]) >= t.MAX_TERRITORIES:
        raise RuleViolation(
            _(
                "a warband holds at most %(most)s territories (%(warband)s already holds "
                "%(count)s)",
                most=t.MAX_TERRITORIES,
                warband=wb["name"],
                count=len(wb["territories"]),
            )
        )
    if territory in wb["territories"]:
        raise RuleViolation(
            _("%(warband)s already holds %(territory)s", warband=wb["name"], territory=territory)
        )
    _spend(wb, t.TERRITORY_PRICE, _("conquering %(territory)s", territory=territory))
    wb["territories"].append(territory)
    _glory(wb, -t.TERRITORY_PRICE, _("conquered %(territory)s", territory=territory), version)
    wb["aftermath"]["report"]["territories"].append(territory)


@handlers.on("AftermathStepCompleted")
def aftermath_step_completed(state, event):
    data, version = event.data, event.version
    wb = warband(state, data["warband"])
    step = data["step"]
    if step == 6:
        raise RuleViolation(
            _("step 6 (progress on the campaign map) passes by itself once step 5 is complete")
        )
    am = reach(state, wb, step, lambda: _("completing step %(step)s", step=step))
    if still := owed(state, wb, am):
        raise RuleViolation(
            _(
                "step %(step)s (%(title)s) is not complete: %(warband)s still owes %(owed)s",
                step=step,
                title=_(t.STEPS[step]),
                warband=wb["name"],
                owed=listed(still, "; "),
            )
        )
    _advance(state, wb, step, version)
    if step == 7:  # the warband declines the reward of its map point: the aftermath is over
        am = wb["aftermath"]
        am["report"]["reward"] = {"kind": am["reward"], "declined": True}
        _finish(state, wb)
        return
    _leave_step(state, wb, version)
    _settle(state, wb, version)


def _roll_for(state, data, step, owed_key, what) -> tuple[dict, dict, dict]:
    """The warband, fighter and aftermath (as it will stand at `step`) a roll is for,
    once its rules pass."""
    fid = data["fighter"]
    wb = warband(state, data["warband"])
    fighter = wb["fighters"].get(fid) or fighter_of(wb, fid)
    am = reach(state, wb, step, lambda: _(ROLLS[what][0], fighter=fighter["name"]))
    _same_battle(wb, am, data["battle"])
    if fid not in am[owed_key]:
        raise RuleViolation(
            _(
                ROLLS[what][1],
                fighter=fighter["name"],
                owed=names(wb["fighters"], am[owed_key]) or _("none"),
            )
        )
    return wb, fighter, am


# Each roll as a refusal names it: made for a fighter, and owed by one.
ROLLS = {
    "injury roll": (
        N_("injury roll for %(fighter)s"),
        N_("%(fighter)s owes no injury roll (owed: %(owed)s)"),
    ),
    "destiny roll": (
        N_("destiny roll for %(fighter)s"),
        N_("%(fighter)s owes no destiny roll (owed: %(owed)s)"),
    ),
    "perishable roll": (
        N_("perishable roll for %(fighter)s"),
        N_("%(fighter)s owes no perishable roll (owed: %(owed)s)"),
    ),
}


def _same_battle(wb, am, bid):
    if bid is not None and bid != am["battle"]:
        raise RuleViolation(
            _(
                "%(warband)s is in the aftermath of battle %(battle)s, not %(other)s",
                warband=wb["name"],
                battle=am["battle"],
                other=bid,
            )
        )


@handlers.on("InjuryRolled")
def injury_rolled(state, event):
    data, version = event.data, event.version
    fid, dice = data["fighter"], data["dice"]
    wb, fighter, _am = _roll_for(state, data, 2, "injuries", "injury roll")
    _advance(state, wb, 2, version)
    outcome = t.injury(dice, fighter["leader"])
    if outcome == t.KILLED:
        _lose_fighter(wb, fid, "dead")
    elif outcome == t.LOSES_FAVOUR:
        fighter["destiny"] = max(0, fighter["destiny"] - 1)
        fighter["career"]["favour_lost"] += 1
    entry = {"fighter": fid, "dice": dice, "outcome": outcome, "destiny": fighter["destiny"]}
    _rolled(state, wb, "injuries", entry, version)


@handlers.on("DestinyRolled")
def destiny_rolled(state, event):
    data, version = event.data, event.version
    fid, dice = data["fighter"], data["dice"]
    wb, fighter, _am = _roll_for(state, data, 3, "destiny", "destiny roll")
    _advance(state, wb, 3, version)
    gained = t.destiny_gained(dice)
    if gained:
        fighter["destiny"] = min(t.MAX_DESTINY, fighter["destiny"] + 1)
        fighter["career"]["destiny_gained"] += 1
    entry = {"fighter": fid, "dice": dice, "gained": gained, "destiny": fighter["destiny"]}
    _rolled(state, wb, "destiny", entry, version)


def _rolled(state, wb, owed_key, entry, version):
    """A roll owed in the aftermath's `owed_key` is made: off the list, into the report;
    once nobody owes one, the step passes by itself."""
    am = wb["aftermath"]
    still = am[owed_key]
    still.remove(entry["fighter"])
    am["report"][owed_key].append(entry)
    if not still:
        _settle(state, wb, version)


@handlers.on("PerishableRolled")
def perishable_rolled(state, event):
    data = event.data
    wb, fighter, _am = _roll_for(state, data, 5, "perishable", "perishable roll")
    artefact = fighter["lesser_artefact"]
    if (artefact or {}).get("kind") != "fragile":
        raise RuleViolation(
            _("%(fighter)s holds no fragile artefact to roll for", fighter=fighter["name"])
        )
    _advance(state, wb, 5, event.version)
    crumbles = t.perishable_crumbles(data["dice"])
    if crumbles:
        fighter["lesser_artefact"] = None
        fighter["dropped"] = artefact["name"]
    am = wb["aftermath"]
    am["perishable"].remove(data["fighter"])
    am["report"]["perishable"].append(
        {
            "fighter": data["fighter"],
            "dice": data["dice"],
            "artefact": artefact["name"],
            "crumbled": crumbles,
        }
    )


@handlers.on("SearchRolled")
def search_rolled(state, event):
    data, version = event.data, event.version
    wb = warband(state, data["warband"])
    am = reach(state, wb, 5, _("searching the battlefield"))
    _same_battle(wb, am, data["battle"])
    _check_search(wb, am, data)
    _advance(state, wb, 5, version)
    am = wb["aftermath"]
    if data["adversary"]:
        am["adversary_search"] = False
    elif data["extra"]:
        am["extra_searched"] = True
        bought = _("bought another search (battle %(battle)s)", battle=am["battle"])
        _glory(wb, -t.EXTRA_SEARCH_PRICE, bought, version)
    else:
        am["searched"] = True
    entry = t.search(state["content"]["lesser_artefacts"], data["dice"])
    found = None
    if entry is not None:
        found = {"name": entry["name"], "kind": entry["kind"], "effect": entry["effect"]}
        if entry.get("i18n"):
            found["i18n"] = entry["i18n"]
        if entry["kind"] != "instant":
            am["found"].append(found)
        elif entry.get("glory"):
            _glory(wb, entry["glory"], _("found %(artefact)s", artefact=localised(entry)), version)
    am["report"]["searches"].append(
        {
            "dice": data["dice"],
            "roll": t.d66(data["dice"]),
            "extra": data["extra"],
            "adversary": data["adversary"],
            "found": found,
        }
    )


def _check_search(wb, am, data):
    """Refuse a search the warband may not make now: one free search, one bought, and the
    Adversary's one more."""
    if data["adversary"]:
        if data["extra"]:
            raise RuleViolation(
                _(
                    "the Adversary's search after a convergence battle is free: it is not a "
                    "bought search"
                )
            )
        if not am["adversary_search"]:
            raise RuleViolation(
                _(
                    "only the Adversary of a convergence battle searches once more for nothing, "
                    "and %(warband)s was not the Adversary of battle %(battle)s",
                    warband=wb["name"],
                    battle=am["battle"],
                )
            )
    elif data["extra"]:
        if not am["searched"]:
            raise RuleViolation(
                _("%(warband)s searches once before buying another search", warband=wb["name"])
            )
        if am["extra_searched"]:
            raise RuleViolation(
                _(
                    "a warband may buy one more search after a battle, and %(warband)s has "
                    "bought it",
                    warband=wb["name"],
                )
            )
        _spend(wb, t.EXTRA_SEARCH_PRICE, _("another search"))
    elif am["searched"]:
        raise RuleViolation(
            _(
                "%(warband)s has searched the battlefield once; another search costs "
                "%(price)s glory (an extra search)",
                warband=wb["name"],
                price=t.EXTRA_SEARCH_PRICE,
            )
        )


# -- artefacts and rewards ---------------------------------------------------------------------


@handlers.on("ArtefactGiven")
def artefact_given(state, event):
    data, version = event.data, event.version
    wb = warband(state, data["warband"])
    am = reach(state, wb, 5, _("giving a found artefact"))
    name = data["artefact"]
    found = next((f for f in am["found"] if f["name"] == name), None)
    if found is None:
        pending = ", ".join(a["name"] for a in am["found"]) or _("nothing")
        raise RuleViolation(
            _(
                "%(warband)s found no %(artefact)s to give (waiting to be given: %(pending)s)",
                warband=wb["name"],
                artefact=name,
                pending=pending,
            )
        )
    fighter = fighter_of(wb, data["fighter"])
    held = fighter["lesser_artefact"]
    if held:
        raise RuleViolation(
            _(
                "a fighter holds at most one lesser artefact: %(fighter)s holds the "
                "%(artefact)s (discard it first)",
                fighter=fighter["name"],
                artefact=localised(held),
            )
        )
    _advance(state, wb, 5, version)
    am = wb["aftermath"]
    am["found"].remove(found)
    fighter["lesser_artefact"] = dict(found, since=version)
    fighter["career"]["finds"].append(found["name"])
    am["report"]["given"].append({"fighter": data["fighter"], "artefact": found["name"]})


def _artefact_gone(wb, fid):
    """A lesser artefact left its bearer: no perishable roll is owed for it any more."""
    am = wb["aftermath"]
    if am is not None and fid in am["perishable"]:
        am["perishable"].remove(fid)


@handlers.on("ArtefactUsed")
def artefact_used(state, event):
    data = event.data
    wb = warband(state, data["warband"])
    fighter = fighter_of(wb, data["fighter"])
    held = fighter["lesser_artefact"]
    if held is None:
        raise RuleViolation(
            _("%(fighter)s holds no lesser artefact to use", fighter=fighter["name"])
        )
    if held["kind"] != "single-use":
        raise RuleViolation(
            _(
                "only a single-use artefact is used up; the %(artefact)s is %(kind)s",
                artefact=localised(held),
                kind=_(t.KIND_WORDS.get(held["kind"], held["kind"])),
            )
        )
    _artefact_gone(wb, data["fighter"])
    fighter["lesser_artefact"] = None
    fighter["dropped"] = held["name"]


@handlers.on("ArtefactDiscarded")
def artefact_discarded(state, event):
    data = event.data
    wb = warband(state, data["warband"])
    fighter = fighter_of(wb, data["fighter"])
    lesser = data["discarded"] == "lesser"
    key = "lesser_artefact" if lesser else "artefact_of_power"
    if fighter[key] is None:
        words = (
            _("%(fighter)s holds no lesser artefact to discard", fighter=fighter["name"])
            if lesser
            else _("%(fighter)s holds no artefact of power to discard", fighter=fighter["name"])
        )
        raise RuleViolation(words)
    if lesser:
        _artefact_gone(wb, data["fighter"])
    fighter["dropped"] = fighter[key]["name"]
    fighter[key] = None


@handlers.on("ArtefactPassed")
def artefact_passed(state, event):
    data = event.data
    wb = warband(state, data["warband"])
    giver = fighter_of(wb, data["giver"])
    receiver = fighter_of(wb, data["receiver"])
    if data["artefact"] == "lesser":
        raise RuleViolation(
            _(
                "fighters cannot pass lesser artefacts to each other; only an artefact of "
                "power may be passed"
            )
        )
    if data["giver"] == data["receiver"]:
        raise RuleViolation(_("a fighter cannot pass an artefact to itself"))
    if giver["artefact_of_power"] is None:
        raise RuleViolation(
            _("%(fighter)s holds no artefact of power to pass", fighter=giver["name"])
        )
    _has_room(receiver)
    am = wb["aftermath"]
    if am is None or am["step"] > 7 or (am["step"] == 7 and am["reward"] != "artefact"):
        raise RuleViolation(
            _(
                "an artefact of power is passed between fighters only to make room for a new "
                "one, and %(warband)s is gaining none now",
                warband=wb["name"],
            )
        )
    _reward(state, wb, "artefact", _("passing an artefact of power"))
    _advance(state, wb, 7, event.version)
    wb["aftermath"]["room_for"] = data["giver"]
    receiver["artefact_of_power"], giver["artefact_of_power"] = giver["artefact_of_power"], None


def _has_room(receiver):
    if receiver["artefact_of_power"] is not None:
        raise RuleViolation(
            _(
                "a fighter holds at most one artefact of power: %(fighter)s holds the %(artefact)s",
                fighter=receiver["name"],
                artefact=localised(receiver["artefact_of_power"]),
            )
        )


def _reward(state, wb, kind, what) -> tuple[dict, dict]:
    """The quest and the aftermath (at step 7) of a reward of `kind` the warband may take."""
    am = reach(state, wb, 7, what)
    if am["reward"] != kind:
        rewards = {"artefact": _("an artefact of power"), "trait": _("a command trait")}
        raise RuleViolation(
            _(
                "%(warband)s reached a point that gives %(gives)s, not %(wanted)s",
                warband=wb["name"],
                gives=rewards.get(am["reward"], _("nothing")),
                wanted=rewards[kind],
            )
        )
    return quest_of(state, wb), am


@handlers.on("ArtefactOfPowerGained")
def artefact_of_power_gained(state, event):
    data, version = event.data, event.version
    wb = warband(state, data["warband"])
    quest, am = _reward(state, wb, "artefact", _("gaining an artefact of power"))
    table = {a["id"]: a for a in quest["artefacts_of_power"]}
    artefact = table.get(data["artefact"])
    if artefact is None:
        raise RuleViolation(
            _(
                "the quest %(quest)s has no artefact of power %(artefact)r (it has: %(known)s)",
                quest=localised(quest, "title"),
                artefact=data["artefact"],
                known=", ".join(table),
            )
        )
    fighter = fighter_of(wb, data["fighter"])
    receiver = _check_new_artefact(wb, am, fighter, artefact, data)
    _advance(state, wb, 7, version)
    if receiver is not None:
        receiver["artefact_of_power"] = fighter["artefact_of_power"]
    fighter["artefact_of_power"] = dict(artefact, since=version)
    fighter["career"]["finds"].append(artefact["name"])
    wb["aftermath"]["report"]["reward"] = {
        "kind": "artefact",
        "name": localised(artefact),
        "fighter": data["fighter"],
    }
    _finish(state, wb)


def _check_new_artefact(wb, am, fighter, artefact, data) -> dict | None:
    """Refuse an artefact of power the fighter may not take; return the fighter who takes
    its old one to make room, if any."""
    fighters = wb["fighters"]
    for fid in wb["active"]:  # the dead and removed hold nothing (`_lose_fighter`)
        held = fighters[fid]["artefact_of_power"]
        if held is not None and held.get("id") == artefact["id"]:
            raise RuleViolation(
                _(
                    "%(fighter)s already holds the %(artefact)s",
                    fighter=fighters[fid]["name"],
                    artefact=localised(artefact),
                )
            )
    check_made_room(wb, am, data["fighter"], localised(artefact))
    if data["pass_to"] is not None:
        return _room(wb, fighter, data["pass_to"])
    if fighter["artefact_of_power"] is not None:
        raise RuleViolation(
            _(
                "a fighter holds at most one artefact of power: %(fighter)s holds the "
                "%(artefact)s (pass it to make room, or discard it first)",
                fighter=fighter["name"],
                artefact=localised(fighter["artefact_of_power"]),
            )
        )
    return None


def check_made_room(wb, am, fid, artefact_name=None):
    """Refuse the new artefact of power for any fighter but the one who made room for it."""
    room_for = am.get("room_for") if am else None
    if room_for is not None and room_for != fid:
        name = wb["fighters"][room_for]["name"]
        raise RuleViolation(
            _(
                "%(fighter)s passed on an artefact of power to make room for the new one: "
                "the %(artefact)s goes to %(fighter)s",
                fighter=name,
                artefact=artefact_name or _("new artefact of power"),
            )
        )


def _room(wb, fighter, pass_to) -> dict:
    """The fighter who takes `fighter`'s artefact of power to make room for a new one."""
    receiver = fighter_of(wb, pass_to)
    if fighter["artefact_of_power"] is None:
        raise RuleViolation(
            _(
                "%(fighter)s holds no artefact of power to pass: there is room already",
                fighter=fighter["name"],
            )
        )
    if receiver is fighter:
        raise RuleViolation(_("a fighter cannot pass an artefact to itself"))
    _has_room(receiver)
    return receiver


@handlers.on("CommandTraitGained")
def command_trait_gained(state, event):
    data, version = event.data, event.version
    wb = warband(state, data["warband"])
    quest, _am = _reward(state, wb, "trait", _("gaining a command trait"))
    table = {c["id"]: c for c in quest["command_traits"]}
    trait = table.get(data["trait"])
    if trait is None:
        raise RuleViolation(
            _(
                "the quest %(quest)s has no command trait %(trait)r (it has: %(known)s)",
                quest=localised(quest, "title"),
                trait=data["trait"],
                known=", ".join(table),
            )
        )
    for other in wb["fighters"].values():
        if other["status"] == "active" and (other["command_trait"] or {}).get("id") == trait["id"]:
            raise RuleViolation(
                _(
                    "%(fighter)s already has the trait %(trait)s",
                    fighter=other["name"],
                    trait=localised(trait),
                )
            )
    leader_id = leader(wb)
    target = trait_bearer(wb, leader_id, data["fighter"])
    _advance(state, wb, 7, version)
    if target != leader_id:
        previous = wb["favoured"]
        if previous and previous != target:
            wb["fighters"][previous]["favoured"] = False
            wb["fighters"][previous]["command_trait"] = None
        wb["fighters"][target]["favoured"] = True
        wb["favoured"] = target
    wb["fighters"][target]["command_trait"] = dict(trait, since=version)
    wb["aftermath"]["report"]["reward"] = {
        "kind": "trait",
        "name": localised(trait),
        "fighter": target,
        "favoured": target != leader_id,
    }
    _finish(state, wb)


def trait_bearer(wb, leader_id, named) -> str:
    """Who takes a new command trait: the leader while it has none, else the favoured
    warrior the event names."""
    its_leader = wb["fighters"][leader_id]
    if its_leader["command_trait"] is None:
        if named not in (None, leader_id):
            raise RuleViolation(
                _(
                    "a command trait belongs to the leader while the leader has none: it goes "
                    "to %(leader)s",
                    leader=its_leader["name"],
                )
            )
        return leader_id
    if named is None:
        raise RuleViolation(
            _(
                "the leader %(leader)s already has a command trait: name a favoured warrior to "
                "take this one",
                leader=its_leader["name"],
            )
        )
    if named == leader_id:
        raise RuleViolation(
            _(
                "the leader holds at most one command trait; %(leader)s has %(trait)s",
                leader=its_leader["name"],
                trait=localised(its_leader["command_trait"]),
            )
        )
    fighter_of(wb, named)
    return named


def quest_refused(state, wid: str, qid: str):
    """Why warband `wid` may not begin the quest `qid` now, in words; None when it may. The
    rule of `QuestBegun`, asked by it and by the dashboard's list of quests to begin."""
    wb = warband(state, wid)
    quest = state["content"]["quests"].get(qid)
    if quest is None:
        return _("there is no quest %(quest)r in this campaign", quest=qid)
    if wb["aftermath"] is not None:
        return _(
            "%(warband)s begins a new quest after the aftermath of battle %(battle)s",
            warband=wb["name"],
            battle=wb["aftermath"]["battle"],
        )
    if not wb["quest_complete"]:
        return _(
            "%(warband)s begins a new quest only once its quest is complete (it is at "
            "point %(point)s of 12)",
            warband=wb["name"],
            point=wb["map_position"] + 1,
        )
    if state["rules"] != t.FIRST_RULES and qid in (*wb["quests_completed"], wb["quest"]):
        return _(
            "a warband never begins again a quest it has completed: %(warband)s has "
            "completed %(quest)s",
            warband=wb["name"],
            quest=localised(quest, "title"),
        )
    lacking = [
        wb["fighters"][fid]["name"]
        for fid in wb["active"]
        if not t.bears(wb["fighters"][fid]["runemarks"], quest["runemark"])
    ]
    if lacking:
        return _(
            "every fighter bears the runemark of the warband's quest (%(runemark)s); "
            "%(fighters)s do not",
            runemark=quest["runemark"],
            fighters=", ".join(lacking),
        )
    return None


@handlers.on("QuestBegun")
def quest_begun(state, event):
    data = event.data
    refused = quest_refused(state, data["warband"], data["quest"])
    if refused is not None:
        raise RuleViolation(refused)
    wb = warband(state, data["warband"])
    quest = state["content"]["quests"][data["quest"]]
    published = state["rules"] != t.FIRST_RULES
    wb["quests_completed"].append(wb["quest"])
    wb["quest"], wb["runemark"] = data["quest"], quest["runemark"]
    wb["map_position"], wb["quest_complete"] = 0, False
    if published:
        # The published rules: the warband keeps its faction and roster, and sets out on the
        # new quest with no territories and no glory.
        wb["territories"] = []
        if wb["glory"]:
            began = _("began the quest %(quest)s", quest=localised(quest, "title"))
            _glory(wb, -wb["glory"], began, event.version)


# -- a slip put right ---------------------------------------------------------------------------


@handlers.on("FighterCorrected")
def fighter_corrected(state, event):
    data = event.data
    wb = warband(state, data["warband"])
    fighter = fighter_of(wb, data["fighter"], active=False)
    name, points = data["name"], data["points"]
    if name is None and points is None:
        raise RuleViolation(
            _(
                "a correction gives %(fighter)s's right name or points (or both)",
                fighter=fighter["name"],
            )
        )
    if points is not None and fighter["profile"] is not None and points != fighter["points"]:
        profile = profiles(state, wb).get(fighter["profile"], {})
        raise RuleViolation(
            _(
                "%(fighter)s comes from the %(profile)s profile, which gives its points "
                "(%(points)s): they cannot be corrected",
                fighter=fighter["name"],
                profile=localised(profile) or fighter["profile"],
                points=fighter["points"],
            )
        )
    if (name is None or name == fighter["name"]) and (
        points is None or points == fighter["points"]
    ):
        raise RuleViolation(
            _("%(fighter)s already has that name and those points", fighter=fighter["name"])
        )
    fighter["was"] = {"name": fighter["name"], "points": fighter["points"]}
    if name is not None:
        fighter["name"] = name
    if points is not None:
        fighter["points"] = points


# -- the campaign's own content: imported fighter data and homebrew ---------------------------
#
# The content is shared by every copy of a state (docs/systems.md): these handlers never
# change it in place. Each puts a changed copy of the part it changes into a copy of the
# content, so a state folded before the event still holds the content as it stood.


def _content_part(state, key) -> dict:
    """A copy of the content's `key` (a dict) in a new copy of the content, to change."""
    content = dict(state["content"])
    part = content[key] = dict(content.get(key) or {})
    state["content"] = content
    return part


def content_faction(state, fid) -> dict:
    found = (state["content"].get("factions") or {}).get(fid)
    if found is None:
        known = ", ".join(state["content"].get("factions") or {}) or _("none")
        raise RuleViolation(
            _(
                "there is no faction %(faction)r in this campaign (there are: %(known)s)",
                faction=fid,
                known=known,
            )
        )
    return found


def _profile(data) -> dict:
    """A profile as the content keeps it: the stat line only where it was given."""
    keys = ("name", "runemarks", "points", "movement", "toughness", "wounds", "weapons")
    profile = {key: data[key] for key in keys if data.get(key) not in (None, [])}
    profile["runemarks"] = t.unique_marks(data["runemarks"])
    if data.get("subfaction"):
        profile["subfaction"] = data["subfaction"]
    return profile


@handlers.on("FactionsImported")
def factions_imported(state, event):
    factions = event.data["factions"]
    for body in factions.values():
        check_ranges(body["name"], body["profiles"])
    known = _content_part(state, "factions")
    for fid, body in factions.items():
        old = known.get(fid) or {}
        profiles_ = dict(old.get("profiles") or {})
        profiles_.update((pid, _profile(p)) for pid, p in body["profiles"].items())
        faction = {key: body[key] for key in ("name", "runemark", "summary", "grand_alliance")}
        known[fid] = dict(_own_words(old), **faction, profiles=profiles_)


def check_ranges(faction_name, profiles_) -> None:
    for profile in profiles_.values():
        for weapon in profile.get("weapons") or []:
            if weapon["min_range"] > weapon["max_range"]:
                raise RuleViolation(
                    _(
                        "a weapon of %(profile)s (%(faction)s) reaches from %(least)s to "
                        "%(most)s inches: the least range comes first",
                        profile=profile["name"],
                        faction=faction_name,
                        least=weapon["min_range"],
                        most=weapon["max_range"],
                    )
                )


@handlers.on("FactionDefined")
def faction_defined(state, event):
    data = event.data
    for other_id, other in (state["content"].get("factions") or {}).items():
        if other_id != data["faction"] and t.mark(other["name"]) == t.mark(data["name"]):
            raise RuleViolation(
                _("there is already a faction called %(faction)s", faction=other["name"])
            )
    known = _content_part(state, "factions")
    old = known.get(data["faction"]) or {"profiles": {}}
    known[data["faction"]] = dict(
        _own_words(old), name=data["name"], runemark=data["runemark"], summary=data["summary"]
    )


def _own_words(entry: dict) -> dict:
    """An entry of the content without the pack's versions of its words in other languages:
    the organiser's words replace the pack's, and its versions would tell the old ones."""
    return {key: value for key, value in entry.items() if key != "i18n"}


@handlers.on("ProfileDefined")
def profile_defined(state, event):
    data = event.data
    faction = content_faction(state, data["faction"])
    check_ranges(faction["name"], {data["profile"]: data})
    known = _content_part(state, "factions")
    known[data["faction"]] = dict(
        faction, profiles={**faction["profiles"], data["profile"]: _profile(data)}
    )


@handlers.on("ArtefactDefined")
def artefact_defined(state, event):
    data = event.data
    quest = state["content"]["quests"].get(data["quest"])
    if quest is None:
        raise RuleViolation(_("there is no quest %(quest)r in this campaign", quest=data["quest"]))
    artefact = {"id": data["artefact"], "name": data["name"], "effect": data["effect"]}
    table = [a for a in quest["artefacts_of_power"] if a["id"] != data["artefact"]]
    _content_part(state, "quests")[data["quest"]] = dict(
        quest, artefacts_of_power=[*table, artefact]
    )


@handlers.on("TerritoryDefined")
def territory_defined(state, event):
    data = event.data
    _content_part(state, "territories")[data["territory"]] = {
        "name": data["name"],
        "effect": data["effect"],
    }


@handlers.on("QuestDefined")
def quest_defined(state, event):
    data = event.data
    quest = {key: value for key, value in data.items() if key != "quest"}
    t.check_quest(data["quest"], quest)
    for wb in state["warbands"].values():
        if wb["quest"] == data["quest"] and not t.mark(wb["runemark"]) == t.mark(data["runemark"]):
            raise RuleViolation(
                _(
                    "%(warband)s follows the quest %(quest)r: its runemark stays %(runemark)s",
                    warband=wb["name"],
                    quest=data["quest"],
                    runemark=wb["runemark"],
                )
            )
    _content_part(state, "quests")[data["quest"]] = quest
