"""The Flask app factory: pages, API and command line over one database."""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from datetime import timedelta

from flask import Flask, current_app, g, render_template, request, session
from flask.sessions import SecureCookieSessionInterface
from flask_wtf.csrf import CSRFProtect

from tracker import config, systems
from tracker.accounts import Accounts, User
from tracker.permissions import Policy
from tracker.service import Service
from tracker.store import Store

csrf = CSRFProtect()


def create_app(test_config: dict | None = None) -> Flask:
    app = Flask(
        __name__,
        template_folder=str(config.TEMPLATES),
        static_folder=str(config.STATIC),
    )
    app.config.from_mapping(
        DATABASE=config.db_path(),
        ROLLER=None,
        SESSION_HOURS=12,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
    )
    if test_config:
        app.config.from_mapping(test_config)
    app.permanent_session_lifetime = timedelta(hours=app.config["SESSION_HOURS"])
    # Behind https (TRACKER_HTTPS=1, or HTTPS in the config) the session cookie is Secure.
    if app.config.get("HTTPS", os.environ.get("TRACKER_HTTPS", "") not in ("", "0")):
        app.config["SESSION_COOKIE_SECURE"] = True
    if not app.config.get("SECRET_KEY") and os.environ.get("TRACKER_SECRET_KEY"):
        app.config["SECRET_KEY"] = os.environ["TRACKER_SECRET_KEY"]
    # Otherwise the secret is the database's own, read on the first request (`_Sessions`):
    # building the app writes nothing anywhere.

    @app.teardown_appcontext
    def leave_store(_exc):
        store = g.pop("store", None)
        if store is not None and store.conn.in_transaction:
            store.conn.rollback()  # never leave a transaction open on a kept connection

    from flask_wtf.csrf import CSRFError

    csrf.init_app(app)
    app.session_interface = _Sessions()
    systems.registry()  # every game system imported now, not on a first request

    from tracker.web import auth, pages

    pages.init_app(app)
    auth.init_app(app)
    from tracker.web import api, direct

    api.init_app(app)
    # The API's append, in its usual case, is served without Flask's layers: see direct.py.
    app.wsgi_app = direct.DirectAppend(app.wsgi_app, app)

    @app.after_request
    def secure_headers(response):
        headers = response.headers
        headers.setdefault("Content-Security-Policy", CSP)
        headers.setdefault("X-Frame-Options", "DENY")
        headers.setdefault("X-Content-Type-Options", "nosniff")
        headers.setdefault("Referrer-Policy", "same-origin")
        return response

    @app.context_processor
    def who():
        return {"current_user": current_user()}

    @app.errorhandler(CSRFError)
    def csrf_error(error):
        return render_template(
            "error.html",
            title="This form has expired",
            message="The form was too old or did not come from this site "
            "(" + error.description + "). Reload the page and send "
            "it again.",
        ), 400

    @app.errorhandler(RecursionError)
    def too_deep(error):
        # A body nested thousands deep: the JSON parser gives up before any view sees it.
        words = "the request is nested too deeply to be read; nothing was written"
        if request.path.startswith("/api/"):
            return {"code": 400, "status": "Bad Request", "message": words}, 400
        return render_template(
            "error.html", title="This request cannot be read", message=words.capitalize() + "."
        ), 400

    @app.errorhandler(Exception)
    def unexpected(error):
        app.logger.exception("unexpected error")
        if request.path.startswith("/api/"):
            return {
                "code": 500,
                "status": "Internal Server Error",
                "message": "the tracker hit an unexpected error; nothing was written",
            }, 500
        return render_template(
            "error.html",
            title="Something went wrong",
            message="The tracker hit an unexpected error; nothing was "
            "written. The details are in the server's log.",
        ), 500

    @app.template_filter("short")
    def short_hash(value: str) -> str:
        return value[:12]

    return app


# No inline script anywhere; styles may be inline (the printable sheets carry theirs).
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'; "
    "frame-ancestors 'none'"
)


def bearer(req) -> str | None:
    """The API token an API call brings, or None (pages never take a token)."""
    if not req.path.startswith("/api/"):
        return None
    header = req.headers.get("Authorization", "")
    return header[7:].strip() if header.startswith("Bearer ") else None


class _Sessions(SecureCookieSessionInterface):
    """Signed cookie sessions, signed with the database's own secret; an API call that
    brings a token has no session (the token is its session)."""

    def get_signing_serializer(self, app):
        if not app.secret_key:
            app.secret_key = app.config["SECRET_KEY"] = accounts().secret()
        return super().get_signing_serializer(app)

    def open_session(self, app, request):
        if bearer(request) is not None:
            return self.make_null_session(app)
        return super().open_session(app, request)


_kept = threading.local()


def store() -> Store:
    """The store of this worker thread, opened once and kept.

    Closing the last connection to a WAL database checkpoints it, which costs disk syncs:
    a connection kept per thread (and per database file) spares every request that cost.
    """
    if "store" not in g:
        g.store = kept_store(current_app.config["DATABASE"])
    return g.store


def kept_store(path: str) -> Store:
    """This thread's store of the database at `path`, opened once and kept."""
    kept = getattr(_kept, "stores", None)
    if kept is None:
        kept = _kept.stores = OrderedDict()
    if path not in kept:
        opened = Store(path)
        opened.init()
        Accounts(opened.conn).init()
        kept[path] = opened
        while len(kept) > 4:  # a few files at most (tests open many)
            kept.popitem(last=False)[1].close()
    kept.move_to_end(path)
    return kept[path]


def service() -> Service:
    return Service(store(), current_app.config["ROLLER"])


def accounts() -> Accounts:
    return Accounts(store().conn)


def current_user() -> User | None:
    """The account behind this request: an API token, else the logged-in session."""
    if "user" in g:
        return g.user
    user = None
    token = bearer(request)
    if token is not None:
        user = accounts().token_user(token)
    elif "sid" in session:
        # The session lives on the server: logging out (or a new password) ends it there.
        user = accounts().session_user(session["sid"])
        if user is None:
            session.clear()
    g.user = user
    return user


def log_in(user: User) -> None:
    """Start a server-side session for `user` in a fresh cookie."""
    session.clear()
    session.permanent = True
    session["sid"] = accounts().open_session(user, current_app.config["SESSION_HOURS"])


def log_out() -> None:
    """End this session on the server, then forget the cookie."""
    if "sid" in session:
        accounts().end_session(session["sid"])
    session.clear()


def policy() -> Policy:
    return Policy(accounts(), current_user())


def actor() -> str:
    user = current_user()
    return user.name if user else "anonymous"
