"""Write events/hellas-*.jsonl: the two sample games of Lords of Hellas, checked by the rules.

Every card drawn and every die is written in (an import never draws). Run:
python scripts/make_hellas_sample.py
"""

import json
import sys
from pathlib import Path

from tracker.events import Event
from tracker.service import Service
from tracker.store import Store
from tracker.systems.hellas import system

EVENTS = Path(__file__).resolve().parent.parent / "events"


class Writer:
    """A campaign written line by line, each event folded by the rules as it is written."""

    def __init__(self, campaign: str, name: str, players: dict[str, str]):
        self.campaign = campaign
        self.lines = []
        settings = {"players": [{"id": p, "name": n} for p, n in players.items()]}
        self.record(
            "CampaignStarted", next(iter(players)), system="hellas", name=name, settings=settings
        )
        self.state = system.initial_state(system.load_settings(system.prepare_settings(settings)))

    def record(self, type_, actor, **data):
        source = "table-roll" if ("roll" in data or "cards" in data or "hands" in data) else "form"
        self.lines.append(
            json.dumps(
                {
                    "campaign": self.campaign,
                    "type": type_,
                    "data": data,
                    "meta": {"actor": actor, "source": source},
                },
                ensure_ascii=False,
            )
        )

    def __call__(self, type_, actor=None, **data):
        actor = actor or data.get("player") or self.state["game"]["turn"]["player"]
        loaded = system.load(type_, data)
        version = len(self.lines) + 1
        try:
            self.state = system.apply(
                self.state, Event(None, "s", version, type_, loaded, {}, None, None)
            )
        except Exception as err:
            game = self.state["game"]
            sys.exit(f"line {version} {type_} {data}: {err}\nhands {game and game['hands']}")
        self.record(type_, actor, **data)

    def write(self, filename: str):
        store = Store(":memory:")
        store.init()
        Service(store).import_lines(self.lines)  # the whole file, as an import reads it
        store.close()
        (EVENTS / filename).write_text(
            "".join(line + "\n" for line in self.lines), encoding="utf-8"
        )
        game = self.state["game"]
        print(filename, len(self.lines), "events;", game["over"], file=sys.stderr)


def duel() -> Writer:
    """Two players on the board's own setup: a quest, blessings, event cards, a battle and
    three hunts; Alexa wins as Monster Slayer."""
    w = Writer("hellas-duel", "The Duel of the Two Coasts", {"alexa": "Alexa", "bion": "Bion"})
    a, b = "alexa", "bion"
    w(
        "GameStarted",
        a,
        game="first-duel",
        order=[a, b],
        monsters={"harpy": "eirinos", "boar": "skiathe"},
        hands={a: ["shield-1", "spear-1"], b: ["helm-1", "spear-2"]},
    )
    # Round 1. Alexa slays the harpy with the cards in her hand and the one she draws.
    w("HeroMoved", player=a, path=["eirinos"])
    w("HuntBegan", player=a, monster="harpy", cards=["shield-2"])
    w(
        "HeroAttacked",
        player=a,
        wounds=[
            {"wound": "wings", "cards": ["spear-1"]},
            {"wound": "talons", "cards": ["shield-1"]},
        ],
    )
    w("TurnEnded", player=a)
    w("PriestsSent", player=b, monument="zeus", count=1)
    w("HoplitesRecruited", player=b, placed=[{"region": "phlios", "count": 2}])
    w("TurnEnded", player=b)
    w("HeroMoved", player=a, path=["melanthe"])
    w("QuestUndertaken", player=a, quest="oracle-stair")
    w("PriestsSent", player=a, monument="athena", count=1)
    w("Prayed", player=a)
    w("TurnEnded", player=a)
    # Bion builds: each Monument's priests bless their player; a red comet brings the chimera.
    w("MonumentBuilt", player=b, monument="hermes")
    w("MonsterPhaseResolved", player=b, card="red-comet")
    w("EventResolved", player=b)
    w("TempleBuilt", player=b, region="phlios")
    w("HeroAttributeChanged", player=b, attribute="leadership", value=2)
    w("HeroAttributeChanged", player=a, attribute="strength", value=2)
    w("TurnEnded", player=b)
    # Round 2.
    w("QuestAdvanced", player=a)
    w(
        "HoplitesMoved",
        player=a,
        moves=[{"origin": "melanthe", "destination": "skiathe", "count": 2}],
    )
    w("Prayed", player=a)
    w("TurnEnded", player=a)
    w("HeroMoved", player=b, path=["thyrea"])
    w("HoplitesMoved", player=b, moves=[{"origin": "nemessa", "destination": "argea", "count": 2}])
    w("RegionUsurped", player=b, region="thyrea")
    w("TurnEnded", player=b)
    w("QuestAdvanced", player=a)
    w("TempleBuilt", player=a, region="melanthe")
    w("HeroAttributeChanged", player=a, attribute="leadership", value=2)
    w("MonumentBuilt", player=a, monument="athena")
    w("MonsterPhaseResolved", player=a, card="harvest-feast")
    w("EventResolved", player=a)
    w("CombatCardsDrawn", player=a, cards=["helm-1", "spear-1"])
    w("TurnEnded", player=a)
    # Bion marches on Skiathe: a battle fought with the cards in hand.
    w("HoplitesMoved", player=b, moves=[{"origin": "argea", "destination": "kopais", "count": 2}])
    w(
        "HoplitesMarched",
        player=b,
        moves=[{"origin": "kopais", "destination": "skiathe", "count": 2}],
    )
    w("BattleBegan", player=b, region="skiathe")
    w("CombatCardPlayed", player=b, card="spear-2")
    w("BattlePassed", player=a)
    w("BattlePassed", player=b)
    w("ArmyRetreated", player=a, to="melanthe")
    w("TurnEnded", player=b)
    # Round 3. With Strength 2 Alexa draws two cards: a full hand slays the boar.
    w("HeroMoved", player=a, path=["skiathe"])
    w("PriestsSent", player=a, monument="athena", count=2)
    w("HuntBegan", player=a, monster="boar", cards=["shield-1", "spear-2"])
    w(
        "HeroAttacked",
        player=a,
        wounds=[
            {"wound": "hide", "cards": ["spear-1"]},
            {"wound": "tusks", "cards": ["shield-1", "shield-2"]},
        ],
    )
    w("MonsterAttacked", player=a, roll=[3])
    w("HeroAttacked", player=a, wounds=[{"wound": "heart", "cards": ["spear-2", "helm-1"]}])
    w("TurnEnded", player=a)
    w("MonumentBuilt", player=b, monument="zeus")
    w("MonsterPhaseResolved", player=b, card="pirate-raid")
    w("EventResolved", player=b)
    w("CombatCardsDrawn", player=b, cards=["charge-3"])
    w("CombatCardsDrawn", player=a, cards=["shield-1"])
    w("HeroAttributeChanged", player=a, attribute="strength", value=3)
    w("TurnEnded", player=b)
    # Round 4. Strength 3: the chimera falls, the third monster.
    w("HeroMoved", player=a, path=["thessa"])
    w("HuntBegan", player=a, monster="chimera", cards=["helm-3", "spear-1", "spear-1"])
    w(
        "HeroAttacked",
        player=a,
        wounds=[
            {"wound": "mane", "cards": ["shield-1"]},
            {"wound": "goat-head", "cards": ["helm-3", "spear-1"]},
            {"wound": "tail", "cards": ["spear-1"]},
        ],
    )
    return w


def crowns() -> Writer:
    """Three players: a failed hunt's artifact, fortifications by an event card, a quest, a
    battle, Zeus completed; Fotini holds Orchia when the count ends, King of Kings."""
    d, e, f = "dora", "elias", "fotini"
    w = Writer(
        "hellas-three-crowns",
        "Three Crowns over Boiotis",
        {d: "Dora", e: "Elias", f: "Fotini"},
    )
    w(
        "GameStarted",
        d,
        game="crowns-1",
        order=[d, e, f],
        hands={d: ["shield-1", "spear-2"], e: ["helm-1", "spear-1"], f: ["shield-1", "spear-2"]},
    )
    # Round 1.
    w("HeroMoved", player=d, path=["melanthe"])
    w("QuestUndertaken", player=d, quest="oracle-stair")
    w("Prayed", player=d)
    w("TurnEnded", player=d)
    w("HeroMoved", player=e, path=["thyrea"])
    w("HuntBegan", player=e, monster="harpy", cards=["helm-3"])
    w("HeroAttacked", player=e, wounds=[{"wound": "wings", "cards": ["spear-1"]}])
    w("MonsterAttacked", player=e, roll=[5])
    w("HuntRewardClaimed", player=e, wound="wings", artifact="wind-sandals")
    w("TurnEnded", player=e)
    w("HoplitesMoved", player=f, moves=[{"origin": "chalkea", "destination": "orchia", "count": 2}])
    w("MonumentBuilt", player=f, monument="zeus")
    w("MonsterPhaseResolved", player=f, card="silent-oracle")
    w("EventResolved", player=f)
    w("HoplitesFortified", player=f, region="orchia", count=1)
    w("HoplitesFortified", player=d, region="korythos", count=1)
    w("HoplitesFortified", player=e, region="phlios", count=1)
    w("TurnEnded", player=f)
    # Round 2.
    w("QuestAdvanced", player=d)
    w("PriestsSent", player=d, monument="zeus", count=2)
    w("HoplitesRecruited", player=d, placed=[{"region": "korythos", "count": 2}])
    w("TurnEnded", player=d)
    w("ArtifactsUsed", player=e, artifacts=["wind-sandals"])
    w("HoplitesMoved", player=e, moves=[{"origin": "nemessa", "destination": "argea", "count": 2}])
    w("Prayed", player=e)
    w("TurnEnded", player=e)
    w("HeroMoved", player=f, path=["orchia"])
    w("HuntBegan", player=f, monster="harpy", cards=["shield-2"])
    w(
        "HeroAttacked",
        player=f,
        wounds=[
            {"wound": "wings", "cards": ["spear-2"]},
            {"wound": "talons", "cards": ["shield-1"]},
        ],
    )
    w("TurnEnded", player=f)
    # Round 3. Dora's quest ends; her priests on Zeus bless her as she builds.
    w("QuestAdvanced", player=d)
    w("TempleBuilt", player=d, region="melanthe")
    w("HeroAttributeChanged", player=d, attribute="leadership", value=2)
    w("MonumentBuilt", player=d, monument="zeus")
    w("MonsterPhaseResolved", player=d, card="long-drought")
    w("EventResolved", player=d)
    w("HeroAttributeChanged", player=d, attribute="leadership", value=3)
    w("TurnEnded", player=d)
    w("HoplitesMoved", player=e, moves=[{"origin": "argea", "destination": "kopais", "count": 2}])
    w("RegionUsurped", player=e, region="thyrea")
    w("TurnEnded", player=e)
    w("HoplitesRecruited", player=f, placed=[{"region": "orchia", "count": 2}])
    w("TurnEnded", player=f)
    # Round 4. Dora marches on Kopais and loses.
    w(
        "HoplitesMoved",
        player=d,
        moves=[{"origin": "melanthe", "destination": "skiathe", "count": 2}],
    )
    w(
        "HoplitesMarched",
        player=d,
        moves=[{"origin": "skiathe", "destination": "kopais", "count": 2}],
    )
    w("BattleBegan", player=d, region="kopais")
    w("CombatCardPlayed", player=d, card="spear-2")
    w("CombatCardPlayed", player=e, card="helm-3")
    w("BattlePassed", player=d)
    w("BattlePassed", player=e)
    w("TurnEnded", player=d)
    w("MonumentBuilt", player=e, monument="zeus")
    w("MonsterPhaseResolved", player=e, card="shrine-games")
    w("EventResolved", player=e)
    w("HeroAttributeChanged", player=e, attribute="speed", value=2)
    w("TurnEnded", player=e)
    w("Prayed", player=f)
    w("TurnEnded", player=f)
    # Round 5. Fotini completes Zeus: its activation, and the King of Kings count.
    w("Prayed", player=d)
    w("TurnEnded", player=d)
    w("HeroMoved", player=e, path=["eretra"])  # by sea, with the Speed of the games
    w("QuestUndertaken", player=e, quest="lost-fleet")
    w("HoplitesRecruited", player=e, placed=[{"region": "kopais", "count": 1}])
    w("TurnEnded", player=e)
    w("MonumentBuilt", player=f, monument="zeus")
    w("MonsterPhaseResolved", player=f, card="storm-season")
    w("EventResolved", player=f)
    w("TempleBuilt", player=f, region="orchia")
    w("TurnEnded", player=f)
    specials = {
        d: [
            ("HoplitesRecruited", {"placed": [{"region": "korythos", "count": 1}]}),
            (
                "HoplitesMarched",
                {"moves": [{"origin": "korythos", "destination": "eirinos", "count": 1}]},
            ),
            ("MonumentBuilt", {"monument": "hermes"}),
        ],
        e: [
            ("Prayed", {}),
            (
                "HoplitesMarched",
                {"moves": [{"origin": "kopais", "destination": "thessa", "count": 1}]},
            ),
            ("Prayed", {}),
        ],
        f: [
            ("Prayed", {}),
            ("HoplitesRecruited", {"placed": [{"region": "orchia", "count": 1}]}),
            (
                "HoplitesMarched",
                {"moves": [{"origin": "orchia", "destination": "aulida", "count": 1}]},
            ),
        ],
    }
    for turn in range(3):
        for player in (d, e, f):
            kind, data = specials[player][turn]
            if player == e and turn < 2:
                w("QuestAdvanced", player=e)
            if player == e and turn == 1:  # the lost fleet found: Karystia, and an artifact
                w("RegionControlChanged", player=e, region="karystia", reason="the fleet's crews")
                w("ArtifactGained", player=e, artifact="tide-spear")
            w(kind, player=player, **data)
            if kind == "MonumentBuilt":
                w("MonsterPhaseResolved", player=player, card="fever-rumour")
                w("EventResolved", player=player)
            if not w.state["game"]["over"]:
                w("TurnEnded", player=player)
    return w


if __name__ == "__main__":
    duel().write("hellas-duel.jsonl")
    crowns().write("hellas-three-crowns.jsonl")
