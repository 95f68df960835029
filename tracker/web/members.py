"""The members area: who belongs to a campaign and plays which side, invitations (for one
player or a group link), seats, whether the campaign is public, and the language of what it
shares (its sheets, its PDF, its webhooks).

The organiser decides (checked through tracker.permissions); the accounts keep the answer.
"""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, url_for

from tracker.accounts import GROUP_USES, AccountError, SeatRefused
from tracker.errors import BatchError, Conflict
from tracker.permissions import Forbidden, seat
from tracker.systems import i18n
from tracker.systems.i18n import N_, _
from tracker.web.context import accounts, actor, current_user, policy, service
from tracker.web.language import say
from tracker.web.rendering import campaign_language, context

# What the members' table calls each role.
ROLES = {"organiser": N_("organiser"), "player": N_("player")}

bp = Blueprint("members", __name__)


def init_app(app):
    app.register_blueprint(bp)


@bp.route("/c/<cid>/members", methods=["GET", "POST"])
def members(cid):
    ctx = context(cid)
    member = ctx["member"]
    organiser = member is not None and member.role == "organiser"
    invitation, refusal, status = None, None, 200
    sides = ctx["system"].sides(ctx["state"])
    if request.method == "POST":
        policy().require_organiser(cid, _("invite players or change who may see the campaign"))
        action = request.form.get("action", "invite")
        side = request.form.get("side", "").strip() or None
        if side is not None and side not in sides:
            abort(400, _("there is no side %(side)r in this campaign", side=side))
        try:
            if action in MEMBER_ACTIONS:
                say(MEMBER_ACTIONS[action](cid, ctx, side))
                return redirect(url_for("members.members", cid=cid))
            invitation = _make_invitation(cid, action, side, sides)
        except SeatRefused as refused:
            refusal, status = refused.message, 409
        except (AccountError, Conflict, BatchError, Forbidden) as refused:
            refusal, status = refused.message, 409 if isinstance(refused, Conflict) else 422
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
        roles=ROLES,
        languages=i18n.LANGUAGES,
        campaign_language=campaign_language(ctx["view"]),
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
                _(
                    "a group link lets in %(least)s to %(most)s players: say how many; "
                    "nothing was made",
                    least=GROUP_USES[0],
                    most=GROUP_USES[-1],
                )
            )
        return accounts().invite(cid, current_user(), None, sides, uses)
    if action == "renew":
        number = _number(request.form.get("invitation"))
        found = [i for i in accounts().invitations(cid) if i["id"] == number]
        if not found:
            raise AccountError(_("that invitation is no longer open: nothing was renewed"))
        old = found[0]
        uses = max(GROUP_USES[0], old["uses"] - old["joined"]) if old["uses"] > 1 else 1
        code = accounts().invite(cid, current_user(), old["side"], sides, uses)
        accounts().revoke_invitation(cid, number)
        return code
    return accounts().invite(cid, current_user(), side, sides)


def _number(text: str | None) -> int:
    if not text or not text.isdecimal() or len(text) > 18:
        abort(400, _("which one? the form lacks its number; reload the page"))
    return int(text)


def _other_member(cid: str):
    """The member a form names (by user id), never the organiser sending it."""
    user = accounts().user(_number(request.form.get("user")))
    if user is None or accounts().membership(cid, user) is None:
        abort(400, _("that account is not a member of this campaign"))
    if user.id == current_user().id:
        abort(400, _("an organiser does not remove itself or change its own side here"))
    return user


def _public(cid, ctx, side) -> str:
    accounts().set_public(cid, request.form.get("public") == "on")
    if accounts().is_public(cid):
        return _("The campaign is now public: anyone may read it.")
    return _("The campaign is now private to its members.")


def _seat(cid, ctx, side) -> str:
    sides = ctx["system"].sides(ctx["state"])
    if not seat(service(), accounts(), ctx["member"], side, sides):
        return _("Your seat is as it was: nothing changed.")
    if side:
        name = ctx["system"].sides(ctx["state"])[side]
        return _("You play %(side)s now: you see only what that seat sees.", side=name)
    return _("You play no side now: you referee and see every card.")


def _revoke(cid, ctx, side) -> str:
    accounts().revoke_invitation(cid, _number(request.form.get("invitation")))
    return _("The invitation is revoked: its link opens nothing any more.")


def _remove(cid, ctx, side) -> str:
    user = _other_member(cid)
    accounts().remove_member(cid, user)
    return _("%(name)s is no longer a member of the campaign.", name=user.name)


def _side(cid, ctx, side) -> str:
    user = _other_member(cid)
    accounts().set_side(cid, user, side, ctx["system"].sides(ctx["state"]))
    if not side:
        return _("%(name)s now plays no side yet.", name=user.name)
    name = ctx["system"].sides(ctx["state"]).get(side, side)
    return _("%(name)s now plays %(side)s.", name=user.name, side=name)


def _language(cid, ctx, side) -> str:
    """The campaign's language for what it shares (its sheets, its PDF, its webhooks): an
    event of its log (`LanguageChosen`), recorded through the service like any other."""
    code = request.form.get("language", "")
    if code not in i18n.LANGUAGES:
        abort(400, _("the tracker speaks no language %(code)r", code=code))
    if code == campaign_language(ctx["view"]):
        return _("The campaign's language is as it was: nothing changed.")
    service().append(
        cid,
        [{"type": "LanguageChosen", "data": {"language": code}}],
        None,  # a language never conflicts with what players record meanwhile
        actor=actor(),
        source="form",
        idempotency_key=request.form.get("idem") or None,
        guard=policy().guard(cid),
    )
    return _(
        "The campaign's sheets, PDF and webhook messages are in %(language)s now.",
        language=i18n.LANGUAGES[code],
    )


MEMBER_ACTIONS = {
    "public": _public,
    "seat": _seat,
    "revoke": _revoke,
    "remove": _remove,
    "side": _side,
    "language": _language,
}
