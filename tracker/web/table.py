"""What a group at one table needs beyond one form a press: undoing one's own latest entry,
a whole step's dice in one press, and an entry typed and refused kept until it is mended or
dropped on purpose.

Views parse, call the service, render: the rules (and the core's refusal of a void that later
events depend on) decide; the permission to undo is checked here, on the server, through
tracker.permissions.
"""

from __future__ import annotations

import re

from flask import Blueprint, abort, flash, redirect, request, url_for
from werkzeug.datastructures import MultiDict

from tracker.errors import BatchError, Conflict, RuleViolation
from tracker.permissions import UNDONE, Forbidden, own_entry
from tracker.web.context import actor, policy, service
from tracker.web.forms import Failure, form_data

bp = Blueprint("table", __name__)
# How far back in the log a member's own latest entry is looked for.
UNDO_REACH = 200
# The fields of a form that say how it was sent, not what was typed.
_HOW = {"csrf_token", "type", "form_id", "expected_version", "idem", "next", "dice-mode"}


def latest_own(cid: str, member):
    """The member's own latest entry that it may undo (an audit log `Entry`), or None."""
    if member is None:
        return None
    svc = service()
    view = svc.state(cid)
    for entry in svc.recent(cid, UNDO_REACH, view.version):
        if entry.voided_by is None and own_entry(member, view.system, view.state, entry.event):
            return entry
    return None


def _back(cid: str, page: str) -> str:
    """The page a form of `page` came from, with its query (such as ?warband=)."""
    from tracker.web import pages

    url = pages.local(request.form.get("next"))
    if url:
        return url
    if page == "audit":
        return url_for("pages.audit", cid=cid)
    return url_for("pages.page", cid=cid, page=page, **request.args)


def _again(cid: str, page: str, status: int, failure: Failure, submitted):
    """The page the form came from again, with the refusal and what was typed."""
    from tracker.web import pages

    if page == "audit":
        ctx = pages.context(cid)
        return pages._audit_page(ctx, status, failure=failure, submitted=submitted)
    return pages.render_page(cid, page, status, at=None, failure=failure, submitted=submitted)


@bp.post("/c/<cid>/undo/<page>")
def undo(cid, page):
    """A member undoes its own latest entry (a void "undone by its author"), when nothing
    recorded since depends on it; the page it came from shows why not, otherwise."""
    from tracker.web import pages

    form = request.form
    expected = pages.expected_version(form)
    try:
        guard = policy().guard(cid)
        entry = latest_own(cid, guard.member)
        if entry is None or str(entry.event.version) != form.get("version", ""):
            raise Forbidden(
                "a player undoes only its own latest entry for its own side, and that one is "
                "not yours to undo (or no longer your latest): look at the audit log"
            )
        guard.undoing = entry.event.version
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
        status, failure = pages.refusal(error, None, "EventVoided", "undo")
        if isinstance(error, BatchError) and isinstance(error.error, RuleViolation):
            failure["message"] = _undo_refused(entry.words, error.error.message)
        return _again(cid, page, status, failure, form)
    flash(f"Undone: {entry.words}.")
    return redirect(_back(cid, page))


def _undo_refused(words: str, message: str) -> str:
    """The core's refusal of a void that later events depend on, as a player says it."""
    why = re.search(r"depends on it \((.*)\)$", message)
    reason = f": without it, {why.group(1)}" if why else f" ({message})"
    return f"“{words}” cannot be undone, for what was recorded after it depends on it{reason}"


# -- a whole step at once -------------------------------------------------------------------

_ROW = re.compile(r"^e-(\d+)-type$")


@bp.post("/c/<cid>/step/<page>")
def step(cid, page):
    """Several events from one form (rows ``e-0-type``, ``e-0-fighter``, ``e-0-dice`` ...),
    all in one transaction or none: the dice of a whole step, typed in from the table or
    rolled by the server at one press."""
    from tracker.web import pages

    form = request.form
    svc = service()
    system, _ = svc.system_of(cid)
    form_id = form.get("form_id", "step")
    expected = pages.expected_version(form)
    rows = sorted(int(m.group(1)) for key in form if (m := _ROW.match(key)))
    if not rows:
        abort(400, "the form names no events; reload the page")
    submissions, missing = [], {}
    for row in rows:
        type_ = form[f"e-{row}-type"]
        if type_ not in system.events:
            abort(400, f"{system.title} has no event called {type_!r}")
        data = form_data(system.schema(type_), form, f"e-{row}-")
        for name in system.drawn_fields(type_):
            if form.get("dice-mode") == "server":
                data.pop(name, None)
            elif name not in data:
                missing[f"e-{row}-{name}"] = ["Type this die from the table."]
        submissions.append({"type": type_, "data": data})
    if missing:
        failure = Failure(form_id, missing, "Every die of the step is typed, or none: ")
        failure["message"] += "type the missing ones, or press Roll everything owed."
        return _again(cid, page, 422, failure, form)
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
    flash("Recorded: " + "; ".join(entry.words for entry in reversed(entries)) + ".")
    return redirect(_back(cid, page))


def _step_refusal(error, system, submissions, form_id) -> tuple[int, Failure]:
    """A step's refusal: the words of the event that failed, beside its row."""
    from tracker.web import pages

    if not isinstance(error, BatchError):
        return pages.refusal(error, None, "", form_id)
    type_ = submissions[error.index]["type"]
    status, failure = pages.refusal(error, system.schema(type_), type_, form_id)
    failure["fields"] = {
        f"e-{error.index}-{name}": words for name, words in failure["fields"].items()
    }
    return status, failure


# -- an entry typed and refused is not left behind unseen ---------------------------------


def kept_entry(form) -> tuple[Failure, MultiDict] | None:
    """When a form (such as "Continue") carries an entry that was typed and refused on the
    same page (``kept-form`` and its ``kept-<field>`` values), and the player did not choose
    to drop it (``drop-kept``): the refusal to show beside that entry again, and its values
    as typed. Otherwise None: the form goes on."""
    kept_form = form.get("kept-form")
    if not kept_form or form.get("drop-kept"):
        return None
    values = MultiDict(
        (key[5:], value)
        for key, values in form.lists()
        if key.startswith("kept-") and key != "kept-form"
        for value in values
    )
    failure = Failure(
        kept_form,
        message=(
            "What you typed here was refused and is not recorded: mend it and send it again, "
            "or go on without it (Continue without it)."
        ),
    )
    return failure, values


def kept_fields(failure, submitted) -> list[tuple[str, str]]:
    """What a page carries on in its "Continue" form of an entry typed and refused there:
    (name, value) pairs of hidden fields. Empty when nothing was refused."""
    if not failure or submitted is None or failure["form"] in ("complete", "undo"):
        return []
    pairs = [("kept-form", failure["form"])]
    for key, values in submitted.lists():
        if key not in _HOW and not key.startswith(("kept-", "drop-")):
            pairs += [(f"kept-{key}", value) for value in values]
    return pairs


# -- defaults that are legal choices ------------------------------------------------------


def legal(system, state, event_type: str, data: dict, choices: dict) -> dict:
    """The first choice, for each select of a form (`choices`: field -> its options in the
    order shown), that the rules accept together with `data`, asked of the rules themselves
    (`system.allows`); {} when they accept none (the page then keeps the first options)."""
    names = list(choices)

    def combos(i: int, chosen: dict):
        if i == len(names):
            yield chosen
            return
        for value in choices[names[i]]:
            yield from combos(i + 1, {**chosen, names[i]: value})

    for chosen in combos(0, {}):
        if system.allows(state, event_type, {**data, **chosen}) is None:
            return chosen
    return {}
