"""Write events/warcry-ember-crown.jsonl: the sample Warcry campaign, checked by the rules.

Two warbands founded from the sample pack's factions, their fighters added from its profiles
(and one custom fighter), battles mustered within the points limit (with reinforcements
bought once), convergence battles fought by Aspirants and Adversaries, a quest finished and a
second one begun. Every roll is written in (an import never rolls): the few that tell the
story are chosen here, the rest come from a seeded generator, so the file is the same on
every run. Each event is checked by the rules as it is written; the whole file is imported
through the service at the end. Run: python scripts/make_warcry_sample.py
"""

import copy
import json
import random
from pathlib import Path

from tracker.events import Event
from tracker.service import Service
from tracker.store import Store
from tracker.systems.warcry import rules, system

CAMPAIGN = "ember-crown-sample"
OUT = Path(__file__).resolve().parent.parent / "events" / "warcry-ember-crown.jsonl"
PLAYERS = {"ironjaws": "alice", "crowmarch": "bruno"}
# The sample follows the first rules (reinforcements at 10 points a glory; a new quest that
# keeps glory and territories), as it was written by them: it keeps its events and hashes.
SETTINGS = {"pack": "sample", "quest": "ember-crown", "rules": 1}


class Writer:
    """The lines of the sample and the state they fold to, each event checked as it comes."""

    def __init__(self):
        self.lines = []
        self.rng = random.Random(22)
        self._start()

    def _start(self):
        self.lines.append(
            self._line(
                "CampaignStarted",
                "alice",
                {"system": "warcry", "name": "The Ember Crown (sample)", "settings": SETTINGS},
            )
        )
        self.state = system.initial_state(system.prepare_settings(copy.deepcopy(SETTINGS)))
        self.voided = set()

    def _line(self, type_, actor, data):
        source = "table-roll" if "dice" in data else "form"
        record = {
            "campaign": CAMPAIGN,
            "type": type_,
            "data": data,
            "meta": {"actor": actor, "source": source},
        }
        return json.dumps(record, ensure_ascii=False)

    def event(self, type_, actor=None, **data):
        actor = actor or PLAYERS.get(data.get("warband"), "alice")
        self.lines.append(self._line(type_, actor, data))
        version = len(self.lines)
        loaded = system.load(type_, system.upcast_data(type_, data))
        try:
            self.state = system.apply(
                self.state, Event(None, CAMPAIGN, version, type_, loaded, {}, None, None)
            )
        except Exception as error:
            raise SystemExit(f"line {version} ({type_}): {error}") from None

    def void(self, version, reason, actor="alice"):
        """The organiser voids an event: the state is folded again without it."""
        self.lines.append(self._line("EventVoided", actor, {"version": version, "reason": reason}))
        self.voided.add(version)
        self.state = system.initial_state(system.prepare_settings(copy.deepcopy(SETTINGS)))
        for number, line in enumerate(self.lines[1:], start=2):
            record = json.loads(line)
            if number in self.voided or record["type"] == "EventVoided":
                continue
            loaded = system.load(record["type"], system.upcast_data(record["type"], record["data"]))
            event = Event(None, CAMPAIGN, number, record["type"], loaded, {}, None, None)
            self.state = system.apply(self.state, event)

    # -- reading the state -----------------------------------------------------------------

    def wb(self, wid):
        return self.state["warbands"][wid]

    def active(self, wid):
        return list(self.wb(wid)["active"])

    def points(self, wid, fids):
        return sum(self.wb(wid)["fighters"][f]["points"] for f in fids)

    # -- a battle and its aftermath ---------------------------------------------------------

    def battle(self, bid, winner, down, scenario, notes="", out=None, convergence=()):
        """`down`: each warband's fighters taken down; `out`: fighters left at home."""
        out = out or {}
        sides = []
        for wid, enemy in (("ironjaws", "crowmarch"), ("crowmarch", "ironjaws")):
            fielded = [f for f in self.active(wid) if f not in out.get(wid, ())]
            limit = rules.muster_limit(self.state, self.wb(wid), enemy)
            while self.points(wid, fielded) > limit:  # the last to join stay at home
                fielded.pop()
            sides.append({"warband": wid, "fighters": fielded, "taken_down": down.get(wid, [])})
        self.event(
            "BattleFought",
            "alice",
            battle=bid,
            winner=winner,
            sides=sides,
            scenario=scenario,
            notes=notes,
            convergence=list(convergence),
        )

    def aftermath(self, wid, **plan):
        """Walk `wid` through its aftermath: `plan` says what the story needs, the rest is
        rolled by the seeded generator (no fighter dies unless the plan says so)."""
        steps = {1: self._glory, 2: self._injury, 3: self._destiny, 4: self._roster}
        while (am := self.wb(wid)["aftermath"]) is not None:
            step = am["step"]
            if step in steps:
                steps[step](wid, am, plan)
            elif step == 5:
                self._search(wid, am, plan)
            else:
                self._reward(wid, am, plan)

    def _glory(self, wid, am, plan):
        for territory in plan.get("territories", ()):
            self.event("TerritoryConquered", warband=wid, territory=territory)
        self.event("AftermathStepCompleted", warband=wid, step=1)

    def _injury(self, wid, am, plan):
        fid = am["injuries"][0]
        dice = plan.get("injuries", {}).get(fid) or self.rng.choice(
            [[6, 6], [5, 4], [3, 3], [2, 4], [4, 1], [6, 2], [5, 5], [1, 6]]
        )
        self.event("InjuryRolled", warband=wid, fighter=fid, dice=list(dice))

    def _destiny(self, wid, am, plan):
        fid = am["destiny"][0]
        roll = plan.get("destiny", {}).get(fid) or self.rng.randint(1, 6)
        self.event("DestinyRolled", warband=wid, fighter=fid, dice=[roll])

    def _roster(self, wid, am, plan):
        for fid in plan.get("discard", ()):
            self.event("ArtefactDiscarded", warband=wid, fighter=fid, artefact="lesser")
        for fid, reason in plan.get("remove", ()):
            self.event("FighterRemoved", warband=wid, fighter=fid, reason=reason)
        for fighter in plan.get("add", ()):
            self.event("FighterAdded", warband=wid, **fighter)
        self.event("AftermathStepCompleted", warband=wid, step=4)

    def _search(self, wid, am, plan):
        if not am["searched"] and "search" not in plan:
            plan["search"] = [self.rng.randint(1, 6), self.rng.randint(1, 6)]
        if not am["searched"] and plan["search"] is not None:
            self.event("SearchRolled", warband=wid, dice=plan.pop("search"))
            return
        if plan.get("adversary") and am["adversary_search"]:
            self.event("SearchRolled", warband=wid, adversary=True, dice=plan.pop("adversary"))
            return
        if plan.get("extra") and not am["extra_searched"]:
            self.event("SearchRolled", warband=wid, extra=True, dice=plan.pop("extra"))
            return
        if am["perishable"]:
            fid = am["perishable"][0]
            roll = plan.get("perishable", {}).get(fid) or self.rng.randint(1, 6)
            self.event("PerishableRolled", warband=wid, fighter=fid, dice=[roll])
            return
        fighters = self.wb(wid)["fighters"]
        if am["found"]:
            name = am["found"][0]["name"]
            free = [f for f in self.active(wid) if fighters[f]["lesser_artefact"] is None]
            fid = plan.get("give", {}).get(name)
            if fid not in free:
                fid = free[0]
            self.event("ArtefactGiven", warband=wid, fighter=fid, artefact=name)
            return
        self.event("AftermathStepCompleted", warband=wid, step=5)

    def _reward(self, wid, am, plan):
        reward = plan.get("reward", {})
        if reward == "decline":
            self.event("AftermathStepCompleted", warband=wid, step=7)
        elif am["reward"] == "artefact":
            if "pass" in plan:  # to make room for the new one
                giver, receiver = plan.pop("pass")
                self.event("ArtefactPassed", warband=wid, giver=giver, receiver=receiver)
            self.event("ArtefactOfPowerGained", warband=wid, **reward)
        else:
            self.event("CommandTraitGained", warband=wid, **reward)


def custom(fid, name, runemarks, points):
    return {"fighter": fid, "name": name, "runemarks": runemarks, "points": points}


def recruit(fid, name, profile, leader=False):
    return {"fighter": fid, "name": name, "profile": profile, "leader": leader}


def found(w):
    w.event(
        "WarbandFounded",
        warband="ironjaws",
        name="Ironjaws",
        player="Alice",
        faction="cinderborn-reavers",
    )
    w.event(
        "WarbandFounded",
        warband="crowmarch",
        name="Crowmarch",
        player="Bruno",
        faction="Gloamfeather Court",
    )
    for fighter in (
        # Two of the group's own making, with their runemarks and points; the rest from the
        # faction's profiles.
        dict(custom("varka", "Varka Ironjaw", ["ember", "brute"], 220), leader=True),
        custom("brannoc", "Brannoc", ["Ember", "Brute"], 120),
        recruit("tulla", "Tulla Sootfist", "soot-brute"),
        recruit("grenn", "Grenn the Hook", "hookwielder"),
        recruit("maw", "Maw", "soot-brute"),
        recruit("ketch", "Ketch", "ash-runner"),
    ):
        w.event("FighterAdded", warband="ironjaws", **fighter)
    # A slip at the table, voided with a reason: the audit log shows both.
    w.event("FighterAdded", warband="crowmarch", **recruit("corvane", "Corvane", "rookery-scout"))
    w.void(len(w.lines), "added from the Rookery Scout profile instead of the Gloam Matriarch")
    for fighter in (
        recruit("corvane", "Corvane", "gloam-matriarch"),
        recruit("ilse", "Ilse Quill", "quill-skirmisher"),
        recruit("threnody", "Threnody", "dusk-oracle"),
        recruit("ashwing", "Ashwing", "quill-skirmisher"),
        recruit("dusk", "Dusk", "rookery-scout"),
        recruit("morrow", "Morrow", "quill-skirmisher"),
    ):
        w.event("FighterAdded", warband="crowmarch", **fighter)


def first_battles(w):
    # b1: Ironjaws win; Brannoc is slain, Corvane (a leader) loses favour instead.
    w.battle(
        "b1",
        "ironjaws",
        {"ironjaws": ["brannoc"], "crowmarch": ["corvane", "ilse"]},
        "Ambush at Blackwater Ford",
        notes="The Crowmarch came out of the reeds too early.",
    )
    w.aftermath(
        "ironjaws",
        injuries={"brannoc": [1, 1]},
        destiny={"varka": 6, "tulla": 2},
        add=[
            recruit("odo", "Odo Cinderhand", "cinder-shaman"),
            recruit("hask", "Hask", "soot-brute"),
        ],
        search=[1, 3],
    )
    w.aftermath(
        "crowmarch",
        injuries={"corvane": [1, 2], "ilse": [3, 2]},
        destiny={"ashwing": 6},
        search=[2, 1],
        give={"Flask of Red Brine": "threnody"},
    )
    w.event("ArtefactUsed", warband="crowmarch", fighter="threnody")
    # b2: Crowmarch win; both reach an artefact-of-power point.
    w.battle(
        "b2",
        "crowmarch",
        {"ironjaws": ["tulla", "maw", "ketch"], "crowmarch": ["dusk"]},
        "The Hanged Oak",
    )
    w.aftermath(
        "ironjaws",
        injuries={"tulla": [5, 1], "maw": [6, 3], "ketch": [3, 4]},
        destiny={"grenn": 6},
        search=[2, 5],
        give={"Moth-Glass Charm": "grenn"},
        reward={"fighter": "varka", "artefact": "cinder-blade"},
    )
    w.aftermath(
        "crowmarch",
        injuries={"dusk": [3, 3]},
        search=[1, 6],
        extra=[3, 1],
        reward={"fighter": "corvane", "artefact": "veil-of-soot"},
    )
    # b3: a draw; Grenn's fragile charm holds; Ironjaws conquer a territory; both reach the
    # Crossing of Knives, a convergence point.
    w.battle(
        "b3",
        None,
        {"ironjaws": ["grenn"], "crowmarch": ["morrow", "threnody"]},
        "Smoke over the Quarry",
    )
    w.aftermath(
        "ironjaws",
        territories=["The Sunken Mill"],
        injuries={"grenn": [1, 6]},
        search=[3, 5],
        perishable={"grenn": 5},
        give={"Cracked Lantern": "tulla"},
        add=[recruit("rusk", "Rusk", "hookwielder")],
    )
    w.aftermath(
        "crowmarch",
        injuries={"morrow": [5, 2], "threnody": [6, 6]},
        remove=[("dusk", "retired to the rookery")],
        add=[
            custom("wren", "Wren Ashcaller", ["Ember", "Flyer"], 110),
            recruit("sable", "Sable", "dusk-oracle"),
            recruit("kestrel", "Kestrel", "quill-skirmisher"),
        ],
        search=[4, 4],
        give={"Stormglass Vial": "ilse"},
    )


def convergences(w):
    # b4: both stand on a convergence point, so both are Aspirants; Crowmarch lose there and
    # do not advance.
    w.battle(
        "b4",
        "ironjaws",
        {"ironjaws": ["odo"], "crowmarch": ["ilse", "wren"]},
        "The Crossing of Knives",
        notes="Both warbands' convergence at once.",
    )
    w.aftermath(
        "ironjaws",
        injuries={"odo": [6, 6]},
        search=[6, 6],
        perishable={"grenn": 2},
        reward={"trait": "ember-tongue"},
    )
    w.aftermath(
        "crowmarch",
        injuries={"ilse": [1, 6], "wren": [3, 6]},
        search=[5, 2],
        perishable={"ilse": 1},
        give={"Rune-Scratched Buckler": "ilse"},
    )
    # b5: the Crowmarch alone on their convergence point: their Aspirant's battle, Ironjaws
    # the Adversary. The Crowmarch win and advance; Ironjaws search once more as Adversary.
    w.battle("b5", "crowmarch", {"ironjaws": ["maw"], "crowmarch": []}, "Second Crossing")
    w.aftermath(
        "ironjaws",
        injuries={"maw": [6, 6]},
        search=[1, 4],
        adversary=[4, 1],
        give={"Bone Knuckles": "maw"},
        add=[recruit("pell", "Pell", "ash-runner")],
    )
    w.aftermath("crowmarch", search=None, reward={"trait": "ash-sight"})
    # b6: Ironjaws, holding a territory, muster within 1050 points and leave Ketch at home;
    # the Crowmarch, with fewer territories, buy reinforcements to field all of theirs.
    need = w.points("crowmarch", w.active("crowmarch")) - 1000
    assert need > 0 and w.points("ironjaws", w.active("ironjaws")) > 1050
    w.event(
        "ReinforcementsBought", warband="crowmarch", against="ironjaws", points=-(-need // 10) * 10
    )
    w.battle(
        "b6",
        "ironjaws",
        {"crowmarch": ["ashwing"]},
        "The Weeping Quarry",
        out={"ironjaws": ["ketch"]},
    )
    w.aftermath("ironjaws", search=[4, 2], give={"Whetted Hook": "odo"})
    w.aftermath(
        "crowmarch",
        injuries={"ashwing": [4, 4]},
        search=[6, 1],
        give={"Horn of the Lost Road": "morrow"},
    )


def the_road_to_the_throne(w):
    # b7: Ironjaws' convergence at the Shrine of Split Bells: they win and reach an
    # artefact of power; Varka passes the Cinder Blade to Odo to make room for it.
    w.battle(
        "b7",
        "ironjaws",
        {"ironjaws": ["ketch"], "crowmarch": ["morrow", "wren", "corvane"]},
        "Shrine of Split Bells",
        out={"ironjaws": ["maw"]},
    )
    w.aftermath(
        "ironjaws",
        injuries={"ketch": [2, 2]},
        search=[2, 3],
        reward={"fighter": "varka", "artefact": "crown-shard"},
        **{"pass": ("varka", "odo")},
    )
    w.aftermath(
        "crowmarch",
        injuries={"morrow": [2, 5], "wren": [4, 5], "corvane": [1, 1]},
        discard=["ilse"],  # she throws away her buckler before the search
        search=[5, 5],
        adversary=[1, 1],
        give={"Ember Locket": "ilse"},
    )
    # b8: the Crowmarch's convergence; Ironjaws reach a command trait with a leader who has
    # one: Maw becomes the favoured warrior.
    w.battle(
        "b8",
        "crowmarch",
        {"ironjaws": ["grenn"], "crowmarch": ["threnody"]},
        "Bells at Dusk",
        out={"ironjaws": ["ketch"]},
    )
    w.aftermath(
        "ironjaws",
        injuries={"grenn": [2, 4]},
        search=[1, 5],
        reward={"trait": "unbowed", "fighter": "maw"},
    )
    w.aftermath(
        "crowmarch",
        injuries={"threnody": [6, 2]},
        search=[6, 4],
        reward={"fighter": "threnody", "artefact": "cinder-blade"},
    )
    # b9: the favoured warrior Maw dies, and his trait with him.
    w.battle(
        "b9",
        "crowmarch",
        {"ironjaws": ["maw", "varka"], "crowmarch": ["ashwing"]},
        "The Ossuary Stair",
        out={"ironjaws": ["grenn"]},
    )
    w.aftermath(
        "ironjaws",
        injuries={"maw": [2, 1], "varka": [6, 5]},
        search=[1, 1],
        add=[recruit("cinder", "Cinder Jack", "ash-runner")],
    )
    w.aftermath(
        "crowmarch",
        search=[3, 3],
        give={"Smoke Pellet": "ashwing"},
        reward={"trait": "unbowed", "fighter": "ilse"},
    )
    # b10: Ironjaws' last convergence, won; the Crowmarch are its Adversary.
    w.battle(
        "b10",
        "ironjaws",
        {"crowmarch": ["sable"]},
        "Last Light Bastion",
        out={"ironjaws": ["ketch"]},
    )
    w.aftermath("ironjaws", search=[4, 3], give={"Stormglass Vial": "tulla"})
    w.aftermath("crowmarch", search=[1, 2], adversary=[6, 5])
    # b11: a draw at the Crowmarch's last convergence (a draw still advances); Ironjaws
    # reach the Throne of Embers and complete their quest.
    w.battle(
        "b11",
        None,
        {"ironjaws": ["odo"], "crowmarch": ["corvane"]},
        "Caldera Road",
        notes="Ironjaws hold the road while Varka climbs to the throne.",
        out={"ironjaws": ["grenn"]},
    )
    w.aftermath("ironjaws", search=[2, 6])
    w.aftermath("crowmarch", search=[1, 3])
    # A second quest: the roster, its faction and its glory go with Ironjaws.
    w.event("QuestBegun", warband="ironjaws", quest="drowned-bell")
    # b12: the first battle of the new quest.
    w.battle(
        "b12", "ironjaws", {"crowmarch": ["ilse"]}, "The Reed Landing", out={"ironjaws": ["ketch"]}
    )
    w.aftermath("ironjaws", search=None)
    # The Crowmarch are left in the aftermath of b12, owing an injury roll: a page to try.
    w.event("AftermathStepCompleted", warband="crowmarch", step=1)


def main():
    w = Writer()
    found(w)
    first_battles(w)
    convergences(w)
    the_road_to_the_throne(w)
    store = Store(":memory:")
    store.init()
    Service(store).import_lines(w.lines)  # the whole file, through the service
    store.close()
    OUT.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    print(f"wrote {len(w.lines)} events to {OUT}")


if __name__ == "__main__":
    main()
