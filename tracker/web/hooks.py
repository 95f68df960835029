"""A campaign's webhook page, and the one deliverer thread a process runs.

The page (organiser only) sets the address, the happenings to send and the language, shows
the signing secret and the latest deliveries. The deliverer follows the log through the
store's seam (`wait`, `changes`) and calls tracker.webhooks; it starts with the first request
of a process whose database holds a webhook, or when one is saved. An append never waits for
it.
"""

from __future__ import annotations

import logging
import os
import threading
import time

from flask import (
    Blueprint,
    current_app,
    redirect,
    render_template,
    request,
    url_for,
)

from tracker import webhooks
from tracker.service import Service
from tracker.store import open_store
from tracker.systems.base import HAPPENINGS
from tracker.systems.i18n import _
from tracker.web.context import current_user, policy, service, store
from tracker.web.language import capitalised, say
from tracker.web.rendering import context

bp = Blueprint("hooks", __name__)
log = logging.getLogger(__name__)

# How long the deliverer waits for the log to move before it looks at what is due anyway.
POLL_SECONDS = 1.0


def init_app(app) -> None:
    app.register_blueprint(bp)
    # Private and loopback addresses are refused unless the server allows them (a tracker
    # and its receiver on one machine, the tests).
    allow = os.environ.get("TRACKER_WEBHOOKS_ALLOW_PRIVATE", "") not in ("", "0")
    app.config.setdefault("WEBHOOKS_ALLOW_PRIVATE", allow)
    app.config.setdefault("WEBHOOKS_DELIVERER", True)  # off: deliver_pending is called by hand
    app.config.setdefault("PUBLIC_URL", os.environ.get("TRACKER_PUBLIC_URL"))

    @app.before_request
    def deliverer_running():
        if app.extensions.get("tracker.webhooks.looked") != os.getpid():
            app.extensions["tracker.webhooks.looked"] = os.getpid()
            if store().one("SELECT 1 FROM webhooks LIMIT 1"):
                deliverer(app)


@bp.route("/c/<cid>/webhooks", methods=["GET", "POST"])
def page(cid):
    policy().require_organiser(cid, _("see or set the campaign's webhook"))
    ctx = context(cid)
    log_store = store()
    error, typed = {}, None
    if request.method == "POST":
        action = request.form.get("action", "save")
        if action == "save":
            typed = {
                "url": request.form.get("url", ""),
                "happenings": request.form.getlist("happening"),
                "language": request.form.get("language", "en"),
            }
            try:
                webhooks.save(
                    log_store,
                    cid,
                    typed["url"],
                    typed["happenings"],
                    current_user().id,
                    site=_site(),
                    language=typed["language"],
                    allow_private=current_app.config["WEBHOOKS_ALLOW_PRIVATE"],
                )
            except webhooks.WebhookRefused as refused:
                words = capitalised(refused.message)
                error = {refused.field: _("%(refusal)s; nothing was saved.", refusal=words)}
            else:
                deliverer(current_app)
                say(_("The webhook is saved: what happens from now on is sent."))
                return redirect(url_for("hooks.page", cid=cid))
        elif action == "secret":
            webhooks.regenerate(log_store, cid)
            say(_("A new signing secret: every message from now on is signed with it."))
            return redirect(url_for("hooks.page", cid=cid))
        elif action == "remove":
            webhooks.remove(log_store, cid)
            say(_("The webhook is removed: nothing more is sent."))
            return redirect(url_for("hooks.page", cid=cid))
    hook = webhooks.webhook(log_store, cid)
    return render_template(
        "webhooks.html",
        hook=hook,
        typed=typed,
        error=error,
        happenings=HAPPENINGS,
        languages=webhooks.LANGUAGES,
        deliveries=webhooks.deliveries(log_store, cid),
        page="webhooks",
        **ctx,
    ), (400 if error else 200)


def _site() -> str:
    """Where the links of a message point: the configured public address, else this one."""
    return (current_app.config.get("PUBLIC_URL") or request.url_root).rstrip("/")


def member_joined(campaign: str, user, side: str | None) -> None:
    """Tell the campaign's webhook of a new member (when it chose to hear of them). The
    member has joined already: a failure here is logged, never the joiner's answer."""
    try:
        webhooks.member_joined(store(), service(), campaign, user.name, side)
    except Exception:
        log.exception("the new member of %s could not be queued for its webhook", campaign)


# -- the deliverer ----------------------------------------------------------------------------


class Deliverer:
    """One thread of a process: wakes when the log moves (or every second), writes the
    deliveries the new events make, and sends those that are due."""

    def __init__(self, path: str, allow_private: bool):
        self.path, self.allow_private = path, allow_private
        self.pid = os.getpid()
        self.stopping = False
        self.thread = threading.Thread(target=self._run, name="tracker-webhooks", daemon=True)

    def _run(self) -> None:
        try:
            reader = open_store(self.path)
        except Exception:  # the next request of the process starts another
            log.exception("the webhooks' deliverer could not open the database")
            return
        svc = Service(reader)
        try:
            # What came before is found by each webhook's own cursor (the first pass below).
            position = reader.position()
            while not self.stopping:
                try:
                    reader.wait(position, POLL_SECONDS)
                    changes = reader.changes(position)
                    if changes:
                        position = changes[-1][0]
                    webhooks.deliver_pending(reader, allow_private=self.allow_private, service=svc)
                except Exception:  # a passing database error: look again a moment later
                    log.exception("the webhooks' deliverer failed; it tries again")
                    time.sleep(POLL_SECONDS)
                finally:
                    reader.finish_request()
        finally:
            reader.close()


_starting = threading.Lock()


def deliverer(app) -> Deliverer | None:
    """The app's deliverer in this process, started when it is not running yet; None when
    the configuration turns it off."""
    if not app.config["WEBHOOKS_DELIVERER"]:
        return None
    with _starting:
        kept = app.extensions.get("tracker.webhooks")
        if kept is None or kept.pid != os.getpid() or not kept.thread.is_alive():
            kept = Deliverer(app.config["DATABASE"], app.config["WEBHOOKS_ALLOW_PRIVATE"])
            app.extensions["tracker.webhooks"] = kept
            kept.thread.start()
        return kept
