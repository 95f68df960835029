"""An id left empty on a form is made by the server from the name beside it, its letters
transliterated (python-slugify), never dropped; an id typed is kept as typed."""

import io
import re
from pathlib import Path

from pagetools import form, post_form, start_form, text, version

ROSTERS = Path(__file__).parents[1] / "systems" / "warcry" / "data"


def found(client, svc, name, warband=""):
    fields = {"warband": warband, "name": name, "player": "Dana", "faction": "Sea"}
    return post_form(client, "/c/c/", svc, "WarbandFounded", **fields)


def add_fighter(client, svc, name, fighter=""):
    return post_form(
        client,
        "/c/c/warband?warband=iron",
        svc,
        "FighterAdded",
        warband="iron",
        fighter=fighter,
        name=name,
        **{"runemarks-text": "ember"},
        points="90",
    )


def test_a_warband_founded_without_an_id_gets_one_spelled_from_its_name(client, two, svc):
    page = found(client, svc, "Škvárová smečka")
    assert page.status_code == 302, text(page)
    warband = svc.state("c").state["warbands"]["skvarova-smecka"]
    assert warband["name"] == "Škvárová smečka"
    assert "Škvárová smečka" in text(client.get("/c/c/"))


def test_a_fighter_added_without_an_id_gets_one_spelled_from_its_name(client, two, svc):
    assert add_fighter(client, svc, "Tomáš").status_code == 302
    assert svc.state("c").state["warbands"]["iron"]["fighters"]["tomas"]["name"] == "Tomáš"


def test_a_name_in_another_alphabet_gives_a_transliterated_id(client, two, svc):
    before = set(svc.state("c").state["warbands"])
    assert found(client, svc, "Жар Короны").status_code == 302
    (made,) = set(svc.state("c").state["warbands"]) - before
    assert made and made.isascii() and re.fullmatch(r"[a-z0-9][a-z0-9-]*", made)
    assert svc.state("c").state["warbands"][made]["name"] == "Жар Короны"


def test_an_id_typed_is_kept_as_typed(client, two, svc):
    assert found(client, svc, "Škvárová smečka", warband="ash").status_code == 302
    warbands = svc.state("c").state["warbands"]
    assert "ash" in warbands and "skvarova-smecka" not in warbands


def test_an_id_made_from_a_long_name_fits_its_field(client, svc):
    name = "Velmi dlouhé jméno hráčky, které se do id nevejde"
    page = start_form(client, "claim", "Long names", [("", name), ("", "Tobin")])
    assert page.status_code == 302, text(page)
    players = svc.store.event("long-names", 1).data["settings"]["players"]
    assert players[0] == {"id": "velmi-dlouhe-jmeno-hracky-ktere-se-do-id", "name": name}
    assert players[1] == {"id": "tobin", "name": "Tobin"}


def test_a_warband_founded_from_a_roster_file_without_an_id_gets_one_from_its_name(
    client, two, svc
):
    data = form("WarbandFounded", version(svc), warband="", name="Žhavé pece", player="Ana")
    data["roster"] = (io.BytesIO((ROSTERS / "reavers.rosz").read_bytes()), "reavers.rosz")
    page = client.post(
        "/c/c/upload/roster/dashboard", data=data, content_type="multipart/form-data"
    )
    assert page.status_code == 302, text(page)
    assert svc.state("c").state["warbands"]["zhave-pece"]["name"] == "Žhavé pece"


def test_the_id_boxes_are_optional_and_say_they_are_made_from_the_name(client, two):
    page = client.get("/c/c/").get_data(as_text=True)
    box = re.search(r'<input name="warband" id="warband-id"[^>]*>', page).group(0)
    assert " required" not in box and 'pattern="[a-z0-9][a-z0-9-]*"' in box
    assert 'placeholder="made from the name if left empty"' in box
    assert "data-slug-to" not in page
