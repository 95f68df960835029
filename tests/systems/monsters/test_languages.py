"""Monster battles read in the players' languages: a refusal, an audit sentence and a figure's
name from the pack, each translated where it is read (after the catalogues are merged)."""

import pytest

from tracker.errors import RuleViolation
from tracker.systems import i18n
from tracker.systems.i18n import localised
from tracker.systems.monsters import system


def refusal(table, type_, **data) -> RuleViolation:
    with pytest.raises(RuleViolation) as refused:
        table.do(type_, **data)
    return refused.value


def test_a_refusal_keeps_its_english_and_its_message(table):
    table.begin()
    err = refusal(table, "FigurePlaced", battle="b1", piece="alice-bear", at=[3, 2])
    assert str(err) == (
        "the king is placed in its castle before the other figures (Alice's Bear waits)"
    )


def test_the_pack_names_stay_out_of_the_settings_and_reach_the_state(table):
    assert all("i18n" not in figure for figure in table.settings["figures"].values())
    assert all("i18n" not in found for found in table.settings["maps"].values())
    assert table.state["figures"]["bear"]["i18n"]["cs"]["name"] == "Medvěd"


def test_a_figure_renamed_by_the_campaign_keeps_its_own_name(table_factory):
    own = "bear, Grizzly, walker, 7 5"
    table = table_factory({"own_figures": own})
    assert "i18n" not in table.state["figures"]["bear"]
    assert i18n.translate(localised(table.state["figures"]["bear"]), i18n.catalogue("it")) == (
        "Grizzly"
    )


@pytest.mark.catalogued
def test_a_refusal_reads_in_czech(table):
    table.begin()
    err = refusal(table, "FigurePlaced", battle="b1", piece="alice-bear", at=[3, 2])
    words = i18n.translate(err.args[0], i18n.catalogue("cs"))
    assert "Medvěd hráče Alice" in words and "nestvůr" in words


@pytest.mark.catalogued
def test_an_audit_sentence_reads_in_italian_and_polish(table):
    table.do("BattleBegun", battle="b1", map="twin-peaks", first="alice")
    said = table.describe()
    assert str(said) == "Battle b1 began on Twin Peaks; Alice moves first"
    italian = i18n.translate(said, i18n.catalogue("it"))
    assert "Picchi Gemelli" in italian and "battaglia" in italian.lower()
    polish = i18n.translate(said, i18n.catalogue("pl"))
    assert "Bliźniacze Szczyty" in polish and "Bitwa" in polish


def test_a_figure_of_the_pack_reads_in_the_readers_language(table):
    bear = table.state["figures"]["bear"]
    assert i18n.translate(localised(bear, "name"), i18n.catalogue("it")) == "Orso"
    assert i18n.translate(localised(bear, "name"), i18n.catalogue("pl")) == "Niedźwiedź"
    assert i18n.translate(localised(bear, "name"), i18n.catalogue("en")) == "Bear"
    assert system.views.kind_name(table.state, "pigeon") == "Pigeon"
