"""The API's account: who the token belongs to, and its campaigns."""

from __future__ import annotations

from tracker.systems.i18n import _
from tracker.web.api.errors import ApiBlueprint
from tracker.web.api.schemas import MeSchema
from tracker.web.context import accounts, policy

blp = ApiBlueprint("api_accounts", __name__, "The account behind the token.")


@blp.route("/me")
@blp.response(200, MeSchema)
@blp.errors(401)
def me():
    """The account behind the token, and its campaigns."""
    user = policy().require_user(_("see your account"))
    rows = accounts().memberships_of(user)
    return {
        "name": user.name,
        "campaigns": [{"campaign": c, "role": r, "side": s} for c, r, s in rows],
    }
