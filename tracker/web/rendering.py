"""A campaign's page as every view renders it: what its template is given (`context`), the
page found by its name in the campaign's system, and a refused form's words beside it.

Views parse, call the service, render: no rule lives here.
"""

from __future__ import annotations

import secrets
from urllib.parse import urlparse

from flask import abort, render_template, request, url_for
from jinja2 import TemplateNotFound

from tracker.campaign import CORE_EVENTS
from tracker.errors import BatchError, Conflict, InvalidEvent, TrackerError
from tracker.permissions import Forbidden, records_for, sees_side
from tracker.systems.i18n import _, listed
from tracker.web import entries
from tracker.web.context import accounts, current_user, policy, service
from tracker.web.failures import Failure, field_labels, player_words
from tracker.web.templating import url

PAGE = r"[a-z][a-z0-9_-]{0,40}"


# Events on a page of the audit log; the dice page lists as many of the latest rolls. Read from
# here by the log area too (`rendering.AUDIT_PAGE`), so the links to a page and the page agree.
AUDIT_PAGE = 50


def at_arg() -> int | None:
    text = request.args.get("at", "")
    if not text:
        return None
    if not text.isdigit():
        abort(404, _("?at= takes an event number, not %(text)r", text=text))
    return int(text)


def local(url: str | None) -> str | None:
    """`url` when it points inside this site, else None (no open redirects)."""
    if not url:
        return None
    parts = urlparse(url)
    if parts.scheme or parts.netloc or not url.startswith("/") or url.startswith("//"):
        return None
    return url


def page_path(cid: str, page: str, args: dict) -> str:
    """The path of a campaign's page, with a query, as `url_for` writes it."""
    values = {name: value for name, value in args.items() if value is not None}
    if page == "dashboard":
        return url_for("campaign.dashboard", cid=cid, **values)
    return url_for("campaign.page", cid=cid, page=page, **values)


def context(cid: str, at: int | None = None) -> dict:
    policy().require_read(cid)
    svc = service()
    view = svc.state(cid, at)

    def link(page: str, **args) -> str:
        """A link inside the campaign that keeps looking at the same moment."""
        if not view.is_latest:
            args.setdefault("at", view.version)
        return page_path(cid, page, args)

    now_args = {k: v for k, v in request.args.items() if k != "at"}
    member = accounts().membership(cid, current_user())

    def may_record(side) -> bool:
        return records_for(member, side)

    def may_see(side: str) -> bool:
        """Whether the reader may see what only `side`'s player sees (its hand)."""
        return sees_side(member, side)

    return {
        "member": member,
        "may_see": may_see,
        "can_record": member is not None and view.is_latest,
        # Whether the reader may record for a side: a page offers only the forms it may use
        # (in the past, shown off: `can_record`).
        "may_record": may_record,
        # What this reader may do next, and what the campaign waits for from others.
        "next_steps": lambda: next_steps(view, member, may_record),
        "my_latest": lambda: entries.latest_own(cid, member) if view.is_latest else None,
        "link": link,
        "pdf_link": lambda page, **args: url("campaign.pdf", cid=cid, page=page, **args),
        "now_url": url(request.endpoint, **(request.view_args or {}), **now_args),
        "cid": cid,
        "view": view,
        "system": view.system,
        "pub": view.system.public_state(view.state),
        "state": view.state,
        "at": at,
        "expected_version": view.latest,
        "idem": secrets.token_urlsafe(12),
        "state_at": lambda version: svc.state(cid, version),
        # The page of the audit log that shows an event, at that event.
        "audit_at": lambda version: (
            link("audit", upto=min(view.version, version + AUDIT_PAGE // 2)) + f"#e{version}"
        ),
        "recent": lambda count=8: svc.recent(cid, count, view.version),
    }


def next_steps(view, member, may_record) -> list[dict]:
    """What the campaign waits for now, as its system's `views.next_steps` says, each step
    marked `yours` when this reader may record it, those first; none for a moment in the
    past (its forms are off) or a game that says nothing of it."""
    helper = getattr(view.system.views, "next_steps", None)
    if helper is None or not view.is_latest:
        return []
    seat, role = (member.side, member.role) if member is not None else (None, None)
    steps = [{**step, "yours": may_record(step["side"])} for step in helper(view.state, seat, role)]
    return sorted(steps, key=lambda step: not step["yours"])


def render_page(cid: str, page: str, status: int = 200, **extra):
    ctx = context(cid, extra.pop("at", at_arg()))
    ctx.update(extra)
    template = f"{ctx['system'].name}/{page}.html"
    _may_show(ctx, page)
    try:
        return render_template(template, page=page, **ctx), status
    except TemplateNotFound as missing:
        if missing.name == template:
            abort(404, _("%(game)s has no page %(page)r", game=ctx["system"].title, page=page))
        raise


def _may_show(ctx: dict, page: str) -> None:
    """Forbidden when the page shows a side's hidden hand the reader may not see."""
    arg = ctx["system"].side_pages.get(page)
    side = request.args.get(arg, "") if arg else ""
    names = ctx["system"].sides(ctx["state"]) if side else {}
    if side in names and not ctx["may_see"](side):
        raise Forbidden(
            _(
                "you may sit only at your own seat: %(side)s's hand is hidden from you",
                side=names[side],
            )
        )


def campaign_language(view) -> str | None:
    """The language the campaign chose for what it shares (its sheets, its PDF, its
    webhooks' messages), a code of `i18n.LANGUAGES`; None when it chose none (each reader's
    own)."""
    return view.language


NOT_RECORDED = _("Not recorded: change the dice if need be, and send them again.")


def confirm_page(cid: str, page: str, words: str, form, action: str):
    """The page that asks once before dice typed at the table lose something for good: what
    will be recorded, in the audit log's words, and the form again in hidden fields with
    "Record it" and a way back (works without script)."""
    ctx = context(cid)
    ctx.update(
        page=page,
        outcome=words,
        pairs=entries.confirm_fields(form),
        action=action,
        confirmed=entries.CONFIRMED,
        submitted=form,
    )
    return render_template("confirm.html", **ctx), 200


def event_schema(system, type_: str):
    """The schema of an event a form may post: one of the system's, or a void."""
    if type_ in system.events:
        return system.schema(type_)
    if type_ in CORE_EVENTS and type_ != "CampaignStarted":
        return CORE_EVENTS[type_]()
    abort(400, _("%(game)s has no event called %(type)r", game=system.title, type=type_))


def expected_version(form) -> int:
    expected = form.get("expected_version", "")
    if not expected.isdigit():
        abort(400, _("the form lacks the campaign version it was loaded at; reload the page"))
    return int(expected)


def refusal(error: TrackerError, schema, type_: str, form_id: str) -> tuple[int, Failure]:
    """A refused submission as its page shows it: the status, and the words beside the form
    or its fields, in a player's words (a malformed field by its label, a broken rule as the
    rule says it, a conflict as what changed meanwhile)."""
    if isinstance(error, Conflict):
        return 409, Failure(form_id, message=_changed_meanwhile(error))
    inner = error.error if isinstance(error, BatchError) else error
    status = 403 if isinstance(inner, Forbidden) else 422
    if isinstance(inner, InvalidEvent) and inner.errors and inner.schema == type_:
        words, labels = player_words(schema, inner.errors), field_labels(schema, inner.errors)
        return status, Failure(form_id, words, labels=labels)
    return status, Failure(form_id, message=inner.message)


def _changed_meanwhile(conflict: Conflict) -> str:
    """A form's conflict in words: what changed on the same side while the page was open."""
    if conflict.changed:
        return _(
            "The campaign changed since you loaded this page: meanwhile, for the same side: "
            "%(changes)s. Here it is as it stands now, with what you typed kept: check, then "
            "send it again.",
            changes=listed(conflict.changed, "; "),
        )
    return _(
        "The campaign changed since you loaded this page: Here it is as it stands now, with "
        "what you typed kept: check, then send it again."
    )
