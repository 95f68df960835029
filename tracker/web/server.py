"""A real WSGI server for the app: gunicorn, started from the command line."""

import re

from gunicorn.app.base import BaseApplication
from gunicorn.glogging import Logger

_SECRET_PATHS = re.compile(r"(/(?:api/invitations|join)/)[^/?\s]+")


class RedactingLogger(Logger):
    """gunicorn's access log, with invitation codes blanked out of the paths it writes."""

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        for key in ("r", "U", "{raw_uri}e"):
            if isinstance(atoms.get(key), str):
                atoms[key] = _SECRET_PATHS.sub(r"\1…", atoms[key])
        return atoms


class _Gunicorn(BaseApplication):
    def __init__(self, app, options):
        self.application = app
        self.options = options
        super().__init__()

    def load_config(self):
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self):
        return self.application


def run(app, host: str, port: int, workers: int = 2) -> None:
    _Gunicorn(
        app,
        {
            "bind": f"{host}:{port}",
            "workers": workers,
            "worker_class": "gthread",
            "threads": 4,
            "accesslog": "-",
            "logger_class": RedactingLogger,
            "timeout": 60,
        },
    ).run()
