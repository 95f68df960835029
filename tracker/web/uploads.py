"""Files sent from a campaign's pages: a content file (the organiser's) and a roster file
that founds a side. The game says what events a file makes (`content_events`,
`roster_events`); they are appended in one batch through the one write path, with the
reader's permissions, or nothing is written and the page says why.

These forms are multipart; their route alone reads a body up to `UPLOAD_LIMIT` (10 MB),
every other request keeps the app's `MAX_CONTENT_LENGTH`.
"""

from __future__ import annotations

import json

from flask import Blueprint, current_app, redirect, request, url_for

from tracker.errors import BatchError, Conflict, InvalidEvent, TrackerError
from tracker.permissions import Forbidden
from tracker.rosters import read_roster, refused
from tracker.systems.i18n import _, ngettext
from tracker.web import rendering
from tracker.web.context import actor, csrf, policy, service
from tracker.web.failures import Failure
from tracker.web.forms import form_data
from tracker.web.language import say

bp = Blueprint("uploads", __name__)
UPLOAD_LIMIT = 10 * 1024 * 1024


def init_app(app):
    # The app checks a form's CSRF token before any view, reading the body under the app's
    # limit; these views read it under the larger one, then check the token themselves.
    csrf.exempt(bp)
    app.register_blueprint(bp)


def _larger_body() -> None:
    """Read this request's body under `UPLOAD_LIMIT`, then check its CSRF token."""
    request.max_content_length = current_app.config.get("UPLOAD_LIMIT", UPLOAD_LIMIT)
    if current_app.config.get("WTF_CSRF_ENABLED", True):
        csrf.protect()


def _file(name: str) -> tuple[bytes, str]:
    """The bytes and name of the file sent in field `name` (after the larger limit is set)."""
    sent = request.files.get(name)
    if sent is None or not sent.filename:
        raise InvalidEvent(_("choose a file to send"), {name: [_("choose a file")]})
    return sent.read(), sent.filename


def _append(cid: str, events: list[dict], form) -> None:
    guard = policy().guard(cid)
    service().append(
        cid,
        events,
        rendering.expected_version(form),
        actor=actor(),
        source="upload",
        idempotency_key=form.get("idem") or None,
        guard=guard,
        strict=False,
    )
    guard.settle(cid)


def _again(cid: str, page: str, form_id: str, error: TrackerError, words: str | None = None):
    """The page again, with the refusal beside the form that sent the file."""
    if isinstance(error, Conflict):
        status, failure = rendering.refusal(error, None, "", form_id)
    else:
        inner = error.error if isinstance(error, BatchError) else error
        status = 403 if isinstance(inner, Forbidden) else 422
        failure = Failure(form_id, message=words or inner.message)
    return rendering.render_page(
        cid, page, status, at=None, failure=failure, submitted=request.form
    )


@bp.post("/c/<cid>/upload/content/<page>")
def content_file(cid, page):
    """The organiser sends a content file (Warcry: the community's warcry_data fighters)."""
    _larger_body()
    form = request.form
    form_id = "upload-content"
    try:
        policy().require_organiser(cid, _("import content into the campaign"))
        content, filename = _file("content-file")
        try:
            document = json.loads(content.decode("utf-8-sig"))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
            raise InvalidEvent(_("%(file)s is not a JSON file in UTF-8", file=filename)) from None
        system = service().system_of(cid)[0]
        events = system.content_events(document, filename)
        _append(cid, events, form)
    except (Conflict, BatchError, Forbidden, InvalidEvent) as error:
        return _again(cid, page, form_id, error)
    say(_("Imported: %(file)s.", file=filename))
    return redirect(
        rendering.local(form.get("next")) or url_for("campaign.page", cid=cid, page=page)
    )


@bp.post("/c/<cid>/upload/roster/<page>")
def roster_file(cid, page):
    """A side founded from a roster file (BattleScribe / New Recruit .ros or .rosz): the
    side and its fighters in one batch, or nothing."""
    _larger_body()
    form = request.form
    form_id = "upload-roster"
    events = []
    try:
        content, filename = _file("roster")
        roster = read_roster(content, filename)
        svc = service()
        system = svc.system_of(cid)[0]
        # The founding's fields, read by its event's schema as any form's (an id left empty
        # is made from the name); a game without that event takes no roster file anyway.
        type_ = form.get("type", "")
        founding = form_data(system.schema(type_), form) if type_ in system.events else {}
        events = system.roster_events(svc.state(cid).state, roster, founding)
        _append(cid, events, form)
    except BatchError as error:
        words = None if isinstance(error.error, Forbidden) else refused(error, events)
        return _again(cid, page, form_id, error, words)
    except (Conflict, Forbidden, InvalidEvent) as error:
        return _again(cid, page, form_id, error)
    say(
        ngettext(
            "Founded from %(file)s: %(name)s, %(num)d fighter.",
            "Founded from %(file)s: %(name)s, %(num)d fighters.",
            len(events) - 1,
            file=filename,
            name=founding.get("name") or _("a warband"),
        )
    )
    return redirect(rendering.local(form.get("next")) or url_for("campaign.dashboard", cid=cid))
