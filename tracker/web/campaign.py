"""The campaign area's pages: the front page and a campaign's start, a game's own pages (its
templates, ``templates/<system>/<page>.html``) and the one event each of their forms posts,
playing on from a campaign, and a printable page as PDF.

Views parse, call the service, render: no rule lives here. A form's fields become event data
through the event's own schema (tracker.web.forms).
"""

from __future__ import annotations

import re

from flask import (
    Blueprint,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    url_for,
)

from tracker import systems
from tracker.accounts import CAMPAIGNS_PER_ACCOUNT_DAY, OverLimit
from tracker.campaign import slug
from tracker.errors import (
    BatchError,
    CampaignExists,
    Conflict,
    InvalidEvent,
    TrackerError,
)
from tracker.permissions import Forbidden
from tracker.systems import i18n
from tracker.systems.i18n import _
from tracker.web import entries
from tracker.web.context import accounts, actor, current_user, policy, reader_view, service
from tracker.web.failures import Failure, field_labels, start_failure, typed
from tracker.web.forms import dice_problems, form_data
from tracker.web.language import say, speaking
from tracker.web.rendering import (
    NOT_RECORDED,
    PAGE,
    campaign_language,
    confirm_page,
    context,
    event_schema,
    expected_version,
    local,
    refusal,
    render_page,
)
from tracker.web.templating import url

bp = Blueprint("campaign", __name__)


def init_app(app):
    app.register_blueprint(bp)


# -- the front page and a campaign's start ---------------------------------------------------

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
        lists.append(("mine", _("Your campaigns"), access.member_of_query(user)))
    lists.append(("page", _("Samples and public campaigns"), access.public_query(user)))
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
        return url("campaign.front_page", **kept, **{prefix + k: v for k, v in cursor.items()})

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
def front_page():
    return render_template("campaigns.html", lists=campaign_lists(), **_finding())


def _finding() -> dict:
    """What the front page's search box shows: the words and game looked for, the games;
    and the links of each campaign listed."""
    return {
        "systems": systems.registry(),
        "search": _search(),
        "game": _game(),
        "dashboard_of": lambda cid: url("campaign.dashboard", cid=cid),
        "play_on_of": lambda cid: url("campaign.play_on", cid=cid),
    }


def _search() -> str:
    return request.args.get("q", "").strip()[:120]


def _game() -> str:
    game = request.args.get("game", "").strip()
    return game if game in systems.registry() else ""


@bp.post("/campaigns")
def start():
    user = policy().require_user(_("start a campaign"))
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
        say(
            _(
                "The campaign %(name)r has begun: invite its players from its Members page.",
                name=name,
            )
        )
        return redirect(url_for("campaign.dashboard", cid=campaign))
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


# -- a game's pages and their forms ---------------------------------------------------------


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
    system = svc.system_of(cid)[0]
    type_ = form.get("type", "")
    form_id = form.get("form_id", type_)
    schema = event_schema(system, type_)
    expected = expected_version(form)
    kept = entries.kept_entry(form)
    if kept is not None:  # this form would leave behind an entry typed and refused
        return render_page(cid, page, 422, at=None, failure=kept[0], submitted=kept[1])
    data = form_data(schema, form)
    if type_ in system.events:
        data = entries.free_ids(system, svc.state(cid).state, type_, schema, data)
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
            kept = typed(schema, form)
            if kept:
                failure["message"] = _(
                    "%(refusal)s. %(typed)s", refusal=failure["message"], typed=kept
                )
        return render_page(cid, page, status, at=None, failure=failure, submitted=form)
    guard.settle(cid)
    entry = svc.recent(cid, 1, result.last_version)[0]
    say(_("Recorded: %(words)s.", words=entry.words))
    return redirect(local(form.get("next")) or request.full_path.rstrip("?"))


NO_DICE = _("choose the face of each die the table rolled, or press Roll for me")


# -- play on: a campaign of one's own, copied from any one may read -------------------------


@bp.route("/c/<cid>/play-on", methods=["GET", "POST"])
def play_on(cid):
    """A signed-in reader branches a new campaign of its own from this one, up to an event."""
    user = policy().require_user(_("play on from a campaign"))
    ctx = context(cid)
    form = request.form if request.method == "POST" else request.args
    upto = form.get("upto", "").strip() or str(ctx["view"].version)
    name = form.get("name", "").strip() or i18n.translate(
        _("%(campaign)s, played on", campaign=ctx["view"].name), i18n.reader()
    )
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
            words = _(
                "Play on from an event number, such as %(version)s, not %(upto)r.",
                version=ctx["view"].version,
                upto=upto,
            )
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
        message = _(
            "there is already a campaign %(campaign)r: choose another short id", campaign=campaign
        )
        errors = {"campaign": [message]}
    except InvalidEvent as error:
        message, errors = error.message, error.errors or {}
    except TrackerError as error:
        message = error.message
    else:
        accounts().add_member(campaign, user, "organiser")
        say(
            _(
                "%(name)r plays on from event %(upto)s of %(campaign)r: it is yours to record.",
                name=name,
                upto=upto,
                campaign=ctx["view"].name,
            )
        )
        return redirect(url_for("campaign.dashboard", cid=campaign))
    failure = start_failure("play-on", None, errors, message, form)
    return (
        render_template("play_on.html", page="play-on", chosen=chosen, failure=failure, **ctx),
        status,
        headers,
    )


# -- printable pages as PDF -----------------------------------------------------------------


@bp.get("/c/<cid>/pdf/<page>")
def pdf(cid, page):
    if not re.fullmatch(PAGE, page):
        abort(404)
    from weasyprint import HTML

    html, status = shared(cid, page, pdf=True, paper=request.args.get("paper", "A4"))
    # The page carries its stylesheet inline: nothing is fetched while the PDF is made.
    document = HTML(string=html, url_fetcher=_no_fetching).write_pdf()
    name = f"{cid}-{page}-{request.args.get('warband', '')}".rstrip("-")
    return current_app.response_class(
        document,
        status=status,
        mimetype="application/pdf",
        headers={"Content-Disposition": f'inline; filename="{name}.pdf"'},
    )


def shared(cid: str, page: str, **extra):
    """A page the campaign shares outside its pages (a sheet to print, its PDF): in the
    campaign's language when it chose one, else in the reader's."""
    policy().require_read(cid)
    language = campaign_language(service().state(cid))
    if language is None:
        return render_page(cid, page, **extra)
    with speaking(language):
        return render_page(cid, page, **extra)


def _no_fetching(url, *args, **kwargs):
    raise ValueError(f"a PDF fetches nothing ({url})")
