"""Claim reads in the players' languages: a refusal, an audit sentence and a faction's name
from the deck, each translated where it is read (after the catalogues are merged)."""

import pytest

from tracker.errors import RuleViolation
from tracker.systems import i18n
from tracker.systems.claim import system
from tracker.systems.i18n import localised


def test_the_deck_names_stay_out_of_the_settings_and_reach_the_state(h):
    settings = system.prepare_settings({"players": h.PLAYERS, "deck": "standard"})
    assert all("i18n" not in f for f in settings["factions"]) and "i18n" not in settings
    state = system.initial_state(system.load_settings(settings))
    knights = next(f for f in state["factions"] if f["id"] == "knights")
    assert knights["i18n"]["it"]["name"] == "Cavalieri"


def test_a_hidden_hand_stays_hidden_in_every_language(h):
    state = h.dealt()
    data = {"game": 1, "leader": "ana", "deal": {"hands": {"ana": ["x"], "ben": ["y"]}}}
    seen = system.visible_event_data(state, "GameDealt", data, 2, "ana")
    assert seen["deal"]["hands"]["ana"] == ["x"]
    hidden = seen["deal"]["hands"]["ben"]
    assert "y" not in hidden and hidden == "1 card, hidden"


@pytest.mark.catalogued
def test_a_refusal_reads_in_polish(h):
    state = h.turn_up(h.dealt(leader="ana"))
    card = state["game"]["hands"]["ben"][0]
    with pytest.raises(RuleViolation) as refused:
        h.apply(state, "CardPlayed", game=1, player="ben", card=card)
    said = refused.value.args[0]
    assert str(said).startswith("it is Ana's turn to lead trick 1")
    polish = i18n.translate(said, i18n.catalogue("pl"))
    assert "Ana" in polish and "lew" in polish


@pytest.mark.catalogued
def test_an_audit_sentence_reads_in_czech(h):
    state = h.fresh()
    event = h.event("GameDealt", game=1, leader="ana", deal=h.arrange())
    system.apply(state, event)
    said = system.describe(state, event)
    czech = i18n.translate(said, i18n.catalogue("cs"))
    assert "rozdán" in czech and "Ana" in czech and "13" in czech


@pytest.mark.catalogued
def test_a_card_reads_with_its_faction_in_italian(h):
    state = h.fresh()
    face = system.views.face(state, "knights-7")
    assert str(face["words"]) == "the 7 of Knights"
    assert "Cavalieri" in i18n.translate(face["words"], i18n.catalogue("it"))


def test_a_faction_of_the_deck_reads_in_the_readers_language(h):
    state = h.fresh()
    undead = next(f for f in state["factions"] if f["id"] == "undead")
    assert i18n.translate(localised(undead, "name"), i18n.catalogue("it")) == "Non Morti"
    assert i18n.translate(localised(undead, "name"), i18n.catalogue("cs")) == "Nemrtví"
