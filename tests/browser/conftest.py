"""A real server (manage.py serve: gunicorn on loopback) and Debian's Chromium, driven by
Playwright. Screenshots go to test-artifacts/screenshots/."""

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect
from serving import QUICK_START

from tracker import config

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SHOTS = config.ROOT / "test-artifacts" / "screenshots"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

# What a page should come to show, waited for this long: the suite's other worker shares the
# machine's cores with this one's server and browser.
expect.set_options(timeout=10_000)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def server_db(tmp_path_factory):
    """The database the live server serves (for operator commands: manage.py members)."""
    return tmp_path_factory.mktemp("browser") / "tracker.db"


@pytest.fixture(scope="session")
def server(server_db):
    folder = server_db.parent
    port = free_port()
    log = open(folder / "server.log", "w+b")
    process = subprocess.Popen(
        [
            sys.executable,
            str(config.ROOT / "manage.py"),
            "serve",
            "--db",
            str(server_db),
            "--port",
            str(port),
            "--workers",
            "1",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        # Every browser test signs its people up from this one address (loopback): more
        # than the ten an hour a stranger may make.
        env={**os.environ, **QUICK_START, "TRACKER_SIGNUPS_PER_ADDRESS_HOUR": "100"},
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(150):
        try:
            urllib.request.urlopen(url + "/", timeout=1)
            break
        except OSError:
            time.sleep(0.1)
    else:
        process.kill()
        log.seek(0)
        pytest.fail("the server did not start: " + log.read().decode()[-2000:])
    yield url
    process.terminate()
    process.wait(timeout=30)
    log.close()


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15000)
    yield page
    context.close()


@pytest.fixture
def shot():
    SHOTS.mkdir(parents=True, exist_ok=True)

    def take(page, name):
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)

    return take
