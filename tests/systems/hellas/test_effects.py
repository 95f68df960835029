"""Nothing happens without its cause: every event recorded without what allows it is refused."""

import pytest

from tracker.systems.hellas import system

#: each event of a game, with data of the right shape, recorded on a new game where nothing
#: allows it (Ann's first turn; Bo acts out of turn), and the words of its refusal
ALONE = {
    "TurnEnded": ("ann", {}, "a turn ends after exactly one special action"),
    "ArtifactsUsed": ("bo", {"artifacts": ["owl-lantern"]}, "it is Ann's turn, not Bo's"),
    "HeroMoved": ("bo", {"path": ["thyrea"]}, "it is Ann's turn, not Bo's"),
    "HoplitesMoved": (
        "bo",
        {"moves": [{"origin": "phlios", "destination": "thyrea", "count": 1}]},
        "it is Ann's turn, not Bo's",
    ),
    "PriestsSent": ("bo", {"monument": "zeus", "count": 1}, "it is Ann's turn, not Bo's"),
    "HoplitesRecruited": (
        "bo",
        {"placed": [{"region": "phlios", "count": 1}]},
        "it is Ann's turn, not Bo's",
    ),
    "HoplitesMarched": (
        "bo",
        {"moves": [{"origin": "phlios", "destination": "thyrea", "count": 1}]},
        "it is Ann's turn, not Bo's",
    ),
    "RegionUsurped": ("bo", {"region": "phlios"}, "it is Ann's turn, not Bo's"),
    "Prayed": ("bo", {}, "it is Ann's turn, not Bo's"),
    "HuntBegan": ("bo", {"monster": "harpy", "cards": []}, "it is Ann's turn, not Bo's"),
    "MonumentBuilt": ("bo", {"monument": "zeus"}, "it is Ann's turn, not Bo's"),
    "MonsterPhaseResolved": (
        "ann",
        {"card": "red-comet"},
        "the Monster Phase comes only after a Monument is built",
    ),
    "EventResolved": ("ann", {}, "the Event Phase comes only after the Monster Phase"),
    "QuestUndertaken": (
        "ann",
        {"quest": "oracle-stair"},
        "a hero undertakes a quest on entering its region (Ann's hero did not end a move in "
        "Melanthe this turn)",
    ),
    "QuestAdvanced": ("ann", {}, "a quest step is taken on a quest (Ann's hero is on none)"),
    "HeroAttacked": ("ann", {"wounds": []}, "Ann is not hunting a monster"),
    "MonsterAttacked": ("ann", {"roll": [3]}, "Ann is not hunting a monster"),
    "HuntRewardClaimed": ("ann", {"wound": "hide"}, "a reward is claimed after a failed hunt"),
    "BattleBegan": ("ann", {"region": "eirinos"}, "there is no battle to fight in Eirinos"),
    "CombatCardPlayed": ("ann", {"card": "helm-1"}, "Ann is in no battle"),
    "BattlePassed": ("ann", {}, "Ann is in no battle"),
    "ArmyRetreated": ("ann", {"to": None}, "an army retreats only after losing a battle"),
    "TempleBuilt": (
        "ann",
        {"region": "melanthe"},
        "a temple rises only when a quest's reward, an event card or a Monument's activation "
        "grants it (nothing grants Ann a temple now)",
    ),
    "HoplitesFortified": (
        "ann",
        {"region": "korythos", "count": 1},
        "hoplites are fortified only when an event card or a Monument's activation "
        "grants it (nothing grants Ann fortified hoplites now)",
    ),
    "ArtifactGained": (
        "ann",
        {"artifact": "owl-lantern"},
        "an artifact is gained outside a hunt only when a quest's reward grants it (nothing "
        "grants Ann an artifact now)",
    ),
    "HeroAttributeChanged": (
        "ann",
        {"attribute": "speed", "value": 2},
        "a hero's attribute rises only when a quest's reward, an event card or a Monument's "
        "blessing grants it (nothing grants Ann an attribute now)",
    ),
    "RegionControlChanged": (
        "ann",
        {"region": "thessa", "reason": "an oracle said so"},
        "a region changes hands outside a battle or an usurping only when a quest's reward "
        "grants it (nothing grants Ann a region now)",
    ),
    "CombatCardsDrawn": (
        "ann",
        {"cards": ["spear-1"]},
        "combat cards are drawn outside the start of a game or of a hunt only when a quest's "
        "reward, an event card or a Monument's activation grants it (nothing grants Ann cards "
        "now)",
    ),
}
#: the two events that are their own cause: the table begins a game, or gives it up
OWN_CAUSE = {"GameStarted", "GameAbandoned"}


def test_the_list_of_causes_covers_every_event():
    assert set(ALONE) | OWN_CAUSE == set(system.events)


@pytest.mark.parametrize("event_type", sorted(ALONE))
def test_no_effect_is_recorded_without_its_cause(table, event_type):
    table.start()
    player, data, words = ALONE[event_type]
    table.refuses(event_type, words, player=player, **data)


def test_five_temples_in_a_row_win_nothing_without_their_cause(table):
    table.start()
    table.control("ann", "melanthe", "eirinos", "orchia", "kopais", "eretra")
    for rid in ("melanthe", "eirinos", "orchia", "kopais", "eretra"):
        table.refuses("TempleBuilt", "a temple rises only when", player="ann", region=rid)
    assert table.game["over"] is None


def test_a_grant_is_taken_once(table):
    table.start()
    table.grant("ann", "temple", source="the quest The Oracle's Stair")
    table.play("TempleBuilt", player="ann", region="melanthe")
    assert table.game["grants"] == []
    table.control("ann", "eirinos")
    table.refuses("TempleBuilt", "nothing grants Ann a temple now", player="ann", region="eirinos")


def test_a_grant_is_the_granted_players_own(table):
    table.start()
    table.grant("bo", "artifact")
    table.refuses(
        "ArtifactGained", "nothing grants Ann an artifact now", player="ann", artifact="dusk-bow"
    )
    table.play("ArtifactGained", player="bo", artifact="dusk-bow")
    assert table.words() == "Bo took the Dusk Bow (a test)"


def test_a_fortify_grant_fortifies_as_many_hoplites_as_it_says(table):
    table.start()
    table.grant("ann", "fortify", source="the event The Oracle Falls Silent", count=2)
    table.refuses(
        "HoplitesFortified",
        "the event The Oracle Falls Silent fortifies 2 hoplite(s) of Ann, not 3",
        player="ann",
        region="korythos",
        count=3,
    )
    table.play("HoplitesFortified", player="ann", region="korythos", count=1)
    assert table.game["grants"][0]["count"] == 1


def test_a_region_granted_is_the_one_the_grant_names(table):
    table.start()
    table.grant("ann", "control", region="karystia")
    table.refuses(
        "RegionControlChanged", "nothing grants Ann a region now", player="ann", region="thessa"
    )
    table.refuses(
        "RegionControlChanged",
        "a region falls to nobody only when its controller loses it",
        player=None,
        region="karystia",
    )
    table.play("RegionControlChanged", player="ann", region="karystia")
    assert table.region("karystia")["controller"] == "ann"
    assert table.words() == "Ann took control of Karystia (a test)"


def test_an_attribute_granted_is_that_attribute_only(table):
    table.start()
    table.grant("ann", "attribute", attribute="speed")
    table.refuses(
        "HeroAttributeChanged",
        "nothing grants Ann an attribute now",
        player="ann",
        attribute="strength",
        value=2,
    )
    table.play("HeroAttributeChanged", player="ann", attribute="speed", value=2)
    assert table.game["heroes"]["ann"]["speed"] == 2
