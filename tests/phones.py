"""A newcomer's phone in a real browser, and a campaign of its own to play on it."""

import re
from pathlib import Path

from crawling import signed_up
from playwright.sync_api import expect

PASSWORD = "a long enough secret"
PHONE = {"width": 390, "height": 844}
# What does not fit a phone: sideways scroll, anything past the edge, touch targets under 44 px.
CHECK = (Path(__file__).parent / "browser" / "phone.js").read_text(encoding="utf-8")


def fits(page) -> None:
    """The page now open fits the phone (measured once its page and style are in: a form may
    just have been sent)."""
    page.wait_for_load_state("load")
    result = page.evaluate(CHECK)
    assert not result["scroll"] and not result["wide"] and not result["small"], result


def misfits(page, where: str | None = None) -> list[str]:
    """What of the page now open does not fit the phone (phone.js), in words, each said at
    `where` (the page's address): the page scrolling sideways, an element past the edge
    outside a box made to scroll, a touch target under 44 px."""
    result = page.evaluate(CHECK)
    where = where or page.url
    found = [f"{where}: the page is {result['scroll']} px wide"] if result["scroll"] else []
    found += [f"{where}: past the edge: {wide}" for wide in result["wide"][:6]]
    return found + [f"{where}: small target: {small}" for small in result["small"][:12]]


# The header's one row: a touch target's 44 px and its padding.
ONE_ROW = 64


def header_and_next_step(page) -> dict:
    """Where the header and the next step stand in the window (None: not on the page)."""
    return page.evaluate(
        """() => {
          const box = (el) => el ? el.getBoundingClientRect().toJSON() : null;
          return {header: box(document.querySelector('header.top')),
                  next: box(document.querySelector('.next-step')),
                  scrolled: window.scrollY};
        }"""
    )


def first_screen(page, where: str | None = None) -> list[str]:
    """What keeps the page now open from opening as a phone's first screen should, in words:
    the header in one row, the next step inside the first screen (scrolled to the top)."""
    page.evaluate("window.scrollTo(0, 0)")
    found, where = header_and_next_step(page), where or page.url
    wrong = []
    if found["header"]["height"] > ONE_ROW:
        wrong.append(f"{where}: the header is {found['header']['height']:.0f} px high")
    if found["next"] is None:
        wrong.append(f"{where}: no next step")
    elif found["next"]["bottom"] > PHONE["height"]:
        wrong.append(f"{where}: the next step ends at {found['next']['bottom']:.0f} px")
    return wrong


def on_first_screen(locator) -> None:
    """`locator` is in sight on the phone's first screen, without scrolling."""
    expect(locator).to_be_visible()
    box = locator.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box


def phone(browser, server, name):
    """A phone (390 x 844) of a newcomer signed up as `name`: its context and page."""
    context, page = signed_up(browser, server, name, PASSWORD, PHONE)
    expect(page.locator(".flashes")).to_contain_text(f"Welcome, {name}")
    return context, page


def play_on(page, server, cid, sample="ember-crown-sample", upto=None):
    """A campaign of the reader's own, copied from a sample (as it stands, or up to `upto`);
    a Warcry one opens at Crowmarch's aftermath."""
    page.goto(f"{server}/c/{sample}/play-on")
    if upto is not None:
        page.fill("input[name=upto]", str(upto))
    page.fill("input[name=name]", f"Phone {cid}")
    page.click("main form details.more > summary")  # the id is asked under More
    page.fill("input[name=campaign]", cid)
    page.click("button:has-text('Play on')")
    expect(page).to_have_url(re.compile(rf"/c/{cid}/$"))
    if sample == "ember-crown-sample":
        page.goto(f"{server}/c/{cid}/wizard?warband=crowmarch")
        expect(page.locator("main")).to_contain_text("Ilse Quill")


def injury_form(page):
    """Ilse Quill's injury roll, on Crowmarch's aftermath page."""
    return page.locator("form.roll:has(input[name=fighter][value=ilse])")


def tap(form, *faces):
    """Each die of `form` tapped by its face, in order."""
    for i, face in enumerate(faces):
        form.locator(f"input[name=dice-{i}][value='{face}']").check()
