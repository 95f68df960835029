"""A warband founded from a BattleScribe / New Recruit roster file (.ros, .rosz): its
fighters checked by the rules as fighters typed by hand, all of them or none."""

from pathlib import Path

import pytest

from tracker.errors import BatchError, InvalidEvent
from tracker.rosters import read_roster, refused
from tracker.systems.warcry import system

DATA = Path(__file__).parent / "data"
FOUNDING = {"warband": "ash", "name": "Ash and Ember", "player": "Ana"}


def roster(name):
    return read_roster((DATA / name).read_bytes(), name)


@pytest.fixture
def campaign(service):
    service.start("ros", "warcry", "Rosters", {"quest": "ember-crown"}, actor="org")
    return service


def found(service, name, **founding):
    state = service.state("ros").state
    events = system.roster_events(state, roster(name), {**FOUNDING, **founding})
    return events, service.append("ros", events, None, actor="org", strict=False)


def test_a_roster_file_is_read_with_its_fighters_points_and_categories():
    read = roster("reavers.ros")
    assert read["game"] == "Warcry" and read["forces"][0]["catalogue"] == "Cinderborn Reavers"
    fighters = read["forces"][0]["fighters"]
    assert [f["name"] for f in fighters][:3] == ["Reaver Chieftain", "Soot Brute", "Soot Brute"]
    assert fighters[0]["points"] == 220 and fighters[0]["categories"] == ["Leader", "Hero"]
    assert roster("reavers.rosz") == read


@pytest.mark.parametrize("name", ["reavers.ros", "reavers.rosz"])
def test_a_warband_is_founded_from_a_roster_in_one_batch(campaign, name):
    events, result = found(campaign, name)
    assert result.last_version - result.first_version + 1 == len(events) == 6
    wb = campaign.state("ros").state["warbands"]["ash"]
    fighters = wb["fighters"]
    assert fighters["reaver-chieftain"]["leader"]
    assert fighters["reaver-chieftain"]["profile"] == "reaver-chieftain"
    assert {"soot-brute", "soot-brute-2"} <= set(fighters)
    wanderer = fighters["kiln-wanderer"]  # no profile of that name: a custom fighter
    assert wanderer["profile"] is None and wanderer["points"] == 75
    assert wanderer["runemarks"] == ["ember", "scout", "cinderborn"]


def test_a_roster_that_breaks_a_rule_is_refused_whole_naming_the_fighter(campaign):
    with pytest.raises(BatchError) as caught:
        found(campaign, "two-leaders.ros")
    events = system.roster_events(campaign.state("ros").state, roster("two-leaders.ros"), FOUNDING)
    words = refused(caught.value, events)
    assert words.startswith("the roster's fighter Young Lamp is refused: at most one fighter")
    assert campaign.state("ros").version == 1  # nothing written, not even the warband


def test_a_roster_of_another_game_is_refused_saying_which(campaign):
    with pytest.raises(InvalidEvent, match=r"another game \(Starfall Skirmish\), not Warcry"):
        found(campaign, "other-game.ros")


def test_a_roster_declaring_entities_is_refused_unread():
    with pytest.raises(InvalidEvent, match="declares a document type or entities"):
        roster("bomb.ros")


def test_a_file_that_is_no_roster_is_refused_in_words():
    with pytest.raises(InvalidEvent, match="not XML"):
        read_roster(b"not < xml", "x.ros")
    with pytest.raises(InvalidEvent, match="not a zip archive"):
        read_roster(b"PK\x03\x04broken", "x.rosz")
    with pytest.raises(InvalidEvent, match="not a BattleScribe or New Recruit roster"):
        read_roster(b"<catalogue/>", "x.ros")


def test_a_rosters_fighters_are_matched_with_the_communitys_data_by_name(campaign):
    import json

    from tracker.systems.warcry.packs import factions_imported

    fighters = json.loads((DATA / "three-factions.json").read_text(encoding="utf-8"))
    quest = dict(campaign.state("ros").state["content"]["quests"]["ember-crown"])
    quest.update(quest="hound-trail", title="The Hound Trail", runemark="cinder-hounds")
    campaign.append(
        "ros",
        [
            {"type": "FactionsImported", "data": factions_imported(fighters, "hounds.json")},
            {"type": "QuestDefined", "data": quest},
        ],
        None,
        actor="org",
    )
    events, _ = found(campaign, "hounds.ros", quest="hound-trail")
    wb = campaign.state("ros").state["warbands"]["ash"]
    assert wb["faction_id"] == "cinder-hounds" and len(wb["active"]) == 5
    kept = {f["name"]: f["profile"] for f in wb["fighters"].values()}
    assert kept == {
        "Hound Packmaster": "c1a0f001",
        "Ember Hound": "c1a0f002",
        "Soot Slinger": "c1a0f003",
    }
    assert [e["data"].get("profile") for e in events[1:3]] == ["c1a0f001", "c1a0f002"]
