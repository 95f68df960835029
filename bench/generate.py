"""Synthetic Warcry campaigns that are legal by construction: every event is folded as it is made.

A driver plays many pairs of warbands through battles and the whole seven-step aftermath with
a SeededRoller, asking the rules (``Warcry.owed`` and the state) what is owed next. Each event
is validated by its schema and applied with ``system.apply`` before it is written, so a line
that broke a rule would stop the generator at once.

The campaigns are played under the first rules (`tables.FIRST_RULES`), where a warband whose
quest is complete begins its quest again: six warbands play on for a million events on the
sample's quests, and every size is the campaign the bench measured from its first run, so
its figures compare from run to run (bench/HISTORY.md). Under today's rules a warband never
begins again a quest it has completed, and would run out of quests.
"""

from __future__ import annotations

import json
from pathlib import Path

from tracker import systems
from tracker.dice import SeededRoller
from tracker.events import Event
from tracker.systems.warcry import rules
from tracker.systems.warcry import tables as t

SYSTEM = systems.get("warcry")
WARBANDS = 6  # the same six warbands at every size: a page shows one, whatever the history


def _meta(actor: str, data: dict) -> dict:
    return {"actor": actor, "source": "table-roll" if "dice" in data else "form"}


class Driver:
    """Plays one campaign, event by event, and yields each event as (type, data, meta)."""

    def __init__(self, campaign: str, seed: int):
        self.campaign = campaign
        self.roll = SeededRoller(seed)
        self.rng = self.roll._rng
        self.version = 0
        self.state = None
        self.next_fighter = 0
        self.battles = 0

    def _emit(self, type_, data, actor="gm"):
        if type_ in SYSTEM.events:
            data = SYSTEM.load(type_, data)
        self.version += 1
        event = Event(None, self.campaign, self.version, type_, data, None, None, None)
        if type_ == "CampaignStarted":
            self.state = SYSTEM.initial_state(data["settings"])
        else:
            self.state = SYSTEM.apply(self.state, event)
        return type_, data, _meta(actor, data)

    def d(self, sides=6):
        return self.roll.die(sides)

    def events(self):
        settings = SYSTEM.load_settings(
            SYSTEM.prepare_settings({"pack": "sample", "rules": t.FIRST_RULES})
        )
        yield self._emit(
            "CampaignStarted",
            {"system": "warcry", "name": f"Bench {self.campaign}", "settings": settings},
        )
        for w in range(WARBANDS):
            wid = f"wb{w}"
            yield self._emit(
                "WarbandFounded",
                {
                    "warband": wid,
                    "name": f"Warband {w}",
                    "player": f"Player {w}",
                    "faction": f"F{w}",
                },
                wid,
            )
            for i in range(8):
                yield from self._add(wid, leader=i == 0)
        while True:
            a, b = self.rng.sample(range(WARBANDS), 2)
            yield from self._battle(f"wb{a}", f"wb{b}")

    def _add(self, wid, leader=False):
        self.next_fighter += 1
        fid = f"f{self.next_fighter}"
        yield self._emit(
            "FighterAdded",
            {
                "warband": wid,
                "fighter": fid,
                "name": f"Fighter {self.next_fighter}",
                "runemarks": ["ember"],
                "leader": leader,
                "points": 100 + self.d(100),
            },
            wid,
        )

    def _battle(self, a, b):
        warbands = self.state["warbands"]
        for wid in (a, b):
            wb = warbands[wid]
            if wb["quest_complete"]:
                yield self._emit("QuestBegun", {"warband": wid, "quest": wb["quest"]}, wid)
        self.battles += 1
        sides, convergence = [], []
        for wid in (a, b):
            wb = warbands[wid]
            active = wb["active"]
            self.rng.shuffle(active)
            fielded = active[: t.MAX_FIELDED]
            leader = rules.leader(wb)
            if leader not in fielded:
                fielded[-1] = leader
            limit = SYSTEM.views.muster_limit(self.state, wb, b if wid == a else a)
            while sum(wb["fighters"][f]["points"] for f in fielded) > limit:
                fielded.remove(next(f for f in reversed(fielded) if f != leader))
            down = self.rng.sample(fielded, min(len(fielded), self.rng.randint(0, 3)))
            sides.append({"warband": wid, "fighters": fielded, "taken_down": down})
            point = rules.quest_of(self.state, wb)["map"][wb["map_position"]]
            if point["kind"] == "convergence" and not wb["quest_complete"]:
                convergence.append(wid)
        winner = self.rng.choice([a, b, a, b, None])
        yield self._emit(
            "BattleFought",
            {
                "battle": f"b{self.battles}",
                "sides": sides,
                "winner": winner,
                "convergence": convergence,
            },
        )
        for wid in (a, b):
            yield from self._aftermath(wid)

    def _aftermath(self, wid):
        wb = self.state["warbands"][wid]
        while wb["aftermath"] is not None:
            am = wb["aftermath"]
            step = am["step"]
            if step == 1:
                if (
                    wb["glory"] >= t.TERRITORY_PRICE + 5
                    and len(wb["territories"]) < t.MAX_TERRITORIES
                    and self.rng.random() < 0.3
                ):
                    name = f"Territory {len(wb['territories']) + 1}"
                    yield self._emit("TerritoryConquered", {"warband": wid, "territory": name}, wid)
                yield self._emit("AftermathStepCompleted", {"warband": wid, "step": 1}, wid)
            elif step == 2:
                fid = am["injuries"][0]
                yield self._emit(
                    "InjuryRolled",
                    {"warband": wid, "fighter": fid, "dice": [self.d(), self.d()]},
                    wid,
                )
            elif step == 3:
                fid = am["destiny"][0]
                yield self._emit(
                    "DestinyRolled", {"warband": wid, "fighter": fid, "dice": [self.d()]}, wid
                )
            elif step == 4:
                active = wb["active"]
                while len(active) < 8:
                    yield from self._add(wid)
                    active = wb["active"]
                yield self._emit("AftermathStepCompleted", {"warband": wid, "step": 4}, wid)
            elif step == 5:
                if not am["searched"]:
                    yield self._emit(
                        "SearchRolled", {"warband": wid, "dice": [self.d(), self.d()]}, wid
                    )
                elif am["found"]:
                    found = am["found"][0]
                    free = [f for f in wb["active"] if wb["fighters"][f]["lesser_artefact"] is None]
                    if not free:
                        holder = wb["active"][-1]
                        yield self._emit(
                            "ArtefactDiscarded",
                            {"warband": wid, "fighter": holder, "discarded": "lesser"},
                            wid,
                        )
                        free = [holder]
                    yield self._emit(
                        "ArtefactGiven",
                        {"warband": wid, "fighter": free[0], "artefact": found["name"]},
                        wid,
                    )
                elif am["perishable"]:
                    fid = am["perishable"][0]
                    yield self._emit(
                        "PerishableRolled",
                        {"warband": wid, "fighter": fid, "dice": [self.d()]},
                        wid,
                    )
                else:
                    yield self._emit("AftermathStepCompleted", {"warband": wid, "step": 5}, wid)
            elif step == 7:
                yield from self._reward(wid, wb, am)
            else:  # pragma: no cover - the rules pass step 6 by themselves
                raise AssertionError(f"unexpected step {step}")

    def _reward(self, wid, wb, am):
        quest = rules.quest_of(self.state, wb)
        if am["reward"] == "artefact":
            held = {(f["artefact_of_power"] or {}).get("id") for f in wb["fighters"].values()}
            free = [f for f in wb["active"] if wb["fighters"][f]["artefact_of_power"] is None]
            options = [a["id"] for a in quest["artefacts_of_power"] if a["id"] not in held]
            if options and free:
                yield self._emit(
                    "ArtefactOfPowerGained",
                    {"warband": wid, "fighter": free[0], "artefact": options[0]},
                    wid,
                )
                return
        elif am["reward"] == "trait":
            leader = rules.leader(wb)
            if wb["fighters"][leader]["command_trait"] is None:
                trait = quest["command_traits"][0]["id"]
                yield self._emit(
                    "CommandTraitGained", {"warband": wid, "trait": trait, "fighter": None}, wid
                )
                return
        yield self._emit("AftermathStepCompleted", {"warband": wid, "step": 7}, wid)


def campaign_events(campaign: str, count: int, seed: int = 1):
    """The first `count` events of a synthetic campaign, as (type, data, meta)."""
    driver = Driver(campaign, seed)
    for n, item in enumerate(driver.events(), start=1):
        yield item
        if n >= count:
            return


def write_jsonl(path: Path, campaign: str, count: int, seed: int = 1) -> Path:
    """Write a campaign of `count` events as import lines (the tracker assigns hashes)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "w", encoding="utf-8") as out:
        for type_, data, meta in campaign_events(campaign, count, seed):
            out.write(
                json.dumps(
                    {"campaign": campaign, "type": type_, "data": data, "meta": meta},
                    ensure_ascii=False,
                )
                + "\n"
            )
    tmp.replace(path)
    return path
