"""A new user's way through the tracker, in a real browser against a real server."""

import re

from phones import PHONE
from playwright.sync_api import expect


def found(page, name, player, faction):
    """Found a warband, its id left empty for the server to make from the name."""
    page.fill("form:has(#warband-id) input[name=name]", name)
    expect(page.locator("#warband-id")).to_have_value("")
    page.fill("input[name=player]", player)
    page.fill("input[name=faction]", faction)
    page.click("text=Found the warband")
    expect(page.locator(".flashes")).to_contain_text(f"founded {name}")


def add_fighter(page, name, points, leader=False):
    """Add a fighter: the leader with its id typed, the others' left for the server."""
    page.fill("form:has(#fighter-id) input[name=name]", name)
    if leader:  # the id is asked only under "More"
        page.click("form:has(#fighter-id) summary:has-text('More')")
        page.fill("#fighter-id", name.lower())
    else:
        expect(page.locator("#fighter-id")).to_have_value("")
    page.fill("input[name=points]", str(points))
    if leader:
        page.check("input[name=leader]")
    page.click("text=Add the fighter")
    expect(page.locator(".flashes")).to_contain_text(f"{name} joined")


def walk_aftermath(page, shot, tag):
    """Answer every step of the wizard, typing table rolls and letting the server roll one."""
    rolled_by_server = False
    for _ in range(60):
        # The page a press opened, whole: counted before it has loaded, a step's forms
        # could be found in part (a roll's dice boxes half there, then sent short).
        page.wait_for_load_state()
        if page.locator("text=owes nothing").count():
            return rolled_by_server
        give = page.locator("button:has-text('Give')")
        if give.count():
            give.first.click()
            continue
        every = page.locator("form.roll-all").first
        if every.count():  # the step's one form: every owed roll on it
            shot(page, f"{tag}-roll-all")
            if not rolled_by_server:
                every.locator("button[value=server]").click()
                rolled_by_server = True
            else:
                for box in every.locator("fieldset.die").all():
                    box.locator("input[type=radio][value='6']").check()
                every.locator("button[value=table]").click()
            continue
        roll = page.locator("form.roll").first
        if roll.count():
            if (
                roll.locator("input[name=extra]").count()
                and page.locator("button:has-text('Finish the search')").count()
            ):
                page.click("button:has-text('Finish the search')")
                continue
            shot(page, f"{tag}-roll")
            if not rolled_by_server:
                roll.locator("button[value=server]").click()
                rolled_by_server = True
            else:
                is_search = roll.locator("input[name=extra]").count() or "D66" in roll.inner_text()
                faces = "2 3" if is_search else "6 6" if "2D6" in roll.inner_text() else "6"
                for i, face in enumerate(faces.split()):  # each die tapped by its face
                    roll.locator(f"input[name=dice-{i}][value='{face}']").check()
                roll.locator("button[value=table]").click()
            continue
        for label in (
            "Take the artefact",
            "Take the trait",
            "Continue to the injury rolls",
            "Continue to the search",
            "Finish the search",
        ):
            button = page.locator(f"button:has-text('{label}')")
            if button.count():
                shot(page, f"{tag}-step")
                button.first.click()
                break
        else:
            raise AssertionError("the wizard offered nothing to do: " + page.inner_text("main"))
    raise AssertionError("the wizard did not end: " + page.inner_text("main"))


def test_a_new_user_runs_a_campaign_from_start_to_roster_sheet_and_audit(server, page, shot):
    page.goto(server + "/")
    page.click("text=Sign up")
    page.fill("input[name=name]", "ana")
    page.fill("input[name=password]", "a long enough secret")
    page.click("button:has-text('Sign up')")
    expect(page.locator(".flashes")).to_contain_text("Welcome, ana")
    shot(page, "01-campaigns")
    warcry = page.locator("details:has(summary:text-is('Warcry campaign'))")
    if not warcry.get_attribute("open") == "":
        warcry.locator("summary").click()
    warcry.locator("input[name=name]").fill("Browser League")
    warcry.locator("button:has-text('Start the campaign')").click()
    expect(page).to_have_url(re.compile(r"/c/browser-league/$"))
    expect(page.locator("h1")).to_have_text("Browser League")

    found(page, "Ash Hounds", "Ana", "Cinder Court")
    found(page, "Gloom Owls", "Bo", "Night Choir")
    shot(page, "02-dashboard")

    for warband, names in (
        ("ash-hounds", ["Kesh", "Rook", "Vell", "Ore"]),
        ("gloom-owls", ["Hoot", "Pale", "Wick", "Sable"]),
    ):
        page.goto(f"{server}/c/browser-league/warband?warband={warband}")
        for i, name in enumerate(names):
            add_fighter(page, name, 100 + i, leader=i == 0)
    expect(page.locator("table.roster")).to_contain_text("Sable")
    shot(page, "03-warband")

    page.click("text=Record a battle")
    # The points picked are counted as fighters are ticked, against the muster limit.
    total = page.locator("fieldset[data-muster] output[data-points-total]").first
    expect(total).to_have_text("406")
    page.uncheck("input[name=sides-0-fighters][value=ore]")
    expect(total).to_have_text("303")
    page.check("input[name=sides-0-fighters][value=ore]")
    expect(total).to_have_text("406")
    page.check("input[name=sides-0-taken_down][value=rook]")
    page.check("input[name=sides-1-taken_down][value=hoot]")
    page.check("input[name=sides-1-taken_down][value=pale]")
    shot(page, "04-battle-form")
    page.click("text=Record the battle")
    expect(page.locator(".flashes")).to_contain_text("Battle b1")

    for warband in ("ash-hounds", "gloom-owls"):
        page.goto(f"{server}/c/browser-league/")
        page.click(
            f"tr:has-text('{'Ash Hounds' if warband == 'ash-hounds' else 'Gloom Owls'}') "
            "a:has-text('Step 1 of battle b1')"
        )
        expect(page.locator("h1")).to_contain_text("Aftermath")
        shot(page, f"05-wizard-{warband}")
        assert walk_aftermath(page, shot, f"06-{warband}")
    page.goto(f"{server}/c/browser-league/")
    expect(page.locator("table.list")).to_contain_text("2: Blackwater Ford")
    shot(page, "07-dashboard-after")

    page.goto(f"{server}/c/browser-league/roster?warband=ash-hounds")
    expect(page.locator(".roster-sheet")).to_contain_text("Kesh")
    expect(page.locator(".witness-line")).to_contain_text("log hash")
    shot(page, "08-roster-sheet")
    pdf = page.request.get(f"{server}/c/browser-league/pdf/roster?warband=ash-hounds")
    assert pdf.ok and pdf.body().startswith(b"%PDF")

    page.goto(f"{server}/c/browser-league/audit")
    expect(page.locator("table.audit")).to_contain_text("Battle b1")
    shot(page, "09-audit")
    page.click("table.audit tr#e2 td:first-child a")
    expect(page.locator(".banner")).to_contain_text("as it stood after event 2")
    expect(page.locator("main")).not_to_contain_text("Gloom Owls")
    shot(page, "10-as-of-event-2")


def test_the_sample_campaigns_are_served_on_a_new_database(server, page, shot):
    page.goto(server + "/")
    expect(page.locator("table.list")).to_contain_text("The Ember Crown (sample)")
    page.click("text=The Ember Crown (sample)")
    # The sample's warbands are on two quests: a map for each.
    expect(page.locator(".quest-map")).to_have_count(2)
    expect(page.locator(".quest-map svg.horizontal").first).to_be_visible()
    page.set_viewport_size(PHONE)
    expect(page.locator(".quest-map svg.vertical").first).to_be_visible()
    expect(page.locator(".quest-map svg.horizontal").first).to_be_hidden()
    shot(page, "11-sample-on-a-phone")
    page.goto(page.url.rstrip("/") + "/chronicle")
    expect(page.locator(".story-chart > svg").first).to_be_visible()
    shot(page, "12-chronicle-on-a-phone")
