"""Dice typed at the table, on a phone (390 x 844) in a real browser: each die is tapped by
its face, a bare number is refused beside the dice with nothing recorded, and an injury roll
that slays a fighter is asked about once before it is recorded.

Each test plays on from the Warcry sample into a campaign of its own, where Crowmarch owes
one injury roll (Ilse Quill, no leader) in the aftermath of battle b12."""

import re

from phones import CHECK, injury_form, phone, play_on, tap
from playwright.sync_api import expect


def misfits(page) -> list:
    """What does not fit a phone 360 or 390 px wide on the page now open (phone.js's rules:
    no sideways scroll, every touch target 44 px at least); the page is left at 390 px."""
    found = []
    for width in (360, 390):
        page.set_viewport_size({"width": width, "height": 844})
        page.wait_for_timeout(50)
        result = page.evaluate(CHECK)
        found += [result["scroll"]] if result["scroll"] else []
        found += result["wide"] + result["small"]
    return found


def seen_version(page) -> int:
    """The campaign's version, as the page's witness tells it."""
    return int(re.search(r"as of event (\d+)", page.inner_text(".witness-box")).group(1))


def test_bare_numbers_are_refused_and_six_and_six_tapped_are_recorded(browser, server, shot):
    context, page = phone(browser, server, "dicer")
    play_on(page, server, "dice-table")
    before = seen_version(page)
    form = injury_form(page)
    expect(form.locator("legend:has-text('First die')")).to_be_visible()
    expect(form.locator("legend:has-text('Second die')")).to_be_visible()
    assert form.locator("input[name=dice]").count() == 0  # no box that takes a bare number
    assert not misfits(page)
    shot(page, "dice-01-injury-faces")

    for bare in ("12", "11"):
        # the text an old page's box (or a hand-made post) would send
        form.evaluate(
            "(f, bare) => f.insertAdjacentHTML('beforeend', `<input name=dice value=${bare}>`)",
            bare,
        )
        form.locator("button[value=table]").click()
        error = page.locator("#dice-InjuryRolled-ilse-dice .field-error")
        expect(error).to_contain_text(f"“{bare}” could be a total or 2 dice")
        expect(error).to_contain_text("type each die: 6 6")
        expect(error).to_be_in_viewport()  # the page lands at the dice it refused
        assert seen_version(page) == before
        form = injury_form(page)
    shot(page, "dice-02-bare-number-refused")

    tap(form, 6, 6)
    form.locator("button[value=table]").click()
    expect(page.locator(".flashes")).to_contain_text("Recorded")
    assert seen_version(page) == before + 1
    page.goto(page.url.split("#")[0] + "&step=2")
    expect(page.locator("main")).to_contain_text("Ilse Quill: 6 + 6 = 12")
    context.close()


def test_a_slaying_roll_is_asked_about_first_and_recorded_only_once_confirmed(
    browser, server, shot
):
    context, page = phone(browser, server, "reaper")
    play_on(page, server, "dice-slain")
    before = seen_version(page)
    form = injury_form(page)
    tap(form, 1, 1)
    form.locator("button[value=table]").click()

    expect(page.locator("h1")).to_have_text("Record this?")
    expect(page.locator(".outcome")).to_contain_text("Ilse Quill")
    expect(page.locator(".outcome")).to_contain_text("slain")
    assert seen_version(page) == before  # nothing recorded yet
    assert not misfits(page)
    shot(page, "dice-03-confirm")

    page.click("button:has-text('No, back to the dice')")
    form = injury_form(page)
    expect(form.locator("input[name=dice-0][value='1']")).to_be_checked()
    expect(form.locator("input[name=dice-1][value='1']")).to_be_checked()
    assert seen_version(page) == before

    form.locator("button[value=table]").click()
    expect(page.locator("h1")).to_have_text("Record this?")
    page.click("button:has-text('Record it')")
    expect(page.locator(".flashes")).to_contain_text("slain")
    assert seen_version(page) == before + 1
    shot(page, "dice-04-slain-recorded")
    context.close()


def test_an_attack_that_kills_a_figure_is_tapped_die_by_die_and_asked_about_first(
    browser, server, shot
):
    context, page = phone(browser, server, "tamer")
    play_on(page, server, "dice-feud", sample="twin-peaks-feud", upto=17)
    page.goto(server + "/c/dice-feud/battle")
    before = seen_version(page)
    form = page.locator("form#attack-alice-cat")
    assert form.locator("input[name=rounds]").count() == 0
    # the attacker (the Pigeon) rolls a 6 and a second 6, the Cat a 6 and a 2
    form.locator("input[name=rounds-0-attacker-0][value='6']").check()
    form.locator("summary:has-text('Pigeon rolled a 6')").first.click()
    form.locator("input[name=rounds-0-attacker-1][value='6']").check()
    form.locator("input[name=rounds-0-defender-0][value='6']").check()
    form.locator("summary:has-text('Cat rolled a 6')").first.click()
    form.locator("input[name=rounds-0-defender-1][value='2']").check()
    assert not misfits(page)
    shot(page, "dice-05-attack-faces")
    form.locator("button[value=table]").click()

    expect(page.locator("h1")).to_have_text("Record this?")
    expect(page.locator(".outcome")).to_contain_text("the Cat was killed")
    assert seen_version(page) == before
    page.click("button:has-text('Record it')")
    expect(page.locator(".flashes")).to_contain_text("the Cat was killed")
    assert seen_version(page) == before + 1
    context.close()
