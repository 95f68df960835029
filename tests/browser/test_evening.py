"""The group's evening, in a real browser against a real server on a fresh database: an
organiser at 1280 px and two players on phones (390 x 844), each in a browser context of its
own. The organiser starts a Warcry campaign and makes a group link; each player signs up
through it, founds a warband from the sample content and adds its fighters; the organiser
records a battle between them; both players walk their aftermaths at once, step by step in
turn, and one complete aftermath with every roll made at one press takes at most 10 taps.
Then Claim: the organiser starts a campaign, the players join it by a group link and the
first moves are made. Screenshots of both widths go to test-artifacts/screenshots/evening/."""

import re

import pytest
from phones import PHONE
from playwright.sync_api import expect
from serving import served

from tracker import config

SHOTS = config.ROOT / "test-artifacts" / "screenshots"

PASSWORD = "a long enough secret"
DESK = {"width": 1280, "height": 900}
MOST_TAPS = 10
# Each player's warband: its name, faction (typed, as the pack calls it) and fighters (the
# leader's profile first, then the profiles of the others), by the profiles' names.
PLAYERS = {
    "mara": (
        "Ember Wolves",
        "Cinderborn Reavers",
        ["Reaver Chieftain", "Soot Brute", "Hookwielder", "Ash Runner"],
    ),
    "tobin": (
        "Dusk Wings",
        "Gloamfeather Court",
        ["Gloam Matriarch", "Quill Skirmisher", "Rookery Scout", "Dusk Oracle"],
    ),
}


@pytest.fixture
def evening_server(tmp_path):
    """A server of its own on a fresh database: the evening starts from nothing."""
    with served(tmp_path / "evening.db", workers=2) as (url, _port):
        yield url


class Person:
    """One person at the table: a browser context, its page, and the taps it made (clicks
    and submits, each answer to a question the page asks too; typing is no tap)."""

    def __init__(self, browser, name: str, viewport: dict):
        self.name = name
        self.context = browser.new_context(viewport=viewport)
        self.page = self.context.new_page()
        self.page.set_default_timeout(15000)
        self.taps = 0
        self.page.on("dialog", self._answer)

    def _answer(self, dialog) -> None:
        self.taps += 1
        dialog.accept()

    def tap(self, locator) -> None:
        self.taps += 1
        locator.click()

    def shot(self, name: str) -> None:
        folder = SHOTS / "evening"
        folder.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def sign_up(page, name: str) -> None:
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("button:has-text('Sign up')")


def group_link(organiser: Person, server: str, cid: str, uses: int = 2) -> str:
    page = organiser.page
    page.goto(f"{server}/c/{cid}/members")
    page.fill("input[name=uses]", str(uses))
    page.click("button:has-text('Make a group link')")
    link = page.locator("#invitation-link").inner_text()
    assert link.startswith(server + "/join/")
    return link


def join(person: Person, link: str, side: str | None = None) -> None:
    page = person.page
    page.goto(link)
    if page.locator("a.button:has-text('Sign up to join')").count():
        page.click("a.button:has-text('Sign up to join')")
        sign_up(page, person.name)
        expect(page).to_have_url(link)
    if side is not None:
        page.select_option("select[name=side]", side)
    page.click(f"button:has-text('Join as {person.name}')")
    expect(page.locator(".flashes")).to_contain_text("You joined the campaign")


def found_warband(person: Person, server: str, cid: str) -> str:
    """The player founds its warband in the dashboard's form: the Player field holds its own
    name already and the id is left to the server (folded under More)."""
    name, faction, profiles = PLAYERS[person.name]
    page = person.page
    page.goto(f"{server}/c/{cid}/")
    form = page.locator("form:has(#warband-id)")
    expect(form.locator("input[name=player]")).to_have_value(person.name)
    expect(form.locator("#warband-id")).to_be_hidden()  # asked only under More
    form.locator("input[name=name]").fill(name)
    form.locator("input[name=faction]").fill(faction)
    form.locator("button:has-text('Found the warband')").click()
    expect(page.locator(".flashes")).to_contain_text(f"founded {name}")
    wid = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    page.goto(f"{server}/c/{cid}/warband?warband={wid}")
    for i, profile in enumerate(profiles):
        form = page.locator("form:has(#profile-fighter-id)")
        option = form.locator("select[name=profile] option", has_text=profile)
        form.locator("select[name=profile]").select_option(option.get_attribute("value"))
        form.locator("input[name=name]").fill(f"{profile} {i + 1}")
        form.locator("button:has-text('Add the fighter')").click()
        expect(page.locator(".flashes")).to_contain_text("joined")
        if i == 0:  # a leader now: no leader's profile is offered again, and the page says why
            leader = page.locator("form:has(#profile-fighter-id) select[name=profile] option")
            expect(leader.filter(has_text=profiles[0])).to_have_count(0)
            expect(page.locator(".not-offered").first).to_contain_text("leader runemark")
    person.shot(f"02-warband-{person.name}")
    return wid


# What a step of the aftermath asks, in the order a player answers: the buttons that move
# it on. Each is one tap; every roll is made by the server at one press.
NEXT = (
    "button:has-text('Roll everything owed in this step')",
    "form.roll:not(:has(input[name=extra])) button[value=server]",
    "button:has-text('Give')",
    "button:has-text('Take the artefact')",
    "button:has-text('Take the trait')",
    "button:has-text('Continue to the injury rolls')",
    "button:has-text('Continue to the search')",
    "button:has-text('Finish the search')",
    "button:has-text('Decline the reward and finish')",
)


def aftermath_step(person: Person) -> bool:
    """One tap of a player's aftermath; False once it is done."""
    page = person.page
    if page.locator("[data-aftermath-done]").count():
        return False
    for selector in NEXT:
        button = page.locator(selector).first
        if button.count() and button.is_visible():
            person.tap(button)
            page.wait_for_load_state()
            return True
    raise AssertionError("the aftermath offers nothing to do: " + page.inner_text("main"))


def test_the_groups_evening(browser, evening_server):
    server = evening_server
    organiser = Person(browser, "hostess", DESK)
    mara, tobin = Person(browser, "mara", PHONE), Person(browser, "tobin", PHONE)
    people = (organiser, mara, tobin)
    try:
        evening(server, organiser, mara, tobin)
    finally:
        for person in people:
            person.context.close()


def evening(server, organiser, mara, tobin):
    page = organiser.page
    page.goto(server + "/signup")
    sign_up(page, organiser.name)
    warcry = page.locator("details:has(summary:text-is('Warcry campaign'))")
    if warcry.get_attribute("open") != "":
        warcry.locator("summary").click()
    warcry.locator("input[name=name]").fill("Friday Warcry")
    warcry.locator("button:has-text('Start the campaign')").click()
    expect(page).to_have_url(re.compile(r"/c/friday-warcry/$"))
    organiser.shot("01-campaign-started-1280")
    cid = "friday-warcry"

    link = group_link(organiser, server, cid)
    for player in (mara, tobin):
        join(player, link)  # no warband yet: each founds its own side
    wids = {player.name: found_warband(player, server, cid) for player in (mara, tobin)}

    # The organiser records the battle: Mara's warband wins, two of Tobin's are taken down.
    page.goto(f"{server}/c/{cid}/battle-new")
    expect(page.locator("input[name=battle]")).to_be_hidden()  # its id: under More
    page.check("input[name=sides-1-taken_down] >> nth=0")
    page.check("input[name=sides-1-taken_down] >> nth=1")
    page.check("input[name=sides-0-taken_down] >> nth=1")
    winner = page.locator("select[name=winner]")
    winner.select_option(wids["mara"])
    organiser.shot("03-battle-form-1280")
    page.click("button:has-text('Record the battle')")
    expect(page.locator(".flashes")).to_contain_text("Battle b1")

    # Both players walk their aftermaths at once: a step of one, then a step of the other.
    for player in (mara, tobin):
        player.page.goto(f"{server}/c/{cid}/wizard?warband={wids[player.name]}")
        player.shot(f"04-aftermath-start-{player.name}")
    # Mara starts to type a territory's name; Tobin's steps land meanwhile: it stays typed.
    for player in (mara, tobin):
        player.taps = 0  # from here on: the taps of one complete aftermath
    typed = mara.page.locator("input[name=territory]")
    typed.fill("Cinder Ford")
    going = {mara: True, tobin: True}
    shots = 0
    for _round in range(20):
        for player in (tobin, mara):
            if going[player]:
                if player is mara and typed.count():
                    expect(typed).to_have_value("Cinder Ford")
                    typed.fill("")  # Mara leaves the territory for another evening
                going[player] = aftermath_step(player)
                if shots < 6:
                    player.shot(f"05-aftermath-{player.name}-{shots:02d}")
                    shots += 1
        if not any(going.values()):
            break
    for player in (mara, tobin):
        expect(player.page.locator("[data-aftermath-done]")).to_be_visible()
        player.shot(f"06-aftermath-done-{player.name}")
        assert player.taps <= MOST_TAPS, (player.name, player.taps)

    # What the pages say at the end: glory earned, and the injuries in the audit log.
    page.goto(f"{server}/c/{cid}/")
    for player in (mara, tobin):
        row = page.locator("table.list tbody tr", has_text=PLAYERS[player.name][0])
        expect(row.locator("td[data-label=Glory]")).not_to_have_text("0")
        expect(row.locator("td[data-label=Aftermath]")).to_contain_text("none owed")
    organiser.shot("07-dashboard-after-1280")
    page.goto(f"{server}/c/{cid}/audit")
    audit = page.locator("table.audit")
    expect(audit).to_contain_text("Battle b1")
    injuries = audit.locator("tr", has_text=re.compile(r"injury roll", re.I))
    assert injuries.count() >= 3, page.inner_text("table.audit")
    organiser.shot("08-audit-1280")

    # Then Claim: the players join by a group link, each taking a side, and play.
    page.goto(server + "/")
    claim = page.locator("details:has(summary:text-is('Claim'))")
    if claim.get_attribute("open") != "":
        claim.locator(":scope > summary").click()
    claim.locator("input[name=name]").fill("Friday Claim")
    for i, player in enumerate((mara, tobin)):  # each id made from the name, under More
        claim.locator(f"input[name='settings-players-{i}-name']").fill(player.name.title())
        expect(claim.locator(f"input[name='settings-players-{i}-id']")).to_be_hidden()
    claim.locator("button:has-text('Start the campaign')").click()
    expect(page.locator("h1")).to_have_text("Friday Claim")
    claim_id = "friday-claim"
    link = group_link(organiser, server, claim_id)
    for player in (mara, tobin):
        join(player, link, side=player.name)
    page.goto(f"{server}/c/{claim_id}/")
    page.click("button:has-text('Shuffle and deal game 1')")
    expect(page.locator(".flashes")).to_contain_text("Recorded")
    organiser.shot("09-claim-dealt-1280")
    for _move in range(4):  # the card turned up, the lead and the follow
        for player in (mara, tobin):
            seat = player.page
            seat.goto(f"{server}/c/{claim_id}/table?player={player.name}")
            up = seat.locator("button:has-text('Turn up the top card')")
            cards = seat.locator("form.hand-form button[name=card]:not([disabled])")
            if up.count():
                player.tap(up)
            elif cards.count():
                player.tap(cards.first)
            else:
                continue
            expect(seat.locator(".flashes")).to_contain_text("Recorded")
    for player in (mara, tobin):
        player.page.goto(f"{server}/c/{claim_id}/table?player={player.name}")
        player.shot(f"10-claim-{player.name}")
    page.goto(f"{server}/c/{claim_id}/audit")
    expect(page.locator("table.audit")).to_contain_text(re.compile(r"play", re.I))
    organiser.shot("11-claim-audit-1280")
