"""Hellas in the players' languages: refusals, audit lines and the pack's names are read in
the reader's language, whoever recorded them."""

import pytest

from tracker import i18n
from tracker.i18n import localised
from tracker.systems.hellas import system


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
