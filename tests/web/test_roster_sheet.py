"""The Warcry roster sheet as fighter cards: each active fighter's profile, stat line,
weapons, runemarks, destiny, artefacts and trait in words, and a QR code of the live roster,
on the page and in its PDF on A4 and Letter (read back with pypdf, drawn with pypdfium2 to
PNGs in test-artifacts/screenshots/sheets/, the QR code decoded from the drawing)."""

import io
import re

import pypdfium2
import pytest
import segno
import zxingcpp
from pagetools import text, version
from pypdf import PdfReader

from tracker import config
from tracker.systems.warcry.packs import factions_imported

SHOTS = config.ROOT / "test-artifacts" / "screenshots" / "sheets"
CAMPAIGN, WARBAND = "ember-crown-sample", "crowmarch"
ROSTER = f"/c/{CAMPAIGN}/roster?warband={WARBAND}"
# The live roster as the test client reaches it (its host is "localhost").
LIVE = f"http://localhost{ROSTER}"
# The paper sizes in PostScript points (1/72 inch), width by height.
PAPERS = {"A4": (595, 842), "Letter": (612, 792)}


def fighter(_id, name, move, toughness, wounds, weapons, runemarks, points):
    """One fighter of a file in the community's warcry_data format."""
    keys = ("min_range", "max_range", "attacks", "strength", "dmg_hit", "dmg_crit", "runemark")
    return {
        "_id": _id,
        "name": name,
        "warband": "Gloamfeather Court",
        "subfaction": "",
        "grand_alliance": "chaos",
        "movement": move,
        "toughness": toughness,
        "wounds": wounds,
        "weapons": [dict(zip(keys, weapon)) for weapon in weapons],
        "runemarks": runemarks,
        "points": points,
    }


# The sample's Gloamfeather Court, its profiles given stat lines by a file of the
# community's format (our own numbers; the ids are the sample pack's, so the sample's
# fighters now have them).
GLOAM_FILE = [
    fighter(
        "gloam-matriarch",
        "Gloam Matriarch",
        5,
        4,
        22,
        [(0, 2, 4, 4, 2, 5, "talons"), (3, 9, 2, 3, 1, 3, "dusk bolt")],
        ["leader", "ember", "flyer"],
        210,
    ),
    fighter(
        "quill-skirmisher",
        "Quill Skirmisher",
        8,
        3,
        12,
        [(0, 1, 3, 3, 1, 4, "quill")],
        ["ember", "flyer"],
        110,
    ),
    fighter(
        "dusk-oracle",
        "Dusk Oracle",
        4,
        3,
        14,
        [(0, 3, 2, 3, 2, 4, "staff")],
        ["ember", "mystic"],
        130,
    ),
]


@pytest.fixture
def sheet(svc, sample):
    """The sample campaign, its Gloamfeather Court's profiles with stat lines."""
    data = factions_imported(GLOAM_FILE, "gloam.json")
    svc.append(sample, [{"type": "FactionsImported", "data": data}], version(svc, sample))
    return sample


def pdf_of(client, paper: str) -> bytes:
    page = client.get(f"/c/{CAMPAIGN}/pdf/roster?warband={WARBAND}&paper={paper}")
    assert page.status_code == 200 and page.mimetype == "application/pdf"
    return page.data


def words_of(pdf: bytes) -> str:
    pages = PdfReader(io.BytesIO(pdf)).pages
    return " ".join(" ".join(page.extract_text().split()) for page in pages)


def drawn(pdf: bytes, paper: str) -> list:
    """Each page of the PDF drawn at 100 dpi (PIL images); page 1 kept as a PNG to look at."""
    document = pypdfium2.PdfDocument(pdf)
    images = [page.render(scale=100 / 72).to_pil() for page in document]
    SHOTS.mkdir(parents=True, exist_ok=True)
    images[0].save(SHOTS / f"roster-{paper.lower()}-page-1.png")
    for number, image in enumerate(images[1:], 2):
        image.save(SHOTS / f"roster-{paper.lower()}-page-{number}.png")
    return images


def card(body: str, name: str) -> str:
    """The words of one fighter's card on the page (its section)."""
    found = re.search(
        rf'<section class="fighter-card[^"]*" id="fighter-{name}">(.*?)</section>', body, re.S
    )
    assert found, f"no card for {name}"
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split())


def test_a_fighter_of_a_community_profile_has_a_card_with_its_whole_profile_in_words(client, sheet):
    page = client.get(ROSTER)
    assert page.status_code == 200
    corvane = card(page.get_data(as_text=True), "corvane")
    assert "Corvane" in corvane and "Gloam Matriarch" in corvane and "leader" in corvane
    assert "Movement 5 Toughness 4 Wounds 22" in corvane
    assert "Weapon Range Attacks Strength Damage Critical damage" in corvane
    assert "talons 0–2 4 4 2 5" in corvane and "dusk bolt 3–9 2 3 1 3" in corvane
    assert "Runemarks leader, ember, flyer" in corvane
    assert "Destiny ●●● 3 of 3" in corvane
    assert (
        "Artefact of power Veil of Soot :" in corvane and "Command trait Ash-Sighted :" in corvane
    )
    assert "210 points" in corvane
    ilse = card(page.get_data(as_text=True), "ilse")
    assert "Quill Skirmisher · favoured warrior" in ilse and "Command trait Unbowed" in ilse
    assert "quill 0–1 3 3 1 4" in ilse and "Destiny ○○○ 0 of 3" in ilse
    ashwing = card(page.get_data(as_text=True), "ashwing")
    assert "Lesser artefact Smoke Pellet (" in ashwing
    # A fighter of its own, founded without a profile: its card says so, with no stat line.
    wren = card(page.get_data(as_text=True), "wren")
    assert "no profile" in wren and "Move" not in wren
    # No abbreviation is left: not the old sheet's "Fav." and "Pts".
    body = text(page)
    assert "Fav." not in body and "Pts" not in body
    assert re.search(r"\b8 fighters, \d+ points\.", body)


@pytest.mark.parametrize("paper", PAPERS)
def test_the_sheets_pdf_has_every_card_in_words_on_its_paper(client, sheet, paper):
    pdf = pdf_of(client, paper)
    reader = PdfReader(io.BytesIO(pdf))
    for page in reader.pages:
        width, height = (round(float(x)) for x in page.mediabox.upper_right)
        assert (width, height) == PAPERS[paper]
    words = words_of(pdf)
    for said in (
        "Corvane",
        "Gloam Matriarch",
        "Movement",
        "Toughness",
        "Wounds",
        "Critical damage",
        "talons",
        "dusk bolt",
        "Veil of Soot",
        "Ash-Sighted",
        "favoured warrior",
        "Smoke Pellet",
        "3 of 3",
    ):
        # Labels are printed in capitals (by the style sheet): read case aside.
        assert said.casefold() in words.casefold(), said
    assert "Fav." not in words and "Pts" not in words
    images = drawn(pdf, paper)
    width, height = images[0].size
    assert (
        abs(width - PAPERS[paper][0] * 100 / 72) < 2
        and abs(height - PAPERS[paper][1] * 100 / 72) < 2
    )


def test_the_sheet_carries_a_qr_code_of_the_live_roster_drawn_in_the_page(client, sheet):
    body = client.get(ROSTER).get_data(as_text=True)
    drawn_here = re.search(r'<svg viewBox="[^"]*" class="qr"><title>[^<]*</title>(.*?)</svg>', body)
    assert drawn_here, "no QR code drawn in the page"
    # The modules drawn are those of the live roster's address, as segno draws it.
    expected = segno.make(LIVE, error="m").svg_inline(border=2, omitsize=True, lineclass=None)
    modules = re.compile(r'stroke="#000" d="([^"]+)"')
    assert modules.findall(drawn_here.group(1)) == modules.findall(expected)
    assert LIVE.replace("&", "&amp;") in body
    # The sheet of an earlier moment still leads to the roster as it is now.
    earlier = client.get(ROSTER + "&at=100").get_data(as_text=True)
    figure = re.search(r'<figure class="live-qr">.*?</figure>', earlier, re.S).group(0)
    assert modules.findall(figure) == modules.findall(expected)
    assert "Scan for the live roster" in figure and "at=100" not in figure


@pytest.mark.parametrize("paper", PAPERS)
def test_the_pdfs_qr_code_reads_as_the_live_rosters_address(client, sheet, paper):
    pdf = pdf_of(client, paper)
    # Drawn as vector paths (the SVG), not a picture fetched from somewhere.
    first = PdfReader(io.BytesIO(pdf)).pages[0]
    assert not list(first.images)
    codes = zxingcpp.read_barcodes(drawn(pdf, paper)[0])
    assert [code.text for code in codes] == [LIVE]


@pytest.mark.parametrize("paper", PAPERS)
def test_no_card_is_split_between_two_pages(app, accounts, sheet, paper):
    """The PDF's pages as WeasyPrint lays them out: each card's boxes on one page."""
    from weasyprint import HTML

    from tracker.web.campaign import shared

    accounts.set_public(CAMPAIGN, True)  # read here without a login, as a sample is

    query = f"/c/{CAMPAIGN}/pdf/roster?warband={WARBAND}&paper={paper}"
    with app.test_request_context(query):
        html, _status = shared(CAMPAIGN, "roster", pdf=True, paper=paper)
    laid = HTML(string=html).render()
    pages_of = {}
    for number, page in enumerate(laid.pages):
        for box in boxes(page._page_box):
            element = getattr(box, "element", None)
            if element is not None and "fighter-card" in (element.get("class") or "").split():
                pages_of.setdefault(element.get("id"), set()).add(number)
    assert len(pages_of) == 8 and len(laid.pages) >= 2  # the cards go on to a second page
    split = {card: pages for card, pages in pages_of.items() if len(pages) > 1}
    assert not split


def boxes(box):
    yield box
    for child in getattr(box, "children", ()):
        yield from boxes(child)


@pytest.mark.catalogued
def test_the_sheet_reads_in_polish_to_a_polish_reader(client, sheet):
    client.set_cookie("lang", "pl")
    pdf = pdf_of(client, "A4")
    drawn(pdf, "A4-pl")
    words = words_of(pdf)
    for said in ("Obrażenia krytyczne", "Prawa Ręka Lidera", "3 z 3", "210 punktów"):
        assert said in words, said
    assert "Critical damage" not in words and "favoured warrior" not in words
