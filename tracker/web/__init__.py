"""The Flask app factory: pages, API and command line over one database."""

from __future__ import annotations

import os
import secrets
import threading
import time
from collections import OrderedDict
from datetime import timedelta
from pathlib import Path

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
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = os.environ.get("TRACKER_SECRET_KEY") or _secret(app)

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


class _Sessions(SecureCookieSessionInterface):
    """Cookie sessions, except for calls that bring an API token: a token is the session."""

    def open_session(self, app, request):
        if request.headers.get("Authorization", "").startswith("Bearer "):
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
    header = request.headers.get("Authorization", "")
    if header.startswith("Bearer "):
        user = accounts().token_user(header[7:].strip())
    elif "user_id" in session:
        started = session.get("since", 0)
        lifetime = current_app.config["SESSION_HOURS"] * 3600
        if time.time() - started < lifetime:
            user = accounts().user(session["user_id"])
        else:
            session.clear()
    g.user = user
    return user


def policy() -> Policy:
    return Policy(accounts(), current_user())


def actor() -> str:
    user = current_user()
    return user.name if user else "anonymous"


def _secret(app: Flask) -> str:
    """A random secret kept beside the database, made on first use."""
    path = Path(app.config["DATABASE"]).with_name("secret_key")
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        key = secrets.token_hex(32)
        path.write_text(key)
        path.chmod(0o600)
        return key
