"""A reader who may not record gets the campaign's forms shown off, without a CSRF token, and
no cookie; a member who may record gets the token in every form."""

from logins import logged_in

from tracker.accounts import Accounts
from tracker.store import open_store

TOKEN = 'name="csrf_token"'


def _public(app) -> None:
    store = open_store(app.config["DATABASE"])
    Accounts(store).set_public("c", True)
    store.close()


def test_a_reader_gets_the_forms_off_without_a_token_and_no_cookie(app, roles, client):
    _public(app)
    for path in ("/c/c/", "/c/c/warband?warband=iron", "/c/c/battle-new"):
        page = client.get(path)
        assert page.status_code == 200, path
        assert "<form" not in page.text or "disabled" in page.text, path  # shown off
        assert TOKEN not in page.text, path
        assert "Set-Cookie" not in page.headers, path


def test_a_member_who_may_record_gets_the_token_in_every_form(app, roles):
    _public(app)
    organiser = logged_in(app, "org")
    page = organiser.get("/c/c/")
    assert page.status_code == 200
    forms = page.text.count("<form")
    assert forms >= 2 and page.text.count(TOKEN) == forms  # the log-out form's among them
