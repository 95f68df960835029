"""A Warcry campaign's Content page and its files: the community's fighter data uploaded by
the organiser, homebrew profiles recorded from the page (used, voided, seen at ?at=), and a
warband founded from a roster file."""

import io
from pathlib import Path

import pytest
from pagetools import form, member, post_form, text, version

DATA = Path(__file__).parents[1] / "systems" / "warcry" / "data"


def upload_content(client, svc, name="three-factions.json", body=None, campaign="c"):
    content = body if body is not None else (DATA / name).read_bytes()
    data = form("FactionsImported", version(svc, campaign))
    data["content-file"] = (io.BytesIO(content), name)
    return client.post(
        f"/c/{campaign}/upload/content/content", data=data, content_type="multipart/form-data"
    )


def upload_roster(client, svc, name, **fields):
    data = form("WarbandFounded", version(svc), warband="ash", name="Ash", player="Ana")
    data.update(fields)
    data["roster"] = (io.BytesIO((DATA / name).read_bytes()), name)
    return client.post(
        "/c/c/upload/roster/dashboard", data=data, content_type="multipart/form-data"
    )


KILN = {
    "faction": "cinderborn-reavers",
    "profile": "kiln-warden",
    "name": "Kiln Warden",
    "runemarks-text": "ember, bulwark",
    "runemarks-present": "1",
    "points": "150",
    "movement": "4",
    "toughness": "5",
    "wounds": "24",
    "weapons-0-runemark": "hammer",
    "weapons-0-min_range": "0",
    "weapons-0-max_range": "2",
    "weapons-0-attacks": "3",
    "weapons-0-strength": "5",
    "weapons-0-dmg_hit": "2",
    "weapons-0-dmg_crit": "5",
    "weapons-1-runemark": "",
}


def test_the_content_page_lists_factions_and_profiles_and_is_in_the_nav(client, two):
    page = client.get("/c/c/content")
    assert page.status_code == 200
    body = text(page)
    assert "Cinderborn Reavers" in body and "Reaver Chieftain" in body and "The Ember Crown" in body
    assert 'href="/c/c/content"' in client.get("/c/c/").get_data(as_text=True)


def test_the_organiser_uploads_the_communitys_fighter_data_with_its_stat_lines(client, two, svc):
    before = version(svc)
    page = upload_content(client, svc)
    assert page.status_code == 302, text(page)
    assert version(svc) == before + 1
    body = text(client.get("/c/c/content"))
    assert "Cinder Hounds" in body and "Soot Slinger" in body
    assert "Move 4 · Toughness 3 · Wounds 12" in body
    assert "sling: Range 3–10, Attacks 2, Strength 3, Damage 1/3" in body
    audit = text(client.get("/c/c/audit"))
    assert (
        "The organiser imported 3 factions (8 fighter profiles) from three-factions.json" in audit
    )


def test_a_content_file_with_a_wrong_field_is_refused_whole_naming_fighter_and_field(
    client, two, svc
):
    before = version(svc)
    page = upload_content(client, svc, "broken-toughness.json")
    assert page.status_code == 422
    assert "fighter 5 (Wick Thrall): the field toughness" in text(page)
    assert version(svc) == before
    page = upload_content(client, svc, "not.json", body=b"\xff\xfe not json")
    assert page.status_code == 422 and "not a JSON file in UTF-8" in text(page)


def test_the_upload_reads_a_file_larger_than_other_requests_may_be(client, two, svc):
    padded = (DATA / "three-factions.json").read_bytes() + b" " * (3 * 1024 * 1024)
    page = upload_content(client, svc, "big.json", body=padded)
    assert page.status_code == 302
    page = client.post("/c/c/", data={"name": "x" * (3 * 1024 * 1024)})
    assert page.status_code == 413


def test_a_player_may_neither_upload_content_nor_record_a_profile(app, two, svc):
    player = member(app, "c", "pia", side="iron")
    assert "The organiser's changes" not in text(player.get("/c/c/content"))
    before = version(svc)
    assert upload_content(player, svc).status_code == 403
    page = post_form(player, "/c/c/content", svc, "ProfileDefined", **KILN)
    assert page.status_code == 403 and "only the organiser" in text(page)
    assert version(svc) == before


def test_a_homebrew_profile_is_used_shown_on_the_sheet_voided_and_seen_at_any_moment(
    client, two, svc
):
    page = post_form(client, "/c/c/content", svc, "ProfileDefined", **KILN)
    assert page.status_code == 302, text(page)
    defined = version(svc)
    body = text(client.get("/c/c/content"))
    assert "Kiln Warden" in body and "hammer: Range 0–2, Attacks 3, Strength 5" in body
    assert "Kiln Warden" not in text(client.get(f"/c/c/content?at={defined - 1}"))

    svc.append(
        "c",
        [
            {
                "type": "WarbandFounded",
                "data": {
                    "warband": "kiln",
                    "name": "Kilns",
                    "player": "Kai",
                    "faction": "cinderborn-reavers",
                },
            }
        ],
        version(svc),
    )
    options = text(client.get("/c/c/warband?warband=kiln"))
    assert "Kiln Warden: ember, bulwark, 150 points; Move 4, Toughness 5, Wounds 24" in options
    page = post_form(
        client,
        "/c/c/warband?warband=kiln",
        svc,
        "FighterAdded",
        warband="kiln",
        fighter="kw",
        name="Old Kiln",
        profile="kiln-warden",
    )
    assert page.status_code == 302, text(page)
    added = version(svc)
    sheet = text(client.get("/c/c/roster?warband=kiln"))
    assert "Movement 4 Toughness 5 Wounds 24" in sheet
    assert "Critical damage hammer 0–2 3 5 2 5" in sheet
    assert "Move 4 · Toughness 5" in text(client.get("/c/c/warband?warband=kiln"))
    pdf = client.get("/c/c/pdf/roster?warband=kiln&paper=A4")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")

    # A profile a fighter came from is not voided alone: the page asks about both first;
    # once the fighter is voided, it can be.
    void = form("EventVoided", version(svc), version=str(defined), reason="a slip")
    page = client.post("/c/c/audit", data=void)
    assert page.status_code == 200 and version(svc) == added
    assert "Old Kiln" in text(page) and "Void all (2)" in text(page)
    client.post("/c/c/audit", data=form("EventVoided", added, version=str(added), reason="x"))
    void = form("EventVoided", version(svc), version=str(defined), reason="not ours after all")
    assert client.post("/c/c/audit", data=void).status_code == 302
    assert "Kiln Warden" not in text(client.get("/c/c/content"))
    assert "Kiln Warden" in text(client.get(f"/c/c/content?at={defined}"))


def test_a_warband_is_founded_from_a_roster_file(client, two, svc):
    before = version(svc)
    page = upload_roster(client, svc, "reavers.rosz")
    assert page.status_code == 302, text(page)
    assert version(svc) == before + 6
    fighters = svc.state("c").state["warbands"]["ash"]["fighters"]
    assert fighters["reaver-chieftain"]["leader"] and fighters["kiln-wanderer"]["points"] == 75


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("two-leaders.ros", "the roster's fighter Young Lamp is refused: at most one fighter"),
        ("other-game.ros", "another game (Starfall Skirmish), not Warcry"),
        ("bomb.ros", "declares a document type or entities"),
    ],
)
def test_a_roster_file_that_cannot_found_a_warband_is_refused_in_words(
    client, two, svc, name, words
):
    before = version(svc)
    page = upload_roster(client, svc, name)
    assert page.status_code == 422
    assert words in text(page)
    assert version(svc) == before


def test_the_organiser_records_a_faction_territory_artefact_and_quest_from_the_page(
    client, two, svc
):
    faction = {"faction": "kiln-born", "name": "Kiln-born", "runemark": "kiln", "summary": ""}
    territory = {"territory": "salt-pans", "name": "The Salt Pans", "effect": "Glitters."}
    artefact = {
        "quest": "ember-crown",
        "artefact": "kiln-key",
        "name": "Kiln Key",
        "effect": "Opens.",
    }
    for type_, fields in (
        ("FactionDefined", faction),
        ("TerritoryDefined", territory),
        ("ArtefactDefined", artefact),
    ):
        page = post_form(client, "/c/c/content", svc, type_, **fields)
        assert page.status_code == 302, text(page)
    kinds = ["start", "plain", "convergence", "artefact", "convergence", "trait"]
    kinds += ["plain", "convergence", "artefact", "trait", "plain", "goal"]
    quest = {"quest": "kiln-road", "title": "The Kiln Road", "runemark": "kiln"}
    for i, kind in enumerate(kinds):
        quest[f"map-{i}-name"], quest[f"map-{i}-kind"] = f"Kiln {i + 1}", kind
    for table in ("artefacts_of_power", "command_traits"):
        quest[f"{table}-0-id"], quest[f"{table}-0-name"] = "first", "First"
        quest[f"{table}-0-effect"] = "Does a thing."
        quest[f"{table}-1-id"] = quest[f"{table}-1-name"] = quest[f"{table}-1-effect"] = ""
    quest["reward-text"], quest["reward-glory"] = "Warm hands.", "2"
    page = post_form(client, "/c/c/content", svc, "QuestDefined", **quest)
    assert page.status_code == 302, text(page)
    body = text(client.get("/c/c/content"))
    assert "Kiln-born (runemark kiln)" in body and "The Salt Pans : Glitters." in body
    assert "Kiln Key (Opens.)" in body and "The Kiln Road (runemark kiln)" in body
    quest["map-11-kind"] = "plain"
    page = post_form(client, "/c/c/content", svc, "QuestDefined", **quest)
    assert page.status_code == 422 and "must begin at a start and end at the goal" in text(page)


def test_a_file_form_without_its_csrf_token_is_refused_and_writes_nothing(tmp_path, two, svc):
    from logins import csrf_of, logged_in

    from tracker.web import create_app

    guarded = create_app({"DATABASE": svc.store.target, "TESTING": True, "SECRET_KEY": "t"})
    client = logged_in(guarded, "org", "organiser-password")
    before = version(svc)
    page = upload_content(client, svc)
    assert page.status_code == 400 and "This form has expired" in text(page)
    assert version(svc) == before
    token = csrf_of(client.get("/c/c/content"))
    data = form("FactionsImported", before, csrf_token=token)
    data["content-file"] = (io.BytesIO((DATA / "three-factions.json").read_bytes()), "t.json")
    page = client.post("/c/c/upload/content/content", data=data, content_type="multipart/form-data")
    assert page.status_code == 302 and version(svc) == before + 1


def test_the_upload_limit_is_set_from_the_environment_and_refused_in_words(
    monkeypatch, tmp_path, two, svc
):
    from tracker.web import create_app

    monkeypatch.setenv("TRACKER_UPLOAD_LIMIT", "2048")
    limited = create_app(
        {
            "DATABASE": svc.store.target,
            "TESTING": True,
            "SECRET_KEY": "t",
            "WTF_CSRF_ENABLED": False,
        }
    )
    client = limited.test_client()
    client.post("/login", data={"name": "org", "password": "organiser-password"})
    before = version(svc)
    page = upload_content(client, svc)  # the file is larger than 2 kB
    assert page.status_code == 413 and "larger than the 2 kB" in text(page)
    assert version(svc) == before
