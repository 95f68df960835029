"""Every page of every game's sample fits a phone: at 360 and 390 px wide nothing scrolls
sideways and every touch target is at least 44 px (the rules are in phone.js).

One server, one browser and one organiser for the whole file: the organiser is made organiser
of each sample (manage.py members, as the operator would), so every form is shown live. Each
campaign is crawled from its dashboard (every link inside the campaign, history moments and
PDFs aside, a few of each page); the Warcry wizard is walked step by step. Screenshots of each
page at each width go to test-artifacts/screenshots/phone/.
"""

import re
import zlib
from urllib.parse import urlsplit

import pytest
from crawling import SAMPLES, crawl, made_organiser, organiser_of_the_samples, sample_copy, tag_of
from phones import misfits as phone_misfits

from tracker import config

SHOTS = config.ROOT / "test-artifacts" / "screenshots" / "phone"
WIDTHS = (360, 390)
# Pages of one name (a battle, a seat, a replay) are checked this many times, with their
# first-found arguments: they share one template.
PER_PAGE = 4
ORGANISER, PASSWORD = "orga", "a long enough secret"


def misfits(page, tag: str) -> list[str]:
    """What does not fit on the page now open, at each phone width (a screenshot of each)."""
    folder = SHOTS
    folder.mkdir(parents=True, exist_ok=True)
    found = []
    page.wait_for_load_state("load")  # a form just sent: measured once its page (and style) is in
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 800})
        page.wait_for_timeout(50)
        page.screenshot(path=str(folder / f"{tag}-{width}.png"), full_page=True)
        found += phone_misfits(page, f"{page.url} at {width} px")
    return found


@pytest.fixture(scope="module")
def organiser(browser, server, server_db):
    """A logged-in page of the organiser of every sample campaign."""
    context, page = organiser_of_the_samples(
        browser, server, server_db, ORGANISER, PASSWORD, {"width": 390, "height": 800}
    )
    yield page
    context.close()


@pytest.mark.parametrize("sample", SAMPLES)
def test_every_page_of_the_sample_fits_a_phone(organiser, server, sample):
    found = crawl(
        organiser,
        server,
        SAMPLES[sample],
        PER_PAGE,
        lambda page, target: misfits(page, tag_of(target)),
        prepare=lambda page: page.set_viewport_size({"width": WIDTHS[0], "height": 800}),
    )
    assert not found, "\n".join(found)


def test_the_warcry_aftermath_fits_a_phone_at_every_step(organiser, server, server_db):
    """Crowmarch owes the aftermath of its last battle: every step of it, answered on a phone,
    in a copy of the sample (the other tests find the sample as it is)."""
    campaign = sample_copy(server_db, "warcry-ember-crown.jsonl", "phone-aftermath")
    made_organiser(server_db, ORGANISER, [campaign])
    page, found, wizard = organiser, [], f"{server}/c/{campaign}/wizard?warband=crowmarch"
    page.goto(wizard)
    for turn in range(40):
        found += misfits(page, f"wizard-{turn:02d}")
        if page.locator("text=owes nothing").count():
            break
        if not answer_wizard(page):
            raise AssertionError("the wizard offered nothing to do: " + page.inner_text("main"))
    else:
        raise AssertionError("the wizard did not end")
    assert not found, "\n".join(found)


def answer_wizard(page) -> bool:
    """Answer what the wizard asks now, the way a player at the table would."""
    give = page.locator("form:has(button:has-text('Give'))")
    if give.count():
        form = give.first
        legal = form.locator("select[name=fighter] option:not(:has-text('holds'))")
        form.locator("select[name=fighter]").select_option(legal.first.get_attribute("value"))
        form.locator("button:has-text('Give')").click()
        return True
    every = page.locator("form.roll-all")  # a step's rolls on one form: each die tapped
    if every.count():
        form = every.first
        names = form.evaluate(
            "f => [...new Set([...f.querySelectorAll('input[type=radio]')].map(i => i.name))]"
        )
        for name in names:
            form.locator(f"input[name='{name}'][value='6']").check()
        form.locator("button[value=table]").click()
        return True
    roll = page.locator("form.roll").first
    if roll.count():
        is_search = "D66" in roll.inner_text()
        faces = "2 3" if is_search else "6 6" if "2D6" in roll.inner_text() else "6"
        for i, face in enumerate(faces.split()):  # each die tapped by its face
            roll.locator(f"input[name=dice-{i}][value='{face}']").check()
        roll.locator("button[value=table]").click()
        return True
    for label in (
        "Take the artefact",
        "Take the trait",
        "Continue to the injury rolls",
        "Continue to the search",
        "Finish the search",
        "Decline the reward",
    ):
        button = page.locator(f"button:has-text('{label}')")
        if button.count():
            button.first.click()
            return True
    return False


def test_the_pages_outside_a_campaign_fit_a_phone(browser, organiser, server):
    """The front page, account, API docs, join and error pages (logged in), then login and
    signup as a newcomer sees them."""
    page, found = organiser, []
    page.goto(f"{server}/c/ember-crown-sample/members")
    page.click("button:has-text('Make an invitation')")
    join = page.locator("#invitation-link").inner_text()
    join = urlsplit(join).path
    page.click("button:has-text('Make a group link')")
    group = urlsplit(page.locator("#invitation-link").inner_text()).path
    found += misfits(page, "site-members-new-group-link")
    for target, tag in (
        ("/c/ember-crown-sample/members", "members-open-links"),
        ("/", "front"),
        ("/account", "account"),
        ("/api/docs", "api-docs"),
        (join, "join"),
        (group, "join-group"),
        ("/c/no-such-campaign/", "not-found"),
    ):
        page.goto(server + target)
        found += misfits(page, "site-" + tag)
    newcomer = browser.new_context()
    fresh = newcomer.new_page()
    for target, tag in (
        ("/", "front"),
        ("/login", "login"),
        ("/signup", "signup"),
        (join, "join"),
        (group, "join-group"),
    ):
        fresh.goto(server + target)
        found += misfits(fresh, "newcomer-" + tag)
    newcomer.close()
    assert not found, "\n".join(found)


# The printable width of each paper at 96 px an inch, less the sheet's 14 mm margins.
PAPERS = {"A4": (595, 842, 210), "Letter": (612, 792, 215.9)}


@pytest.mark.parametrize("paper", PAPERS)
def test_the_roster_sheet_still_prints_whole_on_paper_after_the_phone_rules(
    organiser, server, paper
):
    """Printed from the browser, the sheet is a table again (no phone cards, no scroll box)
    and fits the paper; the PDF is of that paper's size."""
    page = organiser
    points_wide, points_high, mm = PAPERS[paper]
    printable = round((mm - 28) / 25.4 * 96)
    roster = f"/c/ember-crown-sample/roster?warband=ironjaws&paper={paper}"
    page.set_viewport_size({"width": printable, "height": 1000})
    page.goto(server + roster)
    page.emulate_media(media="print")
    try:
        sheet = page.evaluate(
            """() => {
              const table = document.querySelector('.sheet-table');
              return {display: getComputedStyle(table).display,
                      right: table.getBoundingClientRect().right,
                      page: document.scrollingElement.scrollWidth,
                      header: getComputedStyle(document.querySelector('.top')).display};
            }"""
        )
        page.screenshot(path=str(SHOTS / f"print-roster-{paper}.png"), full_page=True)
    finally:
        page.emulate_media(media="screen")
    assert sheet["display"] == "table" and sheet["header"] == "none"
    assert sheet["right"] <= printable and sheet["page"] <= printable
    pdf = page.request.get(
        f"{server}/c/ember-crown-sample/pdf/roster?warband=ironjaws&paper={paper}"
    )
    assert pdf.ok and pdf.body().startswith(b"%PDF")
    boxes = media_boxes(pdf.body())
    assert boxes, "the PDF names no page size"
    for box in boxes:
        x0, y0, x1, y1 = (float(v) for v in box.split())
        assert (round(x1 - x0), round(y1 - y0)) == (points_wide, points_high)


def media_boxes(pdf: bytes) -> list[bytes]:
    """The page sizes of a PDF, in its plain and its compressed parts."""
    parts = [pdf]
    for match in re.finditer(rb"stream\r?\n(.*?)\r?\nendstream", pdf, re.S):
        try:
            parts.append(zlib.decompress(match.group(1)))
        except zlib.error:
            pass
    return [box for part in parts for box in re.findall(rb"/MediaBox\s*\[([^\]]*)\]", part)]


# Games the samples finished, begun again on a phone: (campaign, page, the buttons pressed in
# turn, "link:" for a link, the pages checked after each press). Fields typed in first:
SETUP: dict[str, dict[str, str]] = {}  # every game's setup now has legal defaults
UNDER_WAY = {
    "claim": ("claim-tavern-nights", "table?player=mara", ["Shuffle and deal"], ["dashboard"]),
    "monsters": ("twin-peaks-feud", "battle", ["Begin the battle"], [""]),
    "hellas": ("hellas-duel", "play", ["Begin the game"], ["", "players"]),
    "leaders": (
        "ember-vs-grey",
        "",
        ["Start the match", "Choose", "Choose", "Shuffle the deck", "Record the draw"]
        + ["link:(Leader)"],
        ["match"],
    ),
}


@pytest.mark.parametrize("game", UNDER_WAY)
def test_a_game_under_way_fits_a_phone(organiser, server, game):
    """The forms of a game in progress: its first presses, each page after them checked."""
    campaign, start, presses, others = UNDER_WAY[game]
    page, found = organiser, []
    page.set_viewport_size({"width": WIDTHS[0], "height": 800})
    page.goto(f"{server}/c/{campaign}/{start}")
    for field, value in SETUP.get(game, {}).items():
        if field.startswith("select"):
            page.select_option(field, value)
        else:
            page.fill(field, value)
    for n, label in enumerate(presses):
        if label.startswith("link:"):
            page.locator(f"main a:has-text('{label[5:]}')").first.click()
        else:
            page.locator(f"button:has-text('{label}'):enabled").first.click()
        page.wait_for_load_state("load")
        assert not page.locator(".error").count(), page.inner_text("main")[:600]
        found += misfits(page, f"under-way-{game}-{n}")
    for other in others:
        page.goto(f"{server}/c/{campaign}/{other}")
        found += misfits(page, f"under-way-{game}-{other or 'dashboard'}")
    assert not found, "\n".join(found)
