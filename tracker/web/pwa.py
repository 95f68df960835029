"""What makes the tracker an app on a phone: its icon, its manifest, its service worker (the
pages last seen, kept for when the network fails) and the page shown offline for a page never
seen."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template, send_from_directory, url_for

from tracker.systems import i18n
from tracker.systems.i18n import _
from tracker.web.language import language

bp = Blueprint("pwa", __name__)

# The header's brown and the page's background (style.css): the colours a phone gives the
# app's bar and its splash screen.
THEME, BACKGROUND = "#2b2118", "#fbfaf7"
ICONS = (
    ("icon-192.png", "192x192", "image/png", "any"),
    ("icon-512.png", "512x512", "image/png", "any"),
    ("icon-maskable-512.png", "512x512", "image/png", "maskable"),
    ("icon.svg", "any", "image/svg+xml", "any"),
)


@bp.get("/favicon.ico")
def favicon():
    answer = send_from_directory(current_app.static_folder, "favicon.ico", max_age=86400)
    answer.mimetype = "image/x-icon"
    return answer


@bp.get("/manifest.webmanifest")
def manifest():
    """The web app manifest, in the reader's language."""
    reader = i18n.reader()
    body = {
        "name": i18n.translate(_("Campaign tracker"), reader),
        "short_name": i18n.translate(_("Tracker"), reader),
        "lang": language(),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": [
            {
                "src": url_for("static", filename=name),
                "sizes": sizes,
                "type": kind,
                "purpose": purpose,
            }
            for name, sizes, kind, purpose in ICONS
        ],
    }
    answer = current_app.json.response(body)
    answer.mimetype = "application/manifest+json"
    answer.headers["Vary"] = "Cookie, Accept-Language"
    return answer


@bp.get("/sw.js")
def service_worker():
    """The service worker, served from the site's root so that its scope is the whole site;
    looked for anew on every visit (no-cache), so a new version is taken at once."""
    answer = send_from_directory(current_app.static_folder, "sw.js", max_age=0)
    answer.mimetype = "text/javascript"
    answer.headers["Service-Worker-Allowed"] = "/"
    answer.headers["Cache-Control"] = "no-cache"
    return answer


@bp.get("/offline")
def offline():
    """The page the service worker shows for a page it has never seen while the network is
    down, kept by it in the reader's language."""
    answer = current_app.make_response(render_template("offline.html"))
    answer.headers["Content-Language"] = language()
    answer.headers["Cache-Control"] = "no-cache"
    return answer


def init_app(app) -> None:
    app.register_blueprint(bp)
