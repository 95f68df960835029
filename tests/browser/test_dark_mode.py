"""Every page of every game's sample, light and dark (the system's setting, emulated in
Chromium), read for contrast: each visible text's colour against its background gives at least
WCAG's 4.5:1 (3:1 for large text), at 1280 px and on a phone (390 x 844). The rules are in
contrast.js; what SVG boards and maps draw is a picture and not counted.

One server, one browser and one organiser of every sample (so every form is shown). Each
campaign is crawled from its dashboard, each page once; screenshots of each page's first screen
go to test-artifacts/screenshots/dark/ (light and dark, both widths)."""

import re
from pathlib import Path

import pytest
from crawling import SAMPLES, crawl, organiser_of_the_samples, tag_of

from tracker import config

SHOTS = config.ROOT / "test-artifacts" / "screenshots" / "dark"
CHECK = (Path(__file__).parent / "contrast.js").read_text(encoding="utf-8")
SCHEMES = ("light", "dark")
SIZES = ((1280, 900), (390, 844))
ORGANISER, PASSWORD = "shade", "a long enough secret"
BACKGROUND = "() => getComputedStyle(document.body).backgroundColor"


def faint(page, scheme: str, tag: str) -> list[str]:
    """Each text too faint on the page now open, at each size (a screenshot of each)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    found = []
    page.wait_for_load_state("load")
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(30)
        result = page.evaluate(CHECK)
        page.screenshot(path=str(SHOTS / f"{scheme}-{tag or 'front'}-{width}.png"))
        assert result["checked"], f"{page.url}: no text read"
        found += [
            f"{page.url} at {width} px: {f['ratio']} < {f['least']}: {f['where']} "
            f"({f['colour']} on {f['background']}) {f['text']!r}"
            for f in result["found"][:8]
        ]
    return found


def luminance(rgb: str) -> float:
    red, green, blue = (int(v) for v in re.findall(r"\d+", rgb)[:3])
    return (0.2126 * red + 0.7152 * green + 0.0722 * blue) / 255


@pytest.fixture(scope="module")
def organiser(browser, server, server_db):
    context, page = organiser_of_the_samples(
        browser, server, server_db, ORGANISER, PASSWORD, {"width": 1280, "height": 900}
    )
    yield page
    context.close()


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("sample", SAMPLES)
def test_every_page_of_the_sample_reads_clearly_light_and_dark(organiser, server, sample, scheme):
    page = organiser
    page.emulate_media(color_scheme=scheme)
    page.goto(f"{server}/c/{SAMPLES[sample]}/")
    shade = luminance(page.evaluate(BACKGROUND))
    assert shade < 0.2 if scheme == "dark" else shade > 0.9  # the page follows the setting
    found = crawl(
        page,
        server,
        SAMPLES[sample],
        1,
        lambda page, target: faint(page, scheme, tag_of(target)),
        prepare=lambda page: page.set_viewport_size({"width": 1280, "height": 900}),
    )
    assert not found, "\n".join(found)


@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_pages_outside_a_campaign_and_the_offline_notes_read_clearly(
    browser, organiser, server, scheme
):
    page, found = organiser, []
    page.emulate_media(color_scheme=scheme)
    for target in ("/", "/account", "/offline", "/c/no-such-campaign/"):
        page.goto(server + target)
        found += faint(page, scheme, "site-" + tag_of(target))
    # Every note the service worker may reveal, shown at once on a campaign page.
    page.goto(f"{server}/c/ember-crown-sample/")
    page.evaluate(
        """() => {
          document.documentElement.setAttribute("data-offline", "");
          document.documentElement.setAttribute("data-kept", "");
          document.getElementById("offline-sent").hidden = false;
          const refused = document.getElementById("offline-refused");
          refused.querySelector("ul").innerHTML = "<li>A refusal, in words.</li>";
          refused.hidden = false;
        }"""
    )
    found += faint(page, scheme, "offline-notes")
    newcomer = browser.new_context(color_scheme=scheme)
    fresh = newcomer.new_page()
    for target in ("/", "/login", "/signup"):
        fresh.goto(server + target)
        found += faint(fresh, scheme, "newcomer-" + tag_of(target))
    newcomer.close()
    assert not found, "\n".join(found)
