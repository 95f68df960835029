"""Leaders in the players' language: a refusal, an audit sentence and a button read in Polish,
Czech and Italian, the sample content's names in the reader's language, and the versions
per language kept out of what a campaign records."""

import pytest
from leaders_table import ALICE, BOB, PLAYERS, QUEEN, Table, arranged

from tracker.errors import RuleViolation
from tracker.systems import i18n
from tracker.systems.i18n import localised
from tracker.systems.leaders import names, system


def refusal(table: Table, event_type: str, **data) -> str:
    with pytest.raises(RuleViolation) as refused:
        table.do(event_type, **data)
    return refused.value.message


def in_(language: str, words) -> str:
    return i18n.translate(words, i18n.catalogue(language))


@pytest.mark.catalogued
def test_a_leaders_refusal_reads_in_polish_czech_and_italian():
    table = Table()
    table.do("MatchStarted", match="m1")
    table.do("LeaderChosen", player=ALICE, leader=QUEEN)
    said = refusal(table, "LeaderChosen", player=BOB, leader=QUEEN)
    assert said == "the Ember Queen is already Alice's Leader"
    assert in_("pl", said) == "Królowa Żaru jest już Liderem gracza Alice"
    assert in_("cs", said) == "Královna žáru už je vůdcem hráče Alice"
    assert in_("it", said) == "la Regina di Brace è già il Leader di Alice"


@pytest.mark.catalogued
def test_a_leaders_audit_sentence_reads_in_the_readers_language():
    table = arranged({"colossus": (ALICE, (0, 0)), "rider": (BOB, (1, 0))})
    table.use(ALICE, "colossus", (2, 0), target="rider")
    said = system.describe(table.state, table.last_event)
    assert in_("it", said) == (
        "Vecchia Macina (Colosso di Alice) ha spinto Corvin della Lunga Strada (Cavaliere di "
        "Bob) in (2, 0) e ha preso il suo spazio (1, 0)"
    )
    assert "Kolos hráče Alice" in in_("cs", said)
    assert "Jeździec gracza Bob" in in_("pl", said)


@pytest.mark.catalogued
def test_a_won_match_and_an_ability_help_read_in_czech():
    table = arranged({"rider": (ALICE, (-1, -2)), "claw": (ALICE, (2, -3))})
    table.move(ALICE, "claw", (1, -3))
    said = system.describe(table.state, table.last_event)
    assert in_("cs", said).endswith("; Alice vyhrává partii m1 zajetím")
    assert in_("cs", system.views.ability_help("vizier")).startswith("Vezír (platí vždy): ")


def test_a_pack_name_reads_in_the_readers_language():
    pack = names._characters()
    assert i18n.translate(localised(pack["the Hook"], "name"), i18n.catalogue("it")) == ("l'Uncino")
    assert i18n.translate(names.named("the Hook"), i18n.catalogue("pl")) == "Hak"
    assert i18n.translate(names.named("the Hook", capital=True), i18n.catalogue("it")) == (
        "L'Uncino"
    )
    assert names.named("the Hook", capital=True) == "The Hook"


def test_a_renamed_character_keeps_its_own_name_in_every_language():
    assert i18n.translate(names.named("Hooky"), i18n.catalogue("cs")) == "Hooky"


def test_board_titles_come_in_every_language_of_the_pack():
    titles = system.content_packs()
    assert titles["default"].startswith("The hexagon of 37 spaces")
    assert i18n.translate(titles["wide-gates"], i18n.catalogue("cs")).startswith("Šestiúhelník")
    board = Table().state["board"]
    assert i18n.translate(names.board_title(board), i18n.catalogue("it")).startswith("L'esagono")


def test_a_campaign_records_its_content_without_the_versions_per_language():
    settings = system.prepare_settings({"players": PLAYERS, "board": "default"})
    assert "i18n" not in repr(settings)
    every = [*settings["characters"]["leaders"], settings["board"]]
    every += [p for card in settings["characters"]["cards"] for p in card["pieces"]]
    assert all("i18n" in entry for entry in [*names._characters().values()])
    assert not any("i18n" in entry for entry in every)
