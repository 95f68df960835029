"""A live page whose stream the server will not hold (the address is over its limit): the page
says so and looks for news on its own, more slowly. In Chromium at 390 px, against a server
whose limit lets no stream in."""

import os

import pytest
from phones import PHONE
from playwright.sync_api import expect
from serving import served

from tracker.dice import SeededRoller
from tracker.service import Service
from tracker.store import open_store


@pytest.fixture(scope="module")
def crowded(tmp_path_factory):
    """The samples served with room for no stream from any address."""
    folder = tmp_path_factory.mktemp("crowded")
    database = folder / "t.db"
    env = {**os.environ, "TRACKER_LIVE_PER_ADDRESS": "0", "TRACKER_LIVE_SLOW_SECONDS": "3"}
    with (
        open(folder / "server.log", "wb") as log,
        served(database, workers=1, log=log, env=env) as (
            url,
            _,
        ),
    ):
        yield url, database


def test_a_page_refused_its_stream_says_so_and_refreshes_itself_slowly(crowded, browser, shot):
    url, database = crowded
    context = browser.new_context(viewport=PHONE)
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
    store = open_store(str(database))
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
