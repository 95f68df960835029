"""The HTML pages: campaigns, each system's pages, the audit log, the dice, printable sheets.

Views parse, call the service, render: no rule lives here. A system's pages are its templates
(``templates/<system>/<page>.html``); every form on them posts one event, which this module
turns into event data through the event's own schema (tracker.web.forms) and appends.
"""

from __future__ import annotations

import itertools
import re
import secrets
from urllib.parse import urlparse

import msgspec
import segno
from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from jinja2 import TemplateNotFound
from markupsafe import Markup, escape

from tracker import stats, systems
from tracker.accounts import (
    CAMPAIGNS_PER_ACCOUNT_DAY,
    GROUP_USES,
    AccountError,
    OverLimit,
    SeatRefused,
)
from tracker.campaign import CORE_EVENTS, Entry, slug
from tracker.errors import (
    BatchError,
    CampaignExists,
    Conflict,
    InvalidEvent,
    NotFound,
    TrackerError,
)
from tracker.permissions import Forbidden, records_for, seat, sees_side
from tracker.web import entries
from tracker.web.context import (
    accounts,
    actor,
    current_user,
    policy,
    reader_view,
    service,
)
from tracker.web.forms import (
    Failure,
    dice_boxes,
    dice_problems,
    field_labels,
    form_data,
    player_words,
    start_failure,
    typed,
)
from tracker.web.templating import url

bp = Blueprint("pages", __name__)
PAGE = r"[a-z][a-z0-9_-]{0,40}"
# Events on a page of the audit log; the dice page lists as many of the latest rolls.
AUDIT_PAGE = 50


def init_app(app):
    app.register_blueprint(bp)

    app.jinja_env.tests["contains"] = lambda sequence, item: item in sequence
    app.jinja_env.globals["forbidden"] = _forbidden
    app.jinja_env.globals["moved"] = _moved
    app.jinja_env.globals["static_text"] = static_text
    app.jinja_env.globals["kept_fields"] = entries.kept_fields
    app.jinja_env.globals["legal"] = entries.legal
    app.jinja_env.globals["dice_boxes"] = dice_boxes
    # The ways to pick `n` of a hand (the candidates a form asks `legal` about).
    app.jinja_env.globals["combinations"] = itertools.combinations

    app.template_filter("data_json")(data_json)
    app.template_filter("qr_code")(qr_code)

    @app.template_filter("in_fours")
    def in_fours(head: str) -> str:
        """A head hash in groups of four characters, to be read out or photographed."""
        return " ".join(head[i : i + 4] for i in range(0, 64, 4))

    @app.template_filter("join_messages")
    def join_messages(messages) -> str:
        if isinstance(messages, dict):
            return "; ".join(f"{k}: {join_messages(v)}" for k, v in messages.items())
        if isinstance(messages, list):
            return "; ".join(join_messages(m) for m in messages)
        return str(messages)


def data_json(data) -> Markup:
    """An event's data as indented JSON, escaped for HTML (msgspec's encoder: a page of the
    audit log shows a page of these)."""
    return escape(msgspec.json.format(msgspec.json.encode(data), indent=2).decode())


def qr_code(text: str) -> str:
    """A QR code of `text` as an SVG data URI, for an <img> (the page's policy allows
    data: images, never inline script)."""
    return segno.make(text, error="m").svg_data_uri(scale=4, border=2, light="#fff")


def _forbidden(message: str):
    raise Forbidden(message)


def _moved(url: str):
    """From a template: what was asked for is shown at `url` (such as an earlier moment)."""
    abort(redirect(url))


def at_arg() -> int | None:
    text = request.args.get("at", "")
    if not text:
        return None
    if not text.isdigit():
        abort(404, f"?at= takes an event number, not {text!r}")
    return int(text)


def local(url: str | None) -> str | None:
    """`url` when it points inside this site, else None (no open redirects)."""
    if not url:
        return None
    parts = urlparse(url)
    if parts.scheme or parts.netloc or not url.startswith("/") or url.startswith("//"):
        return None
    return url


# -- campaigns ----------------------------------------------------------------------------


# Campaigns on a page of the front page's lists.
LIST_PAGE = 25


def campaign_lists() -> list[dict]:
    """The front page's lists: the visitor's own campaigns, then the samples and the other
    public ones; each by id (A to Z), a page of LIST_PAGE at a time (?mine_after=ID and
    ?mine_before=ID for the first, ?after=ID and ?before=ID for the second), searched by
    name or id with ?q= and by game with ?game=."""
    search, game = _search(), _game()
    user, access = current_user(), accounts()
    lists = []
    if user is not None:
        lists.append(("mine", "Your campaigns", access.member_of_query(user)))
    lists.append(("page", "Samples and public campaigns", access.public_query(user)))
    return [_campaign_list(key, title, among, search, game) for key, title, among in lists]


def _campaign_list(key: str, title: str, among, search: str, game: str) -> dict:
    """One list of the front page: a page of it, with links to the pages around it."""
    prefix = "mine_" if key == "mine" else ""
    after = request.args.get(prefix + "after") or None
    before = None if after else request.args.get(prefix + "before") or None
    rows, more = service().campaign_page(
        [among], search=search, game=game, after=after, before=before, limit=LIST_PAGE
    )
    kept = {k: v for k, v in request.args.items() if k not in (prefix + "after", prefix + "before")}

    def at(**cursor) -> str:
        return url("pages.campaigns", **kept, **{prefix + k: v for k, v in cursor.items()})

    earlier = bool(rows) and (more if before else after is not None)
    later = bool(rows) and (before is not None or more)
    return {
        "key": key,
        "title": title,
        "rows": rows,
        "paged": bool(after or before),
        "first": at(),
        "earlier": at(before=rows[0].id) if earlier else None,
        "later": at(after=rows[-1].id) if later else None,
    }


@bp.get("/")
def campaigns():
    return render_template("campaigns.html", lists=campaign_lists(), **_finding())


def _finding() -> dict:
    """What the front page's search box shows: the words and game looked for, the games;
    and the links of each campaign listed."""
    return {
        "systems": systems.registry(),
        "search": _search(),
        "game": _game(),
        "dashboard_of": lambda cid: url("pages.dashboard", cid=cid),
        "play_on_of": lambda cid: url("pages.play_on", cid=cid),
    }


def _search() -> str:
    return request.args.get("q", "").strip()[:120]


def _game() -> str:
    game = request.args.get("game", "").strip()
    return game if game in systems.registry() else ""


@bp.post("/campaigns")
def start_campaign():
    user = policy().require_user("start a campaign")
    form = request.form
    system_name = form.get("system", "")
    name = form.get("name", "").strip()
    campaign = form.get("campaign", "").strip() or slug(name)
    system, errors, status, headers = None, {}, 422, {}
    try:
        system = systems.get(system_name)
        settings = form_data(system.settings_schema(), form, "settings-")
        started = within_daily_starts(
            user,
            lambda: service().start(
                campaign,
                system_name,
                name,
                settings,
                actor=actor(),
                source="form",
                idempotency_key=form.get("idem") or None,
            ),
        )
    except OverLimit as error:
        message, status, headers = error.message, 429, {"Retry-After": str(error.retry_after)}
    except CampaignExists as error:
        errors, message = {"campaign": [error.message]}, error.message
    except InvalidEvent as error:
        errors, message = error.errors, error.message
    except TrackerError as error:
        message = error.message
    else:
        if not started.replayed:  # a form sent twice by its author changes nothing more
            accounts().add_member(campaign, user, "organiser")
        flash(f"The campaign {name!r} has begun: invite its players from its Members page.")
        return redirect(url_for("pages.dashboard", cid=campaign))
    schema = system.settings_schema() if system is not None else None
    return (
        render_template(
            "campaigns.html",
            lists=campaign_lists(),
            **_finding(),
            failure=start_failure(f"start-{system_name}", schema, errors or {}, message, form),
            start_system=system_name,
            submitted=form,
        ),
        status,
        headers,
    )


def within_daily_starts(user, start):
    """`start()` (which starts a campaign) counted against the campaigns `user` may start in a
    day: `OverLimit` before it when there were as many already (nothing written), and not
    counted when it writes no new campaign (refused, or a retry of an earlier start)."""
    most = current_app.config.get("CAMPAIGNS_PER_ACCOUNT_DAY", CAMPAIGNS_PER_ACCOUNT_DAY)
    mark = accounts().start_allowed(user, most)
    try:
        result = start()
    except BaseException:
        accounts().unstart(mark)
        raise
    if result.replayed:
        accounts().unstart(mark)
    return result


# -- a campaign's pages -------------------------------------------------------------------


class PagePaths:
    """The paths of a campaign's pages, with a query, as `url_for` writes them (the kept
    URLs: a page links to many of the same)."""

    def __init__(self, cid: str):
        self.cid = cid
        self.urls = current_app.extensions["tracker.urls"]
        self.where = self.urls.where()

    def __call__(self, page: str, args: dict) -> str:
        if page == "dashboard":
            endpoint, values = "pages.dashboard", {"cid": self.cid}
        else:
            endpoint, values = "pages.page", {"cid": self.cid, "page": page}
        values.update((name, value) for name, value in args.items() if value is not None)
        return self.urls.built(self.where, endpoint, values)


def context(cid: str, at: int | None = None) -> dict:
    policy().require_read(cid)
    svc = service()
    view = svc.state(cid, at)

    at_page = PagePaths(cid)

    def link(page: str, **args) -> str:
        """A link inside the campaign that keeps looking at the same moment."""
        if not view.is_latest:
            args.setdefault("at", view.version)
        return at_page(page, args)

    now_args = {k: v for k, v in request.args.items() if k != "at"}
    member = accounts().membership(cid, current_user())

    def may_see(side: str) -> bool:
        """Whether the reader may see what only `side`'s player sees (its hand)."""
        return sees_side(member, side)

    return {
        "member": member,
        "may_see": may_see,
        "can_record": member is not None and view.is_latest,
        # Whether the reader may record for a side: a page offers only the forms it may use
        # (in the past, shown off: `can_record`).
        "may_record": lambda side: records_for(member, side),
        "my_latest": lambda: entries.latest_own(cid, member) if view.is_latest else None,
        "link": link,
        "pdf_link": lambda page, **args: url("pages.pdf", cid=cid, page=page, **args),
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


def render_page(cid: str, page: str, status: int = 200, **extra):
    ctx = context(cid, extra.pop("at", at_arg()))
    ctx.update(extra)
    template = f"{ctx['system'].name}/{page}.html"
    try:
        return render_template(template, page=page, **ctx), status
    except TemplateNotFound as missing:
        if missing.name == template:
            abort(404, f"{ctx['system'].title} has no page {page!r}")
        raise


@bp.route("/c/<cid>/", methods=["GET", "POST"])
def dashboard(cid):
    if request.method == "POST":
        return record(cid, "dashboard")
    return render_page(cid, "dashboard")


@bp.route("/c/<cid>/<page>", methods=["GET", "POST"])
def page(cid, page):
    if not re.fullmatch(PAGE, page):
        abort(404)
    if request.method == "POST":
        return record(cid, page)
    return render_page(cid, page)


def record(cid: str, page: str):
    """Append the one event a form describes; on failure, the same page with the error."""
    form = request.form
    svc = service()
    system, _ = svc.system_of(cid)
    type_ = form.get("type", "")
    form_id = form.get("form_id", type_)
    schema = event_schema(system, type_)
    expected = expected_version(form)
    kept = entries.kept_entry(form)
    if kept is not None:  # this form would leave behind an entry typed and refused
        return render_page(cid, page, 422, at=None, failure=kept[0], submitted=kept[1])
    data = form_data(schema, form)
    drawn = system.drawn_fields(type_) if type_ in system.events else {}
    # The dice buttons: "Roll for me" (the server rolls, whatever was typed) or the table's.
    mode = form.get("dice-mode")
    if form.get("back"):  # from the confirmation: the form again, its dice as they were
        failure = Failure(form_id, message=NOT_RECORDED)
        return render_page(cid, page, 200, at=None, failure=failure, submitted=form)
    if mode == "server":
        for name in drawn:
            data.pop(name, None)
    elif problems := dice_problems(schema, form):
        failure = Failure(form_id, problems, labels=field_labels(schema, problems))
        return render_page(cid, page, 422, at=None, failure=failure, submitted=form)
    elif mode == "table" and any(name not in data for name in drawn):
        missing = {name: [NO_DICE] for name in drawn if name not in data}
        failure = Failure(form_id, missing)
        return render_page(cid, page, 422, at=None, failure=failure, submitted=form)
    submission = {"type": type_, "data": data}
    if (words := entries.to_confirm(cid, system, form, [submission])) is not None:
        return confirm_page(cid, page, words, form, request.full_path.rstrip("?"))
    try:
        guard = policy().guard(cid)
        result = svc.append(
            cid,
            [submission],
            expected,
            actor=actor(),
            source="form",
            idempotency_key=form.get("idem") or None,
            guard=guard,
            strict=False,  # two players recording for different sides never conflict
        )
    except (Conflict, BatchError, Forbidden) as error:
        status, failure = refusal(error, schema, type_, form_id)
        if status == 403:  # the page may not show this form to this player: say what it held
            failure["message"] = f"{failure['message']}. {typed(schema, form)}".strip()
        return render_page(cid, page, status, at=None, failure=failure, submitted=form)
    guard.settle(cid)
    entry = svc.recent(cid, 1, result.last_version)[0]
    flash(f"Recorded: {entry.words}.")
    return redirect(local(form.get("next")) or request.full_path.rstrip("?"))


NO_DICE = "choose the face of each die the table rolled, or press Roll for me"
NOT_RECORDED = "Not recorded: change the dice if need be, and send them again."


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
    abort(400, f"{system.title} has no event called {type_!r}")


def expected_version(form) -> int:
    expected = form.get("expected_version", "")
    if not expected.isdigit():
        abort(400, "the form lacks the campaign version it was loaded at; reload the page")
    return int(expected)


def refusal(error: TrackerError, schema, type_: str, form_id: str) -> tuple[int, Failure]:
    """A refused submission as its page shows it: the status, and the words beside the form
    or its fields, in a player's words (a malformed field by its label, a broken rule as the
    rule says it, a conflict as what changed meanwhile)."""
    if isinstance(error, Conflict):
        return 409, Failure(form_id, message=_changed_meanwhile(error))
    inner = error.error if isinstance(error, BatchError) else error
    status = 403 if isinstance(inner, Forbidden) else 422
    if isinstance(inner, InvalidEvent) and inner.errors and inner.message.startswith(type_):
        words, labels = player_words(schema, inner.errors), field_labels(schema, inner.errors)
        return status, Failure(form_id, words, labels=labels)
    return status, Failure(form_id, message=inner.message)


# -- play on: a campaign of one's own, copied from any one may read -------------------------


@bp.route("/c/<cid>/play-on", methods=["GET", "POST"])
def play_on(cid):
    """A signed-in reader branches a new campaign of its own from this one, up to an event."""
    user = policy().require_user("play on from a campaign")
    ctx = context(cid)
    form = request.form if request.method == "POST" else request.args
    upto = form.get("upto", "").strip() or str(ctx["view"].version)
    name = form.get("name", "").strip() or f"{ctx['view'].name}, played on"
    campaign = form.get("campaign", "").strip() or slug(name)
    if not form.get("campaign", "").strip() and service().store.exists(campaign):
        campaign = slug(f"{user.name} {name}")  # another reader played on under this name
    chosen = {"upto": upto, "name": name, "campaign": campaign}
    if request.method == "GET":
        return render_template("play_on.html", page="play-on", chosen=chosen, **ctx)
    errors: dict = {}
    status, headers = 422, {}
    try:
        if not upto.isdigit():
            words = f"Play on from an event number, such as {ctx['view'].version}, not {upto!r}."
            raise InvalidEvent(words, {"upto": [words]})
        within_daily_starts(
            user,
            lambda: service().branch(
                cid, int(upto), campaign, name, actor=actor(), visible=reader_view(cid)
            ),
        )
    except OverLimit as error:
        message, status, headers = error.message, 429, {"Retry-After": str(error.retry_after)}
    except Conflict:
        message = f"there is already a campaign {campaign!r}: choose another short id"
        errors = {"campaign": [message]}
    except InvalidEvent as error:
        message, errors = error.message, error.errors or {}
    except TrackerError as error:
        message = error.message
    else:
        accounts().add_member(campaign, user, "organiser")
        flash(
            f"{name!r} plays on from event {upto} of {ctx['view'].name!r}: it is yours to record."
        )
        return redirect(url_for("pages.dashboard", cid=campaign))
    failure = start_failure("play-on", None, errors, message, form)
    return (
        render_template("play_on.html", page="play-on", chosen=chosen, failure=failure, **ctx),
        status,
        headers,
    )


def _changed_meanwhile(conflict: Conflict) -> str:
    """A form's conflict in words: what changed on the same side while the page was open."""
    meanwhile = (
        "meanwhile, for the same side: " + "; ".join(conflict.changed) + ". "
        if conflict.changed
        else ""
    )
    return (
        "The campaign changed since you loaded this page: "
        + meanwhile
        + "Here it is as it stands now, with what you typed kept: check, then send it again."
    )


# -- members: invitations and who may see the campaign ---------------------------------------


@bp.route("/c/<cid>/members", methods=["GET", "POST"])
def members(cid):
    ctx = context(cid)
    member = ctx["member"]
    organiser = member is not None and member.role == "organiser"
    invitation, refusal, status = None, None, 200
    sides = ctx["system"].sides(ctx["state"])
    if request.method == "POST":
        policy().require_organiser(cid, "invite players or change who may see the campaign")
        action = request.form.get("action", "invite")
        side = request.form.get("side", "").strip() or None
        if side is not None and side not in sides:
            abort(400, f"there is no side {side!r} in this campaign")
        try:
            if action in MEMBER_ACTIONS:
                flash(MEMBER_ACTIONS[action](cid, ctx, side))
                return redirect(url_for("pages.members", cid=cid))
            invitation = _make_invitation(cid, action, side, sides)
        except SeatRefused as refused:
            refusal, status = refused.message, 409
        except AccountError as refused:
            refusal, status = refused.message, 422
    listed = accounts().members(cid)
    return render_template(
        "members.html",
        members=listed,
        players={m.side: m.user.name for m in listed if m.side},
        invitations=accounts().invitations(cid) if organiser else [],
        public=accounts().is_public(cid),
        organiser=organiser,
        invitation=invitation,
        refusal=refusal,
        group_uses=GROUP_USES,
        free=[sid for sid in sides if sid not in {m.side for m in listed}],
        page="members",
        **ctx,
    ), status


def _make_invitation(cid: str, action: str, side: str | None, sides: dict) -> str:
    """A new invitation's code: for one player (`invite`), for a group (`group`, with its
    number of uses), or in place of an open one (`renew`: the same side, or a group link for
    the players it has not let in yet)."""
    if action == "group":
        text = request.form.get("uses", "").strip()
        uses = int(text) if text.isdecimal() and len(text) <= 3 else 0
        if uses < 2:
            raise AccountError(
                f"a group link lets in {GROUP_USES[0]} to {GROUP_USES[-1]} players: "
                "say how many; nothing was made"
            )
        return accounts().invite(cid, current_user(), None, sides, uses)
    if action == "renew":
        number = _number(request.form.get("invitation"))
        found = [i for i in accounts().invitations(cid) if i["id"] == number]
        if not found:
            raise AccountError("that invitation is no longer open: nothing was renewed")
        old = found[0]
        uses = max(GROUP_USES[0], old["uses"] - old["joined"]) if old["uses"] > 1 else 1
        code = accounts().invite(cid, current_user(), old["side"], sides, uses)
        accounts().revoke_invitation(cid, number)
        return code
    return accounts().invite(cid, current_user(), side, sides)


def _number(text: str | None) -> int:
    if not text or not text.isdecimal() or len(text) > 18:
        abort(400, "which one? the form lacks its number; reload the page")
    return int(text)


def _other_member(cid: str):
    """The member a form names (by user id), never the organiser sending it."""
    user = accounts().user(_number(request.form.get("user")))
    if user is None or accounts().membership(cid, user) is None:
        abort(400, "that account is not a member of this campaign")
    if user.id == current_user().id:
        abort(400, "an organiser does not remove itself or change its own side here")
    return user


def _public(cid, ctx, side) -> str:
    accounts().set_public(cid, request.form.get("public") == "on")
    if accounts().is_public(cid):
        return "The campaign is now public: anyone may read it."
    return "The campaign is now private to its members."


def _seat(cid, ctx, side) -> str:
    sides = ctx["system"].sides(ctx["state"])
    if not seat(service(), accounts(), ctx["member"], side, sides):
        return "Your seat is as it was: nothing changed."
    if side:
        name = ctx["system"].sides(ctx["state"])[side]
        return f"You play {name} now: you see only what that seat sees."
    return "You play no side now: you referee and see every card."


def _revoke(cid, ctx, side) -> str:
    accounts().revoke_invitation(cid, _number(request.form.get("invitation")))
    return "The invitation is revoked: its link opens nothing any more."


def _remove(cid, ctx, side) -> str:
    user = _other_member(cid)
    accounts().remove_member(cid, user)
    return f"{user.name} is no longer a member of the campaign."


def _side(cid, ctx, side) -> str:
    user = _other_member(cid)
    accounts().set_side(cid, user, side, ctx["system"].sides(ctx["state"]))
    name = ctx["system"].sides(ctx["state"]).get(side, side) if side else "no side yet"
    return f"{user.name} now plays {name}."


MEMBER_ACTIONS = {
    "public": _public,
    "seat": _seat,
    "revoke": _revoke,
    "remove": _remove,
    "side": _side,
}


# -- audit log, voids and dice: every system alike ----------------------------------------


@bp.get("/c/<cid>/audit")
def audit(cid):
    return _audit_page(context(cid, at_arg()))


def _audit_page(ctx: dict, status: int = 200, **extra):
    """A page of the audit log: AUDIT_PAGE events up to ?upto= (the latest by default), with
    links to the pages before and after it. A page folds from a snapshot, so it costs the
    same on the first day of a campaign and after a hundred thousand events."""
    view, link = ctx["view"], ctx["link"]
    upto = request.args.get("upto", type=int) or view.version
    upto = min(max(upto, 1), view.version)
    entries = service().log_page(ctx["cid"], upto, AUDIT_PAGE, view.version)
    first = entries[0].event.version

    def where(version: int) -> str:
        """Where an event of the log is: on this page, or on the page around it."""
        if first <= version <= upto:
            return f"#e{version}"
        return ctx["audit_at"](version)

    # The campaign as it stood after an event: this prefix and the event's number.
    as_of = url("pages.dashboard", cid=ctx["cid"], at="")
    return render_template(
        "audit.html",
        entries=entries,
        rows=_rows(entries, reader_view(ctx["cid"]), where, as_of),
        earlier=link("audit", upto=first - 1) if first > 1 else None,
        later=link("audit", upto=min(view.version, upto + AUDIT_PAGE))
        if upto < view.version
        else None,
        page="audit",
        **ctx,
        **extra,
    ), status


def _rows(entries: list[Entry], shown, where, as_of: str) -> list[dict]:
    """The rows of a page of the audit log, each as the part that draws it is given it: every
    field as the page shows it (worked out here: a page shows fifty rows)."""
    rows = []
    for entry in entries:
        event = entry.event
        meta = event.meta
        voided_by = entry.voided_by
        voids = event.data.get("version") if event.type == "EventVoided" else None
        rows.append(
            {
                "version": event.version,
                "type": event.type,
                "as_of": f"{as_of}{event.version}",
                "words": entry.words,
                "voided_by": voided_by,
                "voided_at": where(voided_by) if voided_by else None,
                "voids": voids,
                "voids_at": where(voids) if voids is not None else None,
                "data": shown(event),  # the event's data as the reader may see it
                "actor": meta.get("actor", "?"),
                "recorded_at": event.recorded_at,
                "when": event.recorded_at[:19].replace("T", " "),  # UTC, to the second
                "how": str(meta.get("source", "?")).replace("-", " "),  # such as "form"
                "via": meta.get("via"),
                "hash": event.hash,
            }
        )
    return rows


@bp.post("/c/<cid>/audit")
def void(cid):
    """The organiser voids an event, with a reason, from the audit log."""
    form = request.form
    target = form.get("version", "").strip()
    expected = expected_version(form)
    data = {
        "version": int(target) if target.isdigit() else target,
        "reason": form.get("reason", "").strip(),
    }
    try:
        guard = policy().guard(cid)
        service().append(
            cid,
            [{"type": "EventVoided", "data": data}],
            expected,
            actor=actor(),
            source="form",
            idempotency_key=form.get("idem") or None,
            guard=guard,
        )
    except (Conflict, BatchError, Forbidden) as error:
        status, failure = refusal(error, CORE_EVENTS["EventVoided"](), "EventVoided", "void")
        return _audit_page(context(cid), status, failure=failure, submitted=form)
    flash(f"Event {target} was voided.")
    return redirect(url_for("pages.audit", cid=cid))


@bp.get("/c/<cid>/dice")
def dice(cid):
    """Every roll of the campaign, by player and by table, against what fair dice would give."""
    svc = service()
    ctx = context(cid, at_arg())
    tally = svc.dice(cid, ctx["view"].version)  # shared: read, never changed
    tables = []
    for spec, counts in sorted(tally.by_table.items()):
        expected = stats.expected(spec)
        tables.append(_histogram(spec, counts, expected))
    players = [
        _histogram(player, counts, stats.expected("D6"), label="D6 faces")
        for player, counts in sorted(tally.by_player.items())
    ]
    audit_at = ctx["audit_at"]
    rolls = [
        {"version": v, "at": audit_at(v), "type": t, "spec": s, "dice": d, "who": w, "how": h}
        for v, t, s, d, w, h in tally.rolls
    ]
    return render_template(
        "dice.html",
        tables=tables,
        players=players,
        rolls=rolls,
        roll_count=tally.count,
        page="dice",
        **ctx,
    )


# The histograms' drawing: a bar's width and the bars' height, in the SVG's units.
BAR, HEIGHT = 24, 120


def _bar(number: int, value, observed: int, expected: float, top: float) -> dict:
    """One bar of a histogram and where it is drawn (numbers written as the SVG takes them):
    the bar's left and its line's ends, the bar's top and height, the expected count's line,
    the label's centre. A dict: the histogram part is given it (`_histogram.html`)."""
    x, tall = 5 + number * BAR, observed / top * HEIGHT
    line = HEIGHT - expected / top * HEIGHT + 4
    return {
        "value": value,
        "observed": observed,
        "expected": expected,
        "x": str(x + 3),
        "line_from": str(x + 1),
        "line_to": str(x + BAR - 1),
        "y": f"{HEIGHT - tall + 4:.2f}",
        "tall": f"{tall:.2f}",
        "line": f"{line:.2f}",
        "middle": str(x + BAR / 2),
    }


def _histogram(title, counts, expected, label=None):
    statistic, dof, p = stats.chi_square(counts, expected)
    total = sum(counts.values())
    shape = [(k, counts.get(k, 0), total * pr) for k, pr in sorted(expected.items())]
    top = max([o for _, o, _ in shape] + [e for _, _, e in shape] + [1])
    bars = [_bar(number, *bar, top) for number, bar in enumerate(shape)]
    return {
        "title": title,
        "label": label or title,
        "total": total,
        "bars": bars,
        "chi2": statistic,
        "dof": dof,
        "p": p,
        "top": top,
        "width": len(bars) * BAR + 10,
    }


# -- printable pages as PDF -----------------------------------------------------------------


@bp.get("/c/<cid>/pdf/<page>")
def pdf(cid, page):
    if not re.fullmatch(PAGE, page):
        abort(404)
    from weasyprint import HTML

    html, status = render_page(cid, page, pdf=True, paper=request.args.get("paper", "A4"))
    # The page carries its stylesheet inline: nothing is fetched while the PDF is made.
    document = HTML(string=html, url_fetcher=_no_fetching).write_pdf()
    name = f"{cid}-{page}-{request.args.get('warband', '')}".rstrip("-")
    return current_app.response_class(
        document,
        status=status,
        mimetype="application/pdf",
        headers={"Content-Disposition": f'inline; filename="{name}.pdf"'},
    )


def _no_fetching(url, *args, **kwargs):
    raise ValueError(f"a PDF fetches nothing ({url})")


def static_text(name: str) -> str:
    with open(f"{current_app.static_folder}/{name}", encoding="utf-8") as handle:
        return handle.read()


@bp.app_errorhandler(NotFound)
def not_found(error):
    return render_template("error.html", title="Not found", message=error.message), 404
