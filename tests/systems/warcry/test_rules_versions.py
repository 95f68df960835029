"""Which rules a campaign follows: a new campaign the published reinforcements and new
quest, a campaign begun before the rules had versions (the sample among them) the first
rules, for ever. Through the service: what is stored, what folds, what is refused."""

import json
from pathlib import Path

import pytest

from tracker.errors import BatchError, InvalidEvent
from tracker.service import Service
from tracker.store import open_store
from tracker.systems.warcry import system

SAMPLE = Path(__file__).resolve().parents[3] / "events" / "warcry-ember-crown.jsonl"
CAMPAIGN = "ember-crown-sample"


def lines_of(campaign, cid="new-rules", settings=None):
    """A campaign built by the rules tests' helper, as a file to import (its dice written in)."""
    started = {
        "system": "warcry",
        "name": "New rules",
        "settings": settings or {"quest": "ember-crown"},
    }
    out = [{"campaign": cid, "type": "CampaignStarted", "data": started}]
    out += [{"campaign": cid, "type": t, "data": d} for t, d in campaign.log]
    return [json.dumps(line) for line in out]


def refused_through_the_service(service, cid, type_, data) -> str:
    """Append an event the rules refuse; check nothing is written; return the rule's words."""
    version, head = service.store.head(cid)
    with pytest.raises(BatchError) as caught:
        service.append(cid, [{"type": type_, "data": data}], version)
    assert service.store.head(cid) == (version, head)
    return caught.value.error.message


def test_a_new_campaign_follows_the_published_rules(service):
    service.start("fresh", "warcry", "Fresh", {"quest": "ember-crown"})
    assert service.store.event("fresh", 1).data["settings"]["rules"] == 2
    assert service.state("fresh").state["rules"] == 2


def test_a_campaign_may_be_begun_on_the_first_rules_and_is_stored_as_before(service):
    service.start("then", "warcry", "Then", {"quest": "ember-crown", "rules": 1})
    assert "rules" not in service.store.event("then", 1).data["settings"]
    assert service.state("then").state["rules"] == 1


def test_an_old_log_keeps_its_rules_the_sample_among_them(service):
    first = json.loads(SAMPLE.read_text(encoding="utf-8").splitlines()[0])
    assert first["data"]["settings"]["rules"] == 1
    service.import_lines(SAMPLE.read_text(encoding="utf-8").splitlines())
    assert "rules" not in service.store.event(CAMPAIGN, 1).data["settings"]
    state = service.state(CAMPAIGN).state
    assert state["rules"] == 1
    words = [e.words for e in service.history(CAMPAIGN) if e.event.type == "ReinforcementsBought"]
    assert words == [
        "Crowmarch bought 20 points of reinforcements for 2 glory, to muster against Ironjaws"
    ]


def test_an_exported_campaign_imports_with_the_rules_it_followed(service, tmp_path):
    service.start("fresh", "warcry", "Fresh", {"quest": "ember-crown"})
    service.import_lines(SAMPLE.read_text(encoding="utf-8").splitlines())
    exported = {cid: list(service.export(cid)) for cid in ("fresh", CAMPAIGN)}
    other = open_store(tmp_path / "other.db")
    other.init()
    try:
        copy = Service(other)
        for cid, lines in exported.items():
            copy.import_lines(lines)
            assert copy.state(cid).head == service.state(cid).head
        assert copy.state("fresh").state["rules"] == 2
        assert copy.state(CAMPAIGN).state["rules"] == 1
    finally:
        other.close()


def test_a_refused_reinforcement_is_not_written(service, campaign):
    service.import_lines(lines_of(campaign))
    assert (
        refused_through_the_service(
            service,
            "new-rules",
            "ReinforcementsBought",
            {"warband": "crow", "against": "iron", "points": 50},
        )
        == "only the warband with fewer territories buys reinforcements: Crowmarch holds 0 and Ironjaws 0"
    )


def test_reinforcements_other_than_fifty_or_a_hundred_points_are_not_written(service, campaign):
    campaign.battle(bid="b1", winner="iron", down_crow=["crow-boss", "crow-1", "crow-2"])
    campaign.finish("iron").finish("crow")  # Ironjaws: 3 + 2 + 1 + 1 glory, not yet 10
    campaign.battle(bid="b2", winner="iron", down_crow=["crow-boss", "crow-1", "crow-2"])
    campaign.do("TerritoryConquered", warband="iron", territory="The Sunken Mill")
    campaign.finish("iron").finish("crow")
    service.import_lines(lines_of(campaign))
    state = service.state("new-rules").state
    assert state["warbands"]["iron"]["territories"] == ["The Sunken Mill"]
    assert state["warbands"]["crow"]["glory"] >= 3
    assert refused_through_the_service(
        service,
        "new-rules",
        "ReinforcementsBought",
        {"warband": "crow", "against": "iron", "points": 70},
    ) == (
        "reinforcements come as 50 points for 1 glory or 100 points for 3 glory "
        "(at most 3 glory a battle), not 70 points"
    )
    head = service.store.version("new-rules")
    service.append(
        "new-rules",
        [
            {
                "type": "ReinforcementsBought",
                "data": {"warband": "crow", "against": "iron", "points": 100},
            }
        ],
        head,
    )
    [entry] = [e for e in service.history("new-rules") if e.event.version == head + 1]
    assert entry.words == (
        "Crowmarch bought 100 points of reinforcements for 3 glory, to muster against Ironjaws"
    )


def test_a_completed_quest_begun_again_is_not_written(service, campaign):
    for n in range(11):
        campaign.battle(bid=f"b{n}").finish("iron").finish("crow")
    service.import_lines(lines_of(campaign))
    assert (
        refused_through_the_service(
            service, "new-rules", "QuestBegun", {"warband": "iron", "quest": "ember-crown"}
        )
        == "a warband never begins again a quest it has completed: Ironjaws has completed The Ember Crown"
    )
    head = service.store.version("new-rules")
    service.append(
        "new-rules",
        [{"type": "QuestBegun", "data": {"warband": "iron", "quest": "drowned-bell"}}],
        head,
    )
    iron = service.state("new-rules").state["warbands"]["iron"]
    assert iron["glory"] == 0 and iron["territories"] == [] and iron["map_position"] == 0
    [entry] = [e for e in service.history("new-rules") if e.event.version == head + 1]
    assert entry.words == (
        "Ironjaws began the quest The Drowned Bell, back at its start with no territories "
        "and no glory (1 quest completed)"
    )


def test_the_rules_a_campaign_names_are_the_first_or_the_published():
    assert system.load_settings(system.prepare_settings({"quest": "ember-crown"}))["rules"] == 2
    with pytest.raises(InvalidEvent, match="rules"):
        system.load_settings(system.prepare_settings({"quest": "ember-crown", "rules": 3}))
