"""The API's game systems and campaigns: list, start, read one, make public or private."""

from __future__ import annotations

from flask import request, url_for

from tracker import systems
from tracker.errors import NotFound
from tracker.service import slug
from tracker.systems.i18n import _
from tracker.web import exportschema
from tracker.web.api.errors import ApiBlueprint
from tracker.web.api.schemas import (
    CampaignCreateSchema,
    CampaignPatchSchema,
    CampaignSchema,
    CampaignsQuery,
    SystemSchema,
)
from tracker.web.campaign import within_daily_starts
from tracker.web.context import accounts, current_user, policy, service

blp = ApiBlueprint("api_campaigns", __name__, "The game systems and the campaigns.")


@blp.route("/systems")
@blp.response(200, SystemSchema(many=True))
def list_systems():
    """The game systems, each with its event types and the JSON schema of their data."""
    converter = exportschema.converter()
    out = []
    for name, system in systems.registry().items():
        out.append(
            {
                "name": name,
                "title": system.title,
                "settings": converter.schema2jsonschema(system.settings_schema()),
                "events": {
                    etype: converter.schema2jsonschema(cls())
                    for etype, cls in system.events.items()
                },
                "content_packs": system.content_packs(),
            }
        )
    return out


def _campaign_json(row, public: bool | None = None, role: str | None = None) -> dict:
    """A campaign as the API shows it; `public` and `role` asked of the accounts unless a
    page of campaigns knows them already (`role` then None for a non-member)."""
    if public is None:
        member = accounts().membership(row.id, current_user())
        public, role = accounts().is_public(row.id), member.role if member else None
    return {
        "id": row.id,
        "system": row.system,
        "name": row.name,
        "version": row.version,
        "head": row.head,
        "public": public,
        "role": role,
    }


@blp.route("/campaigns")
@blp.arguments(CampaignsQuery(), location="query", error_status_code=400)
@blp.response(200, CampaignSchema(many=True))
@blp.errors(400)
def list_campaigns(query):
    """The campaigns the caller may see (its own and the public ones), by id, a page at a
    time: at most `limit`, after the id `after`; `q` finds words in a name or id, `game` a
    game. A `Link` header names the next page (rel="next") while there is one."""
    user, access = current_user(), accounts()
    rows, more = service().campaign_page(
        access.readable_queries(user),
        search=query["q"].strip(),
        game=query["game"].strip(),
        after=query["after"],
        limit=query["limit"],
    )
    ids = [row.id for row in rows]
    public, roles = access.public_among(ids), access.roles_among(user, ids)
    body = [_campaign_json(row, row.id in public, roles.get(row.id)) for row in rows]
    if not more:
        return body
    args = {k: v for k, v in request.args.items() if k != "after"}
    following = url_for("api_campaigns.list_campaigns", **args, after=rows[-1].id)
    return body, 200, {"Link": f'<{following}>; rel="next"'}


@blp.route("/campaigns", methods=["POST"])
@blp.arguments(CampaignCreateSchema(), error_status_code=400)
@blp.response(201, CampaignSchema)
@blp.errors(400, 401, 404, 409, 422, 429)
def create_campaign(body):
    """Start a campaign; the caller becomes its organiser (at most so many a day: 429)."""
    user = policy().require_user(_("start a campaign"))
    campaign = body.get("campaign") or slug(body["name"])
    result = within_daily_starts(
        user,
        lambda: service().start(
            campaign,
            body["system"],
            body["name"],
            body["settings"],
            actor=user.name,
            source="api",
            idempotency_key=request.headers.get("Idempotency-Key"),
        ),
    )
    if not result.replayed:  # a retry of this account's own start changes nothing
        accounts().add_member(campaign, user, "organiser")
        if body["public"]:
            accounts().set_public(campaign, True)
    return _campaign_json(_row(result.campaign))


def _row(campaign: str):
    policy().require_read(campaign)
    row = service().campaign_row(campaign)
    if row is None:
        raise NotFound(_("there is no campaign %(campaign)r that you may see", campaign=campaign))
    return row


@blp.route("/campaigns/<campaign>")
@blp.response(200, CampaignSchema)
@blp.errors(404)
def get_campaign(campaign):
    """One campaign: its game, name, version and head hash."""
    return _campaign_json(_row(campaign))


@blp.route("/campaigns/<campaign>", methods=["PATCH"])
@blp.arguments(CampaignPatchSchema(), error_status_code=400)
@blp.response(200, CampaignSchema)
@blp.errors(400, 401, 403, 404)
def patch_campaign(body, campaign):
    """The organiser makes the campaign public (read-only for all) or private."""
    policy().require_organiser(campaign, _("change who may see the campaign"))
    accounts().set_public(campaign, body["public"])
    return _campaign_json(_row(campaign))
