"""The API's events of a campaign: its log a page at a time, an append, the folded state, the
hash chain's check and the export."""

from __future__ import annotations

import json
import re

from flask import Response, request

from tracker.errors import NotFound
from tracker.permissions import Forbidden
from tracker.systems.i18n import _
from tracker.web.api.errors import ApiBlueprint, fail
from tracker.web.api.schemas import (
    AppendResultSchema,
    AppendSchema,
    EventsPageSchema,
    EventsQuery,
    StateQuery,
    StateSchema,
    VerifyQuery,
    VerifySchema,
)
from tracker.web.context import current_user, policy, reader_view, service

blp = ApiBlueprint("api_events", __name__, "A campaign's events, its state, its check and export.")


@blp.route("/campaigns/<campaign>/events")
@blp.arguments(EventsQuery(), location="query", error_status_code=400)
@blp.response(200, EventsPageSchema)
@blp.errors(400, 404)
def list_events(query, campaign):
    """The campaign's log, a page at a time: events with version > after, at most limit."""
    policy().require_read(campaign)
    store = service().store
    version = store.version(campaign)
    if version == 0:
        raise NotFound(_("there is no campaign %(campaign)r", campaign=campaign))
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
        fail(
            400,
            _('If-Match holds the campaign version you last saw, such as "12"'),
            errors={"If-Match": [_("not a version")]},
        )
    return int(match.group(1))


@blp.route("/campaigns/<campaign>/events", methods=["POST"])
@blp.arguments(AppendSchema(), error_status_code=400)
@blp.response(201, AppendResultSchema)
@blp.errors(400, 401, 403, 404, 409, 422)
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
        fail(
            400,
            _("the body and If-Match name different versions"),
            errors={"expected_version": [_("differs from If-Match")]},
        )
    if expected is None:
        fail(
            400,
            _(
                "say which version of the campaign you last saw: expected_version in the "
                "body, or an If-Match header"
            ),
            errors={"expected_version": [_("required")]},
        )
    key = key or None
    if key is not None and len(key) > 200:
        fail(
            400,
            _("an Idempotency-Key is at most 200 characters"),
            errors={"Idempotency-Key": [_("too long")]},
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
@blp.errors(400, 404)
def get_state(query, campaign):
    """The folded state, as `manage.py state` prints it; ?at=VERSION for an earlier one."""
    policy().require_read(campaign)
    view = service().state(campaign, query.get("at"))
    return Response(_json(view.to_json()), mimetype="application/json")


@blp.route("/campaigns/<campaign>/verify")
@blp.arguments(VerifyQuery(), location="query", error_status_code=400)
@blp.response(200, VerifySchema)
@blp.errors(400, 404)
def verify(query, campaign):
    """Recompute the campaign's hash chain: ok, or the first event that does not match.
    With ?head=HASH&at=VERSION (a witness kept), also whether the log still holds it."""
    policy().require_read(campaign)
    if ("head" in query) != ("at" in query):
        fail(
            400,
            _("a witness is checked with head and at together"),
            errors={"at": [_("required")]},
        )
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
@blp.errors(403, 404)
def export(campaign):
    """The campaign as JSON Lines, which `manage.py import` reads back to the same hashes."""
    policy().require_read(campaign)
    shown = reader_view(campaign)

    def nothing_hidden(event):
        if shown(event) is not event.data:
            raise Forbidden(
                _(
                    "while a game is under way its log holds hidden cards: only an "
                    "organiser who plays no seat may export it until the game is over"
                )
            )

    lines = list(service().export(campaign, nothing_hidden))
    version, head = service().store.head(campaign)
    return Response(
        "".join(line + "\n" for line in lines),
        mimetype="application/x-ndjson",
        headers={"X-Tracker-Version": str(version), "X-Tracker-Head": head},
    )


def _json(value) -> str:
    return json.dumps(value, ensure_ascii=False)
