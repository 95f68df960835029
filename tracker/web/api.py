"""The JSON API under /api, with its OpenAPI document, on the schemas the rules use.

The export's format (one event a line) is published as a JSON Schema of each game's events
at /api/schemas/<game> (the list at /api/schemas).

Every write goes through the same service and the same permission check as the pages. Callers
authenticate with a personal access token (``Authorization: Bearer TOKEN``); public campaigns
may be read without one. Every error body has one shape: ``{"code", "status", "message"}``,
with ``errors`` (field by field), ``event`` (which event of a batch) or ``current_version``
where they apply.
"""

from __future__ import annotations

import json
import re

from flask import Response, current_app, render_template, request, url_for
from flask_smorest import Api, Blueprint, abort
from flask_wtf.csrf import validate_csrf
from marshmallow import INCLUDE, Schema, fields, validate
from wtforms.validators import ValidationError

from tracker import systems
from tracker.accounts import GROUP_USES, OverLimit, SeatRefused
from tracker.dice import Dice, Drawn
from tracker.errors import (
    BatchError,
    CampaignExists,
    Conflict,
    InvalidEvent,
    NotFound,
    TrackerError,
)
from tracker.permissions import Forbidden, Unauthenticated
from tracker.service import CAMPAIGN_ID, slug
from tracker.web import exportschema, hooks
from tracker.web.auth import side_names
from tracker.web.context import (
    accounts,
    bearer,
    csrf,
    current_user,
    policy,
    reader_view,
    service,
)
from tracker.web.pages import within_daily_starts

STRICT = {"strict": True}
SCHEMAS = {
    "description": "the export's format: a JSON Schema of each game's events",
    "url": "/api/schemas",
}


# -- schemas ---------------------------------------------------------------------------------


class ErrorSchema(Schema):
    code = fields.Integer(**STRICT, required=True)
    status = fields.Str(required=True)
    message = fields.Str()
    errors = fields.Dict()
    event = fields.Integer(**STRICT, metadata={"description": "which event of the batch (0-based)"})
    current_version = fields.Integer(**STRICT)


class SystemSchema(Schema):
    name = fields.Str(required=True)
    title = fields.Str(required=True)
    settings = fields.Dict(required=True, metadata={"description": "JSON schema of the settings"})
    events = fields.Dict(
        required=True, metadata={"description": "event type -> JSON schema of its data"}
    )
    content_packs = fields.Dict(required=True)


class CampaignSchema(Schema):
    id = fields.Str(required=True)
    system = fields.Str(required=True)
    name = fields.Str(required=True)
    version = fields.Integer(**STRICT, required=True)
    head = fields.Str(required=True)
    public = fields.Bool(required=True)
    role = fields.Str(allow_none=True, metadata={"description": "your role in it, if any"})


class CampaignsQuery(Schema):
    q = fields.Str(
        load_default="",
        validate=validate.Length(max=120),
        metadata={"description": "only those whose name or id holds these words (any case)"},
    )
    game = fields.Str(
        load_default="", metadata={"description": "only the campaigns of this game system"}
    )
    after = fields.Str(
        load_default=None,
        validate=validate.Length(min=1, max=200),
        metadata={"description": "the page after this campaign id (the Link header's next)"},
    )
    limit = fields.Integer(load_default=25, validate=validate.Range(min=1, max=200))


class CampaignCreateSchema(Schema):
    campaign = fields.Str(
        validate=validate.Regexp(CAMPAIGN_ID),
        metadata={"description": "the campaign's id (lower-case letters, digits, dashes)"},
    )
    system = fields.Str(required=True)
    name = fields.Str(required=True, validate=validate.Length(min=1, max=120))
    settings = fields.Dict(load_default=dict)
    public = fields.Bool(load_default=False)


class CampaignPatchSchema(Schema):
    public = fields.Bool(required=True)


class EventInSchema(Schema):
    type = fields.Str(required=True, validate=validate.Length(min=1, max=80))
    data = fields.Dict(load_default=dict)


class AppendSchema(Schema):
    expected_version = fields.Integer(
        **STRICT,
        validate=validate.Range(min=0),
        metadata={"description": "the version the caller last saw (or send it as If-Match)"},
    )
    events = fields.List(
        fields.Nested(EventInSchema), required=True, validate=validate.Length(min=1, max=500)
    )
    consistency = fields.Str(
        load_default="strict",
        validate=validate.OneOf(["strict", "sides"]),
        metadata={
            "description": "strict (the default): the campaign must still be at the expected "
            "version; sides: events appended since then are no obstacle unless one concerns a "
            "side these events concern (they are checked against the latest state)"
        },
    )


class AppendResultSchema(Schema):
    campaign = fields.Str(required=True)
    first_version = fields.Integer(**STRICT, required=True)
    last_version = fields.Integer(**STRICT, required=True)
    head = fields.Str(required=True)
    replayed = fields.Bool(
        required=True,
        metadata={
            "description": "true when an Idempotency-Key retry returned the first append's result"
        },
    )


class EventOutSchema(Schema):
    campaign = fields.Str(required=True)
    version = fields.Integer(**STRICT, required=True)
    type = fields.Str(required=True)
    data = fields.Dict(required=True)
    meta = fields.Dict(required=True)
    recorded_at = fields.Str(required=True)
    hash = fields.Str(required=True)


class EventsPageSchema(Schema):
    events = fields.List(fields.Nested(EventOutSchema), required=True)
    version = fields.Integer(**STRICT, required=True)
    next_after = fields.Integer(**STRICT, allow_none=True, required=True)


# Query strings are text: "12" is read as 12, while "2.5" is still refused.
class EventsQuery(Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=2**53))
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=500))


class StateQuery(Schema):
    at = fields.Integer(validate=validate.Range(min=1))


class StateSchema(Schema):
    class Meta:
        unknown = INCLUDE

    campaign = fields.Str(required=True)
    name = fields.Str(required=True)
    system = fields.Str(required=True)
    version = fields.Integer(**STRICT, required=True)
    head = fields.Str(required=True)


class BrokenSchema(Schema):
    version = fields.Integer(**STRICT, required=True)
    type = fields.Str(required=True)
    reason = fields.Str(required=True)


class VerifyQuery(Schema):
    head = fields.Str(
        validate=validate.Length(min=12, max=100),
        metadata={"description": "a witness: the head hash kept (at least 12 characters)"},
    )
    at = fields.Integer(
        validate=validate.Range(min=1, max=2**53),
        metadata={"description": "the event the witness was taken at"},
    )


class WitnessSchema(Schema):
    at = fields.Integer(**STRICT, required=True)
    head = fields.Str(required=True)
    holds = fields.Bool(required=True)
    reason = fields.Str(allow_none=True, required=True)


class VerifySchema(Schema):
    ok = fields.Bool(required=True)
    witness = fields.Nested(WitnessSchema, allow_none=True)
    version = fields.Integer(**STRICT, required=True)
    head = fields.Str(required=True)
    broken = fields.Nested(BrokenSchema, allow_none=True, required=True)


class InvitationInSchema(Schema):
    side = fields.Str(load_default=None, allow_none=True)
    uses = fields.Integer(
        strict=True,
        load_default=1,
        validate=validate.Range(min=1, max=GROUP_USES[-1]),
        metadata={
            "description": "players it lets in: more than 1 makes a group link, "
            "for no side (each player chooses a free one on the join page)"
        },
    )


class InvitationSchema(Schema):
    code = fields.Str(required=True)
    link = fields.Str(required=True)
    side = fields.Str(allow_none=True, required=True)
    uses = fields.Integer(required=True)


class MembershipSchema(Schema):
    campaign = fields.Str(required=True)
    role = fields.Str(required=True)
    side = fields.Str(allow_none=True, required=True)


class MeSchema(Schema):
    name = fields.Str(required=True)
    campaigns = fields.List(fields.Nested(MembershipSchema), required=True)


# -- the Api, with one error shape for the API and HTML pages for the rest --------------------


class TrackerApi(Api):
    ERROR_SCHEMA = ErrorSchema

    def handle_http_exception(self, error):
        if not request.path.startswith("/api/"):
            return render_template(
                "error.html", title=error.name, message=error.description
            ), error.code
        payload, code, headers = super().handle_http_exception(error)
        if error.code == 400 and "errors" in payload:
            payload["message"] = "the request is malformed: see errors, field by field"
        payload.setdefault("message", error.description or error.name)
        data = getattr(error, "data", None) or {}
        for key in ("event", "current_version"):
            if key in data:
                payload[key] = data[key]
        # flask-smorest drops the Allow header of a 405: give it back.
        headers = {**dict(error.get_headers()), **(headers or {})}
        headers.pop("Content-Type", None)
        return payload, code, headers


api = TrackerApi()
blp = Blueprint(
    "api",
    __name__,
    url_prefix="/api",
    description="Campaigns, their events, their state; accounts' tokens.",
)
ERRORS = {
    400: "malformed input: the fields that are wrong",
    401: "no valid token was given",
    403: "the token's account may not do this",
    404: "no such campaign that you may see",
    409: "the campaign moved on",
    422: "an event breaks a rule of the game",
    429: "too many in too short a time: Retry-After says when to try again",
}


def errors(*codes):
    """Document a view's error answers (as ErrorSchema) without wrapping the view.

    flask-smorest's alt_response documents by wrapping: one more call per code on every
    request, each asking Flask whether the view is a coroutine. The documentation is taken
    from those wrappers and the view itself is served as it is.
    """

    def decorate(view):
        documented = view
        for code in codes:
            documented = blp.alt_response(code, schema=ErrorSchema, description=ERRORS[code])(
                documented
            )
        view._apidoc = documented._apidoc
        return view

    return decorate


def init_app(app):
    app.config.update(
        API_TITLE="Tracker API",
        API_VERSION="1",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/api",
        OPENAPI_JSON_PATH="openapi.json",
    )
    api.init_app(app, spec_kwargs={"info": {"description": __doc__}, "externalDocs": SCHEMAS})
    api.register_field(Dice, "array", None)
    api.register_field(Drawn, None, None)
    api.spec.components.security_scheme(
        "token", {"type": "http", "scheme": "bearer", "description": "a personal access token"}
    )
    api.register_blueprint(blp)
    api.register_blueprint(exportschema.blp)
    csrf.exempt(blp)

    @app.get("/api/docs")
    def api_docs():
        return render_template("api_docs.html", spec=api.spec.to_dict())


@blp.before_request
def writes_bring_a_token_or_a_csrf_token():
    """An API write is sent with a personal access token, or with the session cookie and
    the page's CSRF token (X-CSRFToken): a cookie alone could be sent by any site."""
    if request.method in ("GET", "HEAD", "OPTIONS") or bearer(request) is not None:
        return None
    if current_user() is None or not current_app.config.get("WTF_CSRF_ENABLED", True):
        return None
    try:
        validate_csrf(request.headers.get("X-CSRFToken", ""))
    except ValidationError:
        return {
            "code": 403,
            "status": "Forbidden",
            "message": "an API write with the session cookie needs the page's CSRF token in "
            "an X-CSRFToken header; or send a personal access token",
        }, 403
    return None


def _fail(code: int, message: str, **extra):
    abort(code, message=message, **extra)


@blp.errorhandler(TrackerError)
def tracker_error(error):
    if isinstance(error, Unauthenticated):
        code = 401
    elif isinstance(error, Forbidden):
        code = 403
    elif isinstance(error, NotFound):
        code = 404
    elif isinstance(error, SeatRefused):
        return {"code": 409, "status": "Conflict", "message": error.message}, 409
    elif isinstance(error, OverLimit):
        body = {"code": 429, "status": "Too Many Requests", "message": error.message}
        return body, 429, {"Retry-After": str(error.retry_after)}
    elif isinstance(error, CampaignExists):
        return {"code": 409, "status": "Conflict", "message": error.message}, 409
    elif isinstance(error, Conflict):
        body = {
            "code": 409,
            "status": "Conflict",
            "message": error.message,
            "current_version": error.actual,
        }
        return body, 409
    elif isinstance(error, InvalidEvent):
        return {
            "code": 400,
            "status": "Bad Request",
            "message": error.message,
            "errors": error.errors,
        }, 400
    else:
        code = 422
    names = {401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 422: "Unprocessable Entity"}
    headers = {"WWW-Authenticate": "Bearer"} if code == 401 else {}
    return {"code": code, "status": names[code], "message": error.message}, code, headers


@blp.errorhandler(BatchError)
def batch_error(error):
    inner = error.error
    if isinstance(inner, (Forbidden, Unauthenticated)):
        return tracker_error(inner)
    if isinstance(inner, InvalidEvent):
        return {
            "code": 400,
            "status": "Bad Request",
            "message": error.message,
            "errors": inner.errors,
            "event": error.index,
        }, 400
    return {
        "code": 422,
        "status": "Unprocessable Entity",
        "message": error.message,
        "event": error.index,
    }, 422


# -- systems and campaigns -----------------------------------------------------------------


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
@errors(400)
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
    following = url_for("api.list_campaigns", **args, after=rows[-1].id)
    return body, 200, {"Link": f'<{following}>; rel="next"'}


@blp.route("/campaigns", methods=["POST"])
@blp.arguments(CampaignCreateSchema(), error_status_code=400)
@blp.response(201, CampaignSchema)
@errors(400, 401, 404, 409, 422, 429)
def create_campaign(body):
    """Start a campaign; the caller becomes its organiser (at most so many a day: 429)."""
    user = policy().require_user("start a campaign")
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
        raise NotFound(f"there is no campaign {campaign!r} that you may see")
    return row


@blp.route("/campaigns/<campaign>")
@blp.response(200, CampaignSchema)
@errors(404)
def get_campaign(campaign):
    """One campaign: its game, name, version and head hash."""
    return _campaign_json(_row(campaign))


@blp.route("/campaigns/<campaign>", methods=["PATCH"])
@blp.arguments(CampaignPatchSchema(), error_status_code=400)
@blp.response(200, CampaignSchema)
@errors(400, 401, 403, 404)
def patch_campaign(body, campaign):
    """The organiser makes the campaign public (read-only for all) or private."""
    policy().require_organiser(campaign, "change who may see the campaign")
    accounts().set_public(campaign, body["public"])
    return _campaign_json(_row(campaign))


# -- events ----------------------------------------------------------------------------------


@blp.route("/campaigns/<campaign>/events")
@blp.arguments(EventsQuery(), location="query", error_status_code=400)
@blp.response(200, EventsPageSchema)
@errors(400, 404)
def list_events(query, campaign):
    """The campaign's log, a page at a time: events with version > after, at most limit."""
    policy().require_read(campaign)
    store = service().store
    version = store.version(campaign)
    if version == 0:
        raise NotFound(f"there is no campaign {campaign!r}")
    upto = query["after"] + query["limit"]
    shown = reader_view(campaign)
    me = current_user().name if current_user() else None
    events = [
        {**e.to_json(), "data": shown(e), "meta": _meta_for(e.meta, me)}
        for e in store.read(campaign, after=query["after"], upto=upto)
    ]
    return {"events": events, "version": version, "next_after": upto if upto < version else None}


def _meta_for(meta, reader: str | None):
    """An event's meta as a reader sees it: a retry key written by an older tracker in the
    clear is shown only to the account that sent it."""
    if "idempotency_key" in meta and meta.get("actor") != reader:
        meta = {**meta, "idempotency_key": "(hidden)"}
    return meta


def _if_match(header: str | None) -> int | None:
    if header is None:
        return None
    match = re.fullmatch(r'\s*(?:W/)?"?(\d+)"?\s*', header)
    if not match:
        _fail(
            400,
            'If-Match holds the campaign version you last saw, such as "12"',
            errors={"If-Match": ["not a version"]},
        )
    return int(match.group(1))


@blp.route("/campaigns/<campaign>/events", methods=["POST"])
@blp.arguments(AppendSchema(), error_status_code=400)
@blp.response(201, AppendResultSchema)
@errors(400, 401, 403, 404, 409, 422)
def append_events(body, campaign):
    """Append events. The expected version comes in the body or as If-Match; an
    Idempotency-Key header makes a retry safe. Dice left out are rolled by the server."""
    guard, result = append_body(
        policy(),
        service(),
        campaign,
        body,
        request.headers.get("If-Match"),
        request.headers.get("Idempotency-Key"),
    )
    guard.settle(campaign)
    return Response(append_answer(result), status=201, mimetype="application/json")


def append_body(policy, svc, campaign: str, body: dict, if_match: str | None, key: str | None):
    """An append's body checked and appended: (the member's guard, the result). Whatever it
    raises, nothing was written."""
    guard = policy.guard(campaign)
    expected = body.get("expected_version")
    header = _if_match(if_match)
    if expected is None:
        expected = header
    elif header is not None and header != expected:
        _fail(
            400,
            "the body and If-Match name different versions",
            errors={"expected_version": ["differs from If-Match"]},
        )
    if expected is None:
        _fail(
            400,
            "say which version of the campaign you last saw: expected_version in the "
            "body, or an If-Match header",
            errors={"expected_version": ["required"]},
        )
    key = key or None
    if key is not None and len(key) > 200:
        _fail(
            400,
            "an Idempotency-Key is at most 200 characters",
            errors={"Idempotency-Key": ["too long"]},
        )
    result = svc.append(
        campaign,
        body["events"],
        expected,
        actor=policy.user.name,
        source="api",
        idempotency_key=key,
        guard=guard,
        strict=body.get("consistency", "strict") == "strict",
    )
    return guard, result


def append_answer(result) -> str:
    """An append's answer: five plain fields, written out here rather than dumped through the
    response schema, which documents them (an append is the API's busiest call)."""
    return _json(
        {
            "campaign": result.campaign,
            "first_version": result.first_version,
            "last_version": result.last_version,
            "head": result.head,
            "replayed": result.replayed,
        }
    )


@blp.route("/campaigns/<campaign>/state")
@blp.arguments(StateQuery(), location="query", error_status_code=400)
@blp.response(200, StateSchema)
@errors(400, 404)
def get_state(query, campaign):
    """The folded state, as `manage.py state` prints it; ?at=VERSION for an earlier one."""
    policy().require_read(campaign)
    view = service().state(campaign, query.get("at"))
    return Response(_json(view.to_json()), mimetype="application/json")


@blp.route("/campaigns/<campaign>/verify")
@blp.arguments(VerifyQuery(), location="query", error_status_code=400)
@blp.response(200, VerifySchema)
@errors(400, 404)
def verify(query, campaign):
    """Recompute the campaign's hash chain: ok, or the first event that does not match.
    With ?head=HASH&at=VERSION (a witness kept), also whether the log still holds it."""
    policy().require_read(campaign)
    if ("head" in query) != ("at" in query):
        _fail(400, "a witness is checked with head and at together", errors={"at": ["required"]})
    broken = service().verify(campaign)
    version, head = service().store.head(campaign)
    witness = None
    if "head" in query:
        wrong = service().witness(campaign, query["at"], query["head"])
        witness = {
            "at": query["at"],
            "head": query["head"],
            "holds": wrong is None,
            "reason": wrong,
        }
    return {
        "ok": broken is None and (witness is None or witness["holds"]),
        "witness": witness,
        "version": version,
        "head": head,
        "broken": None
        if broken is None
        else {"version": broken.version, "type": broken.type, "reason": broken.reason},
    }


@blp.route("/campaigns/<campaign>/export")
@blp.response(
    200,
    {"type": "string"},
    content_type="application/x-ndjson",
    description="JSON Lines, one event a line",
)
@errors(403, 404)
def export(campaign):
    """The campaign as JSON Lines, which `manage.py import` reads back to the same hashes."""
    policy().require_read(campaign)
    shown = reader_view(campaign)

    def nothing_hidden(event):
        if shown(event) is not event.data:
            raise Forbidden(
                "while a game is under way its log holds hidden cards: only an "
                "organiser who plays no seat may export it until the game is over"
            )

    lines = list(service().export(campaign, nothing_hidden))
    version, head = service().store.head(campaign)
    return Response(
        "".join(line + "\n" for line in lines),
        mimetype="application/x-ndjson",
        headers={"X-Tracker-Version": str(version), "X-Tracker-Head": head},
    )


# -- invitations and the caller ----------------------------------------------------------------


@blp.route("/campaigns/<campaign>/invitations", methods=["POST"])
@blp.arguments(InvitationInSchema(), error_status_code=400)
@blp.response(201, InvitationSchema)
@errors(400, 401, 403, 404, 409)
def invite(body, campaign):
    """The organiser makes an invitation code, for a side or for a new one, or with `uses`
    a group link for that many players (each chooses a free side on the join page; through
    the API, a group link's player joins without a side); a side that a member plays
    already is not offered again (409)."""
    policy().require_organiser(campaign, "invite players")
    side = body.get("side")
    view = service().state(campaign)
    sides = view.system.sides(view.state)
    if side is not None and side not in sides:
        _fail(
            400,
            f"there is no side {side!r} in this campaign",
            errors={"side": ["unknown side"]},
        )
    uses = body["uses"]
    if uses > 1 and side is not None:
        _fail(
            400,
            "a group link is for no side: each player chooses a free one when joining",
            errors={"side": ["a group link has no side"]},
        )
    code = accounts().invite(campaign, current_user(), side, sides, uses)
    link = url_for("auth.join", code=code, _external=True)
    return {"code": code, "link": link, "side": side, "uses": uses}


@blp.route("/invitations/<code>", methods=["POST"])
@blp.response(200, MembershipSchema)
@errors(401, 409, 422)
def accept_invitation(code):
    """Join the campaign an invitation code is for; refused (409, nothing changed) for a
    member of it already, and for a side that another member plays by now."""
    user = policy().require_user("accept an invitation")
    member = accounts().accept(code, user, sides=side_names)
    hooks.member_joined(member.campaign, user, member.side)
    return {"campaign": member.campaign, "role": member.role, "side": member.side}


@blp.route("/me")
@blp.response(200, MeSchema)
@errors(401)
def me():
    """The account behind the token, and its campaigns."""
    user = policy().require_user("see your account")
    rows = accounts().memberships_of(user)
    return {
        "name": user.name,
        "campaigns": [{"campaign": c, "role": r, "side": s} for c, r, s in rows],
    }


def _json(value) -> str:
    return json.dumps(value, ensure_ascii=False)
