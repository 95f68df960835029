"""A Warcry campaign builder for the rules tests: two warbands of the sample quest."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

# pytest runs with --import-mode=importlib, which puts no test folder on sys.path: the
# helpers several test files share live in warcry_helpers.py beside this file.
sys.path.insert(0, str(Path(__file__).parent))

from tracker.errors import RuleViolation
from tracker.events import Event
from tracker.systems.warcry import rules, system, views

# A new campaign's settings (today's rules), and those of a campaign of the first rules.
_SETTINGS = system.prepare_settings({"quest": "ember-crown"})
_FIRST_SETTINGS = system.prepare_settings({"quest": "ember-crown", "rules": 1})


class Campaign:
    """Applies events straight to the rules, as a fold does, and keeps the state (and the
    events it applied, in `log`)."""

    def __init__(self, first_rules=False):
        settings = _FIRST_SETTINGS if first_rules else _SETTINGS
        self.state = system.initial_state(copy.deepcopy(settings))
        self.version = 1
        self.log = []

    def do(self, type_, **data):
        self.version += 1
        self.log.append((type_, copy.deepcopy(data)))
        loaded = system.load(type_, data)
        self.state = system.apply(
            self.state, Event(None, "c", self.version, type_, loaded, {}, None, None)
        )
        return self

    def refused(self, type_, **data) -> str:
        """Apply an event that must break a rule; return the rule's words."""
        before = copy.deepcopy(self.state)
        with pytest.raises(RuleViolation) as caught:
            self.do(type_, **data)
        self.version -= 1
        self.log.pop()
        assert self.state == before, "a refused event must change nothing"
        return caught.value.message

    def wb(self, wid):
        return self.state["warbands"][wid]

    def report(self, wid, battle=-1):
        """A warband's part of a battle's report (the latest battle by default)."""
        return views.report(self.state, self.state["battles"][battle], wid)

    def fighter(self, wid, fid):
        return self.state["warbands"][wid]["fighters"][fid]

    def step(self, wid):
        am = self.wb(wid)["aftermath"]
        return None if am is None else am["step"]

    # -- building blocks -------------------------------------------------------------------

    def warband(self, wid, name, fighters=5):
        self.do(
            "WarbandFounded", warband=wid, name=name, player=f"{name} player", faction="Ash Wardens"
        )
        self.do(
            "FighterAdded",
            warband=wid,
            fighter=f"{wid}-boss",
            name=f"{name} Boss",
            runemarks=["ember"],
            leader=True,
            points=200,
        )
        for i in range(1, fighters):
            self.do(
                "FighterAdded",
                warband=wid,
                fighter=f"{wid}-{i}",
                name=f"{name} {i}",
                runemarks=["ember", "brute"],
                points=100,
            )
        return self

    def battle(
        self,
        bid="b1",
        winner="iron",
        down_iron=(),
        down_crow=(),
        convergence=(),
        iron=None,
        crow=None,
    ):
        iron = iron or [
            f for f, v in self.wb("iron")["fighters"].items() if v["status"] == "active"
        ]
        crow = crow or [
            f for f, v in self.wb("crow")["fighters"].items() if v["status"] == "active"
        ]
        return self.do(
            "BattleFought",
            battle=bid,
            winner=winner,
            convergence=list(convergence),
            sides=[
                {"warband": "iron", "fighters": iron, "taken_down": list(down_iron)},
                {"warband": "crow", "fighters": crow, "taken_down": list(down_crow)},
            ],
        )

    def to_step(self, wid, step):
        """Bring a warband to `step` of its aftermath with harmless rolls."""
        while self.step(wid) is not None and self.step(wid) < step:
            current = self.step(wid)
            am = self.wb(wid)["aftermath"]
            if current == 2:
                self.do("InjuryRolled", warband=wid, fighter=am["injuries"][0], dice=[6, 6])
            elif current == 3:
                self.do("DestinyRolled", warband=wid, fighter=am["destiny"][0], dice=[1])
            elif current == 5 and not am["searched"]:
                self.do("SearchRolled", warband=wid, dice=[1, 1])
            else:
                self.do("AftermathStepCompleted", warband=wid, step=current)
        return self

    def at_convergence(self):
        """Three battles on: both warbands stand on the Crossing of Knives (convergence)."""
        for n in range(3):
            self.battle(bid=f"w{n}").finish("iron").finish("crow")
        assert self.wb("iron")["map_position"] == 3
        return self

    def to_reward(self, kind):
        """Battles until Ironjaws stand at step 7 on a point owing `kind` of reward."""
        while True:
            self.battle(bid=f"r{self.version}")
            self.finish("crow")
            self.to_step("iron", 6)
            if self.step("iron") == 7 and self.wb("iron")["aftermath"]["reward"] == kind:
                return self
            self.finish("iron")

    def finish(self, wid, search=(1, 1), destiny=1, injury=(6, 6), perishable=6):
        """Walk a warband through the rest of its aftermath with harmless rolls."""
        wb = self.wb(wid)
        while wb["aftermath"] is not None:
            am = wb["aftermath"]
            step = am["step"]
            if step == 2:
                self.do("InjuryRolled", warband=wid, fighter=am["injuries"][0], dice=list(injury))
            elif step == 3:
                self.do("DestinyRolled", warband=wid, fighter=am["destiny"][0], dice=[destiny])
            elif step == 5 and not am["searched"]:
                self.do("SearchRolled", warband=wid, dice=list(search))
            elif step == 5 and am["found"]:
                holder = next(
                    f
                    for f, v in wb["fighters"].items()
                    if v["status"] == "active" and v["lesser_artefact"] is None
                )
                self.do(
                    "ArtefactGiven", warband=wid, fighter=holder, artefact=am["found"][0]["name"]
                )
            elif step == 5 and am["perishable"]:
                self.do(
                    "PerishableRolled", warband=wid, fighter=am["perishable"][0], dice=[perishable]
                )
            elif step == 7:
                if am["reward"] == "artefact":
                    free = next(
                        f
                        for f, v in wb["fighters"].items()
                        if v["status"] == "active" and v["artefact_of_power"] is None
                    )
                    taken = {
                        (v["artefact_of_power"] or {}).get("id") for v in wb["fighters"].values()
                    }
                    art = next(
                        a["id"]
                        for a in rules.quest_of(self.state, wb)["artefacts_of_power"]
                        if a["id"] not in taken
                    )
                    self.do("ArtefactOfPowerGained", warband=wid, fighter=free, artefact=art)
                else:
                    leader = rules.leader(wb)
                    held = {(v["command_trait"] or {}).get("id") for v in wb["fighters"].values()}
                    trait = next(
                        c["id"]
                        for c in rules.quest_of(self.state, wb)["command_traits"]
                        if c["id"] not in held
                    )
                    fighter = None
                    if wb["fighters"][leader]["command_trait"]:
                        fighter = next(
                            f
                            for f, v in wb["fighters"].items()
                            if v["status"] == "active" and not v["leader"]
                        )
                    self.do("CommandTraitGained", warband=wid, trait=trait, fighter=fighter)
            else:
                self.do("AftermathStepCompleted", warband=wid, step=step)
        return self


@pytest.fixture
def campaign():
    return Campaign().warband("iron", "Ironjaws").warband("crow", "Crowmarch")


@pytest.fixture
def old_campaign():
    """The two warbands in a campaign of the first rules, as every log begun before the
    rules had versions folds."""
    return Campaign(first_rules=True).warband("iron", "Ironjaws").warband("crow", "Crowmarch")


@pytest.fixture
def new_campaign():
    """Make an empty campaign, for tests that build warbands of their own size."""
    return Campaign
