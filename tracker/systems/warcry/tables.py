"""The Warcry campaign's tables: glory, injury, destiny, perishable artefacts, the search.

Pure functions of the dice and the facts of a battle; the fold in rules.py calls them.
"""

from __future__ import annotations

from tracker.errors import RuleViolation
from tracker.systems.i18n import N_, _, listed, ngettext

# Where each number comes from is said in docs/events/warcry.md ("Where the numbers come
# from"): the source (seed 003) first, the published first-edition campaign rules where it
# is silent.
MAX_FIGHTERS = 20
MIN_FIGHTERS = 3
MAX_FIELDED = 15
MAX_TERRITORIES = 6
MAX_DESTINY = 3
TERRITORY_PRICE = 10
EXTRA_SEARCH_PRICE = 3
LEADER_RUNEMARK = "leader"
MUSTER_POINTS = 1000
TERRITORY_POINTS = 50

# The rules a campaign follows: `CampaignStarted.settings.rules`. The tracker once followed
# its own choices where the published rules differ (reinforcements at 10 points a glory; a
# new quest keeping glory and territories, and any quest begun again); a campaign begun
# then names no rules and folds by those, the first, for ever. A new campaign follows
# today's: the published reinforcements and new quest.
FIRST_RULES = 1
PUBLISHED_RULES = 2
RULES = (FIRST_RULES, PUBLISHED_RULES)
CURRENT_RULES = PUBLISHED_RULES

# Reinforcements, bought before mustering by the warband holding fewer territories. The
# first rules: 10 points for each glory. The published rules: the points bought -> their
# glory, one purchase a battle, so at most 3 glory.
REINFORCEMENT_POINTS_PER_GLORY = 10
REINFORCEMENTS = {50: 1, 100: 3}
MAX_REINFORCEMENT_GLORY = 3


def reinforcement_price(rules: int, points: int) -> int | None:
    """The glory `points` of reinforcements cost under `rules`, or None when they cannot be
    bought so."""
    if rules == FIRST_RULES:
        rate = REINFORCEMENT_POINTS_PER_GLORY
        return None if points % rate else points // rate
    return REINFORCEMENTS.get(points)


def mark(runemark: str) -> str:
    """A runemark as rules compare it: "Leader" and "leader" are one runemark."""
    return runemark.strip().casefold()


def bears(runemarks, runemark: str) -> bool:
    wanted = mark(runemark)
    return any(mark(r) == wanted for r in runemarks)


def unique_marks(runemarks) -> list[str]:
    """Runemarks once each, whatever their case, in the spelling first given."""
    seen, out = set(), []
    for runemark in runemarks:
        key = mark(runemark)
        if key and key not in seen:
            seen.add(key)
            out.append(runemark.strip())
    return out


def muster_limit(territories: int, reinforcements: int = 0) -> int:
    """The points a warband may field in a battle."""
    return MUSTER_POINTS + TERRITORY_POINTS * territories + reinforcements


# Each step's title, translated where it is shown: `_(STEPS[n])`.
STEPS = {
    1: N_("earning and spending glory"),
    2: N_("injury rolls"),
    3: N_("destiny levels"),
    4: N_("adding and removing fighters"),
    5: N_("searching for lesser artefacts"),
    6: N_("progress on the campaign map"),
    7: N_("artefacts of power and command traits"),
}

KILLED, LOSES_FAVOUR, RECOVERS = "killed", "loses favour", "recovers"
# The injury table: each row's lowest and highest 2D6 total, and its outcome (a leader who
# would be killed loses favour instead).
INJURY_TABLE = ((2, 3, KILLED), (4, 5, LOSES_FAVOUR), (6, 12, RECOVERS))
# The only D6 that gains a destiny level.
DESTINY_NOTICED = 6
# The highest D6 on which a fragile artefact crumbles.
PERISHABLE_CRUMBLES = 3


def injury(dice: list[int], leader: bool) -> str:
    """The injury table's outcome for a 2D6 roll."""
    total = dice[0] + dice[1]
    for _lowest, highest, outcome in INJURY_TABLE:
        if total <= highest:
            return LOSES_FAVOUR if leader and outcome == KILLED else outcome
    return RECOVERS


def destiny_gained(dice: list[int]) -> bool:
    """Do the gods notice? Only a 6 gains a destiny level."""
    return dice[0] == DESTINY_NOTICED


def perishable_crumbles(dice: list[int]) -> bool:
    """A fragile artefact crumbles on 1-3 and keeps working on 4-6."""
    return dice[0] <= PERISHABLE_CRUMBLES


def thirds(taken_down: int, fielded: int) -> int:
    """Glory for each full third of the enemy's fighters taken down: floor(3k / n)."""
    return (3 * taken_down) // fielded if fielded else 0


def battle_glory(
    won: bool, enemy_leader_down: bool, enemy_down: int, enemy_fielded: int, territory_gap: int
) -> list[tuple[int, str]]:
    """Glory a warband earns from one battle, line by line, as (amount, cause)."""
    lines = [(3, _("played the battle"))]
    if won:
        lines.append((2, _("won the battle")))
    if enemy_leader_down:
        lines.append((1, _("took down the enemy leader")))
    third = thirds(enemy_down, enemy_fielded)
    if third:
        lines.append(
            (
                third,
                ngettext(
                    "took down %(down)s of %(fielded)s enemy fighters (%(num)d third)",
                    "took down %(down)s of %(fielded)s enemy fighters (%(num)d thirds)",
                    third,
                    down=enemy_down,
                    fielded=enemy_fielded,
                ),
            )
        )
    if territory_gap >= 2:
        lines.append((1, _("the enemy holds %(gap)s more territories", gap=territory_gap)))
    return lines


def d66(dice: list[int]) -> int:
    return dice[0] * 10 + dice[1]


def search(table: list[dict], dice: list[int]) -> dict | None:
    """The lesser artefact a D66 search finds in the campaign's table, or None for nothing."""
    value = d66(dice)
    for entry in table:
        # The upper bound first: in a table in order, that alone passes over the rows before.
        if value <= entry["to"] and entry["from"] <= value:
            return entry if entry.get("find", True) else None
    return None


KINDS = ("permanent", "single-use", "fragile", "instant")
POINT_KINDS = ("start", "plain", "convergence", "artefact", "trait", "goal")
# The kinds as a page or a sentence says them: `_(KIND_WORDS[kind])`.
KIND_WORDS = {
    "permanent": N_("permanent"),
    "single-use": N_("single-use"),
    "fragile": N_("fragile"),
    "instant": N_("instant"),
}
POINT_WORDS = {
    "start": N_("start"),
    "plain": N_("plain"),
    "convergence": N_("convergence"),
    "artefact": N_("artefact"),
    "trait": N_("trait"),
    "goal": N_("goal"),
}


def check_content(content: dict, quest: str) -> None:
    """Refuse content a campaign cannot be played with, in plain words."""
    table = content.get("lesser_artefacts")
    quests = content.get("quests")
    if not isinstance(table, list) or not isinstance(quests, dict) or not quests:
        raise RuleViolation(_("the content needs a lesser artefact table and at least one quest"))
    seen = {}
    for entry in table:
        needed = ("from", "to", "name", "effect") if entry.get("find", True) else ("from", "to")
        for key in needed:
            if key not in entry:
                raise RuleViolation(
                    _(
                        "a lesser artefact entry lacks its %(key)r: %(entry)s",
                        key=key,
                        entry=str(entry),
                    )
                )
        if entry.get("find", True) and entry.get("kind") not in KINDS:
            raise RuleViolation(
                _(
                    "the artefact %(artefact)r has no kind among %(kinds)s",
                    artefact=entry["name"],
                    kinds=", ".join(KINDS),
                )
            )
        for value in range(entry["from"], entry["to"] + 1):
            if 1 <= value // 10 <= 6 and 1 <= value % 10 <= 6:
                if value in seen:
                    raise RuleViolation(
                        _(
                            "the search result %(value)s is both %(first)r and %(second)r",
                            value=value,
                            first=seen[value],
                            second=entry.get("name", "nothing"),
                        )
                    )
                seen[value] = entry.get("name", "nothing")
    missing = [t * 10 + u for t in range(1, 7) for u in range(1, 7) if t * 10 + u not in seen]
    if missing:
        raise RuleViolation(
            _(
                "the lesser artefact table gives nothing for the D66 results %(results)s",
                results=", ".join(map(str, missing)),
            )
        )
    for quest_id, body in quests.items():
        check_quest(quest_id, body)
    for faction_id, body in (content.get("factions") or {}).items():
        check_faction(faction_id, body)
    if quest not in quests:
        raise RuleViolation(
            _(
                "the content has no quest %(quest)r (it has: %(quests)s)",
                quest=quest,
                quests=", ".join(quests),
            )
        )


def check_quest(quest_id: str, quest: dict) -> None:
    points = quest.get("map") or []
    kinds = [p.get("kind") for p in points]
    problems = []
    if len(points) != 12:
        problems.append(_("its map has %(count)s points, not 12", count=len(points)))
    if any(k not in POINT_KINDS for k in kinds):
        problems.append(_("a map point has an unknown kind"))
    if kinds[:1] != ["start"] or kinds[-1:] != ["goal"]:
        problems.append(_("its map must begin at a start and end at the goal"))
    if kinds.count("convergence") != 3:
        problems.append(
            _(
                "its map has %(count)s convergence points, not 3",
                count=kinds.count("convergence"),
            )
        )
    if not quest.get("runemark"):
        problems.append(_("it has no runemark"))
    if not quest.get("artefacts_of_power") or not quest.get("command_traits"):
        problems.append(_("it needs a table of artefacts of power and one of command traits"))
    if problems:
        raise RuleViolation(
            _(
                "the quest %(quest)r cannot be played: %(problems)s",
                quest=quest_id,
                problems=listed(problems, "; "),
            )
        )


def check_faction(faction_id: str, faction: dict) -> None:
    problems = []
    if not isinstance(faction, dict) or not faction.get("name"):
        raise RuleViolation(_("the faction %(faction)r has no name", faction=faction_id))
    profiles = faction.get("profiles")
    if not isinstance(profiles, dict) or not profiles:
        problems.append(_("it has no fighter profiles"))
    else:
        for pid, profile in profiles.items():
            marks = profile.get("runemarks")
            points = profile.get("points")
            if not profile.get("name") or not isinstance(marks, list) or not marks:
                problems.append(
                    _("its profile %(profile)r needs a name and runemarks", profile=pid)
                )
            elif type(points) is not int or not 0 <= points <= 1000:
                problems.append(
                    _("its profile %(profile)r needs points from 0 to 1000", profile=pid)
                )
    if problems:
        raise RuleViolation(
            _(
                "the faction %(faction)r cannot be played: %(problems)s",
                faction=faction["name"],
                problems=listed(problems, "; "),
            )
        )
