"""The pages' template environment: Jinja's, with attribute lookups on plain dicts made cheap,
the URLs the pages link to kept once built, and the names and filters every template may use.

The templates read the folded state, which is plain dicts, as `warband.name`. Jinja looks an
attribute up first (`getattr`) and only then an item, so every such read raised and caught an
AttributeError before it found the key. For a plain dict and a name that is no attribute of
dict, the attribute lookup can only fail: trying the key first gives the same answer, without
the exception. Every other lookup (a dict's own methods, `warbands.items`; subclasses of dict;
any other object) goes Jinja's way.
"""

from __future__ import annotations

import itertools
from functools import lru_cache
from typing import Any

import msgspec
import segno
from flask import (
    current_app,
    has_request_context,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.templating import Environment
from markupsafe import Markup, escape

from tracker.errors import NotFound, ShownAt
from tracker.systems import i18n
from tracker.systems.i18n import _
from tracker.web import entries
from tracker.web.forms import dice_boxes

_DICT_ATTRIBUTES = frozenset(dir(dict))


class TrackerEnvironment(Environment):
    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                pass
        # Jinja's own lookup, written out rather than called: every other lookup goes
        # through here too.
        try:
            return getattr(obj, attribute)
        except AttributeError:
            pass
        try:
            return obj[attribute]
        except (TypeError, LookupError, AttributeError):
            return self.undefined(obj=obj, name=attribute)


# URLs kept per process: a page links to some twenty, most of them the same on every page of
# a campaign (its own pages, the static files, the account's).
URLS_KEPT = 4096


class KeptUrls:
    """`url_for`, each URL it builds kept by what it was built from.

    Without `_external`, `_scheme`, `_anchor` or `_method`, and for an endpoint named in full,
    a URL is a function of the endpoint, its values and where the app is served from (the
    request's SCRIPT_NAME and host, both in the key): the app's routes are fixed once it serves,
    and it registers no `url_defaults`, which could make a URL depend on more. Anything else
    (and a value that cannot be a key) is built by `url_for` itself, every time. At most `kept`
    URLs; the least asked for go first. `URLS_KEPT = 0` in the config builds every URL afresh.
    """

    def __init__(self, app, kept: int = URLS_KEPT):
        self.url_for = app.url_for
        self._kept = lru_cache(maxsize=kept)(self._build) if kept else None

    def __call__(self, endpoint: str, **values) -> str:
        if endpoint[0] == "." or not has_request_context():
            return self.url_for(endpoint, **values)
        return self.built(self.where(), endpoint, values)

    @staticmethod
    def where() -> tuple:
        """Where this request finds the app (its SCRIPT_NAME and host): part of every key."""
        environ = request.environ
        return environ.get("SCRIPT_NAME", ""), environ.get("HTTP_HOST")

    def built(self, where: tuple, endpoint: str, values: dict) -> str:
        """The URL of `endpoint` with `values` in this request, served from `where` (a page
        that links to many asks `where` once)."""
        if self._kept is None:
            return self.url_for(endpoint, **values)
        for name in values:
            if name[0] == "_":
                return self.url_for(endpoint, **values)
        try:
            return self._kept(where, endpoint, tuple(values.items()))
        except TypeError:  # a value that is no key: a list, a dict
            return self.url_for(endpoint, **values)

    def _build(self, where: tuple, endpoint: str, values: tuple) -> str:
        return self.url_for(endpoint, **dict(values))


def init_app(app) -> None:
    """The templates' `url_for` (and `url`, for the views) keeps the URLs it builds; the
    names and filters every template may use."""
    kept = KeptUrls(app, app.config.get("URLS_KEPT", URLS_KEPT))
    app.extensions["tracker.urls"] = kept
    app.jinja_env.globals["url_for"] = kept

    app.jinja_env.tests["contains"] = lambda sequence, item: item in sequence
    app.jinja_env.globals["static_text"] = static_text
    app.jinja_env.globals["kept_fields"] = entries.kept_fields
    app.jinja_env.globals["legal"] = entries.legal
    app.jinja_env.globals["offered"] = entries.offered
    app.jinja_env.globals["dice_boxes"] = dice_boxes
    # The ways to pick `n` of a hand (the candidates a form asks `legal` about).
    app.jinja_env.globals["combinations"] = itertools.combinations

    app.template_filter("data_json")(data_json)
    app.template_filter("qr_code")(qr_code)
    app.template_filter("qr_svg")(qr_svg)

    @app.template_filter("in_fours")
    def in_fours(head: str) -> str:
        """A head hash in groups of four characters, to be read out or photographed."""
        return " ".join(head[i : i + 4] for i in range(0, 64, 4))

    @app.template_filter("join_messages")
    def join_messages(messages) -> str:
        """A form's errors (a field's, or each field's by its name) as one line, each message
        in the reader's language."""
        if isinstance(messages, dict):
            return "; ".join(
                i18n.translate(
                    _("%(field)s: %(words)s", field=k, words=join_messages(v)), i18n.reader()
                )
                for k, v in messages.items()
            )
        if isinstance(messages, list):
            return "; ".join(join_messages(m) for m in messages)
        return str(i18n.translate(messages, i18n.reader()))

    @app.errorhandler(NotFound)
    def not_found(error):
        return render_template("error.html", title=_("Not found"), message=error.message), 404

    @app.errorhandler(ShownAt)
    def shown_at(error):
        """The page as the campaign stood at the moment that still holds what was asked."""
        args = {**request.args, "at": error.version}
        return redirect(url_for(request.endpoint, **(request.view_args or {}), **args))


def compile_all(app) -> int:
    """Every template compiled into the app's environment now; returns how many.

    A template is compiled on its first render, 85-95% of a game's first page (some 40-70 ms
    against 1-4 ms warm). Serving compiles them all in gunicorn's master, before the workers
    fork: each worker starts with them compiled (about 3 s on a busy machine of two cores, once
    a start). An app made for tests compiles only what it renders.
    """
    env = app.jinja_env
    names = env.list_templates(extensions=("html",))
    for name in names:
        env.get_template(name)
    # A part is a partial (its name starts with "_"): each is looked over for the names it
    # reads too, which its first use would otherwise parse it again for.
    env.globals["part"].look_over(n for n in names if n.rpartition("/")[2].startswith("_"))
    return len(names)


def url(endpoint: str, **values) -> str:
    """`url_for` for the views, through the app's kept URLs."""
    return current_app.extensions["tracker.urls"](endpoint, **values)


def data_json(data) -> Markup:
    """An event's data as indented JSON, escaped for HTML (msgspec's encoder: a page of the
    audit log shows a page of these)."""
    return escape(msgspec.json.format(msgspec.json.encode(data), indent=2).decode())


def qr_code(text: str) -> str:
    """A QR code of `text` as an SVG data URI, for an <img> (the page's policy allows
    data: images, never inline script)."""
    return segno.make(text, error="m").svg_data_uri(scale=4, border=2, light="#fff")


@lru_cache(maxsize=256)
def qr_svg(text: str, title: str = "") -> Markup:
    """A QR code of `text` as an SVG element drawn in the page itself (a PDF carries it as
    vector paths, with nothing fetched); `title` names it for a screen reader."""
    svg = segno.make(text, error="m").svg_inline(
        border=2, omitsize=True, light="#fff", svgclass="qr", lineclass=None, title=title or None
    )
    return Markup(svg)


def static_text(name: str) -> Markup:
    """One of our own static files, as it is (a style sheet put inside the PDF's page: escaped,
    its `>` selectors and quoted font names would break)."""
    with open(f"{current_app.static_folder}/{name}", encoding="utf-8") as handle:
        return Markup(handle.read())
