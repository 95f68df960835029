"""The tracker as a user installs it: the wheel built from the source, installed (not
editable) in a fresh virtual environment, serving from another directory with `serve`."""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest

from tracker import config

SOURCE = (
    "pyproject.toml",
    "setup.py",
    "MANIFEST.in",
    "README.md",
    "tracker",
    "templates",
    "events",
)


def sample_campaigns() -> dict[str, str]:
    """Each sample campaign's id and game, from the first line of its file."""
    out = {}
    for path in sorted(config.SAMPLES.glob("*.jsonl")):
        first = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
        out[first["campaign"]] = first["data"]["system"]
    return out


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel, built from a copy of the source (nothing else of the checkout in reach)."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    for name in SOURCE:
        origin = config.ROOT / name
        if origin.is_dir():
            shutil.copytree(origin, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            source.mkdir(exist_ok=True)
            shutil.copy(origin, source / name)
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(work), str(source)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr
    [found] = work.glob("tracker-*.whl")
    return found


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """A fresh virtual environment with the wheel installed; its bin folder."""
    venv = tmp_path_factory.mktemp("venv") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    done = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    return venv / "bin"


def test_the_wheel_carries_the_templates_the_samples_and_the_static_files(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for template in config.TEMPLATES.rglob("*.html"):
        assert "tracker/templates/" + str(template.relative_to(config.TEMPLATES)) in names
    for sample in config.SAMPLES.glob("*.jsonl"):
        assert f"tracker/events/{sample.name}" in names
    for static in ("style.css", "print.css", "app.js"):
        assert f"tracker/web/static/{static}" in names
    for language in ("pl", "cs", "it"):  # the catalogues, compiled
        assert f"tracker/translations/{language}/LC_MESSAGES/messages.mo" in names
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "tracker = tracker.cli:main" in zipfile.ZipFile(wheel).read(entry_points).decode()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def fetch(url: str, language: str = "") -> tuple[int, str]:
    asked = urllib.request.Request(url, headers={"Accept-Language": language} if language else {})
    try:
        with urllib.request.urlopen(asked, timeout=30) as answer:
            return answer.status, answer.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8", "replace")


@pytest.fixture
def served(installed, tmp_path):
    """The installed tracker serving, from a directory of its own, on a fresh database."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("TRACKER_DB", "PYTHONPATH")}
    server = subprocess.Popen(
        [str(installed / "tracker"), "serve", "--port", str(port), "--db", "here.db"],
        cwd=elsewhere,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            if server.poll() is not None:
                pytest.fail("serve ended: " + server.stdout.read())
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                time.sleep(0.1)
        yield base, server
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)


def test_the_installed_tracker_serves_a_page_of_each_games_sample_from_another_folder(
    served, installed
):
    base, server = served
    status, front = fetch(base + "/")
    assert status == 200
    for path in ("/login", "/signup", "/api/docs", "/static/style.css", "/api/openapi.json"):
        assert fetch(base + path)[0] == 200, path
    campaigns = sample_campaigns()
    assert {system for system in campaigns.values()} == {
        "warcry",
        "claim",
        "leaders",
        "monsters",
        "hellas",
    }
    for campaign in campaigns:
        assert f"/c/{campaign}/" in front
        status, page = fetch(f"{base}/c/{campaign}/")
        assert status == 200 and "Something went wrong" not in page, campaign
    # Its catalogues are the installed package's: a page asked for in Polish is in Polish.
    polish = fetch(f"{base}/login", "pl")[1]
    assert '<html lang="pl">' in polish and "Log in" not in polish
    # The installed package is what served: not a source tree somewhere on the path.
    where = subprocess.run(
        [str(installed / "python"), "-c", "import tracker; print(tracker.__file__)"],
        capture_output=True,
        text=True,
        cwd="/",
    ).stdout
    assert "site-packages" in where
    os.killpg(server.pid, signal.SIGTERM)
    said = server.communicate(timeout=30)[0]
    assert f"loaded {len(campaigns)} sample campaigns" in said
