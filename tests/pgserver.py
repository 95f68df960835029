"""A PostgreSQL server for a test session: initdb in a temporary folder, on a free port.

Found on PATH or in /usr/lib/postgresql/*/bin. PostgreSQL refuses to run as root, so as root
the server runs as `nobody` on a folder it owns. Where PostgreSQL is not installed the tests
that need it skip and say so; with CI set in the environment they fail instead.
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest


def binaries() -> Path | None:
    """The folder of initdb and pg_ctl, or None."""
    found = shutil.which("initdb")
    if found:
        return Path(os.path.realpath(found)).parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if Path(folder, "initdb").exists():
            return Path(folder)
    return None


def missing(reason: str):
    """Skip, saying why; or fail where CI must run every PostgreSQL test."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason}, and CI runs the PostgreSQL tests: install postgresql")
    pytest.skip(f"{reason}: the PostgreSQL tests are skipped")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """One PostgreSQL server; `database()` gives the URL of a new, empty database."""

    def __init__(self, bin_dir: Path):
        self.bin = bin_dir
        self.folder = Path(tempfile.mkdtemp(prefix="tracker-pg-"))
        self.port = free_port()
        self.user = "nobody" if os.geteuid() == 0 else None
        self.names = itertools.count(1)
        if self.user:
            shutil.chown(self.folder, self.user)
        self.folder.chmod(0o755)
        self._run(
            [self.bin / "initdb", "-D", self.folder / "data", "-A", "trust", "-U", "tracker"]
            + ["--no-sync", "-E", "UTF8", "--locale", "C.UTF-8"]
        )
        self.start()

    @property
    def root(self) -> str:
        return f"postgresql://tracker@127.0.0.1:{self.port}"

    def _run(self, args: list, check: bool = True) -> subprocess.CompletedProcess:
        words = [str(a) for a in args]
        if self.user:
            command = " ".join(f"'{w}'" for w in words)
            words = ["su", self.user, "-s", "/bin/sh", "-c", command]
        return subprocess.run(words, capture_output=True, text=True, check=check, timeout=120)

    def start(self, tries: int = 15) -> None:
        """Start the server; again a little later if it will not yet (after a kill, the old
        server's last processes may still hold its port or its shared memory a moment)."""
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1"
        command = [self.bin / "pg_ctl", "-D", self.folder / "data", "-o", options]
        for attempt in range(tries):
            try:
                self._run(command + ["-l", self.folder / "log", "-w", "start"])
                return self._ready()
            except subprocess.CalledProcessError:
                if (
                    self._run(
                        [self.bin / "pg_ctl", "-D", self.folder / "data", "status"], False
                    ).returncode
                    == 0
                ):
                    return self._ready()  # it came up after all
                if attempt == tries - 1:
                    raise
                time.sleep(1)

    def _ready(self, seconds: float = 120) -> None:
        """Wait until the server answers a query: after a crash it replays its log first,
        refusing connections meanwhile (slowly, on a busy machine)."""
        import psycopg

        deadline = time.monotonic() + seconds
        while True:
            try:
                with psycopg.connect(f"{self.root}/postgres", connect_timeout=5) as conn:
                    conn.execute("SELECT 1")
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def stop(self, mode: str = "fast") -> None:
        self._run([self.bin / "pg_ctl", "-D", self.folder / "data", "-m", mode, "-w", "stop"])

    def database(self) -> str:
        """A new empty database, owned by the server's superuser `tracker`."""
        import psycopg

        name = f"t{os.getpid()}_{next(self.names)}"
        with psycopg.connect(f"{self.root}/postgres", autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return f"{self.root}/{name}"

    def close(self) -> None:
        self._run([self.bin / "pg_ctl", "-D", self.folder / "data", "-m", "fast", "stop"], False)
        shutil.rmtree(self.folder, ignore_errors=True)


def start_server() -> Server:
    """A server for the session, or a skip (a failure under CI) saying why there is none."""
    bin_dir = binaries()
    if bin_dir is None:
        missing("PostgreSQL is not installed (no initdb on PATH or in /usr/lib/postgresql)")
    try:
        return Server(bin_dir)
    except subprocess.CalledProcessError as error:
        missing(f"PostgreSQL did not start ({(error.stderr or error.stdout).strip()[-300:]})")


def database_for(request, tmp_path, name: str = "tracker.db") -> str:
    """A new database on the engine the test is parametrised with ("sqlite" or
    "postgresql"): a file's path, or a PostgreSQL URL."""
    if request.param == "postgresql":
        return request.getfixturevalue("pg_url")
    return str(tmp_path / name)
