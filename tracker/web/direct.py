"""The API's busiest call, an append, served in its usual case without Flask's layers.

An append through Flask, flask-smorest and webargs spends about as much of a worker's time in
their routing, wrappers and request objects as in the append itself. `DirectAppend` sits in
front of the app (WSGI middleware) and serves a POST to /api/campaigns/<id>/events that brings
an API token and a JSON body, through the same pieces the API view uses: the token's account
(`Accounts.token_user`), the member's guard, the append's terms and the append itself (`api.append_body`), the
body's schema (`AppendSchema`, through the compiled loader), `Service.append` and the answer
(`api.append_answer`).

It answers only a successful append. Anything else (no token, an unknown account, a bad body,
a refusal, a conflict) hands the request, body and all, to the app, which answers it in its
own words: nothing was written before the append, and an append that fails writes nothing.
"""

from __future__ import annotations

import io
import json
import re

from tracker.accounts import Accounts
from tracker.fastload import loader
from tracker.permissions import Policy
from tracker.service import Service
from tracker.web import kept_store
from tracker.web.api import AppendSchema, append_answer, append_body

_PATH = re.compile(r"/api/campaigns/([^/]+)/events")
_MAX_BODY = 4 * 1024 * 1024  # a longer body goes to the app
_load = loader(AppendSchema)  # marshmallow's result, compiled (tracker/fastload.py)


class DirectAppend:
    def __init__(self, wsgi_app, flask_app):
        self.wsgi_app = wsgi_app
        self.flask_app = flask_app

    def __call__(self, environ, start_response):
        if environ.get("REQUEST_METHOD") != "POST":
            return self.wsgi_app(environ, start_response)
        match = _PATH.fullmatch(environ.get("PATH_INFO", ""))
        auth = environ.get("HTTP_AUTHORIZATION", "")
        kind = environ.get("CONTENT_TYPE", "")
        length = environ.get("CONTENT_LENGTH", "")
        if (
            match is None
            or not auth.startswith("Bearer ")
            or not kind.startswith("application/json")
            or not length.isdigit()
            or int(length) > _MAX_BODY
        ):
            return self.wsgi_app(environ, start_response)
        raw = environ["wsgi.input"].read(int(length))
        environ["wsgi.input"] = io.BytesIO(raw)  # the app reads it again if it answers
        answer = self._append(match.group(1), auth[7:].strip(), raw, environ)
        if answer is None:
            return self.wsgi_app(environ, start_response)
        body = answer.encode("utf-8")
        start_response(
            "201 CREATED",
            [("Content-Type", "application/json"), ("Content-Length", str(len(body)))],
        )
        return [body]

    def _append(self, campaign: str, token: str, raw: bytes, environ) -> str | None:
        """The answer of a successful append; None hands the request to the app."""
        config = self.flask_app.config
        store = kept_store(config["DATABASE"])
        try:
            try:
                accounts = Accounts(store.conn)
                user = accounts.token_user(token)
                if user is None:
                    return None
                body = _load(json.loads(raw))
                guard, result = append_body(
                    Policy(accounts, user),
                    Service(store, config["ROLLER"]),
                    campaign,
                    body,
                    environ.get("HTTP_IF_MATCH"),
                    environ.get("HTTP_IDEMPOTENCY_KEY"),
                )
            except Exception:
                return None  # nothing was written: the app answers, in its own words
            # Written: from here on the request is this one's to finish.
            guard.settle(campaign)
            return append_answer(result)
        finally:
            if store.conn.in_transaction:
                store.conn.rollback()  # never leave a transaction open on a kept connection
