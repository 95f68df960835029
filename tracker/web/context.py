"""What a request works with: its database, its service, its account and its rights.

The pages, the API and the account pages take these from here; the app factory
(`tracker.web.create_app`) wires them up.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from flask import current_app, g, get_flashed_messages, request, session
from flask.sessions import SecureCookieSessionInterface
from flask_wtf.csrf import CSRFProtect

from tracker import webhooks
from tracker.accounts import Accounts, User
from tracker.permissions import Policy, sees_all
from tracker.repository import Projections
from tracker.service import Service
from tracker.store import Store, is_url, open_store

csrf = CSRFProtect()


def kept(app) -> Projections:
    """What the app's process keeps of campaigns, shared by every request's service."""
    found = app.extensions.get("tracker.kept")
    if found is None:  # made once: the first request of the app (setdefault: one wins)
        found = app.extensions.setdefault("tracker.kept", Projections(app.config.get("KEPT", 64)))
    return found


def bearer(req) -> str | None:
    """The API token an API call brings, or None (pages never take a token)."""
    if not req.path.startswith("/api/"):
        return None
    header = req.headers.get("Authorization", "")
    return header[7:].strip() if header.startswith("Bearer ") else None


class Sessions(SecureCookieSessionInterface):
    """Signed cookie sessions, signed with the database's own secret; an API call that
    brings a token has no session (the token is its session)."""

    def get_signing_serializer(self, app):
        _secret(app)
        return super().get_signing_serializer(app)

    def open_session(self, app, request):
        if bearer(request) is not None:
            return self.make_null_session(app)
        if not request.cookies.get(self.get_cookie_name(app)):
            # Nothing to read (a first visit, a reader who never logged in): an empty
            # session, and no signer made for it. The secret is still read now: the CSRF
            # token of a form on the page is signed with it.
            _secret(app)
            return self.session_class()
        return super().open_session(app, request)

    def should_set_cookie(self, app, session) -> bool:
        # A fetch aside never writes the session: started before a post of the same browser
        # answered, it would put back the cookie as it was and lose what the post left in it
        # (the flash that says what was recorded).
        if fetched_aside():
            return False
        return super().should_set_cookie(app, session)


def fetched_aside() -> bool:
    """Whether this request is one a page makes beside the pages a person opens: a live
    refresh (htmx), or the offline page the service worker keeps when it installs. Such a
    request neither shows the flashes nor writes the session: both belong to the page the
    person opens next, which may be loading at the same moment."""
    return bool(request.headers.get("HX-Request")) or request.endpoint == "pwa.offline"


def page_flashes() -> list:
    """The flashes this page shows (and so takes from the session): none on a fetch aside."""
    return [] if fetched_aside() else get_flashed_messages()


def _secret(app) -> None:
    """The app's secret, the database's own unless the config names one: read once."""
    if not app.secret_key:
        app.secret_key = app.config["SECRET_KEY"] = accounts().secret()


_kept = threading.local()


def store() -> Store:
    """The store of this worker thread, opened once and kept.

    Closing the last connection to a WAL database checkpoints it, which costs disk syncs:
    a connection kept per thread (and per database file) spares every request that cost.
    """
    if "store" not in g:
        g.store = kept_store(current_app.config["DATABASE"])
    return g.store


_shared: OrderedDict[str, Store] = OrderedDict()
_shared_lock = threading.Lock()


def kept_store(path: str) -> Store:
    """This thread's store of the SQLite database at `path`, opened once and kept; or this
    process's store of a PostgreSQL database (its connections pooled for every thread)."""
    if is_url(path):
        with _shared_lock:
            if path not in _shared:
                _shared[path] = _opened(path)
                while len(_shared) > 4:  # a few databases at most (tests open many)
                    _shared.popitem(last=False)[1].close()
            _shared.move_to_end(path)
            return _shared[path]
    kept = getattr(_kept, "stores", None)
    if kept is None:
        kept = _kept.stores = OrderedDict()
    if path not in kept:
        kept[path] = _opened(path)
        while len(kept) > 4:  # a few files at most (tests open many)
            kept.popitem(last=False)[1].close()
    kept.move_to_end(path)
    return kept[path]


def _opened(path: str) -> Store:
    opened = open_store(path)
    opened.init()
    Accounts(opened).init()
    webhooks.init(opened)
    return opened


def service() -> Service:
    return Service(store(), current_app.config["ROLLER"], kept=kept(current_app))


def accounts() -> Accounts:
    return Accounts(store())


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


def reader_view(cid: str):
    """A function giving an event's data as the current reader may see it now.

    An organiser who plays no side reads everything; players, an organiser in a seat and
    onlookers read what the game shows them (a deal in progress shows only the reader's own
    hand)."""
    member = accounts().membership(cid, current_user())
    if sees_all(member):
        return lambda event: event.data
    latest = service().state(cid)
    side = member.side if member else None

    def shown(event):
        if event.type not in latest.system.events:
            return event.data
        return latest.system.visible_event_data(
            latest.state, event.type, event.data, event.version, side
        )

    return shown
