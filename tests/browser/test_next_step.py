"""The next step first, on a phone (390x844): the header is one row with its menu behind one
button (which opens with script and without), every campaign page of every game opens with
what this person may do next inside the first screen, for an organiser and for a seated
player, and a refused entry lands in sight. Screenshots of each first screen go to
test-artifacts/screenshots/next/.

Each sample is imported again under a campaign of this file's own (as the command line's
`import` does it), so what is recorded here changes no other test's sample.
"""

import json
import re

import pytest
from crawling import crawl, made_organiser, sample_copy, seated, signed_up, tag_of
from phones import ONE_ROW, PHONE, first_screen, header_and_next_step
from playwright.sync_api import expect

from tracker import config

SHOTS = config.ROOT / "test-artifacts" / "screenshots" / "next"
SAMPLES = {
    "warcry": "warcry-ember-crown.jsonl",
    "claim": "claim-tavern-nights.jsonl",
    "hellas-duel": "hellas-duel.jsonl",
    "hellas-three-crowns": "hellas-three-crowns.jsonl",
    "leaders-expert": "leaders-expert.jsonl",
    "leaders-standard": "leaders-standard.jsonl",
    "monsters": "monsters-twin-peaks-feud.jsonl",
}
# Pages of one path are looked at this many times: they share one template.
PER_PAGE = 2
PASSWORD = "a long enough secret"


def copied(sample: str, server_db) -> tuple[str, str]:
    """The sample imported again as campaign `next-<sample>`, and the side of its first
    player (Warcry: its first warband)."""
    campaign = sample_copy(server_db, SAMPLES[sample], f"next-{sample}")
    lines = [json.loads(line) for line in (config.SAMPLES / SAMPLES[sample]).open()]
    players = lines[0]["data"]["settings"].get("players")
    if players:
        return campaign, players[0]["id"]
    return campaign, next(e["data"]["warband"] for e in lines if e["type"] == "WarbandFounded")


def phone_of(browser, server, name: str, javascript: bool = True):
    return signed_up(browser, server, name, PASSWORD, PHONE, javascript)[1]


@pytest.fixture(scope="module")
def people(browser, server, server_db):
    """An organiser of every copy, and a player seated at the first side of each; and the
    copies (sample -> campaign)."""
    organiser = phone_of(browser, server, "next-orga")
    player = phone_of(browser, server, "next-seat")
    campaigns = {}
    for sample in SAMPLES:
        campaign, side = copied(sample, server_db)
        campaigns[sample] = campaign
        made_organiser(server_db, "next-orga", [campaign])
        seated(server_db, "next-seat", campaign, side)
    yield {"organiser": organiser, "player": player}, campaigns
    organiser.context.close()
    player.context.close()


def looked_at(who: str):
    def check(page, target):
        page.wait_for_load_state("load")
        page.evaluate("window.scrollTo(0, 0)")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{tag_of(target, who)}.png"))
        return first_screen(page, f"{who} {target}")

    return check


@pytest.mark.parametrize("who", ["organiser", "player"])
@pytest.mark.parametrize("sample", SAMPLES)
def test_every_page_opens_with_the_next_step_in_the_first_screen(people, server, sample, who):
    pages, campaigns = people
    found = crawl(pages[who], server, campaigns[sample], PER_PAGE, looked_at(who))
    assert not found, "\n".join(found)


@pytest.mark.parametrize("javascript", [True, False], ids=["script", "no-script"])
def test_the_menu_opens_behind_one_button_with_and_without_script(browser, server, javascript):
    context = browser.new_context(viewport=PHONE, java_script_enabled=javascript)
    page = context.new_page()
    page.goto(f"{server}/c/ember-crown-sample/")  # a reader: the sample is public
    header = page.locator("header.top")
    assert header.bounding_box()["height"] <= ONE_ROW
    audit = header.get_by_role("link", name="Audit log")
    expect(audit).to_be_hidden()
    expect(header.get_by_role("link", name="Log in")).to_be_hidden()
    header.locator("summary").click()
    expect(audit).to_be_visible()
    expect(header.get_by_role("link", name="Log in")).to_be_visible()
    page.screenshot(path=str(SHOTS / f"menu-open-{'script' if javascript else 'no-script'}.png"))
    audit.click()
    expect(page).to_have_url(re.compile(r"/audit"))
    # At a desk's width the menu stands open in the row.
    page.set_viewport_size({"width": 1280, "height": 800})
    expect(header.get_by_role("link", name="Audit log")).to_be_visible()
    expect(header.get_by_role("link", name="Log in")).to_be_visible()
    page.screenshot(path=str(SHOTS / f"desk-{'script' if javascript else 'no-script'}.png"))
    context.close()


def test_a_long_campaign_name_is_cut_short_in_the_one_row(people, server):
    pages, campaigns = people
    page = pages["organiser"]
    page.goto(f"{server}/c/{campaigns['hellas-three-crowns']}/")
    page.evaluate("document.querySelector('header .campaign').textContent = 'A'.repeat(120)")
    assert page.locator("header.top").bounding_box()["height"] <= ONE_ROW
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def in_sight(page, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def test_a_refused_roll_lands_on_its_words(people, server):
    """Crowmarch owes injury rolls: one die of a 2D6 roll left unchosen is refused, and the
    page comes back at the refusal, beside the roll."""
    pages, campaigns = people
    page = pages["organiser"]
    page.goto(f"{server}/c/{campaigns['warcry']}/wizard?warband=crowmarch")
    roll = page.locator("form.roll").first
    roll.locator("input[name=dice-0][value='3']").check()
    roll.locator("button[value=table]").click()
    page.wait_for_load_state("load")
    refusal = page.locator("#refused")
    expect(refusal).to_be_visible()
    page.wait_for_timeout(200)
    page.screenshot(path=str(SHOTS / "refused-roll.png"))
    assert in_sight(page, "#refused"), header_and_next_step(page)
    assert page.evaluate("window.scrollY") > 0  # the roll is far below the top


def test_a_stale_page_lands_on_the_conflict(people, server, browser):
    """The organiser opens the same step in two windows and records a roll in one; its roll
    for the same warband for the same warband, from the page it loaded earlier, is refused
    as a change meanwhile, and its page comes back at those words."""
    pages, campaigns = people
    wizard = f"{server}/c/{campaigns['warcry']}/wizard?warband=crowmarch"
    organiser = pages["organiser"]
    organiser.goto(wizard)
    stale = organiser.locator("form.roll").first
    for i in (0, 1):  # typed while the other window records: the live refresh waits
        stale.locator(f"input[name=dice-{i}][value='5']").check()
    other = pages["organiser"].context.browser.new_context(viewport=PHONE)
    page = other.new_page()
    page.goto(server + "/login")
    page.fill("input[name=name]", "next-orga")
    page.fill("input[name=password]", PASSWORD)
    page.click("button:has-text('Log in')")
    page.goto(wizard)
    first = page.locator("form.roll").first
    for i in (0, 1):
        first.locator(f"input[name=dice-{i}][value='6']").check()
    first.locator("button[value=table]").click()
    page.wait_for_load_state("load")
    other.close()
    stale.locator("button[value=table]").click()
    organiser.wait_for_load_state("load")
    expect(organiser.locator("#refused")).to_contain_text("changed since you loaded this page")
    organiser.wait_for_timeout(200)
    organiser.screenshot(path=str(SHOTS / "refused-stale.png"))
    assert in_sight(organiser, "#refused"), header_and_next_step(organiser)
