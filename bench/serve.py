"""The real app behind gunicorn, wrapped with two bare endpoints for the bench.

/bench/noop answers in the WSGI wrapper itself, without touching Flask: the server's own
floor (the HTTP append figure). /bench/flask is a bare Flask endpoint, a Flask app of one
route that does nothing: the framework's floor on the same server, which the issue's load
targets measure the app against. The wrappers live here, not in tracker/web: the product
has no endpoint that does nothing.
Run: python -m bench.serve --db PATH --port PORT [--workers 2] [--old-server] [--pages-undrawn]

With --old-server, the settings `serve` had before its streams held no thread (OLD): the
same `settings(...)`, with gunicorn's own gthread worker, 64 threads a worker and the access
log written on every request (to this process's output), so both servers run from one code.
With --pages-undrawn, every template is answered by a fixed body (`undrawn`): the load's
ceiling for any work on the pages.
"""

from __future__ import annotations

import argparse

from flask import Flask, request

from tracker.web import create_app
from tracker.web.server import _Gunicorn, settings

# The keys of `settings(...)` that the server before the streaming worker set otherwise: a
# stream then held its request thread, hence the 64 of them, and every request was logged.
OLD = {"worker_class": "gthread", "threads": 64, "accesslog": "-"}


def bare_flask() -> Flask:
    """A Flask app of one route that reads the request's body and answers 201."""
    bare = Flask("bench-bare")

    @bare.route("/bench/flask", methods=["GET", "POST"])
    def noop():
        request.get_data()
        return {"ok": True}, 201

    return bare


def noop_app(app):
    """The tracker app, but POST/GET /bench/noop answers 201 at once without touching Flask,
    and /bench/flask is answered by the bare Flask app."""
    bare = bare_flask()

    def wsgi(environ, start_response):
        path = environ.get("PATH_INFO")
        if path == "/bench/flask":
            return bare(environ, start_response)
        if path == "/bench/noop":
            length = int(environ.get("CONTENT_LENGTH") or 0)
            if length:
                environ["wsgi.input"].read(length)
            body = b'{"ok":true}'
            start_response(
                "201 CREATED",
                [("Content-Type", "application/json"), ("Content-Length", str(len(body)))],
            )
            return [body]
        return app(environ, start_response)

    return wsgi


class _Undrawn:
    """A template that draws nothing: its page is UNDRAWN, whatever it is given."""

    def render(self, context) -> str:
        return UNDRAWN


UNDRAWN = "<!doctype html>" + "x" * 26_000  # about the size of the sample dashboard


def undrawn(app) -> None:
    """Every page of `app` answered without drawing its template: the request is read, the
    reader checked, the campaign's state and the page's context made as always, and the
    template's place taken by a fixed body. What a template would ask for as it draws (the
    latest events, the next steps) is not asked for either. The load against it is the most
    that any work on the templates could reach."""
    app.jinja_env.get_or_select_template = lambda *names, **kw: _Undrawn()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--old-server",
        action="store_true",
        help="gthread worker, 64 threads, access log on: the settings before streams held "
        "no thread",
    )
    parser.add_argument("--threads", type=int, help="request threads a worker (serve's --threads)")
    parser.add_argument(
        "--pages-undrawn",
        action="store_true",
        help="every template answered by a fixed body, nothing drawn: the ceiling of work on "
        "the pages",
    )
    args = parser.parse_args()
    app = create_app({"DATABASE": args.db})
    if args.pages_undrawn:
        undrawn(app)
    # The same gunicorn settings as `manage.py serve` (tracker/web/server.py).
    options = settings(f"127.0.0.1:{args.port}", args.workers)
    if args.old_server:
        options.update(OLD)
    if args.threads:
        options["threads"] = args.threads
    _Gunicorn(noop_app(app), options).run()


if __name__ == "__main__":
    main()
