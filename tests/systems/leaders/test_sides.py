"""The sides of a Leaders campaign: the two players, what an event acts for, what each sees."""

from __future__ import annotations

from leaders_table import ALICE, BOB, Table

from tracker.systems.leaders import system, visible_event_data, visible_state


def test_the_sides_are_the_two_players_and_an_event_acts_for_its_player():
    table = Table()
    assert system.sides(table.state) == {ALICE: "Alice", BOB: "Bob"}
    assert system.sides_of(table.state, "CharacterMoved", {"player": BOB}) == {BOB}
    assert system.sides_of(table.state, "NemesisMoved", {"player": ALICE}) == {ALICE}
    assert system.sides_of(table.state, "FirstPlayerDrawn", {"first": BOB}) == set()
    assert system.sides_of(table.state, "MatchStarted", {"match": "m1"}) == set()


def test_the_order_of_the_face_down_deck_is_hidden_while_the_match_is_on():
    table = Table().start()
    seen = visible_state(table.state, ALICE)
    assert "deck" not in seen["match"] and seen["match"]["deck_size"] == 13
    assert seen["match"]["row"] == ["acrobat", "rider", "colossus"]
    assert "deck" in table.match  # the state itself is untouched
    assert system.public_state(table.state)["match"]["deck_size"] == 13
    data = {"deck": ["a", "b", "c", "d", "e"]}
    assert visible_event_data(table.state, "DeckShuffled", data, version=3) == {
        "row": ["a", "b", "c"],
        "deck_size": 2,
    }
