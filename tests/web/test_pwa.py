"""The tracker as an app on a phone, and its pages' quieter parts: the favicon, the manifest
and its icons, the service worker's file and scope, the offline page in the reader's
language; the witness folded away but on the audit page and printed sheets."""

import io
import json
import re

from PIL import Image


def test_the_favicon_answers_and_every_page_links_an_icon_and_the_manifest(client, sample):
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.mimetype == "image/x-icon"
    assert Image.open(io.BytesIO(icon.data)).format == "ICO"
    for path in ("/", f"/c/{sample}/", f"/c/{sample}/audit", "/login"):
        html = client.get(path).get_data(as_text=True)
        assert '<link rel="icon" href="/favicon.ico"' in html, path
        assert 'href="/static/icon.svg" type="image/svg+xml"' in html, path
        assert '<link rel="manifest" href="/manifest.webmanifest">' in html, path
        assert '<meta name="color-scheme" content="light dark">' in html, path


def test_the_manifest_is_json_with_icons_that_exist_at_their_sizes(client):
    answer = client.get("/manifest.webmanifest")
    assert answer.status_code == 200 and answer.mimetype == "application/manifest+json"
    manifest = json.loads(answer.get_data(as_text=True))
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert manifest["name"] and manifest["short_name"]
    assert manifest["theme_color"].startswith("#") and manifest["background_color"].startswith("#")
    sizes = set()
    for icon in manifest["icons"]:
        image = client.get(icon["src"])
        assert image.status_code == 200, icon["src"]
        if icon["type"] == "image/png":
            width, height = Image.open(io.BytesIO(image.data)).size
            assert icon["sizes"] == f"{width}x{height}"
            sizes.add(width)
        else:
            assert icon["type"] == "image/svg+xml" and b"<svg" in image.data
    assert {192, 512} <= sizes


def test_the_manifest_speaks_the_readers_language(client):
    client.set_cookie("lang", "pl")
    manifest = client.get("/manifest.webmanifest").get_json()
    assert manifest["lang"] == "pl" and manifest["name"] != "Campaign tracker"


def test_the_service_worker_is_script_served_for_the_whole_site(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200 and answer.mimetype == "text/javascript"
    assert answer.headers["Service-Worker-Allowed"] == "/"
    assert "no-cache" in answer.headers["Cache-Control"]
    script = answer.get_data(as_text=True)
    assert 'addEventListener("fetch"' in script
    app = client.get("/static/app.js").get_data(as_text=True)
    assert 'register("/sw.js", {scope: "/"})' in app


def test_the_offline_page_is_in_the_readers_language(client):
    english = client.get("/offline")
    assert english.status_code == 200 and english.headers["Content-Language"] == "en"
    assert "You are offline" in english.get_data(as_text=True)
    client.set_cookie("lang", "cs")
    czech = client.get("/offline")
    assert czech.headers["Content-Language"] == "cs"
    assert "You are offline" not in czech.get_data(as_text=True)


def test_the_offline_page_leaves_the_flash_to_the_page_it_was_meant_for(client):
    """The service worker fetches the offline page when it installs, beside the pages a person
    opens: it must neither take the "Recorded: ..." message a post left for the next page nor
    write the session (its cookie, as it was before the post, would put the message out)."""
    with client.session_transaction() as session:
        session["_flashes"] = [("message", "Recorded: a fighter joined")]
    kept = client.get("/offline")
    assert "Recorded: a fighter joined" not in kept.get_data(as_text=True)
    assert "Set-Cookie" not in kept.headers
    page = client.get("/")
    assert "Recorded: a fighter joined" in page.get_data(as_text=True)


def test_every_page_carries_its_offline_notes_hidden(client, sample):
    html = client.get(f"/c/{sample}/").get_data(as_text=True)
    notes = dict(re.findall(r'id="(offline-[a-z]+)"([^>]*)>', html))
    assert set(notes) == {"offline-note", "offline-kept", "offline-sent", "offline-refused"}
    assert all(attributes.endswith(" hidden") for attributes in notes.values())


def test_the_witness_is_folded_on_a_page_and_whole_on_the_audit_page(client, sample, svc):
    version, head = svc.store.head(sample)
    page = client.get(f"/c/{sample}/").get_data(as_text=True)
    folded = page[page.index('<footer class="witness">') :]
    assert folded.index("<details") < folded.index(head)
    assert f"<summary>Witness as of event {version}: log {head[:8]}…</summary>" in folded
    audit = client.get(f"/c/{sample}/audit").get_data(as_text=True)
    whole = audit[audit.index('<footer class="witness">') :]
    assert "<details" not in whole.split("</footer>")[0] and head in whole
    roster = client.get(f"/c/{sample}/roster?warband=ironjaws").get_data(as_text=True)
    line = roster[roster.index('class="witness-line"') :].split("</p>")[0]
    assert f"as of event {version}, log hash" in line and "<br>" not in line


def test_the_front_page_lists_no_head_hash(client, sample, svc):
    front = client.get("/").get_data(as_text=True)
    assert "Head hash" not in front
    assert svc.store.head(sample)[1][:12] not in front
