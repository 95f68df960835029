"""The API's members: invitations made by the organiser, and accepted by a player."""

from __future__ import annotations

from flask import url_for

from tracker.systems.i18n import _
from tracker.web import hooks
from tracker.web.api.errors import ApiBlueprint, fail
from tracker.web.api.schemas import InvitationInSchema, InvitationSchema, MembershipSchema
from tracker.web.auth import side_names
from tracker.web.context import accounts, current_user, policy, service

blp = ApiBlueprint("api_members", __name__, "Invitations to a campaign, and accepting them.")


@blp.route("/campaigns/<campaign>/invitations", methods=["POST"])
@blp.arguments(InvitationInSchema(), error_status_code=400)
@blp.response(201, InvitationSchema)
@blp.errors(400, 401, 403, 404, 409)
def invite(body, campaign):
    """The organiser makes an invitation code, for a side or for a new one, or with `uses`
    a group link for that many players (each chooses a free side on the join page; through
    the API, a group link's player joins without a side); a side that a member plays
    already is not offered again (409)."""
    policy().require_organiser(campaign, _("invite players"))
    side = body.get("side")
    view = service().state(campaign)
    sides = view.system.sides(view.state)
    if side is not None and side not in sides:
        fail(
            400,
            _("there is no side %(side)r in this campaign", side=side),
            errors={"side": [_("unknown side")]},
        )
    uses = body["uses"]
    if uses > 1 and side is not None:
        fail(
            400,
            _("a group link is for no side: each player chooses a free one when joining"),
            errors={"side": [_("a group link has no side")]},
        )
    code = accounts().invite(campaign, current_user(), side, sides, uses)
    link = url_for("auth.join", code=code, _external=True)
    return {"code": code, "link": link, "side": side, "uses": uses}


@blp.route("/invitations/<code>", methods=["POST"])
@blp.response(200, MembershipSchema)
@blp.errors(401, 409, 422)
def accept_invitation(code):
    """Join the campaign an invitation code is for; refused (409, nothing changed) for a
    member of it already, and for a side that another member plays by now."""
    user = policy().require_user(_("accept an invitation"))
    member = accounts().accept(code, user, sides=side_names)
    hooks.member_joined(member.campaign, user, member.side)
    return {"campaign": member.campaign, "role": member.role, "side": member.side}
