"""A live page whose stream the server will not hold (the address is over its limit): the page
says so and looks for news on its own, more slowly. In Chromium at 390 px, against a server
whose limit lets no stream in."""

import os
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
from playwright.sync_api import expect

from tracker import config
from tracker.dice import SeededRoller
from tracker.service import Service
from tracker.store import Store


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def crowded(tmp_path_factory):
    """The samples served with room for no stream from any address."""
    folder = tmp_path_factory.mktemp("crowded")
    database = folder / "t.db"
    port = free_port()
    log = open(folder / "server.log", "wb")
    process = subprocess.Popen(
        [sys.executable, str(config.ROOT / "manage.py"), "serve", "--db", str(database)]
        + ["--port", str(port), "--workers", "1"],
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "TRACKER_LIVE_PER_ADDRESS": "0", "TRACKER_LIVE_SLOW_SECONDS": "3"},
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(150):
        try:
            urllib.request.urlopen(url + "/", timeout=1)
            break
        except OSError:
            time.sleep(0.1)
    yield url, database
    process.terminate()
    process.wait(timeout=30)
    log.close()


def test_a_page_refused_its_stream_says_so_and_refreshes_itself_slowly(crowded, browser, shot):
    url, database = crowded
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    refusals = []
    page.on(
        "response", lambda answer: refusals.append(answer.status) if "/live" in answer.url else None
    )
    page.goto(url + "/c/ember-crown-sample/")
    note = page.locator("#live-slow")
    expect(note).to_be_visible(timeout=15000)
    expect(note).to_contain_text("looks for news every 3 seconds")
    assert 429 in refusals
    shot(page, "live-limits-390")
    # The page fetches itself on its own: a new version shows without a reload.
    page.evaluate("window.keptSinceLoad = true")
    store = Store(str(database))
    try:
        version = store.version("ember-crown-sample")
        data = {"warband": "late-gulls", "name": "Late Gulls", "player": "P", "faction": "Ash"}
        Service(store, SeededRoller(1)).append(
            "ember-crown-sample", [{"type": "WarbandFounded", "data": data}], version, actor="org"
        )
    finally:
        store.close()
    page.wait_for_function(
        f"() => parseInt(document.getElementById('live').dataset.version, 10) > {version}",
        timeout=20000,
    )
    assert page.evaluate("window.keptSinceLoad === true")
    context.close()
