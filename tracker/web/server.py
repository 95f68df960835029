"""A real WSGI server for the app: gunicorn, started from the command line."""

import gc
import re
import signal

from gunicorn.app.base import BaseApplication
from gunicorn.glogging import Logger

from tracker.web import live

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


def _streams_end_with_the_worker(worker) -> None:
    """A worker told to stop ends its event streams first: its threads then finish at once
    instead of holding the exit until each stream's time is up."""
    stop = signal.getsignal(signal.SIGTERM)

    def ending(signum, frame):
        live.stop_all()
        if callable(stop):
            stop(signum, frame)

    signal.signal(signal.SIGTERM, ending)


# The cycle collector's thresholds in a worker (Python's are 700, 10, 10). A busy worker has
# many requests in flight: at a young collection their objects are still alive, so with
# Python's thresholds they are promoted and the whole heap is walked every second or two.
# With these, most of a request's objects are gone before the collector looks at them.
COLLECTOR = (5000, 50, 50)


def _worker_starts(worker) -> None:
    """A worker's start: the collector set for a server, and streams that end with it."""
    gc.set_threshold(*COLLECTOR)
    _streams_end_with_the_worker(worker)


# Threads per worker: every open page holds one for its event stream (gthread gives a thread
# to a request for as long as it lasts), and the streams of a whole table may land on one
# worker, so each worker has room for 50 streams and the pages beside them.
THREADS = 64


def settings(bind: str, workers: int) -> dict:
    """gunicorn's settings for the tracker (the bench serves with the same)."""
    return {
        "bind": bind,
        "workers": workers,
        "worker_class": "gthread",
        "threads": THREADS,
        "accesslog": "-",
        "logger_class": RedactingLogger,
        "timeout": 60,
        "post_worker_init": _worker_starts,
        "worker_int": lambda worker: live.stop_all(),
    }


def run(app, host: str, port: int, workers: int = 2) -> None:
    _Gunicorn(app, settings(f"{host}:{port}", workers)).run()
