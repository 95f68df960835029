"""A real WSGI server for the app: gunicorn, started from the command line."""

import gc
import re
import resource
import signal
import threading

from gunicorn.app.base import BaseApplication
from gunicorn.glogging import Logger
from gunicorn.http.wsgi import Response as GunicornResponse
from gunicorn.workers.gthread import ThreadWorker

from tracker.web import live, templating

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
    """A worker's start: the collector set for a server, streams that end with it, and as
    many open files as the system lets it have (each held stream is a socket)."""
    gc.set_threshold(*COLLECTOR)
    _streams_end_with_the_worker(worker)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):
            pass  # the soft limit stays; the stream limits keep well under it anyway


class StreamingWorker(ThreadWorker):
    """gunicorn's gthread worker, except for a live page's stream: once the stream's view has
    let it in, its connection goes to the process's announcer (tracker/web/streams.py) and the
    thread goes back to requests. An open stream then costs a socket, not a thread."""

    def load_wsgi(self):
        super().load_wsgi()
        self.wsgi = _HandingOff(self.wsgi)

    def finish_request(self, conn, fs):
        if _HandingOff.given(conn.sock):
            # The announcer writes on a duplicate of the connection: close this one without
            # shutting the connection down (gunicorn's own close would end the stream).
            self.nr_conns -= 1
            try:
                conn.sock.close()
            except OSError:
                pass
            return
        super().finish_request(conn, fs)


class _HandingOff:
    """The app, as the streaming worker calls it: a stream's body (`live.Watch`) is not
    iterated by the thread; its headers are sent and its connection handed on. A body refused
    as too large ends its connection, rather than the worker reading the rest of it."""

    _given: set = set()
    _lock = threading.Lock()

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        body = self.app(environ, start_response)
        answer = getattr(start_response, "__self__", None)
        sock = environ.get("gunicorn.socket")
        if not isinstance(answer, GunicornResponse):
            return body
        if answer.status_code == 413:
            answer.force_close()
        if not isinstance(body, live.Watch):
            return body
        try:
            answer.force_close()  # the stream ends with the connection
            answer.chunked = False  # its body is the bytes the announcer writes, unframed
            answer.send_headers()
            handed = sock.dup()
        except BaseException:
            body.close()
            raise
        with self._lock:
            self._given.add(sock)
        body.hand_to(handed)
        return []

    @classmethod
    def given(cls, sock) -> bool:
        with cls._lock:
            if sock in cls._given:
                cls._given.discard(sock)
                return True
            return False


# Threads per worker. They serve requests only (a stream holds none, above); measured under
# the bench's mixed load, a few threads serve more than many (bench/HISTORY.md).
THREADS = 8


def settings(bind: str, workers: int, access_log: bool = False, threads: int = THREADS) -> dict:
    """gunicorn's settings for the tracker (the bench serves with the same). The access log
    is off unless asked for: writing it on each request's path costs every request."""
    return {
        "bind": bind,
        "workers": workers,
        "worker_class": StreamingWorker,
        "threads": threads,
        "accesslog": "-" if access_log else None,
        "logger_class": RedactingLogger,
        "timeout": 60,
        "post_worker_init": _worker_starts,
        "worker_int": lambda worker: live.stop_all(),
        # gunicorn's control socket would be a file in the home folder: the tracker writes
        # nothing but its database's own files.
        "control_socket_disable": True,
    }


def run(app, host: str, port: int, workers: int = 2, access_log=False, threads=THREADS) -> None:
    """Serve `app` with gunicorn, its templates compiled first: the workers fork from this
    process with them, so no visitor's first page waits for its templates."""
    if app.config["COMPILE_TEMPLATES"]:
        templating.compile_all(app)
    _Gunicorn(app, settings(f"{host}:{port}", workers, access_log, threads)).run()
