"""Leaders keeps the systems' contract: a handler and a schema named after it for every event,
`allows` answering with the rule in words and changing nothing."""

import copy

from leaders_table import ALICE, BOB, QUEEN, Table

from tracker.systems.leaders import rules, system


def test_every_event_has_a_handler_and_a_schema_named_after_it():
    assert set(system.handlers) == set(system.events)
    assert system.handlers is rules.handlers
    for event_type, schema in system.events.items():
        assert schema.__name__ == event_type


def test_allows_answers_with_the_rule_in_words_and_changes_nothing():
    table = Table()
    table.do("MatchStarted", match="m1")
    table.do("LeaderChosen", player=ALICE, leader=QUEEN)
    before = copy.deepcopy(table.state)
    refused = system.allows(table.state, "LeaderChosen", {"player": BOB, "leader": QUEEN})
    assert refused and "Ember Queen" in refused
    assert table.state == before
    assert (
        system.allows(table.state, "LeaderChosen", {"player": BOB, "leader": "grey-regent"}) is None
    )
    assert table.state == before
