"""The reader's language: chosen per request, and every message translated in it.

The language is the account's setting, else the one this browser chose in a page's footer (a
cookie), else the best of the browser's Accept-Language, else English. Flask-Babel holds the
catalogues (tracker/translations) and gives templates `_`, `gettext` and `ngettext`; a
message made by the rules (`tracker.systems.i18n.Said`) is translated where it is shown, in the
reader's language.
"""

from __future__ import annotations

from contextlib import contextmanager
from datetime import datetime
from urllib.parse import urlsplit

from flask import Blueprint, flash, g, has_request_context, redirect, request
from flask_babel import Babel, force_locale, format_datetime, get_locale, get_translations
from markupsafe import Markup

from tracker.systems import i18n
from tracker.web.context import accounts, current_user

COOKIE = "lang"
YEAR = 365 * 24 * 3600

bp = Blueprint("language", __name__)


def chosen() -> str:
    """The language of this request's reader."""
    if "language" in g:
        return g.language
    user = current_user()
    language = getattr(user, "language", None)
    if language not in i18n.LANGUAGES:
        language = request.cookies.get(COOKIE)
    if language not in i18n.LANGUAGES:
        language = request.accept_languages.best_match(list(i18n.LANGUAGES), i18n.DEFAULT)
    g.language = language
    return language


def language() -> str:
    """The request's language as a code for `<html lang>` (en, pl, cs, it)."""
    return str(get_locale() or i18n.DEFAULT)


def here(target: str | None) -> str:
    """Where to go back to after the switch: a path on this site only."""
    parts = urlsplit(target or "")
    if parts.scheme or parts.netloc or not parts.path.startswith("/") or "\\" in target:
        return "/"
    return target


@bp.route("/language", methods=["GET", "POST"])
def switch():
    """The footer's switch: the reader's language for this browser, then back to the page
    they were reading. Logged in, it is a form (POST, with its CSRF token) that sets their
    account's language too; a reader's page has links (GET), which change only this
    browser's cookie, so that the page keeps no token and sets no session."""
    form = request.form if request.method == "POST" else request.args
    lang = form.get("lang", "")
    response = redirect(here(form.get("next")), 303)
    if lang in i18n.LANGUAGES:
        response.set_cookie(COOKIE, lang, max_age=YEAR, samesite="Lax", httponly=True)
        user = current_user()
        if request.method == "POST" and user is not None:
            accounts().set_language(user, lang)
    return response


def translations():
    """The request's translations, its language's code as `language`; outside a request,
    None (the process's reader reads then: the command line's language, or English)."""
    if not has_request_context():
        return None
    found = g.get("_translations")
    if found is None:
        found = g._translations = get_translations()
        found.language = language()
    return found


@contextmanager
def speaking(code: str):
    """Everything said inside in the language `code` (a page shared in its campaign's
    language), the reader's again after."""
    kept = g.pop("_translations", None)
    try:
        with force_locale(code):
            yield
    finally:
        g.pop("_translations", None)
        if kept is not None:
            g._translations = kept


def _now():
    """The translations a template's `_` reads: the request's, else Flask-Babel's."""
    return translations() or get_translations()


def _gettext(string: str, **variables) -> Markup:
    return _said(_now(), string, variables)


def _ngettext(singular: str, plural: str, num: int, **variables) -> Markup:
    return _said_n(_now(), singular, plural, num, variables)


def _said(translations, string: str, variables: dict) -> Markup:
    said = Markup(translations.ugettext(string))
    return said % variables if variables or "%" in said else said


def _said_n(translations, singular: str, plural: str, num: int, variables: dict) -> Markup:
    variables.setdefault("num", num)
    return Markup(translations.ungettext(singular, plural, num)) % variables


def _spoken() -> dict:
    """The translation callables of one page, bound to its translations, found once: the
    page's own names, before the environment's (which look them up again for each of the
    hundred-odd messages of a page; a part, rendered without the page, reads those)."""
    translations = _now()

    def gettext(string: str, **variables) -> Markup:
        return _said(translations, string, variables)

    def ngettext(singular: str, plural: str, num: int, **variables) -> Markup:
        return _said_n(translations, singular, plural, num, variables)

    return {"_": gettext, "gettext": gettext, "ngettext": ngettext}


def words(text) -> str:
    """`text` in the reader's language: a message or a pack's text, or a msgid marked with
    `N_` (a label of a table made at import time)."""
    if isinstance(text, i18n.Said | i18n.Texts):
        return i18n.translate(text, i18n.reader())
    return i18n.reader().gettext(text) if isinstance(text, str) and text else text


def say(message, translations=None) -> None:
    """Flash `message` for the next page, in the reader's language (or in `translations`):
    the session keeps a flash as JSON, so it goes in as the words the reader will read."""
    flash(i18n.translate(message, translations or i18n.reader()))


def capitalised(text) -> str:
    """`text` in the reader's language, its first letter a capital (a label that starts a
    line): translated first, for a translation may start with another word."""
    said = str(words(text) or "")
    return said[:1].upper() + said[1:]


def when(recorded_at: str) -> str:
    """When an event was recorded, in UTC to the second, as the reader's language writes a
    date and a time (Babel's)."""
    try:
        moment = datetime.fromisoformat(recorded_at[:19])
    except ValueError:
        return recorded_at
    return format_datetime(moment, "medium")


def init_app(app) -> None:
    Babel(
        app,
        locale_selector=chosen,
        default_translation_directories=str(i18n.CATALOGUES),
        default_domain=i18n.DOMAIN,
    )
    i18n.read_in_requests(translations)
    # Flask-Babel's callables look the request's translations up again for each message, and
    # Jinja's newstyle ones reach them through two calls of the template's context (a page
    # says over a hundred): these are called straight, a page's own bound once (`_spoken`).
    # Every template is HTML, escaped: a message is markup, the values put in it are escaped.
    app.jinja_env.globals.update(_=_gettext, gettext=_gettext, ngettext=_ngettext)
    app.context_processor(_spoken)
    app.jinja_env.globals["languages"] = i18n.LANGUAGES
    app.jinja_env.globals["page_language"] = language
    app.jinja_env.filters["translated"] = lambda words: i18n.translated(words, i18n.reader())
    app.jinja_env.filters["capitalised"] = capitalised
    app.jinja_env.filters["when"] = when
    app.register_blueprint(bp)
