"""The content a campaign starts with (quests, maps, tables, factions): what cannot be
played is refused at the start."""

import copy

import pytest

from tracker.errors import RuleViolation
from tracker.systems.warcry import system


def with_content(new_campaign, change):
    """A campaign whose content was changed by `change(content)` before it started."""
    c = new_campaign()
    settings = copy.deepcopy(system.prepare_settings({"quest": "ember-crown"}))
    change(settings["content"])
    c.state = system.initial_state(settings)
    return c


def test_content_that_cannot_be_played_is_refused_at_the_start():
    from tracker.errors import RuleViolation
    from tracker.systems.warcry import system

    settings = system.prepare_settings({"quest": "ember-crown"})
    settings["content"]["quests"]["ember-crown"]["map"].pop()
    with pytest.raises(RuleViolation, match="its map has 11 points, not 12"):
        system.initial_state(settings)


def test_the_order_of_map_points_is_the_quests_data(new_campaign):
    def trait_first(content):
        points = content["quests"]["ember-crown"]["map"]
        points[1], points[4] = points[4], points[1]  # a command trait at the first step

    c = with_content(new_campaign, trait_first)
    c.warband("iron", "Ironjaws").warband("crow", "Crowmarch")
    c.battle()
    c.to_step("iron", 6)
    assert c.step("iron") == 7 and c.wb("iron")["aftermath"]["reward"] == "trait"


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda m: m.__setitem__(3, {"name": "x", "kind": "plain"}), "2 convergence points"),
        (lambda m: m.__setitem__(0, {"name": "x", "kind": "plain"}), "begin at a start"),
        (lambda m: m.__setitem__(11, {"name": "x", "kind": "plain"}), "end at the goal"),
    ],
)
def test_a_quest_map_has_a_start_three_convergence_points_and_a_goal(change, words):
    settings = copy.deepcopy(system.prepare_settings({"quest": "ember-crown"}))
    change(settings["content"]["quests"]["ember-crown"]["map"])
    with pytest.raises(RuleViolation, match=words):
        system.initial_state(settings)


def test_a_lesser_artefact_without_an_effect_text_is_refused_at_the_start(new_campaign):
    def no_effect(content):
        del content["lesser_artefacts"][1]["effect"]  # Flask of Red Brine, 21-22

    with pytest.raises(RuleViolation, match="a lesser artefact entry lacks its 'effect'"):
        with_content(new_campaign, no_effect)


def test_a_nothing_found_entry_needs_no_name_or_is_refused_in_words(new_campaign):
    def no_name(content):
        del content["lesser_artefacts"][0]["name"]  # 11-16, finds nothing

    try:
        c = with_content(new_campaign, no_name)
    except RuleViolation:
        return
    c.warband("iron", "Ironjaws").warband("crow", "Crowmarch")
    c.battle()
    c.to_step("iron", 5)
    c.do("SearchRolled", warband="iron", dice=[1, 1])
    assert c.wb("iron")["aftermath"]["found"] == []


def test_content_with_a_faction_without_profiles_is_refused(new_campaign):
    settings = system.prepare_settings({"quest": "ember-crown"})
    settings["content"]["factions"]["empty"] = {"name": "Empty", "profiles": {}}
    with pytest.raises(Exception, match="the faction 'Empty' cannot be played: it has no fighter"):
        system.initial_state(settings)


def test_the_sample_pack_holds_at_least_three_quests():
    assert len(system.quests("sample")) >= 3
