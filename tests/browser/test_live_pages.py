"""Live pages at the table, in a real browser against a real server: two players, each in a
browser of their own, recording at the same moment for their own warbands of a copy of the
Warcry sample, and each open page showing what the other recorded without a reload."""

import itertools
import re
from types import SimpleNamespace

import pytest
from crawling import sample_copy, seated
from playwright.sync_api import expect

COPIES = itertools.count(1)
# The sample up to its event 311: both warbands between battles, nothing owed.
UPTO = 311
PASSWORD = "a long table password"
# Marks a loaded page: a reload (or any navigation) forgets it.
KEPT = "() => window.keptSinceLoad === true"


@pytest.fixture(scope="module")
def players(server, browser):
    """A signed-in browser for each of the two players."""
    players = {}
    for name in ("pavel", "pia"):
        context = browser.new_context(viewport={"width": 1100, "height": 900})
        context.set_default_timeout(15000)
        page = context.new_page()
        page.goto(server + "/signup")
        page.fill("input[name=name]", name)
        page.fill("input[name=password]", PASSWORD)
        page.click("button:has-text('Sign up')")
        expect(page.locator(".flashes")).to_contain_text(f"Welcome, {name}")
        page.close()
        players[name] = context
    yield players
    for context in players.values():
        context.close()


@pytest.fixture
def table(server, players, server_db):
    """A fresh copy of the sample for each test: Pavel plays the Ironjaws, Pia the Crowmarch."""
    campaign = f"live-table-{next(COPIES)}"
    sample_copy(server_db, "warcry-ember-crown.jsonl", campaign, UPTO)
    for name, side in (("pavel", "ironjaws"), ("pia", "crowmarch")):
        seated(server_db, name, campaign, side)
    return SimpleNamespace(base=f"{server}/c/{campaign}", **players)


def open_live(context, url):
    """A page of the campaign, once its stream is open, marked so that a reload would show."""
    page = context.new_page()
    page.refused = []  # what the content security policy refused, said on the console
    page.on(
        "console",
        lambda message: (
            page.refused.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    page.add_init_script(
        "document.addEventListener('htmx:sseOpen', function () { window.liveOpen = true; });"
    )
    page.goto(url)
    page.wait_for_function("() => window.liveOpen === true")
    page.evaluate("() => { window.keptSinceLoad = true; }")
    return page


def fill_fighter(page, name, points):
    page.fill("form:has(input[name=runemarks-text]) input[name=name]", name)
    page.fill("form:has(input[name=runemarks-text]) input[name=points]", str(points))


def add_button(page):
    return page.locator("form:has(input[name=runemarks-text]) button:has-text('Add the fighter')")


def test_two_players_recording_at_once_for_their_own_warbands_see_each_other_live(table):
    base = table.base
    pavel = open_live(table.pavel, f"{base}/warband?warband=ironjaws")
    pia = open_live(table.pia, f"{base}/warband?warband=crowmarch")
    pavel_board = open_live(table.pavel, f"{base}/")
    pia_audit = open_live(table.pia, f"{base}/audit")
    fill_fighter(pavel, "Tarn Ashgrip", 95)
    fill_fighter(pia, "Heron Quill", 110)

    add_button(pavel).click(no_wait_after=True)
    add_button(pia).click(no_wait_after=True)

    # Two appends at once, then each page loaded again: a busy machine may take seconds.
    expect(pavel.locator(".flashes")).to_contain_text("Tarn Ashgrip", timeout=15_000)
    expect(pia.locator(".flashes")).to_contain_text("Heron Quill", timeout=15_000)
    assert "changed since you loaded" not in pavel.inner_text("body")
    assert "changed since you loaded" not in pia.inner_text("body")
    # Each player's open page shows the other's entry within two seconds, without a reload.
    expect(pavel_board.locator("main")).to_contain_text("Heron Quill", timeout=2000)
    expect(pavel_board.locator("main")).to_contain_text("Tarn Ashgrip", timeout=2000)
    expect(pia_audit.locator("main")).to_contain_text("Tarn Ashgrip", timeout=2000)
    expect(pia_audit.locator("main")).to_contain_text("Heron Quill", timeout=2000)
    assert pavel_board.evaluate(KEPT) and pia_audit.evaluate(KEPT)
    assert pavel_board.refused == [] and pia_audit.refused == []  # the policy holds as it is
    # Both entries are in the log, once each.
    log = pia_audit.inner_text("table.audit")
    assert log.count("Tarn Ashgrip") == 1 and log.count("Heron Quill") == 1
    for page in (pavel, pia, pavel_board, pia_audit):
        page.close()


def test_a_player_typing_keeps_its_input_and_is_told_what_changed_for_its_warband(table):
    base = table.base
    pia = open_live(table.pia, f"{base}/warband?warband=crowmarch")
    fill_fighter(pia, "Late Heron", 105)  # the points field keeps the focus
    pavel = table.pavel.new_page()
    pavel.goto(f"{base}/battle-new?a=ironjaws&b=crowmarch")
    for side in (0, 1):  # a few stay at home: each side within its muster limit
        boxes = pavel.locator(f"input[name=sides-{side}-fighters]")
        for i in range(boxes.count() - 3, boxes.count()):
            boxes.nth(i).uncheck()
    pavel.click("button:has-text('Record the battle')")
    expect(pavel.locator(".flashes")).to_contain_text("Battle")

    # The battle concerns Pia's warband too: her page says so, and leaves her form alone.
    expect(pia.locator("#live-note")).to_be_visible(timeout=2000)
    form = pia.locator("form:has(input[name=runemarks-text])")
    expect(form.locator("input[name=name]")).to_have_value("Late Heron")
    expect(form.locator("input[name=points]")).to_have_value("105")
    assert pia.evaluate(KEPT)

    add_button(pia).click()
    expect(pia.locator(".error").first).to_contain_text("meanwhile, for the same side:")
    expect(pia.locator(".error").first).to_contain_text(re.compile("battle", re.I))
    # The battle put Crowmarch into its aftermath: adding a fighter is no longer offered, and
    # the page says why rather than keeping a form the rules would refuse.
    expect(form).to_have_count(0)
    expect(pia.locator(".not-offered").first).to_be_visible()
    pia.close()
    pavel.close()


def test_a_page_left_alone_refreshes_and_one_being_typed_in_waits_until_the_form_is_left(table):
    base = table.base
    idle = open_live(table.pavel, f"{base}/warband?warband=ironjaws")
    typing = open_live(table.pavel, f"{base}/warband?warband=ironjaws")
    typing.fill("form:has(input[name=runemarks-text]) input[name=name]", "Half Typed")
    pia = table.pia.new_page()
    pia.goto(f"{base}/warband?warband=crowmarch")
    fill_fighter(pia, "Kite Wing", 100)
    add_button(pia).click()
    expect(pia.locator(".flashes")).to_contain_text("Kite Wing")

    version = pia.locator("footer.witness summary").inner_text()
    expect(idle.locator("footer.witness summary")).to_have_text(version, timeout=2000)
    expect(typing.locator("#live-note")).to_be_visible(timeout=2000)
    assert typing.locator("footer.witness summary").inner_text() != version
    # Once the half-typed name is cleared and the field left, the waiting refresh comes.
    typing.fill("form:has(input[name=runemarks-text]) input[name=name]", "")
    typing.locator("h1").click()
    expect(typing.locator("footer.witness summary")).to_have_text(version, timeout=2000)
    expect(typing.locator("#live-note")).to_be_hidden()
    assert idle.evaluate(KEPT) and typing.evaluate(KEPT)
    for page in (idle, typing, pia):
        page.close()


def test_without_javascript_the_pages_work_by_reloading(table, browser):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.set_default_timeout(15000)
    streams = []
    page.on("request", lambda request: streams.append(request.url))
    page.goto(table.base.split("/c/")[0] + "/login")
    page.fill("input[name=name]", "pavel")
    page.fill("input[name=password]", PASSWORD)
    page.click("button:has-text('Log in')")
    page.goto(f"{table.base}/warband?warband=ironjaws")
    fill_fighter(page, "Quiet Ember", 90)
    add_button(page).click()
    expect(page.locator(".flashes")).to_contain_text("Quiet Ember")
    expect(page.locator("table.roster, main")).not_to_have_count(0)
    page.goto(f"{table.base}/audit")
    expect(page.locator("main")).to_contain_text("Quiet Ember")
    # What another player records meanwhile shows once the page is loaded again.
    pia = table.pia.new_page()
    pia.goto(f"{table.base}/warband?warband=crowmarch")
    fill_fighter(pia, "Loud Heron", 100)
    add_button(pia).click()
    expect(pia.locator(".flashes")).to_contain_text("Loud Heron")
    expect(page.locator("main")).not_to_contain_text("Loud Heron")
    page.reload()
    expect(page.locator("main")).to_contain_text("Loud Heron")
    assert not [url for url in streams if re.search(r"/live(\?|$)", url)]
    pia.close()
    context.close()


def test_a_refresh_that_shows_less_than_the_stream_told_is_fetched_again(table):
    """A version told while a refresh is being swapped in, or a refresh answered just before
    the latest entry, leaves the part shown older than what the stream told: the page asks
    once more. Here the first refresh is answered with the page as it stood before."""
    board = open_live(table.pavel, f"{table.base}/")
    stale = table.pavel.request.get(f"{table.base}/").text()
    answered = []

    def answer(route):
        if route.request.headers.get("hx-request") and not answered:
            answered.append(route.request.url)
            route.fulfill(status=200, content_type="text/html; charset=utf-8", body=stale)
        else:
            route.continue_()

    board.route(re.compile(r"/c/live-table-\d+/(\?.*)?$"), answer)
    pia = table.pia.new_page()
    pia.goto(f"{table.base}/warband?warband=crowmarch")
    fill_fighter(pia, "Stale Heron", 100)
    add_button(pia).click()
    expect(pia.locator(".flashes")).to_contain_text("Stale Heron")
    expect(board.locator("main")).to_contain_text("Stale Heron", timeout=2000)
    assert len(answered) == 1 and board.evaluate(KEPT)
    board.close()
    pia.close()


HIDE = """(hidden) => {
    Object.defineProperty(document, "hidden", {value: hidden, configurable: true});
    document.dispatchEvent(new Event("visibilitychange"));
}"""


def test_a_hidden_tab_lets_go_of_its_stream_and_catches_up_when_shown_again(table):
    board = open_live(table.pavel, f"{table.base}/")
    board.evaluate(HIDE, True)
    pia = table.pia.new_page()
    pia.goto(f"{table.base}/warband?warband=crowmarch")
    for name in ("Sky Lark", "Dun Lark"):
        fill_fighter(pia, name, 100)
        add_button(pia).click()
        expect(pia.locator(".flashes")).to_contain_text(name)
        if name == "Sky Lark":
            board.wait_for_timeout(1500)
            assert "Sky Lark" not in board.inner_text("main")  # hidden: it heard nothing
            board.evaluate(HIDE, False)
        # Shown again, it catches up, and goes on hearing what comes next.
        expect(board.locator("main")).to_contain_text(name, timeout=2000)
    assert board.evaluate(KEPT)
    board.close()
    pia.close()


@pytest.fixture
def claim_table(server, players, server_db):
    """A copy of the Claim sample up to the card before its last: Pavel holds Mara's seat,
    whose turn it is, and Pia holds Tobin's."""
    campaign = f"live-claim-{next(COPIES)}"
    sample_copy(server_db, "claim-tavern-nights.jsonl", campaign, -1)
    for name, side in (("pavel", "mara"), ("pia", "tobin")):
        seated(server_db, name, campaign, side)
    return SimpleNamespace(base=f"{server}/c/{campaign}", **players)


def test_a_claim_seat_shows_the_other_players_card_live_and_only_what_a_reload_would(
    claim_table,
):
    tobin = open_live(claim_table.pia, f"{claim_table.base}/table?player=tobin")
    mara = claim_table.pavel.new_page()
    mara.goto(f"{claim_table.base}/table?player=mara")
    before = tobin.inner_text("#live")
    mara.locator("button[name=card][value='dwarves-0']").click()
    expect(mara.locator(".flashes")).to_contain_text("Recorded")
    expect(tobin.locator("#live")).not_to_have_text(before, timeout=2000)
    # The page refreshed itself through its own view: what a reload shows, hidden cards hidden
    # (once it stands at the version a reload shows: a busy machine may bring it there in
    # more than one refresh).
    fresh = claim_table.pia.new_page()
    fresh.goto(f"{claim_table.base}/table?player=tobin")
    version = fresh.get_attribute("#live", "data-version")
    expect(tobin.locator("#live")).to_have_attribute("data-version", version, timeout=5000)
    assert tobin.evaluate(KEPT)
    assert fresh.inner_text("#live") == tobin.inner_text("#live")
    for page in (tobin, mara, fresh):
        page.close()
