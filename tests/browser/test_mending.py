"""Mending a slip after moving on, on a phone (390 x 844) against a real server: the
organiser of a copy of the Warcry sample voids an artefact gift from its row of the audit log,
sees the step completed after it that goes with it, confirms once, and lands on the audit log
with both voided; a refusal lands in sight too."""

from crawling import made_organiser, sample_copy, signed_up
from phones import PHONE, fits, on_first_screen
from playwright.sync_api import expect

PASSWORD = "a long mending password"
# The sample up to its event 299: Ironjaws gave the Moth-Glass Charm to Ketch (298), then
# completed step 5 (299).
UPTO, GIFT, STEP = 299, 298, 299


def test_an_organiser_voids_a_gift_and_the_step_after_it_from_its_row_on_a_phone(
    browser, server, server_db, shot
):
    campaign = "mending-on-a-phone"
    sample_copy(server_db, "warcry-ember-crown.jsonl", campaign, UPTO)
    context, page = signed_up(browser, server, "mender", PASSWORD, PHONE)
    made_organiser(server_db, "mender", [campaign])

    page.goto(f"{server}/c/{campaign}/audit?upto={GIFT}#e{GIFT}")
    row = page.locator(f"tr#e{GIFT}")
    expect(row).to_contain_text("Ironjaws gave the Moth-Glass Charm to Ketch")
    row.locator("button:has-text('Void…')").click()

    # The chain: the gift and the step completed after it, and the one button, in sight.
    expect(page.locator("h1")).to_have_text("Void this?")
    expect(page.locator("main")).to_contain_text("Ironjaws gave the Moth-Glass Charm to Ketch")
    chain = page.locator("ol.chain li")
    expect(chain).to_have_count(1)
    expect(chain.first).to_contain_text("Ironjaws completed step 5")
    reason = page.locator("input[name=reason]")
    on_first_screen(reason)
    confirm = page.locator("button:has-text('Void all (2)')")
    on_first_screen(confirm)
    fits(page)
    shot(page, "mending-01-the-chain")

    # Sent without a reason: the words beside the field, in sight; nothing written.
    reason.evaluate("input => input.removeAttribute('required')")
    confirm.click()
    on_first_screen(page.locator(".field-error"))
    expect(page.locator(".field-error")).to_have_text("Say why, in a few words.")

    page.locator("input[name=reason]").fill("given to the wrong fighter")
    page.locator("button:has-text('Void all (2)')").click()
    flash = page.locator(".flashes")
    on_first_screen(flash)
    expect(flash).to_contain_text(
        "Voided: Ironjaws gave the Moth-Glass Charm to Ketch, with the 1 entry that depended on it."
    )
    shot(page, "mending-02-voided")
    page.goto(f"{server}/c/{campaign}/audit")
    for version in (GIFT, STEP):
        expect(page.locator(f"tr#e{version}")).to_contain_text("voided by")
    expect(page.locator("main")).to_contain_text("Event 299 was voided: given to the wrong fighter")
    expect(page.locator("main")).to_contain_text("Event 298 was voided: given to the wrong fighter")
    context.close()
