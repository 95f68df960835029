"""What a group at one table needs beyond one form a press: undoing one's own latest entry,
and a whole step's dice in one press (tracker.web.entries keeps a refused entry until it is
mended or dropped, and finds the defaults the rules accept).

Views parse, call the service, render: the rules (and the core's refusal of a void that later
events depend on) decide; the permission to undo is checked here, on the server, through
tracker.permissions.
"""

from __future__ import annotations

import re

from flask import Blueprint, abort, redirect, request, url_for

from tracker.errors import BatchError, Conflict, RuleViolation
from tracker.permissions import UNDONE, Forbidden
from tracker.systems.i18n import _, listed
from tracker.web import log, rendering
from tracker.web.context import actor, policy, service
from tracker.web.entries import latest_own, to_confirm
from tracker.web.failures import Failure
from tracker.web.forms import dice_problems, form_data
from tracker.web.language import say

bp = Blueprint("table", __name__)


def init_app(app):
    app.register_blueprint(bp)


def _back(cid: str, page: str) -> str:
    """The page a form of `page` came from, with its query (such as ?warband=)."""
    url = rendering.local(request.form.get("next"))
    if url:
        return url
    if page == "audit":
        return url_for("log.audit", cid=cid)
    return url_for("campaign.page", cid=cid, page=page, **request.args)


def _again(cid: str, page: str, status: int, failure: Failure, submitted):
    """The page the form came from again, with the refusal and what was typed."""
    if page == "audit":
        ctx = rendering.context(cid)
        return log.audit_page(ctx, status, failure=failure, submitted=submitted)
    return rendering.render_page(cid, page, status, at=None, failure=failure, submitted=submitted)


@bp.post("/c/<cid>/undo/<page>")
def undo(cid, page):
    """A member undoes its own latest entry (a void "undone by its author"), when nothing
    recorded since depends on it; the page it came from shows why not, otherwise."""
    form = request.form
    expected = rendering.expected_version(form)
    try:
        guard = policy().guard(cid)
        entry = latest_own(cid, guard.member)
        if entry is None or str(entry.event.version) != form.get("version", ""):
            raise Forbidden(
                _(
                    "a player undoes only its own latest entry for its own side, and that one "
                    "is not yours to undo (or no longer your latest): look at the audit log"
                )
            )
        guard.undoing = frozenset({entry.event.version})
        service().append(
            cid,
            [{"type": "EventVoided", "data": {"version": entry.event.version, "reason": UNDONE}}],
            expected,
            actor=actor(),
            source="form",
            idempotency_key=form.get("idem") or None,
            guard=guard,
        )
    except (Conflict, BatchError, Forbidden) as error:
        status, failure = rendering.refusal(error, None, "EventVoided", "undo")
        if isinstance(error, BatchError) and isinstance(error.error, RuleViolation):
            failure["message"] = _undo_refused(cid, entry.words, error.error)
        return _again(cid, page, status, failure, form)
    say(_("Undone: %(words)s.", words=entry.words))
    return redirect(_back(cid, page))


def _undo_refused(cid: str, words: str, refused: RuleViolation) -> str:
    """The core's refusal of a void that a later entry depends on, as a player says it: that
    entry in the audit log's words, and who recorded it."""
    if refused.depends_on is None:
        return _("“%(words)s” cannot be undone: %(reason)s", words=words, reason=refused.message)
    [later] = service().log_page(cid, refused.depends_on, 1)
    return _(
        "“%(words)s” cannot be undone: “%(later)s”, recorded after it by %(who)s, depends on it "
        "(without it, %(reason)s)",
        words=words,
        later=later.words,
        who=later.event.meta.get("actor", "?"),
        reason=refused.reason,
    )


# -- a whole step at once -------------------------------------------------------------------

_ROW = re.compile(r"^e-(\d+)-type$")


@bp.post("/c/<cid>/step/<page>")
def step(cid, page):
    """Several events from one form (rows ``e-0-type``, ``e-0-fighter``, ``e-0-dice`` ...),
    all in one transaction or none: the dice of a whole step, typed in from the table or
    rolled by the server at one press."""
    form = request.form
    svc = service()
    system = svc.system_of(cid)[0]
    form_id = form.get("form_id", "step")
    expected = rendering.expected_version(form)
    rows = sorted(int(m.group(1)) for key in form if (m := _ROW.match(key)))
    if not rows:
        abort(400, _("the form names no events; reload the page"))
    if form.get("back"):  # from the confirmation: the form again, its dice as they were
        return _again(cid, page, 200, Failure(form_id, message=rendering.NOT_RECORDED), form)
    submissions, missing, problems = [], {}, {}
    server = form.get("dice-mode") == "server"
    for row in rows:
        type_ = form[f"e-{row}-type"]
        if type_ not in system.events:
            abort(400, _("%(game)s has no event called %(type)r", game=system.title, type=type_))
        data = form_data(system.schema(type_), form, f"e-{row}-")
        if not server:
            problems.update(dice_problems(system.schema(type_), form, f"e-{row}-"))
        for name in system.drawn_fields(type_):
            if server:
                data.pop(name, None)
            elif name not in data:
                missing[f"e-{row}-{name}"] = [_("Choose the face of each die the table rolled.")]
        submissions.append({"type": type_, "data": data})
    if problems:
        return _again(cid, page, 422, Failure(form_id, problems), form)
    if missing:
        failure = Failure(
            form_id,
            missing,
            _(
                "Every die of the step is typed, or none: type the missing ones, or press Roll "
                "everything owed."
            ),
        )
        return _again(cid, page, 422, failure, form)
    if (words := to_confirm(cid, system, form, submissions)) is not None:
        return rendering.confirm_page(cid, page, words, form, request.full_path.rstrip("?"))
    try:
        guard = policy().guard(cid)
        result = svc.append(
            cid,
            submissions,
            expected,
            actor=actor(),
            source="form",
            idempotency_key=form.get("idem") or None,
            guard=guard,
            strict=False,
        )
    except (Conflict, BatchError, Forbidden) as error:
        return _again(cid, page, *_step_refusal(error, system, submissions, form_id), form)
    entries = svc.recent(cid, len(submissions), result.last_version)
    say(_("Recorded: %(words)s.", words=listed([entry.words for entry in reversed(entries)], "; ")))
    return redirect(_back(cid, page))


def _step_refusal(error, system, submissions, form_id) -> tuple[int, Failure]:
    """A step's refusal: the words of the event that failed, beside its row."""
    if not isinstance(error, BatchError):
        return rendering.refusal(error, None, "", form_id)
    type_ = submissions[error.index]["type"]
    status, failure = rendering.refusal(error, system.schema(type_), type_, form_id)
    failure["fields"] = {
        f"e-{error.index}-{name}": words for name, words in failure["fields"].items()
    }
    return status, failure
