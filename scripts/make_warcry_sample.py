"""Write events/warcry-ember-crown.jsonl: the sample Warcry campaign, checked by the rules.

Every roll is written in (an import never rolls). Run: python scripts/make_warcry_sample.py
"""

import json
from pathlib import Path

from tracker.service import Service
from tracker.store import Store

CAMPAIGN = "ember-crown-sample"
OUT = Path(__file__).resolve().parent.parent / "events" / "warcry-ember-crown.jsonl"

IRON = ["varka", "brannoc", "tulla", "grenn", "maw", "ketch"]
CROW = ["corvane", "ilse", "threnody", "ashwing", "dusk", "morrow"]


class Writer:
    def __init__(self):
        self.lines = []

    def event(self, type_, actor="alice", **data):
        source = "table-roll" if "dice" in data else "form"
        record = {
            "campaign": CAMPAIGN,
            "type": type_,
            "data": data,
            "meta": {"actor": actor, "source": source},
        }
        self.lines.append(json.dumps(record, ensure_ascii=False))
        # Check as we go: a broken rule stops the script at the line that broke it.
        store = Store(":memory:")
        store.init()
        Service(store).import_lines(self.lines)
        store.close()

    def iron(self, type_, **data):
        self.event(type_, "alice", warband="ironjaws", **data)

    def crow(self, type_, **data):
        self.event(type_, "bruno", warband="crowmarch", **data)


def battle(
    w,
    bid,
    winner,
    iron_down,
    crow_down,
    convergence=(),
    iron=None,
    crow=None,
    iron_out=(),
    crow_out=(),
):
    iron = iron or [f for f in w.alive["ironjaws"] if f not in iron_out]
    crow = crow or [f for f in w.alive["crowmarch"] if f not in crow_out]
    w.event(
        "BattleFought",
        battle=bid,
        winner=winner,
        convergence=list(convergence),
        sides=[
            {"warband": "ironjaws", "fighters": iron, "taken_down": iron_down},
            {"warband": "crowmarch", "fighters": crow, "taken_down": crow_down},
        ],
    )


def main():
    w = Writer()
    w.lines.append(
        json.dumps(
            {
                "campaign": CAMPAIGN,
                "type": "CampaignStarted",
                "data": {
                    "system": "warcry",
                    "name": "The Ember Crown (sample)",
                    "settings": {"pack": "sample", "quest": "ember-crown"},
                },
                "meta": {"actor": "alice", "source": "form"},
            }
        )
    )
    w.event(
        "WarbandFounded",
        warband="ironjaws",
        name="Ironjaws",
        player="Alice",
        faction="Cinderborn Reavers",
    )
    w.event(
        "WarbandFounded",
        "bruno",
        warband="crowmarch",
        name="Crowmarch",
        player="Bruno",
        faction="Gloamfeather Court",
    )
    names = {
        "varka": "Varka Ironjaw",
        "brannoc": "Brannoc",
        "tulla": "Tulla Sootfist",
        "grenn": "Grenn the Hook",
        "maw": "Maw",
        "ketch": "Ketch",
        "corvane": "Corvane",
        "ilse": "Ilse Quill",
        "threnody": "Threnody",
        "ashwing": "Ashwing",
        "dusk": "Dusk",
        "morrow": "Morrow",
    }
    for i, fid in enumerate(IRON):
        w.iron(
            "FighterAdded",
            fighter=fid,
            name=names[fid],
            leader=i == 0,
            runemarks=["ember"] + (["brute"] if i else []),
            points=220 if i == 0 else 120,
        )
    # A slip at the table, voided with a reason: the audit log shows both.
    w.crow(
        "FighterAdded",
        fighter="corvane",
        name="Corvane",
        leader=True,
        runemarks=["ember", "flyer"],
        points=21,
    )
    w.event(
        "EventVoided",
        "bruno",
        version=len(w.lines) - 1 + 1,
        reason="points typed as 21 instead of 210",
    )
    for i, fid in enumerate(CROW):
        w.crow(
            "FighterAdded",
            fighter=fid,
            name=names[fid],
            leader=i == 0,
            runemarks=["ember", "flyer"],
            points=210 if i == 0 else 110,
        )
    w.alive = {"ironjaws": list(IRON), "crowmarch": list(CROW)}

    # Battle 1: Ironjaws win; Brannoc is slain, Corvane (a leader) loses favour instead.
    battle(w, "b1", "ironjaws", ["brannoc"], ["corvane", "ilse"])
    for side in ("iron", "crow"):
        getattr(w, side)("AftermathStepCompleted", step=1)
    w.iron("InjuryRolled", fighter="brannoc", dice=[1, 1])
    w.alive["ironjaws"].remove("brannoc")
    for fid, roll in zip(["varka", "tulla", "grenn", "maw", "ketch"], [6, 2, 3, 1, 6]):
        w.iron("DestinyRolled", fighter=fid, dice=[roll])
    w.iron(
        "FighterAdded",
        fighter="odo",
        name="Odo Cinderhand",
        runemarks=["ember", "brute"],
        points=120,
    )
    w.alive["ironjaws"].append("odo")
    w.iron("AftermathStepCompleted", step=4)
    w.iron("SearchRolled", dice=[1, 3])
    w.iron("AftermathStepCompleted", step=5)
    w.crow("InjuryRolled", fighter="corvane", dice=[1, 2])
    w.crow("InjuryRolled", fighter="ilse", dice=[3, 2])
    for fid, roll in zip(["threnody", "ashwing", "dusk", "morrow"], [2, 6, 5, 4]):
        w.crow("DestinyRolled", fighter=fid, dice=[roll])
    w.crow("AftermathStepCompleted", step=4)
    w.crow("SearchRolled", dice=[2, 1])
    w.crow("ArtefactGiven", fighter="threnody", artefact="Flask of Red Brine")
    w.crow("AftermathStepCompleted", step=5)

    # Battle 2: Crowmarch win; both reach an artefact-of-power point.
    w.crow("ArtefactUsed", fighter="threnody")
    battle(w, "b2", "crowmarch", ["tulla", "maw", "ketch"], ["dusk"])
    w.iron("AftermathStepCompleted", step=1)
    w.iron("InjuryRolled", fighter="tulla", dice=[5, 1])
    w.iron("InjuryRolled", fighter="maw", dice=[6, 3])
    w.iron("InjuryRolled", fighter="ketch", dice=[3, 4])
    for fid, roll in zip(["varka", "grenn", "odo"], [3, 6, 2]):
        w.iron("DestinyRolled", fighter=fid, dice=[roll])
    w.iron("AftermathStepCompleted", step=4)
    w.iron("SearchRolled", dice=[2, 5])
    w.iron("ArtefactGiven", fighter="grenn", artefact="Moth-Glass Charm")
    w.iron("AftermathStepCompleted", step=5)
    w.iron("ArtefactOfPowerGained", fighter="varka", artefact="cinder-blade")
    w.crow("AftermathStepCompleted", step=1)
    w.crow("InjuryRolled", fighter="dusk", dice=[3, 3])
    for fid, roll in zip(["corvane", "ilse", "threnody", "ashwing", "morrow"], [5, 6, 4, 2, 3]):
        w.crow("DestinyRolled", fighter=fid, dice=[roll])
    w.crow("AftermathStepCompleted", step=4)
    w.crow("SearchRolled", dice=[1, 6])
    w.crow("SearchRolled", extra=True, dice=[3, 1])
    w.crow("AftermathStepCompleted", step=5)
    w.crow("ArtefactOfPowerGained", fighter="corvane", artefact="veil-of-soot")

    # Battle 3: a draw; Grenn's fragile charm holds; Ironjaws conquer a territory.
    battle(w, "b3", None, ["grenn"], ["morrow", "threnody"])
    w.iron("TerritoryConquered", territory="The Sunken Mill")
    w.iron("AftermathStepCompleted", step=1)
    w.iron("InjuryRolled", fighter="grenn", dice=[1, 6])
    for fid, roll in zip(["varka", "tulla", "maw", "ketch", "odo"], [6, 5, 2, 3, 6]):
        w.iron("DestinyRolled", fighter=fid, dice=[roll])
    w.iron("AftermathStepCompleted", step=4)
    w.iron("SearchRolled", dice=[3, 5])
    w.iron("PerishableRolled", fighter="grenn", dice=[5])
    w.iron("ArtefactGiven", fighter="tulla", artefact="Cracked Lantern")
    w.iron("AftermathStepCompleted", step=5)
    w.crow("AftermathStepCompleted", step=1)
    w.crow("InjuryRolled", fighter="morrow", dice=[5, 2])
    w.crow("InjuryRolled", fighter="threnody", dice=[6, 6])
    for fid, roll in zip(["corvane", "ilse", "ashwing", "dusk"], [2, 4, 1, 6]):
        w.crow("DestinyRolled", fighter=fid, dice=[roll])
    w.crow("FighterRemoved", fighter="dusk", reason="retired to the rookery")
    w.alive["crowmarch"].remove("dusk")
    w.crow(
        "FighterAdded",
        fighter="wren",
        name="Wren Ashcaller",
        runemarks=["ember", "flyer"],
        points=110,
    )
    w.alive["crowmarch"].append("wren")
    w.crow("AftermathStepCompleted", step=4)
    w.crow("SearchRolled", dice=[4, 4])
    w.crow("ArtefactGiven", fighter="ilse", artefact="Stormglass Vial")
    w.crow("AftermathStepCompleted", step=5)

    # Battle 4: both stand on a convergence point; Crowmarch lose there and do not advance.
    battle(w, "b4", "ironjaws", ["odo"], ["ilse", "wren"], convergence=["ironjaws", "crowmarch"])
    for side in ("iron", "crow"):
        getattr(w, side)("AftermathStepCompleted", step=1)
    w.iron("InjuryRolled", fighter="odo", dice=[6, 6])
    for fid, roll in zip(["varka", "tulla", "grenn", "maw", "ketch"], [1, 2, 3, 4, 5]):
        w.iron("DestinyRolled", fighter=fid, dice=[roll])
    w.iron("AftermathStepCompleted", step=4)
    w.iron("SearchRolled", dice=[6, 6])
    w.iron("PerishableRolled", fighter="grenn", dice=[2])
    w.iron("PerishableRolled", fighter="tulla", dice=[4])
    w.iron("AftermathStepCompleted", step=5)
    w.iron("CommandTraitGained", trait="ember-tongue")
    w.crow("InjuryRolled", fighter="ilse", dice=[1, 6])
    w.crow("InjuryRolled", fighter="wren", dice=[3, 6])
    for fid, roll in zip(["corvane", "threnody", "ashwing", "morrow"], [5, 2, 6, 3]):
        w.crow("DestinyRolled", fighter=fid, dice=[roll])
    w.crow("AftermathStepCompleted", step=4)
    w.crow("SearchRolled", dice=[5, 2])
    w.crow("PerishableRolled", fighter="ilse", dice=[1])
    w.crow("ArtefactGiven", fighter="ilse", artefact="Rune-Scratched Buckler")
    w.crow("AftermathStepCompleted", step=5)

    # Battle 5: the Crowmarch win at their convergence point and advance.
    battle(w, "b5", "crowmarch", ["maw"], [], convergence=["crowmarch"])
    for side in ("iron", "crow"):
        getattr(w, side)("AftermathStepCompleted", step=1)
    w.iron("InjuryRolled", fighter="maw", dice=[6, 6])
    for fid, roll in zip(["varka", "tulla", "grenn", "ketch", "odo"], [6, 2, 3, 4, 5]):
        w.iron("DestinyRolled", fighter=fid, dice=[roll])
    w.iron("AftermathStepCompleted", step=4)
    w.iron("SearchRolled", dice=[1, 4])
    w.iron("PerishableRolled", fighter="tulla", dice=[6])
    w.iron("AftermathStepCompleted", step=5)
    for fid, roll in zip(
        ["corvane", "ilse", "threnody", "ashwing", "morrow", "wren"], [2, 3, 5, 2, 5, 3]
    ):
        w.crow("DestinyRolled", fighter=fid, dice=[roll])
    w.crow("AftermathStepCompleted", step=4)
    w.crow("SearchRolled", dice=[1, 2])
    w.crow("AftermathStepCompleted", step=5)
    w.crow("CommandTraitGained", trait="ash-sight")

    # Battle 6: Ironjaws win; Varka passes the Cinder Blade to Odo.
    w.iron("ArtefactPassed", giver="varka", receiver="odo")
    battle(w, "b6", "ironjaws", [], ["ashwing"])
    for side in ("iron", "crow"):
        getattr(w, side)("AftermathStepCompleted", step=1)
    for fid, roll in zip(["tulla", "grenn", "maw", "ketch", "odo"], [3, 4, 5, 6, 1]):
        w.iron("DestinyRolled", fighter=fid, dice=[roll])
    w.iron("AftermathStepCompleted", step=4)
    w.iron("SearchRolled", dice=[4, 1])
    w.iron("PerishableRolled", fighter="tulla", dice=[3])
    w.iron("ArtefactGiven", fighter="maw", artefact="Bone Knuckles")
    w.iron("AftermathStepCompleted", step=5)
    w.crow("InjuryRolled", fighter="ashwing", dice=[4, 4])
    for fid, roll in zip(["corvane", "ilse", "threnody", "morrow", "wren"], [3, 1, 6, 2, 4]):
        w.crow("DestinyRolled", fighter=fid, dice=[roll])
    w.crow("AftermathStepCompleted", step=4)
    w.crow("SearchRolled", dice=[6, 1])
    w.crow("ArtefactGiven", fighter="morrow", artefact="Horn of the Lost Road")
    w.crow("AftermathStepCompleted", step=5)

    # Battle 7: Ironjaws win at their convergence point and reach an artefact of power.
    battle(
        w,
        "b7",
        "ironjaws",
        ["ketch"],
        ["morrow", "wren", "ilse", "corvane"],
        convergence=["ironjaws"],
    )
    w.iron("AftermathStepCompleted", step=1)
    w.iron("InjuryRolled", fighter="ketch", dice=[2, 2])
    for fid, roll in zip(["tulla", "grenn", "maw", "odo"], [4, 6, 1, 2]):
        w.iron("DestinyRolled", fighter=fid, dice=[roll])
    w.iron("AftermathStepCompleted", step=4)
    w.iron("SearchRolled", dice=[2, 3])
    w.iron("ArtefactGiven", fighter="ketch", artefact="Whetted Hook")
    w.iron("AftermathStepCompleted", step=5)
    w.iron("ArtefactOfPowerGained", fighter="tulla", artefact="crown-shard")
    w.crow("AftermathStepCompleted", step=1)
    w.crow("InjuryRolled", fighter="morrow", dice=[2, 5])
    w.crow("InjuryRolled", fighter="wren", dice=[4, 5])
    w.crow("InjuryRolled", fighter="ilse", dice=[5, 6])
    w.crow("InjuryRolled", fighter="corvane", dice=[1, 1])
    for fid, roll in zip(["threnody", "ashwing"], [6, 5]):
        w.crow("DestinyRolled", fighter=fid, dice=[roll])
    w.crow("ArtefactDiscarded", fighter="ilse", artefact="lesser")
    w.crow("AftermathStepCompleted", step=4)
    w.crow("SearchRolled", dice=[5, 5])
    w.crow("ArtefactGiven", fighter="ilse", artefact="Ember Locket")
    w.crow("AftermathStepCompleted", step=5)

    # Battle 8: Ironjaws reach a command trait with a leader who has one: Maw is favoured.
    battle(w, "b8", "crowmarch", ["grenn"], ["threnody"])
    for side in ("iron", "crow"):
        getattr(w, side)("AftermathStepCompleted", step=1)
    w.iron("InjuryRolled", fighter="grenn", dice=[2, 4])
    for fid, roll in zip(["tulla", "maw", "ketch", "odo"], [5, 2, 1, 3]):
        w.iron("DestinyRolled", fighter=fid, dice=[roll])
    w.iron("AftermathStepCompleted", step=4)
    w.iron("SearchRolled", dice=[1, 5])
    w.iron("AftermathStepCompleted", step=5)
    w.iron("CommandTraitGained", trait="unbowed", fighter="maw")
    w.crow("InjuryRolled", fighter="threnody", dice=[6, 2])
    for fid, roll in zip(["corvane", "ilse", "ashwing", "morrow", "wren"], [6, 2, 2, 4, 3]):
        w.crow("DestinyRolled", fighter=fid, dice=[roll])
    w.crow("AftermathStepCompleted", step=4)
    w.crow("SearchRolled", dice=[6, 4])
    w.crow("PerishableRolled", fighter="ilse", dice=[6])
    w.crow("AftermathStepCompleted", step=5)
    w.crow("ArtefactOfPowerGained", fighter="threnody", artefact="cinder-blade")

    # Battle 9: the favoured warrior Maw dies, and his trait with him.
    battle(w, "b9", "crowmarch", ["maw", "varka"], ["ashwing"])
    for side in ("iron", "crow"):
        getattr(w, side)("AftermathStepCompleted", step=1)
    w.iron("InjuryRolled", fighter="maw", dice=[2, 1])
    w.iron("InjuryRolled", fighter="varka", dice=[6, 5])
    for fid, roll in zip(["tulla", "grenn", "ketch", "odo"], [2, 6, 3, 4]):
        w.iron("DestinyRolled", fighter=fid, dice=[roll])
    w.iron("AftermathStepCompleted", step=4)
    w.iron("SearchRolled", dice=[1, 1])
    w.iron("AftermathStepCompleted", step=5)

    OUT.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    print(f"wrote {len(w.lines)} events to {OUT}")


if __name__ == "__main__":
    main()
