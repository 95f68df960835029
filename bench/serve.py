"""The real app behind gunicorn, wrapped with one bare endpoint for the bench: /bench/noop.

The wrapper lives here, not in tracker/web: the product has no endpoint that does nothing.
Run: python -m bench.serve --db PATH --port PORT [--workers 2]
"""

from __future__ import annotations

import argparse

from tracker.web import create_app
from tracker.web.server import _Gunicorn, settings


def noop_app(app):
    """The tracker app, but POST/GET /bench/noop answers 201 at once without touching Flask."""

    def wsgi(environ, start_response):
        if environ.get("PATH_INFO") == "/bench/noop":
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    app = create_app({"DATABASE": args.db})
    # The same gunicorn settings as `manage.py serve` (tracker/web/server.py).
    _Gunicorn(noop_app(app), settings(f"127.0.0.1:{args.port}", args.workers)).run()


if __name__ == "__main__":
    main()
