"""The API's request and answer schemas (its OpenAPI document is made from them)."""

from __future__ import annotations

from marshmallow import INCLUDE, Schema, fields, validate

from tracker.accounts import GROUP_USES
from tracker.service import CAMPAIGN_ID

STRICT = {"strict": True}


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
