"""The export's format published: a JSON Schema of each game's export lines, made from the
same marshmallow schemas the rules load events with (through apispec, as the OpenAPI
document is), at /api/schemas and /api/schemas/<game>.

apispec writes OpenAPI 3.0 schema objects; the few places where those differ from JSON
Schema (`nullable`, a boolean `exclusiveMinimum`) are rewritten here, so that any JSON
Schema validator (draft 2020-12) reads the document.
"""

from __future__ import annotations

import json
from functools import cache

from flask import Response, url_for
from flask_smorest import Blueprint, abort

from tracker import systems
from tracker.campaign import CAMPAIGN_ID, CORE_EVENTS
from tracker.dice import Dice, Drawn

blp = Blueprint(
    "schemas",
    __name__,
    url_prefix="/api/schemas",
    description="The export's format: a JSON Schema of each game's events, one a line.",
)
DRAFT = "https://json-schema.org/draft/2020-12/schema"


@cache
def converter():
    """A converter of its own, so the systems' schemas stay out of the API's document."""
    from apispec import APISpec
    from apispec.ext.marshmallow import MarshmallowPlugin

    plugin = MarshmallowPlugin(schema_name_resolver=lambda schema: None)
    APISpec("systems", "1", "3.0.3", plugins=[plugin])
    plugin.map_to_openapi_type(Dice, "array", None)
    plugin.map_to_openapi_type(Drawn, None, None)
    return plugin.converter


@blp.route("")
@blp.response(200, {"type": "object"}, description="each game's schema, by name")
def index():
    """The games whose export lines have a JSON Schema, each with its address."""
    return _json(
        {
            "games": {
                name: {
                    "title": system.title,
                    "schema": url_for("schemas.game", name=name, _external=True),
                }
                for name, system in systems.registry().items()
            }
        },
        "application/json",
    )


@blp.route("/<name>")
@blp.response(
    200,
    {"type": "object"},
    content_type="application/schema+json",
    description="a JSON Schema (draft 2020-12)",
)
def game(name):
    """A JSON Schema of one line of a game's export (`export`, `import`, the API's export):
    one of its event types, with that event's data."""
    system = systems.registry().get(name)
    if system is None:
        abort(
            404,
            message=f"there is no game called {name!r} (there are: "
            f"{', '.join(systems.registry())})",
        )
    address = url_for("schemas.game", name=name, _external=True)
    return _json(export_schema(system, address), "application/schema+json")


def _json(value: dict, mimetype: str) -> Response:
    return Response(json.dumps(value, ensure_ascii=False, indent=1), mimetype=mimetype)


def export_schema(system, address: str = "") -> dict:
    """A JSON Schema (draft 2020-12) that every line of an export of a campaign of `system`
    meets: the line's fields, and `data` by the event type's own schema."""
    made = converter()
    events = {**CORE_EVENTS, **system.events}
    types = {name: json_schema(made.schema2jsonschema(cls())) for name, cls in events.items()}
    types["CampaignStarted"]["properties"]["system"] = {"const": system.name}
    for name in system.upcasters:
        # A log keeps an event as it was recorded: an older shape of it is read in today's
        # shape by the game's upcasters, and is not described here.
        types[name] = {
            "anyOf": [
                types[name],
                {"type": "object", "title": "an older shape, read in today's on import"},
            ]
        }
    schema = {
        "$schema": DRAFT,
        "title": f"A line of an export: {system.title}",
        "description": (
            "One event a line (JSON Lines). A file written by hand may leave out version, "
            "recorded_at and hash, which the tracker then assigns; meta says who recorded "
            "the event and how. The data of an event recorded in an older shape is read in "
            "today's shape when it is imported."
        ),
        "oneOf": [_line(event_type, data) for event_type, data in types.items()],
    }
    if address:
        schema["$id"] = address
    return schema


def _line(event_type: str, data: dict) -> dict:
    return {
        "title": event_type,
        "type": "object",
        "properties": {
            "campaign": {"type": "string", "pattern": CAMPAIGN_ID.pattern},
            "version": {"type": "integer", "minimum": 1},
            "type": {"const": event_type},
            "data": data,
            "meta": {"type": "object"},
            "recorded_at": {"type": "string"},
            "hash": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
        },
        "required": ["campaign", "type", "data"],
        "additionalProperties": False,
    }


def json_schema(node):
    """An OpenAPI 3.0 schema object as JSON Schema: `nullable` as a type that admits null,
    a boolean `exclusiveMinimum`/`exclusiveMaximum` as the bound itself."""
    if isinstance(node, list):
        return [json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: json_schema(value) for key, value in node.items()}
    if out.pop("nullable", False):
        kind = out.get("type")
        if isinstance(kind, str):
            out["type"] = [kind, "null"]
        if "enum" in out and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
        if kind is None and "enum" not in out and out:
            out = {"anyOf": [out, {"type": "null"}]}
    for exclusive, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        if out.get(exclusive) is True:
            out[exclusive] = out.pop(bound)
        elif out.get(exclusive) is False:
            del out[exclusive]
    return out
