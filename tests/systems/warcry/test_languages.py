"""The Warcry campaign in the players' language: its refusals, its audit sentences, its pack's
names and its pages read in Polish, Czech and Italian; ids from names in any alphabet.

The tests marked `catalogued` read the shipped catalogues, so they pass once the
translations are merged into tracker/translations."""

import copy

import pytest

from tracker import config
from tracker.accounts import Accounts
from tracker.dice import SeededRoller
from tracker.events import Event
from tracker.service import Service
from tracker.store import open_store
from tracker.systems import i18n
from tracker.systems.i18n import localised
from tracker.systems.warcry import system, words
from tracker.systems.warcry.packs import factions_imported, slug
from tracker.web import create_app


def in_(language, words_):
    return i18n.translate(words_, i18n.catalogue(language))


# -- ids from names in any alphabet -------------------------------------------------------------


@pytest.mark.parametrize(
    "name, expected",
    [
        ("Cinder Hounds", "cinder-hounds"),
        ("Škvárová smečka", "skvarova-smecka"),
        ("Żar Korony — wtorki", "zar-korony-wtorki"),
        ("Tomáš", "tomas"),
        ("!!!", "faction"),
    ],
)
def test_an_id_from_a_name_transliterates_its_letters_rather_than_dropping_them(name, expected):
    assert slug(name) == expected


def test_an_id_from_a_long_name_keeps_to_63_characters_and_ends_on_a_letter():
    made = slug("Žluťoučký kůň " * 10)
    assert len(made) <= 63 and not made.endswith("-")


def test_a_faction_of_a_czech_name_imports_under_its_transliterated_id():
    fighter = {
        "_id": "f1",
        "name": "Vůdce",
        "warband": "Škvárová smečka",
        "movement": 4,
        "toughness": 4,
        "wounds": 20,
        "weapons": [],
        "runemarks": ["leader"],
        "points": 200,
    }
    assert list(factions_imported([fighter])["factions"]) == ["skvarova-smecka"]


# -- the pack's words in other languages ------------------------------------------------------


def test_the_packs_versions_stay_out_of_the_log_but_the_state_reads_them():
    settings = system.prepare_settings({"quest": "ember-crown"})
    assert "i18n" not in repr(settings), "the log (and its hashes) keeps no versions"
    state = system.initial_state(copy.deepcopy(settings))
    faction = state["content"]["factions"]["cinderborn-reavers"]
    assert faction["name"] == "Cinderborn Reavers"
    name = localised(faction, "name")
    assert name == "Cinderborn Reavers"
    assert i18n.translate(name, i18n.catalogue("it")) == "Predoni Nati dalla Cenere"
    assert i18n.translate(name, i18n.catalogue("pl")) == "Łupieżcy Zrodzeni z Żużlu"
    quest = state["content"]["quests"]["ember-crown"]
    assert i18n.translate(localised(quest["map"][0]), i18n.catalogue("cs")) == "Škvárová brána"


def test_a_name_the_organiser_changed_keeps_no_translation_of_the_old_one(new_campaign):
    c = new_campaign()
    c.do(
        "FactionDefined",
        faction="cinderborn-reavers",
        name="Kiln Reavers",
        runemark="cinderborn",
        summary="",
    )
    faction = c.state["content"]["factions"]["cinderborn-reavers"]
    assert i18n.translate(localised(faction, "name"), i18n.catalogue("pl")) == "Kiln Reavers"


def test_every_name_and_summary_of_the_sample_pack_comes_in_every_language():
    pack = system._pack("sample")
    entries = [pack, *pack["lesser_artefacts"]]
    for quest in pack["quests"].values():
        entries += [quest, quest["reward"], *quest["map"]]
        entries += [*quest["artefacts_of_power"], *quest["command_traits"]]
    for faction in pack["factions"].values():
        entries += [faction, *faction["profiles"].values()]
    for entry in entries:
        for key in ("title", "name", "summary", "effect", "text"):
            if entry.get(key):
                for language in ("pl", "cs", "it"):
                    assert entry["i18n"][language][key], (language, key, entry[key])


# -- refusals and audit sentences, read in the reader's language ------------------------------


@pytest.mark.catalogued
def test_a_refusal_reads_in_polish_czech_and_italian(campaign):
    refused = campaign.refused("FighterRemoved", warband="iron", fighter="iron-boss")
    assert refused == "the leader can never be removed (Ironjaws Boss leads Ironjaws)"
    assert in_("pl", refused) == "lidera nie można usunąć (Ironjaws Boss prowadzi Ironjaws)"
    assert in_("cs", refused) == "vůdce nelze nikdy odebrat (Ironjaws Boss vede Ironjaws)"
    assert in_("it", refused) == "il capo non può mai essere rimosso (Ironjaws Boss guida Ironjaws)"


@pytest.mark.catalogued
def test_a_refusal_naming_a_step_reads_its_step_in_the_readers_language(campaign):
    campaign.battle(winner="iron", down_crow=["crow-1"])
    refused = campaign.refused("SearchRolled", warband="crow", dice=[3, 4])
    assert "step 2 (injury rolls) comes first" in refused
    assert "najpierw krok 2 (losowanie obrażeń)" in in_("pl", refused)
    assert "nejdřív krok 2 (hody na zranění)" in in_("cs", refused)


@pytest.mark.catalogued
def test_an_audit_sentence_reads_in_czech_and_italian(campaign):
    campaign.battle(winner="iron", down_crow=["crow-1"])
    campaign.do("InjuryRolled", warband="crow", fighter="crow-1", dice=[1, 1])
    said = words.describe(
        campaign.state,
        Event(None, "c", campaign.version, "InjuryRolled", campaign.log[-1][1], {}, None, None),
    )
    assert said == "Crowmarch's Crowmarch 1 was slain: injury roll 1+1"
    assert in_("cs", said) == "Crowmarch 1 (Crowmarch) padl: hod na zranění 1+1"
    assert in_("it", said) == "Crowmarch 1 di Crowmarch è stato ucciso: tiro ferite 1+1"


@pytest.mark.catalogued
def test_a_glory_line_reads_with_its_plural_in_polish(campaign):
    campaign.battle(winner=None, down_crow=["crow-1", "crow-2", "crow-3", "crow-4"])
    cause = campaign.state["battles"][0]["glory"]["iron"][-1]["cause"]
    assert cause == "took down 4 of 5 enemy fighters (2 thirds)"
    assert in_("pl", cause) == "wyeliminowanie 4 z 5 wrogich wojowników (2 trzecie części)"


# -- a page ---------------------------------------------------------------------------------------


@pytest.fixture
def reader(tmp_path):
    """A client of a member of the Warcry sample campaign, and the campaign's id."""
    app = create_app(
        {
            "DATABASE": str(tmp_path / "web.db"),
            "TESTING": True,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "ROLLER": SeededRoller(11),
        }
    )
    store = open_store(app.config["DATABASE"])
    store.init()
    accounts = Accounts(store)
    accounts.init()
    member = accounts.sign_up("marta", "a-long-password")
    service = Service(store, SeededRoller(5))
    sample = config.SAMPLES / "warcry-ember-crown.jsonl"
    [result] = service.import_lines(sample.read_text(encoding="utf-8").splitlines())
    accounts.add_member(result.campaign, member, "player")
    client = app.test_client()
    client.post("/login", data={"name": "marta", "password": "a-long-password"})
    yield client, result.campaign
    store.close()


@pytest.mark.catalogued
def test_the_warbands_page_reads_in_polish(reader):
    client, cid = reader
    client.set_cookie("lang", "pl")
    page = client.get(f"/c/{cid}/").get_data(as_text=True)
    assert '<html lang="pl">' in page
    assert "Załóż bandę" in page and "Found a warband" not in page
    assert "Punkty Chwały" in page


@pytest.mark.parametrize(
    "language, title, start",
    [("pl", "Korona Żaru", "Brama Żużlu"), ("cs", "Žhavá koruna", "Škvárová brána")],
)
def test_the_quest_map_and_the_quests_read_in_the_packs_words(reader, language, title, start):
    """The dashboard's quests (`views.quest_maps`): each title in the quest select and on the
    map, and each point of the map, in the pack's words for the reader's language."""
    client, cid = reader
    client.set_cookie("lang", language)
    page = client.get(f"/c/{cid}/").get_data(as_text=True)
    maps = "".join(part.split("</figure>")[0] for part in page.split('class="quest-map"')[1:])
    assert f"<strong>{title}</strong>" in maps  # the map's caption
    assert f">{start}</text>" in maps  # its first point
    assert "The Cinder Gate" not in maps and "The Ember Crown" not in maps
    assert f'<option value="ember-crown" selected>{title} (' in page
