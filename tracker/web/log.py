"""The log area, alike in every system: the audit log, a void from it (of one row and what
depends on it, in one confirmed step), and the dice page.

Views parse, call the service, render: the core decides what may be voided and what goes
with it; who may void what is checked here, on the server, through tracker.permissions.
"""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, url_for

from tracker import stats
from tracker.campaign import CORE_EVENTS, Entry, never_voided
from tracker.errors import BatchError, Conflict, RuleViolation
from tracker.permissions import UNDONE, Forbidden, own_entry
from tracker.systems.i18n import N_, _, listed, ngettext
from tracker.web import rendering
from tracker.web.context import actor, policy, reader_view, service
from tracker.web.failures import Failure
from tracker.web.language import say
from tracker.web.rendering import at_arg, context, expected_version, refusal
from tracker.web.templating import url

bp = Blueprint("log", __name__)


def init_app(app):
    app.register_blueprint(bp)


@bp.get("/c/<cid>/audit")
def audit(cid):
    return audit_page(context(cid, at_arg()))


def audit_page(ctx: dict, status: int = 200, **extra):
    """A page of the audit log: AUDIT_PAGE events up to ?upto= (the latest by default), with
    links to the pages before and after it. A page folds from a snapshot, so it costs the
    same on the first day of a campaign and after a hundred thousand events."""
    view, link = ctx["view"], ctx["link"]
    upto = request.args.get("upto", type=int) or view.version
    upto = min(max(upto, 1), view.version)
    entries = service().log_page(ctx["cid"], upto, rendering.AUDIT_PAGE, view.version)
    first = entries[0].event.version

    def where(version: int) -> str:
        """Where an event of the log is: on this page, or on the page around it."""
        if first <= version <= upto:
            return f"#e{version}"
        return ctx["audit_at"](version)

    # The campaign as it stood after an event: this prefix and the event's number.
    as_of = url("campaign.dashboard", cid=ctx["cid"], at="")
    return render_template(
        "audit.html",
        entries=entries,
        rows=_rows(entries, reader_view(ctx["cid"]), where, as_of, mender(ctx)),
        mending=ctx["member"] is not None and view.is_latest,
        earlier=link("audit", upto=first - 1) if first > 1 else None,
        later=link("audit", upto=min(view.version, upto + rendering.AUDIT_PAGE))
        if upto < view.version
        else None,
        page="audit",
        **ctx,
        **extra,
    ), status


def mender(ctx: dict):
    """What the reader may do to an entry of the audit log from its row: "void" (an
    organiser, any event the core lets be voided), "undo" (a player, its own entries), or
    None. Only at the latest version; the server checks it again when the row is sent."""
    member, view = ctx["member"], ctx["view"]
    if member is None or not view.is_latest:
        return lambda entry: None
    if member.role == "organiser":
        return lambda entry: (
            "void" if entry.voided_by is None and never_voided(entry.event) is None else None
        )
    return lambda entry: (
        "undo"
        if entry.voided_by is None and own_entry(member, view.system, view.state, entry.event)
        else None
    )


def _rows(entries: list[Entry], shown, where, as_of: str, control=None) -> list[dict]:
    """The rows of a page of the audit log, each as the part that draws it is given it: every
    field as the page shows it (worked out here: a page shows fifty rows). A row's `control`
    is what its reader may do to it (`mender`): part of the row's key, so one reader's
    button is never another's."""
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
                "how": how(meta.get("source", "?")),
                "via": how(meta["via"]) if meta.get("via") else None,
                "hash": event.hash,
                "control": control(entry) if control else None,
            }
        )
    return rows


# How an event came in (its `source`), as the audit log and the dice page say it.
SOURCES = {
    "form": N_("form"),
    "api": N_("api"),
    "import": N_("import"),
    "upload": N_("upload"),
    "play-on": N_("play on"),
    "server-roll": N_("server roll"),
    "table-roll": N_("table roll"),
}


def how(source) -> str:
    """How an event came in, in words: one of `SOURCES` in the reader's language, another
    (a command line's own) as it is."""
    if source in SOURCES:
        return _(SOURCES[source])
    return str(source).replace("-", " ")


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
        inner = error.error if isinstance(error, BatchError) else error
        if isinstance(inner, RuleViolation) and inner.depends_on is not None:
            return mend_page(cid, data["version"], form)  # what would go with it, to confirm
        status, failure = refusal(error, CORE_EVENTS["EventVoided"](), "EventVoided", "void")
        return audit_page(context(cid), status, failure=failure, submitted=form)
    say(_("Event %(version)s was voided.", version=target))
    return redirect(url_for("log.audit", cid=cid))


# -- mending from a row: the event and what depends on it, voided in one confirmed step -------


@bp.post("/c/<cid>/audit/mend")
def mend(cid):
    """A row's control: the event and every later one that depends on it (the core says
    which), shown to confirm; once confirmed, all voided in one batch with one reason (a
    player's own entries: undone by their author). Cancelled, or refused, nothing is
    written."""
    form = request.form
    target = form.get("version", "")
    if not target.isdigit():
        abort(400, _("the form names no event of the log; reload the page"))
    if form.get("back"):
        return redirect(url_for("log.audit", cid=cid) + f"#e{target}")
    return mend_page(cid, int(target), form)


@bp.get("/c/<cid>/audit/mend")
def mend_again(cid):
    """The mending page asked for again (a live page's "show it now"): the audit log."""
    return redirect(url_for("log.audit", cid=cid))


def mend_page(cid: str, target: int, form, note: Failure | None = None):
    """The mending of event `target` as far as `form` has gone: the chain to confirm, the
    chain voided (then the audit log), or the refusal in words, beside the chain. `note`:
    why the chain is asked about again (it changed)."""
    svc = service()
    ctx = context(cid)
    try:
        guard = policy().guard(cid)
        chain = svc.void_chain(cid, target)
    except (RuleViolation, Forbidden) as error:
        status = 403 if isinstance(error, Forbidden) else 422
        return audit_page(ctx, status, failure=Failure("mend", message=error.message))
    organiser = guard.member.role == "organiser"
    shown = " ".join(str(entry.event.version) for entry in chain)
    status, failure = (409, note) if note else (200, None)
    try:
        if not organiser:
            guard.undoing = _own_chain(ctx, guard.member, chain)
    except Forbidden as error:
        status, failure = 403, Failure("mend", message=error.message)
    if failure is None and form.get("confirmed") == CONFIRMED:
        status, failure = _void_chain(cid, chain, shown, organiser, guard, form)
        if failure is None:
            say(_voided_words(chain, organiser))
            return redirect(url_for("log.audit", cid=cid))  # its top: what was voided
        if status == 409:  # the log moved on: the chain as it now stands, to confirm again
            return mend_page(cid, target, {"reason": form.get("reason", "")}, failure)
    return render_template(
        "mend.html",
        target=chain[-1],
        dependents=chain[:-1],
        chain_versions=shown,
        organiser=organiser,
        refused=status == 403,
        confirmed=CONFIRMED,
        reason=form.get("reason", ""),
        failure=failure,
        submitted=form,
        page="audit",
        **ctx,
    ), status


def _void_chain(cid: str, chain, shown: str, organiser: bool, guard, form):
    """Append the voids of a confirmed chain, newest first, in one batch: (200, None), or
    the status and refusal (nothing written)."""
    reason = form.get("reason", "").strip() if organiser else UNDONE
    if form.get("chain") != shown:
        return 409, Failure("mend", message=_(_CHAIN_CHANGED))
    if not reason:
        return 422, Failure("mend", {"reason": [_("Say why, in a few words.")]})
    voids = [
        {"type": "EventVoided", "data": {"version": entry.event.version, "reason": reason}}
        for entry in chain
    ]
    try:
        service().append(
            cid, voids, expected_version(form), actor=actor(), source="form",
            idempotency_key=form.get("idem") or None, guard=guard,
        )  # fmt: skip
    except (Conflict, BatchError, Forbidden) as error:
        return refusal(error, CORE_EVENTS["EventVoided"](), "EventVoided", "mend")
    return 200, None


CONFIRMED = "yes"
_CHAIN_CHANGED = N_(
    "What depends on this event changed since the page was made: here is what would go with "
    "it now. Check it, then confirm again."
)


def _voided_words(chain: list[Entry], organiser: bool):
    """What the next page says once a chain is voided (undone, a player's): the event, and
    how many went with it."""
    words, more = chain[-1].words, len(chain) - 1
    if not more:
        return (
            _("Voided: %(words)s.", words=words)
            if organiser
            else _("Undone: %(words)s.", words=words)
        )
    if organiser:
        return ngettext(
            "Voided: %(words)s, with the %(num)d entry that depended on it.",
            "Voided: %(words)s, with the %(num)d entries that depended on it.",
            more,
            words=words,
        )
    return ngettext(
        "Undone: %(words)s, with the %(num)d entry that depended on it.",
        "Undone: %(words)s, with the %(num)d entries that depended on it.",
        more,
        words=words,
    )


def _own_chain(ctx: dict, member, chain: list[Entry]) -> frozenset[int]:
    """The versions of a player's chain, each its own entry; Forbidden naming whose entries
    stand in the way (only the organiser voids another's)."""
    view = ctx["view"]
    theirs = [e for e in chain if not own_entry(member, view.system, view.state, e.event)]
    if not theirs:
        return frozenset(e.event.version for e in chain)
    target = chain[-1]
    if theirs[-1] is target:
        raise Forbidden(
            _(
                "“%(words)s” is not yours to undo: a player undoes only its own entries for its "
                "own side; ask the organiser, who may void it",
                words=target.words,
            )
        )
    raise Forbidden(
        ngettext(
            "“%(words)s” cannot be undone alone, and what depends on it is not all yours: "
            "%(who)s recorded “%(theirs)s” after it. Ask the organiser, who may void them "
            "together",
            "“%(words)s” cannot be undone alone, and what depends on it is not all yours: "
            "%(who)s recorded %(num)d entries after it (“%(theirs)s”). Ask the organiser, who "
            "may void them together",
            len(theirs),
            words=target.words,
            who=listed(sorted({e.event.meta.get("actor", "?") for e in theirs})),
            theirs=listed([e.words for e in theirs], "; "),
        )
    )


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
        _histogram(player, counts, stats.expected("D6"), label=_("D6 faces"))
        for player, counts in sorted(tally.by_player.items())
    ]
    audit_at = ctx["audit_at"]
    rolls = [
        {"version": v, "at": audit_at(v), "type": t, "spec": s, "dice": d, "who": w, "how": how(h)}
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
