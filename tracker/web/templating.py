"""The names and filters every template may use, and the templates compiled before serving."""

from __future__ import annotations

import itertools
from functools import lru_cache

import msgspec
import segno
from flask import (
    current_app,
    redirect,
    render_template,
    request,
    url_for,
)
from markupsafe import Markup, escape

from tracker.errors import NotFound, ShownAt
from tracker.systems import i18n
from tracker.systems.i18n import _
from tracker.web import entries
from tracker.web.forms import dice_boxes


def init_app(app) -> None:
    """The names and filters every template may use."""
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
    """`url_for` for the views."""
    return url_for(endpoint, **values)


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
