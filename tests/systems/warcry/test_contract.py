"""Warcry keeps the systems' contract: a handler and a schema named after it for every event,
`allows` answering with the rule in words and changing nothing, every side seeing all."""

import copy

from tracker.systems.warcry import rules, system, words


def test_every_event_has_a_handler_a_schema_named_after_it_and_its_words():
    assert set(system.handlers) == set(system.events) == set(words.SAYINGS)
    assert system.handlers is rules.handlers
    for event_type, schema in system.events.items():
        assert schema.__name__ == event_type


def test_allows_answers_with_the_rule_in_words_and_changes_nothing(campaign):
    campaign.battle()
    before = copy.deepcopy(campaign.state)
    data = {"warband": "iron", "territory": "Mill"}
    held = campaign.wb("iron")["glory"]
    assert held < 10
    assert system.allows(campaign.state, "TerritoryConquered", data) == (
        f"conquering Mill costs 10 glory and Ironjaws has only {held}"
    )
    assert campaign.state == before
    campaign.wb("iron")["glory"] = 10
    assert system.allows(campaign.state, "TerritoryConquered", data) is None
    assert campaign.wb("iron")["territories"] == []


def test_allows_refuses_an_event_its_schema_refuses_in_words(campaign):
    words_ = system.allows(campaign.state, "TerritoryConquered", {"warband": "iron"})
    assert words_ == "TerritoryConquered: territory: Missing data for required field."


def test_every_side_sees_the_whole_campaign(campaign):
    assert system.visible_state(campaign.state, "iron") is campaign.state
    assert system.visible_state(campaign.state, None) is campaign.state
