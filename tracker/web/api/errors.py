"""The API's blueprints and their answers when a request fails: one error shape
(``{"code", "status", "message"}``, with ``errors``, ``event`` or ``current_version`` where
they apply), the error codes each view documents, and the check every write passes first.
"""

from __future__ import annotations

from flask import current_app, request
from flask_smorest import Blueprint, abort
from flask_wtf.csrf import validate_csrf
from wtforms.validators import ValidationError

from tracker.accounts import OverLimit, SeatRefused
from tracker.errors import (
    BatchError,
    CampaignExists,
    Conflict,
    InvalidEvent,
    NotFound,
    TrackerError,
)
from tracker.permissions import Forbidden, Unauthenticated
from tracker.systems import i18n
from tracker.systems.i18n import _
from tracker.web.api.schemas import ErrorSchema
from tracker.web.context import bearer, current_user

ERRORS = {
    400: "malformed input: the fields that are wrong",
    401: "no valid token was given",
    403: "the token's account may not do this",
    404: "no such campaign that you may see",
    409: "the campaign moved on",
    422: "an event breaks a rule of the game",
    429: "too many in too short a time: Retry-After says when to try again",
}


class ApiBlueprint(Blueprint):
    """A blueprint of the API under /api: its writes checked for a token or the page's CSRF
    token, its errors answered in the one shape."""

    def __init__(self, name: str, import_name: str, description: str):
        super().__init__(name, import_name, url_prefix="/api", description=description)
        self.before_request(writes_bring_a_token_or_a_csrf_token)
        self.errorhandler(TrackerError)(in_reader_words(tracker_error))
        self.errorhandler(BatchError)(in_reader_words(batch_error))

    def errors(self, *codes):
        """Document a view's error answers (as ErrorSchema) without wrapping the view.

        flask-smorest's alt_response documents by wrapping: one more call per code on every
        request, each asking Flask whether the view is a coroutine. The documentation is taken
        from those wrappers and the view itself is served as it is.
        """

        def decorate(view):
            documented = view
            for code in codes:
                documented = self.alt_response(code, schema=ErrorSchema, description=ERRORS[code])(
                    documented
                )
            view._apidoc = documented._apidoc
            return view

        return decorate


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
        words = _(
            "an API write with the session cookie needs the page's CSRF token in an "
            "X-CSRFToken header; or send a personal access token"
        )
        return {"code": 403, "status": "Forbidden", "message": read(words)}, 403
    return None


def read(words):
    """A message (or a form's errors, field by field) in the reader's words: the account's
    language, else the request's Accept-Language, else English. Codes and field names stay
    as they are."""
    return i18n.translated(words, i18n.reader())


def in_reader_words(handler):
    """An error handler whose answer's `message` and `errors` are in the reader's words."""

    def answer(error):
        found = handler(error)
        body = found[0]
        for key in ("message", "errors"):
            if key in body:
                body[key] = read(body[key])
        return found

    return answer


def fail(code: int, message: str, **extra):
    """Answer `code` with `message` (and such fields as `errors`), in the one error shape."""
    abort(code, message=message, **extra)


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
