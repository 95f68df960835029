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

from flask import render_template, request
from flask_smorest import Api

from tracker.dice import Dice, Drawn
from tracker.systems import i18n
from tracker.systems.i18n import N_, _
from tracker.web import exportschema
from tracker.web.api import accounts, campaigns, events, members
from tracker.web.api.schemas import ErrorSchema
from tracker.web.context import csrf

SCHEMAS = {
    "description": "the export's format: a JSON Schema of each game's events",
    "url": "/api/schemas",
}


class TrackerApi(Api):
    ERROR_SCHEMA = ErrorSchema

    def handle_http_exception(self, error):
        if not request.path.startswith("/api/"):
            return render_template(
                "error.html", title=_(error.name), message=error.description
            ), error.code
        payload, code, headers = super().handle_http_exception(error)
        if error.code == 400 and "errors" in payload:
            payload["message"] = _("the request is malformed: see errors, field by field")
        payload.setdefault("message", error.description or error.name)
        for key in ("message", "errors"):
            if key in payload:
                payload[key] = i18n.translated(payload[key], i18n.reader())
        data = getattr(error, "data", None) or {}
        for key in ("event", "current_version"):
            if key in data:
                payload[key] = data[key]
        # flask-smorest drops the Allow header of a 405: give it back.
        headers = {**dict(error.get_headers()), **(headers or {})}
        headers.pop("Content-Type", None)
        return payload, code, headers


# The names of the HTTP answers a page may show as its title, for the catalogue.
HTTP_TITLES = (
    N_("Bad Request"),
    N_("Not Found"),
    N_("Method Not Allowed"),
    N_("Request Entity Too Large"),
    N_("Too Many Requests"),
)

api = TrackerApi()


# The API's areas, each a blueprint under /api.
BLUEPRINTS = (campaigns.blp, events.blp, members.blp, accounts.blp)


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
    for blp in BLUEPRINTS:
        api.register_blueprint(blp)
        csrf.exempt(blp)
    api.register_blueprint(exportschema.blp)

    @app.get("/api/docs")
    def api_docs():
        return render_template("api_docs.html", spec=api.spec.to_dict())
