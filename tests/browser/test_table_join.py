"""Joining at the table, on phones (390 x 844): the organiser starts a campaign and makes a
group link on its Members page; a player opens the link, signs up, comes back to it, chooses a
free side and joins. What each does next is on the first screen; every page fits the phone."""

from phones import PHONE, fits, on_first_screen
from playwright.sync_api import expect

PASSWORD = "a long enough secret"


def phone(browser):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(15000)
    return context, page


def sign_up(page, name: str) -> None:
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("button:has-text('Sign up')")


def test_a_player_opens_a_group_link_signs_up_and_chooses_a_side_on_a_phone(browser, server, shot):
    organiser_context, organiser = phone(browser)
    organiser.goto(server + "/signup")
    sign_up(organiser, "tablehost")
    claim = organiser.locator("details:has(summary:text-is('Claim'))")
    if claim.get_attribute("open") != "":
        claim.locator(":scope > summary").click()
    claim.locator("input[name=name]").first.fill("Table Night")
    for i, name in enumerate(("Mara", "Tobin")):  # the ids, folded under More, from the names
        claim.locator(f"input[name='settings-players-{i}-name']").fill(name)
        expect(claim.locator(f"input[name='settings-players-{i}-id']")).to_be_hidden()
    claim.locator("button:has-text('Start the campaign')").click()
    expect(organiser.locator("h1")).to_have_text("Table Night")

    organiser.goto(server + "/c/table-night/members")
    organiser.fill("input[name=uses]", "2")
    organiser.click("button:has-text('Make a group link')")
    # The new link and its QR code open the page, where a phone shows them first.
    on_first_screen(organiser.locator("img.qr").first)
    on_first_screen(organiser.locator("button[data-copy=invitation-link]"))
    fits(organiser)
    shot(organiser, "table-join-01-group-link")
    link = organiser.locator("#invitation-link").inner_text()
    assert link.startswith(server + "/join/")

    player_context, player = phone(browser)
    player.goto(link)
    expect(player.locator("main")).to_contain_text("by a group link")
    sign_up_button = player.locator("a.button:has-text('Sign up to join')")
    on_first_screen(sign_up_button)
    fits(player)
    shot(player, "table-join-02-join-page")
    sign_up_button.click()
    sign_up(player, "tablepia")
    # Back at the link, signed up: a free side to choose, and the button to join.
    expect(player).to_have_url(link)
    side = player.locator("select[name=side]")
    on_first_screen(side)
    on_first_screen(player.locator("button:has-text('Join as tablepia')"))
    fits(player)
    shot(player, "table-join-03-choose-a-side")
    side.select_option("tobin")
    player.click("button:has-text('Join as tablepia')")
    expect(player.locator(".flashes")).to_contain_text("You joined the campaign and play Tobin.")
    expect(player).to_have_url(server + "/c/table-night/")

    # A second player is not offered the side taken.
    second_context, second = phone(browser)
    second.goto(server + "/signup?next=" + link.removeprefix(server))
    sign_up(second, "tablecole")
    expect(second.locator("select[name=side] option[value=tobin]")).to_have_count(0)
    expect(second.locator("select[name=side] option[value=mara]")).to_have_count(1)

    organiser.goto(server + "/c/table-night/members")
    expect(organiser.locator("main")).to_contain_text("A group link for 2 players: 1 joined")
    expect(organiser.locator("table.list")).to_contain_text("tablepia")
    for context in (organiser_context, player_context, second_context):
        context.close()
