"""Every page and form of the web app, through Flask's test client, error paths included."""

import re
import zlib

import pytest
from pagetools import form, post_form, text, version

from tracker.web import create_app

PASSWORD = "organiser-password"


def test_the_campaign_list_shows_each_campaign_with_its_events_and_no_hash(client, sample, svc):
    page = client.get("/")
    assert page.status_code == 200
    body = text(page)
    version, head = svc.store.head(sample)
    assert "The Ember Crown (sample)" in body and str(version) in body
    assert head[:12] not in body  # the hashes are on the audit page


def test_a_campaign_starts_from_the_form_with_its_game_and_quest(client, svc):
    page = client.post(
        "/campaigns",
        data={
            "system": "warcry",
            "name": "Autumn League",
            "settings-pack": "sample",
            "settings-quest": "ember-crown",
        },
    )
    assert page.status_code == 302 and page.location.endswith("/c/autumn-league/")
    assert svc.store.event("autumn-league", 1).data["settings"]["quest"] == "ember-crown"


def test_starting_a_campaign_without_a_name_or_with_a_taken_id_says_why(client, two):
    page = client.post("/campaigns", data={"system": "warcry", "name": ""})
    assert page.status_code == 422 and "name" in text(page)
    page = client.post("/campaigns", data={"system": "warcry", "name": "X", "campaign": "c"})
    assert page.status_code == 422 and "there is already a campaign 'c'" in text(page)


def test_the_dashboard_shows_each_warbands_glory_territories_fighters_and_map_position(
    client, sample
):
    body = text(client.get(f"/c/{sample}/"))
    assert "Ironjaws" in body and "50" in body and "The Sunken Mill" in body
    assert "2: Eelmarsh Causeway" in body and "11: Caldera Road" in body
    assert "Step 2 of battle b12" in body


def test_the_dashboard_draws_the_quest_map_with_each_warbands_marker(client, sample):
    html = client.get(f"/c/{sample}/").get_data(as_text=True)
    # Each quest a warband is on, drawn across for wide screens, down for phones: Ironjaws
    # are on their second quest.
    assert html.count('class="point ') == 2 * 24
    assert "<title>Ironjaws: Eelmarsh Causeway</title>" in html
    assert "<title>Crowmarch: Caldera Road</title>" in html


def test_the_dashboard_tells_the_latest_events_in_words(client, sample):
    body = text(client.get(f"/c/{sample}/"))
    assert "The Stormglass Vial of Ironjaws' Grenn the Hook held: roll 5" in body


def test_every_campaign_page_shows_the_head_hash(client, sample, svc):
    head = svc.store.head(sample)[1]
    for path in (
        "/",
        "warband?warband=ironjaws",
        "battle-new",
        "wizard?warband=crowmarch",
        "battles",
        "battle?battle=b1",
        "roster?warband=ironjaws",
        "audit",
        "dice",
    ):
        url = f"/c/{sample}/" + (path if path != "/" else "")
        assert head in client.get(url).get_data(as_text=True), url


def test_a_warband_is_founded_from_the_form(client, two, svc):
    page = post_form(
        client,
        "/c/c/",
        svc,
        "WarbandFounded",
        warband="gulls",
        name="Gulls",
        player="Dana",
        faction="Sea",
    )
    assert page.status_code == 302
    assert svc.state("c").state["warbands"]["gulls"]["player"] == "Dana"


def test_dashboard_forms_post_to_the_page_and_show_a_field_error_beside_its_field(client, two, svc):
    before = version(svc)
    page = client.post(
        "/c/c/dashboard",
        data=form(
            "WarbandFounded", before, warband="Bad Id!", name="Gulls", player="Dana", faction="Sea"
        ),
    )
    assert page.status_code == 422
    assert re.search(
        r'name="warband"[^>]*>\s*</label>\s*<span class="field-error"', page.get_data(as_text=True)
    )
    assert "use lower-case letters, digits and dashes" in text(page)
    assert version(svc) == before


def test_fighters_are_added_and_removed_from_the_warband_page(client, two, svc):
    url = "/c/c/warband?warband=iron"
    assert (
        post_form(
            client,
            url,
            svc,
            "FighterAdded",
            warband="iron",
            fighter="new",
            name="Newcomer",
            **{"runemarks-text": "ember, brute"},
            points="90",
            **{"leader-present": "1"},
        ).status_code
        == 302
    )
    fighter = svc.state("c").state["warbands"]["iron"]["fighters"]["new"]
    assert fighter["runemarks"] == ["ember", "brute"] and fighter["points"] == 90
    assert (
        post_form(client, url, svc, "FighterRemoved", warband="iron", fighter="new").status_code
        == 302
    )
    assert svc.state("c").state["warbands"]["iron"]["fighters"]["new"]["status"] == "removed"


def test_a_broken_rule_shows_as_the_rule_and_writes_nothing(client, two, svc):
    before = version(svc)
    page = client.post(
        "/c/c/warband?warband=iron",
        data=form("FighterRemoved", before, warband="iron", fighter="iron-0"),
    )
    assert page.status_code == 422
    assert "the leader can never be removed (Ironjaws 0 leads Ironjaws)" in text(page)
    assert "Traceback" not in page.get_data(as_text=True) and version(svc) == before


def test_a_twenty_first_fighter_is_refused_with_the_rule(client, two, svc):
    for n in range(16):
        svc.append(
            "c",
            [
                {
                    "type": "FighterAdded",
                    "data": {
                        "warband": "iron",
                        "fighter": f"x{n}",
                        "name": f"X{n}",
                        "runemarks": ["ember"],
                        "points": 1,
                    },
                }
            ],
            version(svc),
        )
    page = post_form(
        client,
        "/c/c/warband?warband=iron",
        svc,
        "FighterAdded",
        warband="iron",
        fighter="late",
        name="Late",
        **{"runemarks-text": "ember"},
        points="5",
    )
    assert "a warband holds at most 20 fighters (Ironjaws would have 21)" in text(page)


def battle_form(svc, down=("crow-1",)):
    return form(
        "BattleFought",
        version(svc),
        battle="b1",
        winner="iron",
        **{
            "sides-0-warband": "iron",
            "sides-0-fighters": [f"iron-{i}" for i in range(4)],
            "sides-0-taken_down": [],
            "sides-0-taken_down-present": "1",
            "sides-1-warband": "crow",
            "sides-1-fighters": [f"crow-{i}" for i in range(4)],
            "sides-1-taken_down": list(down),
            "sides-1-taken_down-present": "1",
            "convergence-present": "1",
        },
    )


def test_a_battle_is_recorded_from_the_form(client, two, svc):
    page = client.post("/c/c/battle-new", data=battle_form(svc))
    assert page.status_code == 302
    battle = svc.state("c").state["battles"][0]
    assert battle["winner"] == "iron" and battle["sides"]["crow"]["taken_down"] == ["crow-1"]


def test_a_battle_with_a_fighter_taken_down_who_did_not_fight_is_refused(client, two, svc):
    data = battle_form(svc)
    data["sides-1-fighters"] = ["crow-0", "crow-2"]
    page = client.post("/c/c/battle-new", data=data)
    assert page.status_code == 422 and "only fighters who took part can be taken down" in text(page)


def test_the_wizard_walks_a_warband_through_every_step(client, two, svc):
    client.post("/c/c/battle-new", data=battle_form(svc))
    url = "/c/c/wizard?warband=crow"
    body = text(client.get(url))
    assert "earned in battle b1" in body and "played the battle" in body
    post_form(client, url, svc, "AftermathStepCompleted", warband="crow", step="1")
    assert "an injury roll for Crowmarch 1" in text(client.get(url))
    post_form(
        client,
        url,
        svc,
        "InjuryRolled",
        warband="crow",
        fighter="crow-1",
        **{"dice-0": "3", "dice-1": "4", "dice-mode": "table"},
    )
    body = text(client.get(url + "&step=2"))
    assert "3 + 4 = 7" in body and "recovers" in body
    for fid in ("crow-0", "crow-2", "crow-3", "crow-1"):
        if fid == "crow-1":
            continue
        assert (
            post_form(
                client,
                url,
                svc,
                "DestinyRolled",
                warband="crow",
                fighter=fid,
                **{"dice-mode": "server"},
            ).status_code
            == 302
        )
    event = svc.store.event("c", version(svc))
    assert event.meta["source"] == "server-roll" and event.meta["via"] == "form"
    assert "Step 4" in text(client.get(url))
    post_form(client, url, svc, "AftermathStepCompleted", warband="crow", step="4")
    post_form(
        client,
        url,
        svc,
        "SearchRolled",
        warband="crow",
        **{"dice-0": "2", "dice-1": "3", "dice-mode": "table"},  # the tens die, the units die
    )
    assert "Whetted Hook" in text(client.get(url))
    post_form(
        client, url, svc, "ArtefactGiven", warband="crow", fighter="crow-2", artefact="Whetted Hook"
    )
    post_form(client, url, svc, "AftermathStepCompleted", warband="crow", step="5")
    crow = svc.state("c").state["warbands"]["crow"]
    assert crow["aftermath"] is None and crow["map_position"] == 1
    assert "owes nothing" in text(client.get(url))


def test_the_table_roll_button_with_no_dice_typed_asks_for_them(client, two, svc):
    client.post("/c/c/battle-new", data=battle_form(svc))
    url = "/c/c/wizard?warband=crow"
    post_form(client, url, svc, "AftermathStepCompleted", warband="crow", step="1")
    before = version(svc)
    page = client.post(
        url,
        data=form(
            "InjuryRolled",
            before,
            warband="crow",
            fighter="crow-1",
            **{"dice-mode": "table"},
            form_id="InjuryRolled-crow-1",
        ),
    )
    assert page.status_code == 422 and "choose the face of each die the table rolled" in text(page)
    assert re.search(
        r'id="dice-InjuryRolled-crow-1-dice">(?:(?!</form>).)*?<span class="field-error"',
        page.get_data(as_text=True),
        re.S,
    )
    assert version(svc) == before
    page = client.post(
        url,
        data=form(
            "InjuryRolled",
            before,
            warband="crow",
            fighter="crow-1",
            **{"dice-0": "7", "dice-1": "1", "dice-mode": "table"},
        ),
    )
    assert "a die of a 2D6 roll shows 1 to 6, not 7" in text(page)


def test_a_step_out_of_order_is_refused_with_the_step_that_comes_first(client, two, svc):
    client.post("/c/c/battle-new", data=battle_form(svc))
    page = post_form(
        client,
        "/c/c/wizard?warband=crow",
        svc,
        "SearchRolled",
        warband="crow",
        **{"dice-mode": "server"},
    )
    assert "step 2 (injury rolls) comes first" in text(page)


def test_a_warband_can_leave_the_wizard_and_come_back_to_its_step(client, two, svc):
    client.post("/c/c/battle-new", data=battle_form(svc))
    post_form(
        client, "/c/c/wizard?warband=crow", svc, "AftermathStepCompleted", warband="crow", step="1"
    )
    client.get("/c/c/")
    body = text(client.get("/c/c/wizard?warband=crow"))
    assert "Crowmarch is at step 2: injury rolls" in body


def test_battle_reports_list_and_filter_by_warband(client, sample):
    body = text(client.get(f"/c/{sample}/battles"))
    assert all(f"b{n}" in body for n in range(1, 10))
    assert "b1" in text(client.get(f"/c/{sample}/battles?warband=crowmarch"))


def test_a_battle_report_has_glory_rolls_rewards_and_the_rosters_before_and_after(client, sample):
    body = text(client.get(f"/c/{sample}/battle?battle=b2"))
    assert "Ironjaws against Crowmarch: Crowmarch won" in body
    assert "won the battle" in body and "Injury, Tulla Sootfist: 5 + 1" in body
    assert "Bought search: 31 → Purse of Tarnished Coin" in body
    assert "Reward: Cinder Blade (artefact of power) for Varka Ironjaw" in body
    assert "Roster before the battle" in body and "Roster after it" in body


def test_the_start_form_of_a_system_is_no_page_of_a_campaign(client, sample):
    answer = client.get(f"/c/{sample}/start")
    assert answer.status_code == 404 and "has no page 'start'" in text(answer)


def test_an_unknown_battle_or_warband_is_a_404(client, sample):
    assert client.get(f"/c/{sample}/battle?battle=b99").status_code == 404
    assert client.get(f"/c/{sample}/roster?warband=nobody").status_code == 404
    assert client.get("/c/nope/").status_code == 404
    assert client.get(f"/c/{sample}/no-such-page").status_code == 404


def test_the_roster_sheet_is_printable_and_names_its_event_and_hash(client, sample, svc):
    page = client.get(f"/c/{sample}/roster?warband=ironjaws")
    html, body = page.get_data(as_text=True), text(page)
    assert 'media="print"' in html and "@page { size: A4" in html
    assert "Cinderborn Reavers" in body and "The Drowned Bell (ember)" in body
    assert "Ember-Tongued" in body and "Shard of the Crown" in body and "Whetted Hook" in body
    assert "Dead and removed" in body and "Brannoc dead" in body and "Maw dead" in body
    version_now, head = svc.store.head(sample)
    assert f"as of event {version_now}, log hash {head}" in body


def media_boxes(pdf: bytes) -> list[bytes]:
    """The page sizes of a PDF, looked for in its plain and its compressed parts."""
    parts = [pdf]
    for match in re.finditer(rb"stream\r?\n(.*?)\r?\nendstream", pdf, re.S):
        try:
            parts.append(zlib.decompress(match.group(1)))
        except zlib.error:
            pass
    return [box for part in parts for box in re.findall(rb"/MediaBox\s*\[([^\]]*)\]", part)]


def test_the_roster_sheet_as_pdf_on_a4_and_letter(client, sample):
    for paper, width in (("A4", b"595"), ("Letter", b"612")):
        page = client.get(f"/c/{sample}/pdf/roster?warband=ironjaws&paper={paper}")
        assert page.status_code == 200 and page.mimetype == "application/pdf"
        assert page.data.startswith(b"%PDF")
        boxes = media_boxes(page.data)
        assert boxes and all(box.split()[2].startswith(width) for box in boxes)


def test_the_audit_log_shows_each_event_with_who_when_how_and_its_hash(client, sample, svc):
    page = client.get(f"/c/{sample}/audit?upto=30")  # the page that holds event 21
    html, body = page.get_data(as_text=True), text(page)
    event = svc.store.event(sample, 21)
    assert "Ironjaws' Brannoc was slain: injury roll 1+1" in body
    assert event.hash[:12] in html and "table roll" in body and "alice" in body
    assert f'href="/c/{sample}/?at=21"' in html
    assert "voided by" in body and "voids" in body


def test_the_audit_log_comes_in_pages_that_cover_every_event_once_newest_page_first(
    client, sample, svc
):
    import re

    from tracker.web.rendering import AUDIT_PAGE

    latest = svc.store.version(sample)
    assert latest > 2 * AUDIT_PAGE  # the sample needs several pages
    seen, url, pages = [], f"/c/{sample}/audit", 0
    while url:
        page = client.get(url)
        html = page.get_data(as_text=True)
        versions = [int(v) for v in re.findall(r'<tr id="e(\d+)"', html)]
        assert len(versions) <= AUDIT_PAGE and versions == sorted(versions)
        assert f"Events {versions[0]} to {versions[-1]} of {latest}" in text(page)
        seen = versions + seen
        pages += 1
        earlier = re.search(r'<a href="([^"]+)" rel="prev">', html)
        url = earlier.group(1).replace("&amp;", "&") if earlier else None
    assert pages == -(-latest // AUDIT_PAGE) and seen == list(range(1, latest + 1))
    assert 'rel="next"' in client.get(f"/c/{sample}/audit?upto=10").get_data(as_text=True)


def test_a_page_of_the_audit_log_words_each_event_as_the_whole_history_does(sample, svc):
    whole = {e.event.version: (e.words, e.voided_by) for e in svc.history(sample)}
    voided = svc.store.voids(sample)
    assert voided  # the sample voids an event: a page after it must still skip it
    for upto, count in ((svc.store.version(sample), 200), (60, 25), (11, 3), (10, 4)):
        page = svc.log_page(sample, upto, count)
        assert [e.event.version for e in page] == list(range(upto - count + 1, upto + 1))
        assert all((e.words, e.voided_by) == whole[e.event.version] for e in page)
    then = {e.event.version: (e.words, e.voided_by) for e in svc.history(sample, 10)}
    page = svc.log_page(sample, 10, 4, as_of=10)  # the log as it stood before the void
    assert all((e.words, e.voided_by) == then[e.event.version] for e in page)


def test_a_link_to_an_event_lands_on_the_page_of_the_audit_log_that_shows_it(
    client, sample, svc, monkeypatch
):
    from tracker.web import rendering

    monkeypatch.setattr(rendering, "AUDIT_PAGE", 1)  # one event a page: the voided one is elsewhere
    [(target, by)] = svc.store.voids(sample).items()
    page = client.get(f"/c/{sample}/audit?upto={by}").get_data(as_text=True)
    link = f"/c/{sample}/audit?upto={target}#e{target}"
    assert f'voids <a href="{link}">' in page
    landed = client.get(link.split("#")[0]).get_data(as_text=True)
    assert f'<tr id="e{target}"' in landed
    assert f'voided by <a href="/c/{sample}/audit?upto={by}#e{by}">' in landed
    dice = client.get(f"/c/{sample}/dice").get_data(as_text=True)
    assert f"/c/{sample}/audit?upto=" in dice  # each roll links to its page of the log


def test_the_organiser_voids_an_event_from_the_audit_log(client, two, svc):
    svc.append(
        "c",
        [
            {
                "type": "WarbandFounded",
                "data": {"warband": "dup", "name": "Dup", "player": "P", "faction": "F"},
            }
        ],
        version(svc),
    )
    page = client.post(
        "/c/c/audit",
        data={
            "version": str(version(svc)),
            "reason": "twice",
            "expected_version": str(version(svc)),
        },
    )
    assert page.status_code == 302
    assert "dup" not in svc.state("c").state["warbands"]


def test_a_void_that_others_depend_on_shows_what_would_go_with_it_and_writes_nothing(
    client, two, svc
):
    before = version(svc)
    page = client.post(
        "/c/c/audit", data={"version": "2", "reason": "oops", "expected_version": str(before)}
    )
    assert page.status_code == 200 and version(svc) == before
    assert "Void this?" in text(page) and "4 entries recorded after it depend on it" in text(page)


def test_every_page_takes_at_version_and_shows_the_campaign_as_it_stood(client, sample):
    body = text(client.get(f"/c/{sample}/?at=40"))
    assert "as it stood after event 40" in body and "as of event 40" in body
    html = client.get(f"/c/{sample}/warband?warband=ironjaws&at=40").get_data(as_text=True)
    assert "disabled" in html
    assert client.get(f"/c/{sample}/?at=abc").status_code == 404
    assert client.get(f"/c/{sample}/?at=99999").status_code == 404


def test_the_dice_page_compares_every_roll_with_fair_dice(client, sample):
    body = text(client.get(f"/c/{sample}/dice"))
    assert "2D6" in body and "D66" in body and "Chi-square" in body
    assert "alice" in body and "bruno" in body


def add_fighter_form(svc, expected, warband, fighter, name):
    return form(
        "FighterAdded",
        expected,
        warband=warband,
        fighter=fighter,
        name=name,
        **{"runemarks-text": "ember"},
        points="90",
        **{"leader-present": "1"},
    )


def other_browser_adds(svc, warband, fighter, name, expected):
    data = {"warband": warband, "fighter": fighter, "name": name, "runemarks": ["ember"]}
    svc.append("c", [{"type": "FighterAdded", "data": {**data, "points": 80}}], expected)


def test_a_stale_form_for_the_same_side_gets_what_changed_and_nothing_is_lost_or_doubled(
    client, two, svc
):
    stale = version(svc)
    other_browser_adds(svc, "iron", "gull", "Gull", stale)
    page = client.post(
        "/c/c/warband?warband=iron", data=add_fighter_form(svc, stale, "iron", "owl", "Owl")
    )
    assert page.status_code == 409
    assert "The campaign changed since you loaded this page" in text(page)
    assert "meanwhile, for the same side:" in text(page) and "Gull" in text(page)
    assert 'value="Owl"' in page.get_data(as_text=True)  # what was typed is kept
    assert "owl" not in svc.state("c").state["warbands"]["iron"]["fighters"]


def test_two_players_recording_for_different_sides_from_stale_pages_both_record(client, two, svc):
    stale = version(svc)
    other_browser_adds(svc, "crow", "gull", "Gull", stale)
    page = client.post(
        "/c/c/warband?warband=iron", data=add_fighter_form(svc, stale, "iron", "owl", "Owl")
    )
    assert page.status_code == 302
    warbands = svc.state("c").state["warbands"]
    assert "owl" in warbands["iron"]["fighters"] and "gull" in warbands["crow"]["fighters"]
    assert svc.store.verify("c") is None


def test_a_form_sent_twice_records_once(client, two, svc):
    data = form(
        "WarbandFounded",
        version(svc),
        warband="owls",
        name="Owls",
        player="Q",
        faction="F",
        idem="same-key",
    )
    client.post("/c/c/", data=data)
    client.post("/c/c/", data=data)
    assert version(svc) == 12


def test_names_typed_by_users_are_escaped_everywhere(client, two, svc):
    evil = "<script>alert(1)</script>"
    svc.append(
        "c",
        [
            {
                "type": "WarbandFounded",
                "data": {"warband": "evil", "name": evil, "player": evil, "faction": evil},
            }
        ],
        version(svc),
    )
    for path in (
        "/c/c/",
        "/c/c/warband?warband=evil",
        "/c/c/roster?warband=evil",
        "/c/c/audit",
        "/c/c/battle-new?a=evil&b=iron",
    ):
        html = client.get(path).get_data(as_text=True)
        assert evil not in html, path
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html, path


def csrf_client(svc):
    """A client of an app with CSRF protection on, logged in through the real form."""
    app = create_app({"DATABASE": svc.store.path, "TESTING": True, "SECRET_KEY": "k"})
    client = app.test_client()
    token = csrf_token(client.get("/login").get_data(as_text=True))
    page = client.post("/login", data={"name": "org", "password": PASSWORD, "csrf_token": token})
    assert page.status_code == 302
    return client


def csrf_token(html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def test_a_form_without_its_csrf_token_is_refused(two, svc):
    client = csrf_client(svc)
    page = post_form(
        client, "/c/c/", svc, "WarbandFounded", warband="x", name="X", player="P", faction="F"
    )
    assert page.status_code == 400 and "This form has expired" in text(page)
    assert version(svc) == 10 + 1


def test_a_form_with_its_csrf_token_is_accepted(two, svc):
    client = csrf_client(svc)
    token = csrf_token(client.get("/c/c/").get_data(as_text=True))
    page = client.post(
        "/c/c/",
        data={
            **form("WarbandFounded", version(svc), warband="x", name="X", player="P", faction="F"),
            "csrf_token": token,
        },
    )
    assert page.status_code == 302 and "x" in svc.state("c").state["warbands"]


@pytest.mark.parametrize(
    "path", ["/", "/c/c/", "/c/c/battles", "/c/c/audit", "/c/c/dice", "/c/c/battle-new"]
)
def test_pages_answer_without_javascript_or_errors(client, two, path):
    page = client.get(path)
    assert (
        page.status_code == 200
        and "<form" in page.get_data(as_text=True)
        or path in ("/c/c/battles", "/c/c/audit", "/c/c/dice")
    )


def test_the_dice_tally_stepped_by_appends_counts_as_one_made_from_the_start(sample, svc, tmp_path):
    import json

    from tracker.service import Service
    from tracker.store import open_store

    lines = list(svc.export(sample))
    cut, latest = len(lines) - 60, len(lines)
    writer = Service(open_store(tmp_path / "short.db"))
    writer.store.init()
    writer.import_lines(lines[:cut])
    reader = Service(open_store(tmp_path / "short.db"))  # another process: kept apart
    early = writer.dice(sample, cut)  # counted at the head, then stepped by each append
    assert reader.dice(sample, cut).count == early.count  # kept, then brought forward
    for line in lines[cut:]:
        event = json.loads(line)
        submission = {"type": event["type"], "data": event["data"], "meta": event["meta"]}
        writer.append(sample, [submission], None)
    stepped, brought = writer.dice(sample, latest), reader.dice(sample, latest)
    writer.repository.forget()
    fresh = writer.dice(sample, latest)
    assert early.count < fresh.count
    for tally in (stepped, brought):
        assert (tally.by_table, tally.by_player, list(tally.rolls), tally.count) == (
            fresh.by_table,
            fresh.by_player,
            list(fresh.rolls),
            fresh.count,
        )
    back = writer.dice(sample, cut)  # an earlier moment: counted apart
    assert (back.by_table, back.count) == (early.by_table, early.count)


def test_a_look_at_the_dice_of_an_earlier_moment_leaves_the_latest_tally_kept(sample, svc):
    latest = svc.store.version(sample)
    svc.repository.forget()
    head = svc.dice(sample, latest)
    back = svc.dice(sample, latest - 60)
    assert back.count < head.count
    assert svc.dice(sample, latest) is head  # the latest one, kept as it was
    svc.repository.forget()


def test_the_dice_page_lists_the_latest_rolls_and_counts_them_all(client, sample, svc, monkeypatch):
    import re

    from tracker import repository

    monkeypatch.setattr(repository, "LATEST_ROLLS", 5)
    svc.repository.forget()
    html = client.get(f"/c/{sample}/dice").get_data(as_text=True)
    svc.repository.forget()
    total = svc.dice(sample, svc.store.version(sample))
    assert f"The latest 5 of {total.count} rolls" in html
    listed = re.findall(r'<tr><td><a href="[^"]*#e(\d+)">', html)
    assert [int(v) for v in listed] == [roll[0] for roll in total.rolls]
    svc.repository.forget()


# -- Warcry: factions, mustering, convergence, the story --------------------------------------


def test_a_warband_founded_from_a_faction_adds_fighters_from_its_profiles_on_the_forms(
    client, two, svc
):
    page = client.get("/c/c/").get_data(as_text=True)
    assert (
        '<datalist id="warcry-factions">' in page and '<option value="Cinderborn Reavers">' in page
    )
    post_form(
        client,
        "/c/c/",
        svc,
        "WarbandFounded",
        warband="reav",
        name="Reavers",
        player="Dana",
        faction="Cinderborn Reavers",
    )
    url = "/c/c/warband?warband=reav"
    assert "Soot Brute: ember, brute, 120 points" in text(client.get(url))
    page = client.post(
        url,
        data={
            **form("FighterAdded", version(svc), warband="reav", fighter="hask", name="Hask"),
            "form_id": "add-profile",
            "profile": "soot-brute",
        },
    )
    assert page.status_code == 302
    hask = svc.state("c").state["warbands"]["reav"]["fighters"]["hask"]
    assert hask["points"] == 120 and hask["runemarks"] == ["ember", "brute", "cinderborn"]


def test_the_battle_form_shows_each_fighters_points_against_the_muster_limit(client, sample):
    html = client.get(f"/c/{sample}/battle-new").get_data(as_text=True)
    body = text(client.get(f"/c/{sample}/battle-new"))
    assert 'data-points="220"' in html and 'data-muster="1050"' in html
    assert "Musters at most 15 fighters and 1050 points (1000, +50 for 1 territory)" in body
    assert "The whole roster: 9 fighters, 1100 points." in body


def test_a_battle_over_the_points_limit_is_refused_on_the_form_in_words(client, two, svc):
    svc.append(
        "c",
        [
            {
                "type": "FighterAdded",
                "data": {
                    "warband": "iron",
                    "fighter": "giant",
                    "name": "Giant",
                    "runemarks": ["ember"],
                    "points": 700,
                },
            }
        ],
        version(svc),
    )
    data = battle_form(svc)
    data["sides-0-fighters"] = ["iron-0", "iron-1", "iron-2", "iron-3", "giant"]
    page = client.post("/c/c/battle-new", data=data)
    assert page.status_code == 422
    assert "a warband musters at most 1000 points for this battle (Ironjaws fielded 1100)" in text(
        page
    )


def test_the_wizard_lets_a_warband_leave_step_five_without_searching(client, two, svc):
    client.post("/c/c/battle-new", data=battle_form(svc))
    url = "/c/c/wizard?warband=iron"
    post_form(client, url, svc, "AftermathStepCompleted", warband="iron", step="1")
    for fid in ("iron-0", "iron-1", "iron-2", "iron-3"):
        post_form(
            client,
            url,
            svc,
            "DestinyRolled",
            warband="iron",
            fighter=fid,
            **{"dice-0": "1", "dice-mode": "table"},
        )
    post_form(client, url, svc, "AftermathStepCompleted", warband="iron", step="4")
    assert "Finish the search without searching and move on the map" in text(client.get(url))
    page = post_form(client, url, svc, "AftermathStepCompleted", warband="iron", step="5")
    assert page.status_code == 302
    assert svc.state("c").state["warbands"]["iron"]["map_position"] == 1


def test_the_dashboard_shows_each_warbands_record_and_quests_completed(client, sample):
    body = text(client.get(f"/c/{sample}/"))
    assert "Played (won, drawn, lost)" in body and "Quests completed" in body
    assert "12 (6, 2, 4)" in body and "1 (The Ember Crown)" in body


def test_the_chronicle_tells_each_battle_and_draws_glory_and_territories(client, sample):
    page = client.get(f"/c/{sample}/chronicle")
    html, body = page.get_data(as_text=True), text(page)
    assert page.status_code == 200
    assert html.count("<svg viewBox=") == 2 and html.count("<polyline") == 4
    assert "<title>Ironjaws after battle b12: 50 glory, 1 territory</title>" in html
    assert "Battle b4: The Crossing of Knives" in body
    assert "where both stood on their convergence point, both Aspirants" in body
    assert (
        "at Crowmarch's convergence point, Crowmarch the Aspirant and Ironjaws the Adversary"
        in body
    )
    assert "The Crowmarch came out of the reeds too early." in body
    assert "Quest complete: The Ember Crown is claimed" in body


def test_the_chronicle_prints_as_a_pdf(client, sample):
    page = client.get(f"/c/{sample}/pdf/chronicle")
    assert page.status_code == 200 and page.mimetype == "application/pdf"


def test_the_warband_page_shows_each_fighters_career(client, sample):
    body = text(client.get(f"/c/{sample}/warband?warband=ironjaws"))
    assert "Careers" in body and "12 battles: 6 won, 2 drawn, 4 lost" in body
    assert "Varka Ironjaw" in body and "Cinder Blade, Bone Knuckles, Shard of the Crown" in body


def test_a_battle_report_names_its_scenario_notes_aspirant_and_adversary(client, sample):
    body = text(client.get(f"/c/{sample}/battle?battle=b5"))
    assert "Battle b5: Second Crossing" in body
    assert "(Crowmarch the Aspirant, Ironjaws the Adversary)" in body
    assert "The Adversary's search" in body


def test_the_discard_button_sends_the_discarded_field_and_discards(client, sample, svc):
    url = f"/c/{sample}/warband?warband=ironjaws"
    assert 'name="discarded" value="lesser"' in client.get(url).get_data(as_text=True)
    head = version(svc, sample)
    data = form("ArtefactDiscarded", head, warband="ironjaws", fighter="varka", discarded="lesser")
    assert client.post(url, data=data).status_code == 302
    assert svc.store.event(sample, head + 1).data == {
        "warband": "ironjaws",
        "fighter": "varka",
        "discarded": "lesser",
    }
