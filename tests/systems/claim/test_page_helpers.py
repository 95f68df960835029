"""Unit tests of the helpers Claim's pages call: the next deal, what a player may play and
why, cards as faces, piles by faction, and the event that settled each trick."""

from tracker.events import Event
from tracker.systems.claim import system


def test_the_first_game_to_deal_is_game_1(h, state):
    assert system.views.next_game(state) == 1


def test_no_game_is_to_be_dealt_while_one_is_under_way(h):
    assert system.views.next_game(h.dealt()) is None


def test_the_game_after_a_finished_one_is_the_next_number(h):
    state = h.dealt()
    while not state["game"]["over"]:
        h.play_trick(state)
    assert system.views.next_game(state) == 2


def test_the_leader_is_told_it_may_lead_any_card(h):
    state = h.turn_up(h.dealt(leader="ana"))
    assert system.views.play_hint(state, "ana") == "lead any card of your hand"
    assert system.views.play_hint(state, "ben") is None


def test_nobody_is_told_to_play_before_the_card_is_turned_up(h):
    state = h.dealt(leader="ana")
    assert (
        system.views.play_hint(state, "ana") is None
        and system.views.play_hint(state, "ben") is None
    )


def test_a_follower_holding_the_led_faction_is_told_to_follow_it_or_play_a_doppelganger(h):
    state = h.turn_up(h.dealt(ana=["knights-5"], ben=["knights-3"]))
    h.play(state, "ana", "knights-5")
    assert (
        system.views.play_hint(state, "ben") == "follow Knights, or play one of your Doppelgangers"
    )


def test_a_follower_void_in_the_led_faction_is_told_it_may_play_any_card(h):
    state = h.turn_up(h.dealt(ana=["knights-5"], void={"ben": ["knights"]}))
    h.play(state, "ana", "knights-5")
    assert system.views.play_hint(state, "ben") == "you hold no Knights: play any card"


def test_a_led_doppelganger_is_to_be_followed_by_a_doppelganger(h):
    state = h.turn_up(h.dealt(ana=["doppelgangers-5"], ben=["doppelgangers-1"]))
    h.play(state, "ana", "doppelgangers-5")
    assert (
        system.views.play_hint(state, "ben") == "a Doppelganger was led: follow with a Doppelganger"
    )


def test_a_card_face_gives_its_faction_names_and_value(state):
    assert system.views.face(state, "dwarves-7") == {
        "card": "dwarves-7",
        "faction": "dwarves",
        "name": "Dwarves",
        "one": "Dwarf",
        "value": 7,
        "words": "the 7 of Dwarves",
    }


def test_a_hidden_card_has_no_face(state):
    face = system.views.face(state, None)
    assert face["card"] is None and face["faction"] is None and face["words"] == "a hidden card"


def test_a_pile_is_sorted_by_faction_in_deck_order_then_value(state):
    groups = system.views.by_faction(state, ["undead-3", "goblins-9", "undead-1", "goblins-0"])
    assert groups == [
        {"faction": "goblins", "name": "Goblins", "cards": ["goblins-0", "goblins-9"]},
        {"faction": "undead", "name": "Undead", "cards": ["undead-1", "undead-3"]},
    ]


def _event(version, type_, **data):
    return Event(None, "t", version, type_, data, {}, None, None)


def test_each_trick_is_settled_by_the_second_card_played_to_it():
    events = [
        _event(2, "GameDealt", game=1),
        _event(3, "CardTurnedUp", game=1),
        _event(4, "CardPlayed", game=1, player="ana", card="goblins-0"),
        _event(5, "CardPlayed", game=1, player="ben", card="goblins-9"),
        _event(6, "CardTurnedUp", game=1),
        _event(7, "CardPlayed", game=1, player="ben", card="undead-0"),
        _event(9, "CardPlayed", game=1, player="ana", card="goblins-1"),
        _event(10, "CardPlayed", game=2, player="ana", card="goblins-1"),
    ]
    assert system.views.trick_versions(events, 1) == [5, 9]
    assert system.views.trick_versions(events, 2) == []


def test_an_empty_factions_list_from_a_form_gets_the_chosen_deck(h):
    settings = system.prepare_settings({"players": h.PLAYERS, "deck": "standard", "factions": []})
    assert len(settings["factions"]) == 5 and settings["hand_size"] == 13


def test_settings_that_hold_their_factions_are_left_unchanged(h):
    held = h.settings()
    assert system.prepare_settings(held) is held
