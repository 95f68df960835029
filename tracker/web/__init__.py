"""The Flask app factory: the pages and the API over one database."""

from __future__ import annotations

import os
from datetime import timedelta

from flask import Flask, g, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import RequestEntityTooLarge

from tracker import config, systems
from tracker.systems import i18n
from tracker.systems.i18n import _, ngettext
from tracker.web import (
    api,
    auth,
    campaign,
    hooks,
    language,
    live,
    log,
    members,
    parts,
    pwa,
    table,
    templating,
    uploads,
)
from tracker.web.context import Sessions, csrf, current_user, kept, page_flashes
from tracker.web.failures import CORE_LIMITS


def create_app(test_config: dict | None = None) -> Flask:
    app = Flask(
        __name__,
        template_folder=str(config.TEMPLATES),
        static_folder=str(config.STATIC),
    )
    configure(app, test_config)

    @app.teardown_appcontext
    def leave_store(_exc):
        store = g.pop("store", None)
        if store is not None:
            store.finish_request()  # never leave a transaction open on a kept connection

    csrf.init_app(app)
    app.session_interface = Sessions()
    systems.registry()  # every game system imported now, not on a first request

    kept(app)
    # the templates' names, the pages by area, the parts they keep, accounts, API, live streams
    areas = (campaign, log, members, table, uploads)
    for part in (language, templating, *areas, parts, auth, api, live, hooks, pwa):
        part.init_app(app)
    answer_errors(app)

    @app.after_request
    def secure_headers(response):
        # Each added unless the answer set its own (the headers it has, looked at once:
        # werkzeug's `setdefault` raises and catches an exception for each one missing).
        headers = response.headers
        has = {name.lower() for name in headers.keys()}
        for name, value in SECURE_HEADERS:
            if name.lower() not in has:
                headers.add(name, value)
        return response

    @app.context_processor
    def who():
        return {"current_user": current_user()}

    app.jinja_env.globals["core_limits"] = CORE_LIMITS  # the core's forms' limits
    app.jinja_env.globals["page_flashes"] = page_flashes

    @app.template_filter("short")
    def short_hash(value: str) -> str:
        return value[:12]

    return app


def configure(app: Flask, test_config: dict | None) -> None:
    """The app's settings: defaults, then the test's, then what the environment says."""
    app.config.from_mapping(
        DATABASE=config.db_path(),
        ROLLER=None,
        SESSION_HOURS=12,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        # The largest request body read (bytes): a page's form or an API batch is a few
        # kilobytes; a larger body is refused (413) before it is read.
        MAX_CONTENT_LENGTH=BODY_LIMIT,
        # `serve` compiles every template before the workers fork (TRACKER_COMPILE_TEMPLATES=0:
        # each on its first render instead, as the test servers do to start quicker).
        COMPILE_TEMPLATES=os.environ.get("TRACKER_COMPILE_TEMPLATES", "1") != "0",
    )
    for name in LIMITS:
        text = os.environ.get("TRACKER_" + name)
        if text is not None:
            if not text.strip().isdigit():
                raise ValueError(f"TRACKER_{name} is a whole number, not {text!r}")
            app.config[name] = int(text)
    if test_config:
        app.config.from_mapping(test_config)
    app.permanent_session_lifetime = timedelta(hours=app.config["SESSION_HOURS"])
    # Behind https (TRACKER_HTTPS=1, or HTTPS in the config) the session cookie is Secure.
    if app.config.get("HTTPS", os.environ.get("TRACKER_HTTPS", "") not in ("", "0")):
        app.config["SESSION_COOKIE_SECURE"] = True
    if not app.config.get("SECRET_KEY") and os.environ.get("TRACKER_SECRET_KEY"):
        app.config["SECRET_KEY"] = os.environ["TRACKER_SECRET_KEY"]
    # Otherwise the secret is the database's own, read on the first request (`Sessions`):
    # building the app writes nothing anywhere.


def answer_errors(app: Flask) -> None:
    """What a reader is told when a request fails before or inside a view: words, never a
    traceback (the API in JSON, a page as a page)."""

    def answer(status: int, title: str, words: str):
        if request.path.startswith("/api/"):
            message = i18n.translate(words, i18n.reader())
            return {"code": status, "status": HTTP_STATUS[status], "message": message}, status
        return render_template("error.html", title=title, message=words), status

    @app.errorhandler(CSRFError)
    def csrf_error(error):
        return render_template(
            "error.html",
            title=_("This form has expired"),
            message=_(
                "The form was too old or did not come from this site (%(why)s). Reload the "
                "page and send it again.",
                why=error.description,
            ),
        ), 400

    @app.errorhandler(RequestEntityTooLarge)
    def too_large(error):
        size = _size(request.max_content_length or 0)
        if request.path.startswith("/api/"):
            words = _(
                "the request is larger than the %(size)s the tracker reads at once; nothing "
                "was written",
                size=size,
            )
            return answer(413, "", words)
        words = _(
            "The request is larger than the %(size)s the tracker reads at once; nothing was "
            "written.",
            size=size,
        )
        return answer(413, _("This request is too large"), words)

    @app.errorhandler(RecursionError)
    def too_deep(error):
        # A body nested thousands deep: the JSON parser gives up before any view sees it.
        if request.path.startswith("/api/"):
            words = _("the request is nested too deeply to be read; nothing was written")
            return answer(400, "", words)
        words = _("The request is nested too deeply to be read; nothing was written.")
        return answer(400, _("This request cannot be read"), words)

    @app.errorhandler(Exception)
    def unexpected(error):
        app.logger.exception("unexpected error")
        if request.path.startswith("/api/"):
            words = _("the tracker hit an unexpected error; nothing was written")
            return answer(500, "", words)
        return answer(
            500,
            _("Something went wrong"),
            _(
                "The tracker hit an unexpected error; nothing was written. The details are in "
                "the server's log."
            ),
        )


# The limits an operator may set from the environment (TRACKER_<NAME>=a whole number).
LIMITS = (
    "MAX_CONTENT_LENGTH",
    "UPLOAD_LIMIT",
    "LIVE_PER_ADDRESS",
    "LIVE_PER_ACCOUNT",
    "LIVE_PER_PROCESS",
    "LIVE_SLOW_SECONDS",
    "SIGNUPS_PER_ADDRESS_HOUR",
    "CAMPAIGNS_PER_ACCOUNT_DAY",
)

HTTP_STATUS = {400: "Bad Request", 413: "Content Too Large", 500: "Internal Server Error"}

BODY_LIMIT = 2 * 1024 * 1024


def _size(limit: int) -> str:
    if limit >= 1024 * 1024:
        return f"{limit / (1024 * 1024):g} MB"
    if limit >= 1024:
        return f"{max(limit, 1) / 1024:.0f} kB"
    return ngettext("%(num)d byte", "%(num)d bytes", limit)


# No inline script anywhere; styles may be inline (the printable sheets carry theirs).
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'; "
    "frame-ancestors 'none'"
)
SECURE_HEADERS = (
    ("Content-Security-Policy", CSP),
    ("X-Frame-Options", "DENY"),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "same-origin"),
)
