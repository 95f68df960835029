"""A campaign's own content: the community's fighter data imported, and homebrew factions,
profiles, artefacts, territories and quests, each an event of the organiser's."""

import copy
import json
from pathlib import Path

import pytest

from tracker.errors import InvalidEvent
from tracker.systems.warcry import system
from tracker.systems.warcry.packs import factions_imported

DATA = Path(__file__).parent / "data"


def data_file(name="three-factions.json"):
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def hounds_quest(c, quest="hound-trail", runemark="cinder-hounds"):
    """A quest of the organiser's whose runemark an imported faction's fighters bear."""
    sample = copy.deepcopy(c.state["content"]["quests"]["ember-crown"])
    c.do(
        "QuestDefined",
        quest=quest,
        title="The Hound Trail",
        runemark=runemark,
        summary="",
        map=sample["map"],
        artefacts_of_power=sample["artefacts_of_power"],
        command_traits=sample["command_traits"],
        reward=sample["reward"],
    )
    return c


def imported(c):
    c.do("FactionsImported", **factions_imported(data_file(), "three-factions.json"))
    return c


def test_a_warcry_data_file_becomes_factions_with_stat_lines():
    data = factions_imported(data_file(), "three-factions.json")
    assert set(data["factions"]) == {"cinder-hounds", "mirefolk-lanterns", "glass-choir"}
    slinger = data["factions"]["cinder-hounds"]["profiles"]["c1a0f003"]
    assert slinger["name"] == "Soot Slinger" and slinger["points"] == 95
    assert (slinger["movement"], slinger["toughness"], slinger["wounds"]) == (4, 3, 12)
    assert slinger["weapons"][0]["max_range"] == 10 and slinger["weapons"][1]["dmg_crit"] == 2
    system.load("FactionsImported", data)  # the event's own schema takes it


@pytest.mark.parametrize(
    ("index", "field", "value", "words"),
    [
        (4, "toughness", "four", "fighter 5 (Wick Thrall): the field toughness"),
        (1, "points", 2.5, "fighter 2 (Ember Hound): the field points"),
        (0, "weapons", [{"attacks": 3}], "fighter 1 (Hound Packmaster): the field weapons.0"),
        (2, "_id", "NOT AN ID", "fighter 3 (Soot Slinger): the field _id"),
        (6, "runemarks", "leader", "fighter 7 (Choir Cantor): the field runemarks"),
    ],
)
def test_a_file_with_a_wrong_field_is_refused_naming_the_fighter_and_the_field(
    index, field, value, words
):
    fighters = data_file()
    fighters[index][field] = value
    with pytest.raises(InvalidEvent) as refused:
        factions_imported(fighters)
    assert refused.value.message.startswith(words)


def test_a_file_missing_a_field_or_repeating_an_id_is_refused_in_words():
    fighters = data_file()
    del fighters[3]["wounds"]
    with pytest.raises(InvalidEvent, match=r"fighter 4 \(Lantern Warden\): the field wounds"):
        factions_imported(fighters)
    fighters = data_file()
    fighters[2]["_id"] = fighters[0]["_id"]
    with pytest.raises(InvalidEvent, match="also fighter 1's"):
        factions_imported(fighters)
    with pytest.raises(InvalidEvent, match="JSON array of fighters"):
        factions_imported({"name": "not a list"})


def test_imported_profiles_add_fighters_keeping_the_profiles_id(new_campaign):
    c = hounds_quest(imported(new_campaign()))
    c.do(
        "WarbandFounded",
        warband="hounds",
        name="Hounds",
        player="Ana",
        faction="Cinder Hounds",
        quest="hound-trail",
    )
    c.do("FighterAdded", warband="hounds", fighter="pack", name="Packmaster", profile="c1a0f001")
    pack = c.fighter("hounds", "pack")
    assert pack["profile"] == "c1a0f001" and pack["leader"] and pack["points"] == 190
    assert "cinder-hounds" in pack["runemarks"]
    stats = system.views.stat_line(c.state, c.wb("hounds"), pack)
    assert stats["movement"] == 5 and stats["weapons"][0]["attacks"] == 4


def test_an_imported_faction_follows_the_quest_runemark_rule(new_campaign):
    c = imported(new_campaign())
    c.do("WarbandFounded", warband="h", name="H", player="Ana", faction="cinder-hounds")
    words = c.refused("FighterAdded", warband="h", fighter="p", name="Pack", profile="c1a0f001")
    assert "bears the runemark of the warband's quest (ember)" in words


def test_a_homebrew_profile_is_added_edited_and_used_by_a_fighter(new_campaign):
    c = new_campaign()
    c.do(
        "ProfileDefined",
        faction="cinderborn-reavers",
        profile="kiln-warden",
        name="Kiln Warden",
        runemarks=["ember", "bulwark"],
        points=150,
        movement=4,
        toughness=5,
        wounds=24,
        weapons=[
            {
                "min_range": 0,
                "max_range": 2,
                "attacks": 3,
                "strength": 5,
                "dmg_hit": 2,
                "dmg_crit": 5,
                "runemark": "hammer",
            }
        ],
    )
    profiles = c.state["content"]["factions"]["cinderborn-reavers"]["profiles"]
    assert profiles["kiln-warden"]["toughness"] == 5 and "soot-brute" in profiles
    c.do("WarbandFounded", warband="r", name="R", player="Ana", faction="cinderborn-reavers")
    c.do("FighterAdded", warband="r", fighter="k", name="Kiln", profile="kiln-warden")
    assert c.fighter("r", "k")["points"] == 150
    c.do(
        "ProfileDefined",
        faction="cinderborn-reavers",
        profile="kiln-warden",
        name="Kiln Warden",
        runemarks=["ember", "bulwark"],
        points=160,
    )
    assert c.fighter("r", "k")["points"] == 150  # a fighter keeps the points it came with
    assert (
        "toughness"
        not in c.state["content"]["factions"]["cinderborn-reavers"]["profiles"]["kiln-warden"]
    )


def test_a_profile_of_an_unknown_faction_or_a_weapon_reaching_backwards_is_refused(
    new_campaign,
):
    c = new_campaign()
    words = c.refused(
        "ProfileDefined", faction="nobody", profile="p", name="P", runemarks=["ember"], points=1
    )
    assert "there is no faction 'nobody'" in words
    weapon = dict(min_range=6, max_range=3, attacks=1, strength=1, dmg_hit=1, dmg_crit=1)
    words = c.refused(
        "ProfileDefined",
        faction="cinderborn-reavers",
        profile="p",
        name="Odd Archer",
        runemarks=["ember"],
        points=1,
        weapons=[weapon],
    )
    assert "the least range comes first" in words


def test_homebrew_never_changes_the_content_a_copy_of_the_state_shares(new_campaign):
    c = new_campaign()
    before = c.state["content"]
    kept = copy.deepcopy(before)
    c.do("FactionDefined", faction="kiln-born", name="Kiln-born", runemark="kiln", summary="")
    c.do("TerritoryDefined", territory="salt-pans", name="The Salt Pans", effect="Glitters.")
    c.do(
        "ArtefactDefined",
        quest="ember-crown",
        artefact="kiln-key",
        name="Kiln Key",
        effect="Opens any oven.",
    )
    assert before == kept
    content = c.state["content"]
    assert content["factions"]["kiln-born"]["profiles"] == {}
    assert content["territories"]["salt-pans"]["name"] == "The Salt Pans"
    assert content["quests"]["ember-crown"]["artefacts_of_power"][-1]["id"] == "kiln-key"


def test_a_homebrew_quest_is_checked_as_content_is(new_campaign):
    c = new_campaign()
    words = c.refused(
        "QuestDefined",
        quest="short",
        title="Short",
        runemark="ember",
        map=[{"name": "Here", "kind": "start"}, {"name": "There", "kind": "goal"}],
        artefacts_of_power=[{"id": "a", "name": "A", "effect": "e"}],
        command_traits=[{"id": "t", "name": "T", "effect": "e"}],
    )
    assert "its map has 2 points, not 12" in words
    hounds_quest(c)
    assert c.state["content"]["quests"]["hound-trail"]["runemark"] == "cinder-hounds"
    c.do("WarbandFounded", warband="r", name="R", player="Ana", faction="x", quest="hound-trail")
    words = c.refused(
        "QuestDefined",
        quest="hound-trail",
        title="The Hound Trail",
        runemark="other",
        map=c.state["content"]["quests"]["hound-trail"]["map"],
        artefacts_of_power=[{"id": "a", "name": "A", "effect": "e"}],
        command_traits=[{"id": "t", "name": "T", "effect": "e"}],
    )
    assert "its runemark stays cinder-hounds" in words


def test_content_events_are_the_organisers():
    assert set(system.organiser_events) == {
        "FactionsImported",
        "FactionDefined",
        "ProfileDefined",
        "ArtefactDefined",
        "TerritoryDefined",
        "QuestDefined",
    }
    assert system.sides_of({}, "ProfileDefined", {"faction": "x"}) == set()


def test_every_content_event_reads_in_the_audit_log(new_campaign):
    from sentences import sentence_problems

    from tracker.events import Event

    c = hounds_quest(imported(new_campaign()))
    c.do("FactionDefined", faction="kiln-born", name="Kiln-born", runemark="kiln", summary="")
    c.do("TerritoryDefined", territory="salt-pans", name="The Salt Pans", effect="")
    c.do("ArtefactDefined", quest="ember-crown", artefact="k", name="Kiln Key", effect="Opens.")
    c.do(
        "ProfileDefined",
        faction="kiln-born",
        profile="potter",
        name="Potter",
        runemarks=["kiln"],
        points=90,
        movement=4,
        toughness=4,
        wounds=12,
    )
    said = {}
    for type_, data in c.log:
        event = Event(None, "c", 0, type_, system.load(type_, data), {}, None, None)
        said[type_] = words = system.describe(c.state, event)
        assert not sentence_problems(words, type_), (type_, words)
    assert set(said) == set(system.organiser_events)
    assert said["FactionsImported"].startswith(
        "The organiser imported 3 factions (8 fighter profiles) from three-factions.json: "
    )
    assert said["ProfileDefined"] == (
        "The organiser set out the Kiln-born profile Potter: kiln, 90 points, "
        "move 4, toughness 4, wounds 12"
    )
