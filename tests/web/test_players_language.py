"""A club in Kraków, Brno or Bologna, as issue 39 tells it: a Polish name signs up, starts a
campaign and founds a warband with names of its own letters; ids are spelled in Latin, the
names shown as typed; the roster's PDF speaks Polish with its letters right; and what a Czech
player records, or is refused, reads in Italian to an Italian reader."""

import io

import pytest
from pagetools import form, text, version
from pypdf import PdfReader

from tracker.accounts import Accounts
from tracker.errors import BatchError
from tracker.repository import words as worded
from tracker.store import open_store
from tracker.systems import i18n

PASSWORD = "a long enough secret"


def signed_up(app, name, language):
    client = app.test_client()
    client.set_cookie("lang", language)
    answer = client.post("/signup", data={"name": name, "password": PASSWORD})
    assert answer.status_code == 302, text(answer)
    return client


@pytest.mark.catalogued
def test_a_polish_club_keeps_its_names_and_reads_its_roster_sheet_in_polish(app):
    marta = signed_up(app, "marta-ł", "pl")
    assert "marta-ł" in text(marta.get("/account"))
    started = marta.post(
        "/campaigns",
        data={
            "system": "warcry",
            "name": "Żar Korony — wtorki",
            "settings-pack": "sample",
            "settings-quest": "ember-crown",
        },
    )
    assert started.status_code == 302 and started.location.endswith("/c/zar-korony-wtorki/")
    store = open_store(app.config["DATABASE"])
    at = store.version("zar-korony-wtorki")
    founded = marta.post(
        "/c/zar-korony-wtorki/",
        data=form(
            "WarbandFounded",
            at,
            warband="",
            name="Škvárová smečka",
            player="Marta Łęcka",
            faction="Cinderborn Reavers",
        ),
    )
    assert founded.status_code == 302, text(founded)
    [event] = store.read("zar-korony-wtorki", after=at)
    assert event.data["warband"] == "skvarova-smecka"
    dashboard = text(marta.get("/c/zar-korony-wtorki/"))
    assert "Żar Korony — wtorki" in dashboard and "Škvárová smečka" in dashboard
    assert "Marta Łęcka" in dashboard

    members = marta.post(
        "/c/zar-korony-wtorki/members", data={"action": "language", "language": "pl"}
    )
    assert members.status_code == 302
    marta.set_cookie("lang", "it")  # whoever prints it, the campaign's sheet is in Polish
    pdf = marta.get("/c/zar-korony-wtorki/pdf/roster?warband=skvarova-smecka")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    words = " ".join(
        " ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf.data)).pages
    )
    assert "Škvárová smečka" in words and "Marta Łęcka" in words
    polish = i18n.catalogue("pl").gettext("Player")
    assert polish != "Player" and polish.upper() in words.upper()
    assert " PLAYER " not in f" {words.upper()} " and "Żaru" in words
    store.close()


@pytest.mark.catalogued
def test_what_a_czech_player_records_or_is_refused_reads_in_italian_to_an_italian_reader(
    app, svc, two
):
    store = open_store(app.config["DATABASE"])
    accounts = Accounts(store)
    tomas = signed_up(app, "Tomáš", "cs")
    bianca = signed_up(app, "bianca", "it")
    for name in ("Tomáš", "bianca"):
        accounts.add_member(two, accounts.by_name(name), "organiser")
    store.close()
    czech, italian = i18n.catalogue("cs"), i18n.catalogue("it")

    # A warband whose id is taken: refused to each in their own words.
    taken = {"warband": "iron", "name": "Kocouři", "player": "T", "faction": "Sea"}
    refusal = refused(svc, two, taken)
    for reader, language in ((tomas, czech), (bianca, italian)):
        page = reader.post(f"/c/{two}/", data=form("WarbandFounded", version(svc, two), **taken))
        assert page.status_code == 422
        assert i18n.translate(refusal, language) in text(page)
    assert i18n.translate(refusal, italian) != i18n.translate(refusal, czech)

    # Recorded by the Czech player: the audit log words it in Italian for the Italian reader.
    mine = {**taken, "warband": "kocouri"}
    recorded = tomas.post(f"/c/{two}/", data=form("WarbandFounded", version(svc, two), **mine))
    assert recorded.status_code == 302
    view = svc.state(two)
    sentence = worded(view.system, view.state, svc.store.event(two, view.version))
    assert i18n.translate(sentence, italian) != str(sentence)
    assert i18n.translate(sentence, italian) in text(bianca.get(f"/c/{two}/audit"))
    assert i18n.translate(sentence, czech) in text(tomas.get(f"/c/{two}/audit"))


def refused(svc, campaign, data):
    """The rules' refusal of founding this warband, as a message (nothing is written)."""
    with pytest.raises(BatchError) as refusal:
        svc.append(campaign, [{"type": "WarbandFounded", "data": data}], version(svc, campaign))
    return refusal.value.message.params["error"]
