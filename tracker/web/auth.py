"""Accounts on the pages: sign up, log in and out, tokens for the API, joining a campaign."""

from __future__ import annotations

from flask import (
    Blueprint,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    url_for,
)

from tracker.accounts import (
    SIGNUPS_PER_ADDRESS_HOUR,
    AccountError,
    OverLimit,
    SeatRefused,
    TooManyAttempts,
)
from tracker.permissions import Forbidden, Unauthenticated
from tracker.systems import i18n
from tracker.systems.i18n import _
from tracker.web import hooks
from tracker.web.context import accounts, current_user, log_in, log_out, service
from tracker.web.language import COOKIE, YEAR, say
from tracker.web.rendering import local

bp = Blueprint("auth", __name__)


def init_app(app):
    app.register_blueprint(bp)

    @app.errorhandler(Unauthenticated)
    def unauthenticated(error):
        if request.method == "GET" and not request.path.startswith("/api/"):
            say(_("Please %(what)s.", what=error.message))
            return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))
        return render_template("error.html", title=_("Log in first"), message=error.message), 401

    @app.errorhandler(Forbidden)
    def forbidden(error):
        return render_template("error.html", title=_("Not allowed"), message=error.message), 403


@bp.route("/signup", methods=["GET", "POST"])
def signup():
    error, status, headers = None, 200, {}
    if request.method == "POST":
        try:
            user = accounts().sign_up(
                request.form.get("name", "").strip(),
                request.form.get("password", ""),
                request.remote_addr or "?",
                current_app.config.get("SIGNUPS_PER_ADDRESS_HOUR", SIGNUPS_PER_ADDRESS_HOUR),
            )
        except OverLimit as failure:
            error, status, headers = failure.message, 429, retry_after(failure)
        except AccountError as failure:
            error, status = failure.message, 422
        else:
            log_in(user)
            say(_("Welcome, %(name)s.", name=user.name))
            return redirect(local(request.args.get("next")) or url_for("campaign.front_page"))
    return render_template("signup.html", error=error), status, headers


def retry_after(limit: OverLimit) -> dict:
    """The header of a 429 answer: when one more is allowed."""
    return {"Retry-After": str(limit.retry_after)}


@bp.route("/login", methods=["GET", "POST"])
def login():
    error, status = None, 200
    if request.method == "POST":
        try:
            user = accounts().log_in(
                request.form.get("name", "").strip(),
                request.form.get("password", ""),
                request.remote_addr or "?",
            )
        except TooManyAttempts as failure:
            error, status = failure.message, 429
        except AccountError as failure:
            error, status = failure.message, 401
        else:
            log_in(user)
            return redirect(local(request.args.get("next")) or url_for("campaign.front_page"))
    return render_template("login.html", error=error), status


@bp.post("/logout")
def logout():
    log_out()
    say(_("You are logged out."))
    return redirect(url_for("campaign.front_page"))


@bp.route("/account", methods=["GET", "POST"])
def account():
    user = current_user()
    if user is None:
        raise Unauthenticated(_("log in to %(what)s", what=_("see your account")))
    new_token = None
    if request.method == "POST":
        if request.form.get("action") == "revoke":
            token_id = request.form.get("token", "")
            if not token_id.isdigit():
                abort(400, _("which token?"))
            accounts().revoke_token(user, int(token_id))
            say(_("The token is revoked: it opens nothing any more."))
            return redirect(url_for("auth.account"))
        if request.form.get("action") == "language":
            return _language(user, request.form.get("language", ""))
        if request.form.get("action") == "password":
            try:
                accounts().change_password(
                    user, request.form.get("old", ""), request.form.get("new", "")
                )
            except AccountError as failure:
                return render_template(
                    "account.html",
                    tokens=accounts().tokens(user),
                    new_token=None,
                    password_error=failure.message,
                ), 422
            log_in(user)  # every other session ended with the old password; this one goes on
            say(_("Your password is changed: every other session of yours has ended."))
            return redirect(url_for("auth.account"))
        label = request.form.get("label", "").strip() or i18n.translate(_("token"), i18n.reader())
        new_token = accounts().create_token(user, label)
    return render_template("account.html", tokens=accounts().tokens(user), new_token=new_token)


@bp.route("/join/<code>", methods=["GET", "POST"])
def join(code):
    user = current_user()
    if request.method == "POST":
        if user is None:
            raise Unauthenticated(_("log in to %(what)s", what=_("join a campaign")))
        invited = _invited(code)
        side = request.form.get("side", "").strip() or None
        if invited is not None and invited["group"] and side is not None:
            if side not in invited["sides"]:
                return render_template(
                    "join.html",
                    code=code,
                    invited=invited,
                    refusal=_(
                        "there is no such side in this campaign: choose one of those "
                        "offered; nothing was changed"
                    ),
                ), 422
        try:
            member = accounts().accept(code, user, sides=side_names, side=side)
        except SeatRefused as refused:
            return render_template(
                "join.html", code=code, invited=_invited(code), refusal=refused.message
            ), 409
        except AccountError as failure:
            return render_template(
                "error.html", title=_("Invitation"), message=failure.message
            ), 410
        hooks.member_joined(member.campaign, user, member.side)
        plays = side_names(member.campaign).get(member.side, member.side)
        if member.side:
            say(_("You joined the campaign and play %(side)s.", side=plays))
        else:
            say(_("You joined the campaign."))
        return redirect(url_for("campaign.dashboard", cid=member.campaign))
    return render_template("join.html", code=code, invited=_invited(code))


def _language(user, code: str):
    """The account's language (a code of `i18n.LANGUAGES`, or "" for the browser's again):
    kept on the account and in this browser's cookie, said in the language chosen."""
    if code and code not in i18n.LANGUAGES:
        abort(400, _("the tracker speaks no language %(code)r", code=code))
    accounts().set_language(user, code or None)
    chosen = code or request.accept_languages.best_match(list(i18n.LANGUAGES), i18n.DEFAULT)
    words = i18n.catalogue(chosen)
    if code:
        say(_("Your pages read in %(language)s now.", language=i18n.LANGUAGES[code]), words)
    else:
        say(_("Your pages read in your browser's language now."), words)
    response = redirect(url_for("auth.account"))
    if code:
        response.set_cookie(COOKIE, code, max_age=YEAR, samesite="Lax", httponly=True)
    else:
        response.delete_cookie(COOKIE)
    return response


def side_names(campaign: str) -> dict[str, str]:
    """The names of a campaign's sides as they stand, by id."""
    view = service().state(campaign)
    return view.system.sides(view.state)


def _invited(code: str) -> dict | None:
    """What the join page says of an open invitation: the campaign, its game, its organiser
    and the side offered, or for a group link the sides still free to choose from and the
    places left; None when the code is unknown, used or expired."""
    found = accounts().invitation(code)
    if found is None:
        return None
    view = service().state(found["campaign"])
    members = accounts().members(view.campaign)
    organisers = [m.user.name for m in members if m.role == "organiser"]
    sides = view.system.sides(view.state)
    played = {m.side for m in members if m.side}
    side = found["side"]
    return {
        "name": view.name,
        "game": view.system.title,
        "organisers": organisers,
        "side": sides.get(side, side) if side else None,
        "group": found["uses"] > 1,
        "left": found["uses"] - found["joined"],
        "sides": sides,
        "free": {sid: name for sid, name in sides.items() if sid not in played},
    }
