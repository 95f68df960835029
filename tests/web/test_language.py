"""The reader's language on the pages: the footer's switch, an account's setting, a page
and an API answer read in Polish, and a campaign's own language for what it shares."""

import re

import pytest
from apiseed import PASSWORD
from logins import csrf_of, logged_in

from tracker.accounts import Accounts
from tracker.campaign import CORE_EVENTS
from tracker.systems import i18n
from tracker.systems.i18n import _
from tracker.web import create_app

NAV = ("Audit log", "Dice", "Members", "Play on")

# The account's language and the campaign's are the core's (a `language` column of users,
# the `LanguageChosen` event): these tests need them merged.
needs_account_language = pytest.mark.skipif(
    not hasattr(Accounts, "set_language"), reason="the core's account language is not merged"
)
needs_campaign_language = pytest.mark.skipif(
    "LanguageChosen" not in CORE_EVENTS, reason="the core's LanguageChosen is not merged"
)


def html_lang(page) -> str:
    return re.search(r'<html lang="([^"]+)"', page.get_data(as_text=True)).group(1)


def nav_of(page) -> str:
    return re.search(r"<nav>(.*?)</nav>", page.get_data(as_text=True), re.S).group(1)


@pytest.fixture
def guarded(tmp_path):
    """An app that checks CSRF tokens, as one serving users does."""
    return create_app(
        {"DATABASE": str(tmp_path / "guarded.db"), "TESTING": True, "SECRET_KEY": "test"}
    )


def test_the_page_says_its_language_as_the_cookie_chose_it(client, sample):
    client.set_cookie("lang", "pl")
    assert html_lang(client.get(f"/c/{sample}/")) == "pl"
    client.set_cookie("lang", "cs")
    assert html_lang(client.get("/")) == "cs"


def test_without_a_choice_the_browser_s_language_is_read(anon):
    assert html_lang(anon.get("/", headers={"Accept-Language": "it-IT,it;q=0.9"})) == "it"
    assert html_lang(anon.get("/", headers={"Accept-Language": "de"})) == "en"


@pytest.mark.catalogued
def test_a_campaign_page_read_in_polish_has_its_navigation_in_polish(client, sample):
    client.set_cookie("lang", "pl")
    nav = nav_of(client.get(f"/c/{sample}/"))
    polish = i18n.catalogue("pl")
    for words in NAV:
        assert f">{words}<" not in nav
        assert i18n.translate(_(words), polish) in nav


def test_the_footer_switch_of_a_reader_sets_only_the_language_cookie(anon, sample):
    answer = anon.get("/language", query_string={"lang": "pl", "next": f"/c/{sample}/dice"})
    assert answer.status_code == 303 and answer.headers["Location"] == f"/c/{sample}/dice"
    cookies = answer.headers.getlist("Set-Cookie")
    assert len(cookies) == 1 and cookies[0].startswith("lang=pl;")
    assert html_lang(anon.get(f"/c/{sample}/dice")) == "pl"


def test_the_footer_switch_goes_back_only_to_a_page_of_this_site(anon):
    answer = anon.get("/language", query_string={"lang": "it", "next": "https://elsewhere/"})
    assert answer.headers["Location"] == "/"


@needs_account_language
def test_a_logged_in_reader_switches_by_a_form_with_its_csrf_token(guarded):
    client = guarded.test_client()
    token = csrf_of(client.get("/signup"))
    client.post("/signup", data={"name": "ola", "password": PASSWORD, "csrf_token": token})
    page = client.get("/")
    footer = re.search(r'<footer class="languages.*?</footer>', page.get_data(as_text=True), re.S)
    assert 'action="/language"' in footer.group(0) and 'name="csrf_token"' in footer.group(0)
    refused = client.post("/language", data={"lang": "cs", "next": "/"})
    assert refused.status_code == 400  # no token: no change
    token = csrf_of(page)
    answer = client.post("/language", data={"lang": "cs", "next": "/", "csrf_token": token})
    assert answer.status_code == 303 and html_lang(client.get("/")) == "cs"


@needs_account_language
def test_the_footer_switch_of_a_logged_in_reader_keeps_the_choice_on_the_account(guarded):
    client = guarded.test_client()
    token = csrf_of(client.get("/signup"))
    client.post("/signup", data={"name": "ola", "password": PASSWORD, "csrf_token": token})
    token = csrf_of(client.get("/"))
    client.post("/language", data={"lang": "it", "next": "/", "csrf_token": token})
    other = logged_in(guarded, "ola", PASSWORD)  # another browser, no cookie of its own
    assert html_lang(other.get("/")) == "it"


@needs_account_language
def test_the_account_page_sets_the_account_s_language(guarded):
    client = guarded.test_client()
    token = csrf_of(client.get("/signup"))
    client.post("/signup", data={"name": "ola", "password": PASSWORD, "csrf_token": token})
    page = client.get("/account")
    assert '<select name="language">' in page.get_data(as_text=True)
    token = csrf_of(page)
    answer = client.post(
        "/account", data={"action": "language", "language": "pl", "csrf_token": token}
    )
    assert answer.status_code == 302
    other = logged_in(guarded, "ola", PASSWORD)
    assert html_lang(other.get("/account")) == "pl"
    answer = client.post(
        "/account", data={"action": "language", "language": "", "csrf_token": token}
    )
    other = logged_in(guarded, "ola", PASSWORD)
    assert html_lang(other.get("/", headers={"Accept-Language": "cs"})) == "cs"


def test_the_account_page_refuses_a_language_it_does_not_speak(client):
    answer = client.post("/account", data={"action": "language", "language": "xx"})
    assert answer.status_code == 400


CSRF_REFUSAL = (
    "an API write with the session cookie needs the page's CSRF token in an X-CSRFToken "
    "header; or send a personal access token"
)


def api_write_without_token(app, language: str):
    client = app.test_client()
    token = csrf_of(client.get("/signup"))
    client.post("/signup", data={"name": "ola", "password": PASSWORD, "csrf_token": token})
    return client.post(
        "/api/campaigns", json={"campaign": "x"}, headers={"Accept-Language": language}
    )


@pytest.mark.catalogued
def test_an_api_refusal_reads_in_the_reader_s_language_with_its_code_kept(guarded):
    answer = api_write_without_token(guarded, "pl")
    body = answer.get_json()
    assert answer.status_code == 403 and body["code"] == 403 and body["status"] == "Forbidden"
    assert body["message"] == i18n.translate(_(CSRF_REFUSAL), i18n.catalogue("pl"))
    assert body["message"] != CSRF_REFUSAL


def test_an_api_refusal_reads_in_english_when_english_is_asked(guarded):
    assert api_write_without_token(guarded, "en").get_json()["message"] == CSRF_REFUSAL


# -- the campaign's language for what it shares -------------------------------------------


def test_only_the_organiser_is_offered_the_campaign_s_language(client, svc, two, app):
    form = "Campaign language for sheets, PDF and webhooks"
    before = svc.store.version(two)
    assert form in client.get(f"/c/{two}/members").get_data(as_text=True)
    player = svc.accounts.sign_up("pia", PASSWORD)
    svc.accounts.add_member(two, player, "player")
    pia = app.test_client()
    pia.post("/login", data={"name": "pia", "password": PASSWORD})
    assert form not in pia.get(f"/c/{two}/members").get_data(as_text=True)
    refused = pia.post(f"/c/{two}/members", data={"action": "language", "language": "pl"})
    assert refused.status_code == 403
    assert svc.store.version(two) == before  # nothing recorded


def test_the_campaign_s_language_must_be_one_the_tracker_speaks(client, two, svc):
    before = svc.store.version(two)
    answer = client.post(f"/c/{two}/members", data={"action": "language", "language": "xx"})
    assert answer.status_code == 400 and svc.store.version(two) == before


@needs_campaign_language
def test_a_campaign_s_pdf_is_in_the_campaign_s_language_whoever_reads_it(
    client, two, svc, monkeypatch
):
    answer = client.post(f"/c/{two}/members", data={"action": "language", "language": "pl"})
    assert answer.status_code == 302
    assert svc.store.event(two, svc.store.version(two)).type == "LanguageChosen"
    made = []

    class Printer:
        def __init__(self, string, url_fetcher):
            made.append(string)

        def write_pdf(self):
            return b"%PDF-1.7"

    monkeypatch.setattr("weasyprint.HTML", Printer)
    warband = next(iter(svc.state(two).system.sides(svc.state(two).state)))
    client.set_cookie("lang", "it")
    pdf = client.get(f"/c/{two}/pdf/roster", query_string={"warband": warband})
    assert pdf.status_code == 200 and 'lang="pl"' in made[0]
    assert html_lang(client.get(f"/c/{two}/roster", query_string={"warband": warband})) == "it"


def test_outside_a_request_the_process_reads_in_its_own_language(app, monkeypatch):
    """The command line's language (the process's reader) still reads once an app is made
    (`serve` says where it serves after making it); a request reads in its reader's."""
    from tracker.systems import i18n

    monkeypatch.setattr(i18n, "_reader", lambda: i18n.catalogue("pl"))
    said = i18n._("serving the tracker on %(url)s (database %(db)s)", url="u", db="d")
    polish = i18n.translate(said, i18n.catalogue("pl"))
    assert polish != str(said)
    assert i18n.translate(said, i18n.reader()) == polish
    with app.test_request_context("/", headers={"Accept-Language": "it"}):
        assert i18n.translate(said, i18n.reader()) == i18n.translate(said, i18n.catalogue("it"))
