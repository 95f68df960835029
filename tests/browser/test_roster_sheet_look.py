"""The Warcry roster sheet in Chromium, on a phone (390x844) and a desktop (1280 wide): the
fighter cards stacked on the phone with nothing scrolling sideways, side by side on the
desktop, the ways to print it on the first screen. Screenshots go to
test-artifacts/screenshots/sheets/."""

import sys
from pathlib import Path

import pytest
from phones import CHECK, PHONE
from serving import served

from tracker import config
from tracker.accounts import Accounts
from tracker.dice import SeededRoller
from tracker.service import Service
from tracker.store import open_store
from tracker.systems.warcry.packs import factions_imported

sys.path.insert(0, str(Path(__file__).parents[1] / "web"))
from test_roster_sheet import GLOAM_FILE  # noqa: E402

SHOTS = config.ROOT / "test-artifacts" / "screenshots" / "sheets"
SAMPLE = config.SAMPLES / "warcry-ember-crown.jsonl"
ROSTER = "/c/ember-crown-sample/roster?warband=crowmarch"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A server of the sample campaign alone, its Gloamfeather Court's profiles with stat
    lines (a file of the community's format imported)."""
    database = tmp_path_factory.mktemp("sheets") / "tracker.db"
    store = open_store(str(database))
    store.init()
    service = Service(store, SeededRoller(3))
    [started] = service.import_lines(SAMPLE.read_text(encoding="utf-8").splitlines())
    data = factions_imported(GLOAM_FILE, "gloam.json")
    at = store.version(started.campaign)
    service.append(started.campaign, [{"type": "FactionsImported", "data": data}], at)
    access = Accounts(store)
    access.init()
    access.set_public(started.campaign, True)  # as a sample is: anybody may read it
    store.close()
    with served(database, workers=1) as (url, _port):
        yield url


def cards(page) -> list[dict]:
    return page.eval_on_selector_all(
        ".fighter-card",
        "cards => cards.map(c => { const b = c.getBoundingClientRect();"
        " return {x: b.x, y: b.y, width: b.width, height: b.height}; })",
    )


# Whatever of a card passes its edges (a weapon table too wide for it), by name.
SPILLED = """cards => cards.flatMap(card => {
  const edge = card.getBoundingClientRect();
  return [...card.querySelectorAll('*')].filter(el => {
    const box = el.getBoundingClientRect();
    return box.width && (box.right > edge.right + 0.5 || box.left < edge.left - 0.5);
  }).map(el => card.id + ' ' + el.tagName + ' ' + (el.innerText || '').slice(0, 30));
})"""


@pytest.mark.parametrize("language", ["en", "pl"])
def test_on_a_phone_the_cards_stack_and_nothing_scrolls_sideways(browser, site, language):
    context = browser.new_context(viewport=PHONE)
    context.add_cookies([{"name": "lang", "value": language, "url": site}])
    page = context.new_page()
    page.goto(site + ROSTER)
    assert page.locator("html").get_attribute("lang") == language
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"roster-390-{language}.png"), full_page=True)
    assert page.eval_on_selector_all(".fighter-card", SPILLED) == []
    found = page.evaluate(CHECK)
    assert not found["scroll"] and not found["wide"] and not found["small"], found
    laid = cards(page)
    assert len(laid) == 8
    assert len({round(card["x"]) for card in laid}) == 1  # one column
    assert all(card["x"] >= 0 and card["x"] + card["width"] <= 390 for card in laid)
    assert all(a["y"] + a["height"] <= b["y"] for a, b in zip(laid, laid[1:]))
    # What one may do with the sheet (print it, take its PDF) is on the first screen.
    tools = page.locator(".sheet-tools").bounding_box()
    assert tools and tools["y"] + tools["height"] <= 844
    context.close()


def test_on_a_desktop_the_cards_stand_side_by_side(browser, site):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(site + ROSTER)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "roster-1280.png"), full_page=True)
    laid = cards(page)
    assert len({round(card["x"]) for card in laid}) >= 3
    assert page.eval_on_selector_all(".fighter-card", SPILLED) == []
    assert page.locator(".live-qr svg.qr").bounding_box()["width"] >= 100
    context.close()
