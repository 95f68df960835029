"""A phone that loses the network, in a real browser (Chromium's offline emulation): a page
seen before shows as it was with a banner saying it may be out of date, a page never seen
shows our offline page (never the browser's error page), and a press made offline is kept on
the phone and recorded once when the connection returns, or refused in words if it no longer
fits (or its form's token went stale meanwhile).

Each test plays on from the Warcry sample into a campaign of its own, where Crowmarch owes
one injury roll (Ilse Quill) in the aftermath of battle b12."""

from phones import PASSWORD, injury_form, phone, play_on, tap
from playwright.sync_api import expect

from tracker.store import open_store

# The presses the service worker keeps, as app.js and sw.js name them.
KEPT = """() => new Promise((resolve, reject) => {
  const opening = indexedDB.open("tracker-presses", 1);
  opening.onerror = () => reject(opening.error);
  opening.onsuccess = () => {
    const all = opening.result.transaction("presses").objectStore("presses").getAll();
    all.onsuccess = () => { opening.result.close(); resolve(all.result); };
  };
})"""

# The service worker stopped after the server answered a press and before it forgot it: the
# press is kept twice, and both are sent.
KEPT_TWICE = """() => new Promise((resolve, reject) => {
  const opening = indexedDB.open("tracker-presses", 1);
  opening.onsuccess = () => {
    const store = opening.result.transaction("presses", "readwrite").objectStore("presses");
    const all = store.getAll();
    all.onsuccess = () => {
      const press = Object.assign({}, all.result[0]);
      delete press.id;
      store.add(press).onsuccess = () => { opening.result.close(); resolve(true); };
    };
  };
})"""

# A kept press whose form's CSRF token went stale (the session it was made in ended).
STALE = """() => new Promise((resolve) => {
  const opening = indexedDB.open("tracker-presses", 1);
  opening.onsuccess = () => {
    const store = opening.result.transaction("presses", "readwrite").objectStore("presses");
    const all = store.getAll();
    all.onsuccess = () => {
      const press = all.result[0];
      const body = new TextDecoder().decode(press.body)
        .replace(/csrf_token=[^&]*/, "csrf_token=stale");
      press.body = new TextEncoder().encode(body).buffer;
      store.put(press).onsuccess = () => { opening.result.close(); resolve(true); };
    };
  };
})"""


def version(server_db, cid) -> int:
    store = open_store(server_db)
    try:
        return store.version(cid)
    finally:
        store.close()


def controlled(page):
    """The page once the service worker controls it, loaded again through it (so kept)."""
    page.evaluate("navigator.serviceWorker.ready")
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null")


def test_a_press_made_offline_is_kept_and_recorded_once_when_the_connection_returns(
    browser, server, server_db, shot
):
    context, page = phone(browser, server, "offliner")
    cid = "offline-press"
    play_on(page, server, cid)
    controlled(page)
    wizard, before = page.url, version(server_db, cid)

    context.set_offline(True)
    tap(injury_form(page), 6, 6)
    injury_form(page).locator("button[value=table]").click()
    # The page again, as last seen, saying so; the press kept on the phone.
    expect(page.locator("#offline-kept")).to_be_visible()
    expect(page.locator("#offline-note")).to_be_visible()
    expect(page.locator("#offline-note")).to_contain_text("may be out of date")
    expect(page.locator("#offline-kept")).to_be_in_viewport()
    assert len(page.evaluate(KEPT)) == 1
    assert version(server_db, cid) == before
    shot(page, "offline-01-press-kept")

    # A page never seen here: our own offline page, not the browser's error page.
    answer = page.goto(f"{server}/c/{cid}/battles?never=seen")
    assert answer is not None and answer.ok
    expect(page.locator("h1")).to_have_text("You are offline")
    expect(page.locator("#offline-page")).to_be_visible()
    shot(page, "offline-02-never-seen")
    # A page seen before: as it was, with its banner.
    page.goto(wizard)
    expect(page.locator("#offline-note")).to_be_visible()
    expect(injury_form(page)).to_be_visible()
    assert version(server_db, cid) == before

    # As if the worker had stopped between the server's answer and forgetting the press: it
    # is sent twice, and its one-time key records it once.
    page.evaluate(KEPT_TWICE)
    assert len(page.evaluate(KEPT)) == 2
    context.set_offline(False)
    expect(page.locator("#offline-sent")).to_be_visible()
    expect(page.locator("#offline-kept")).to_be_hidden()
    expect(page.locator("#offline-note")).to_be_hidden()  # online again
    assert page.evaluate(KEPT) == []
    assert version(server_db, cid) == before + 1
    store = open_store(server_db)
    try:
        event = store.event(cid, before + 1)
    finally:
        store.close()
    assert event.type == "InjuryRolled" and event.data["dice"] == [6, 6]
    shot(page, "offline-03-sent")

    # Loaded again online: the live page, the roll recorded (once), no offline banner.
    page.goto(wizard)
    expect(page.locator("#offline-note")).to_be_hidden()
    page.wait_for_timeout(300)  # a flush asked by the page's load has nothing to send
    assert version(server_db, cid) == before + 1
    context.close()


def test_a_press_that_no_longer_fits_or_whose_token_went_stale_is_refused_in_words(
    browser, server, server_db, shot
):
    context, page = phone(browser, server, "latecomer")
    cid = "offline-refused"
    play_on(page, server, cid)
    controlled(page)
    wizard, before = page.url, version(server_db, cid)

    context.set_offline(True)
    tap(injury_form(page), 6, 6)
    injury_form(page).locator("button[value=table]").click()
    expect(page.locator("#offline-kept")).to_be_visible()

    # Meanwhile the same player, on another device online, records the same roll.
    other = browser.new_context(viewport={"width": 1280, "height": 900})
    desk = other.new_page()
    desk.goto(server + "/login")
    desk.fill("input[name=name]", "latecomer")
    desk.fill("input[name=password]", PASSWORD)
    desk.locator("main form button[type=submit]").first.click()
    desk.goto(wizard)
    tap(injury_form(desk), 3, 4)
    injury_form(desk).locator("button[value=table]").click()
    expect(desk.locator(".flashes")).to_contain_text("Recorded")
    other.close()
    assert version(server_db, cid) == before + 1

    context.set_offline(False)
    refused = page.locator("#offline-refused")
    expect(refused).to_be_visible()
    expect(refused.locator("li")).not_to_have_count(0)
    words = refused.locator("li").first.inner_text()
    assert "Traceback" not in words and len(words) > 10
    assert version(server_db, cid) == before + 1
    shot(page, "offline-04-refused")

    context.close()


def test_a_press_kept_with_a_stale_token_is_refused_in_the_servers_words(
    browser, server, server_db
):
    context, page = phone(browser, server, "stale")
    cid = "offline-stale"
    play_on(page, server, cid)
    controlled(page)
    before = version(server_db, cid)
    context.set_offline(True)
    tap(injury_form(page), 6, 6)
    injury_form(page).locator("button[value=table]").click()
    expect(page.locator("#offline-kept")).to_be_visible()
    page.evaluate(STALE)
    context.set_offline(False)
    refused = page.locator("#offline-refused")
    expect(refused).to_be_visible()
    expect(refused.locator("li").first).to_contain_text("The form was too old")
    assert version(server_db, cid) == before
    assert page.evaluate(KEPT) == []
    context.close()
