"""The tracker served as `manage.py serve` serves it (gunicorn on loopback), for the tests that
need a real server: a free port, and a server that is up once it answers."""

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from tracker import config

# A test server compiles each template on its first render, not all at its start (some 2.5 s
# a start): `serve` as users run it compiles them first (tests/core/test_wheel.py).
QUICK_START = {"TRACKER_COMPILE_TEMPLATES": "0"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def served(database, *, workers: int = 2, log=subprocess.DEVNULL, env=None, cwd=None):
    """`serve` on `database` and a free port, yielding (url, port) once it answers; stopped
    after."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, str(config.ROOT / "manage.py"), "serve", "--db", str(database)]
        + ["--port", str(port), "--workers", str(workers)],
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**(os.environ if env is None else env), **QUICK_START},
        cwd=cwd,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(url + "/", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.fail("the server did not start")
        yield url, port
    finally:
        process.terminate()
        process.wait(timeout=30)
