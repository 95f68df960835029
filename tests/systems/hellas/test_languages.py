"""Hellas in the players' languages: refusals, audit lines and the pack's names are read in
the reader's language, whoever recorded them."""

import pytest

from tracker.systems import i18n
from tracker.systems.hellas import system
from tracker.systems.i18n import localised


def test_a_pack_name_in_other_languages_stays_out_of_the_campaign_settings(table):
    settings = system.prepare_settings({"players": [{"id": "ann", "name": "Ann"}]})
    assert "i18n" not in settings["content"]["monsters"]["boar"]
    assert table.state["content"]["monsters"]["boar"]["i18n"]["it"]["name"]


@pytest.mark.catalogued
def test_a_refusal_reads_in_czech(table):
    table.start()
    said = table.refuses("Prayed", "it is Ann's turn, not Bo's", player="bo")
    assert i18n.translate(said, i18n.catalogue("cs")) != said


@pytest.mark.catalogued
def test_an_audit_line_reads_in_polish(table):
    table.start()
    table.play("Prayed", player="ann")
    line = table.words()
    assert line == "Ann prayed and gained 1 priest"
    assert i18n.translate(line, i18n.catalogue("pl")) != line


def test_a_monster_name_reads_in_italian(table):
    boar = table.state["content"]["monsters"]["boar"]
    shown = i18n.translate(localised(boar, "name"), i18n.catalogue("it"))
    assert shown == "Cinghiale Dorsodipietra"


def test_a_quest_step_an_event_and_an_attack_read_in_the_readers_language(table):
    state = table.state
    it, cs = i18n.catalogue("it"), i18n.catalogue("cs")
    step = system.views.quest_step(state, "drowned-bell", 0)
    assert step == "dive for the bell"
    assert i18n.translate(step, it) == "immergersi per la campana"
    card = state["content"]["event_cards"]["pirate-raid"]
    assert i18n.translate(localised(card, "words"), cs) == "každý hráč si lízne 1 bojovou kartu"
    rake = {"name": "a tusk rake", "hero_wounds": 1, "ends_hunt": False, "roll": 3}
    assert i18n.translate(system.views.attack_name(state, "boar", rake), it) == "una zannata"
