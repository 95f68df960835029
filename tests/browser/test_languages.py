"""Every page of every sample read on a phone (390 px) in Polish, Czech and Italian, and the
Warcry aftermath walked step by step in each: no English word is left but proper names, and
the page fits the phone as it does in English (words run longer in these languages: nothing
scrolls sideways, no touch target shrinks, the header stays one row and the next step stays
inside the first screen).

An English word is a word of the catalogue's English texts that the language's own
translations never use (so a word both languages share, a name or a number, is not counted).
Screenshots of each page in each language go to test-artifacts/screenshots/languages/.
"""

import json
import re

import pytest
from babel.messages.pofile import read_po
from crawling import crawl, made_organiser, sample_copy, signed_up, tag_of
from pagetools import strings_in
from phones import PHONE, first_screen, misfits

from tracker import config
from tracker.systems import i18n

SHOTS = config.ROOT / "test-artifacts" / "screenshots" / "languages"
LANGUAGES = ("pl", "cs", "it")
SAMPLES = {
    "warcry-ember-crown": "ember-crown-sample",
    "claim-tavern-nights": "claim-tavern-nights",
    "hellas-duel": "hellas-duel",
    "hellas-three-crowns": "hellas-three-crowns",
    "leaders-expert": "salt-vs-moth",
    "leaders-standard": "ember-vs-grey",
    "monsters-twin-peaks-feud": "twin-peaks-feud",
}
PER_PAGE = 1  # pages of one name (one template) read once in each language
ORGANISER, PASSWORD = "polyglot", "a long enough secret"
WORD = re.compile(r"[^\W\d_]{3,}")


def words_of(text) -> set[str]:
    return set(WORD.findall(str(text)))


def english_words(code: str) -> set[str]:
    """Words of the English texts that the language's translations never use."""
    path = i18n.CATALOGUES / code / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as f:
        catalogue = read_po(f, locale=code)
    english, own = set(), set()
    for message in catalogue:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in ids:
            english |= words_of(re.sub(r"%\(\w+\)\w|\{\w+\}|<[^>]+>", " ", text or ""))
        for text in strings:
            own |= words_of(text or "")
    return english - own


def proper_words() -> set[str]:
    """The words of every name typed in the samples and of the content packs."""
    names = set()
    for sample in config.SAMPLES.glob("*.jsonl"):
        for line in sample.read_text().splitlines():
            names |= strings_in(json.loads(line).get("data", {}))
    for pack in config.PACKAGE.glob("systems/*/content/**/*.json"):
        names |= strings_in(json.loads(pack.read_text()))
    return {w for name in names for w in words_of(name)} | {ORGANISER}


@pytest.fixture(scope="module")
def reader(browser, server, server_db):
    """A logged-in phone of the organiser of every sample, and of a copy of the Warcry sample
    for each language (each walks its own aftermath)."""
    context, page = signed_up(browser, server, ORGANISER, PASSWORD, PHONE)
    copies = [
        sample_copy(server_db, "warcry-ember-crown.jsonl", f"ember-{code}") for code in LANGUAGES
    ]
    made_organiser(server_db, ORGANISER, [*SAMPLES.values(), *copies])
    yield page
    context.close()


def in_language(page, server, code):
    page.context.add_cookies([{"name": "lang", "value": code, "url": server}])


def english_on(page, english: set[str], names: set[str], tag: str) -> list[str]:
    """The English words of the page now open (its code and hashes aside); a screenshot."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_load_state("load")
    page.screenshot(path=str(SHOTS / f"{tag}.png"), full_page=True)
    text = page.evaluate(
        """() => {
            const copy = document.body.cloneNode(true);
            copy.querySelectorAll('code, pre, script, style, template, [hidden]')
                .forEach(e => e.remove());
            const shown = [...copy.querySelectorAll('[placeholder], [title], [aria-label], [alt]')]
                .map(e => [e.placeholder, e.title, e.getAttribute('aria-label'), e.alt].join(' '));
            return copy.innerText + ' ' + shown.join(' ');
        }"""
    )
    assert page.evaluate("document.documentElement.lang") == tag.split("-")[0]
    text = re.sub(r"https?://\S+", " ", text)  # addresses
    left = sorted((words_of(text) & english) - names)
    found = [f"{page.url}: {' '.join(left)}"] if left else []
    return found + misfits(page) + first_screen(page)  # as an English page fits


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("sample", SAMPLES)
def test_every_page_of_the_sample_reads_in_the_language(reader, server, sample, code):
    page, english, names = reader, english_words(code), proper_words()
    in_language(page, server, code)
    found = crawl(
        page,
        server,
        SAMPLES[sample],
        PER_PAGE,
        lambda page, target: english_on(page, english, names, tag_of(target, code)),
    )
    assert not found, "\n".join(found)


@pytest.mark.parametrize("code", ("en", *LANGUAGES))
def test_the_quest_maps_point_names_stand_apart_on_a_wide_screen(reader, server, code):
    """On a desktop's quest map each point's name sits under its circle: in every language
    (Polish names run longer than English ones) no name runs into its neighbour's."""
    page = reader
    in_language(page, server, code)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{server}/c/{SAMPLES['warcry-ember-crown']}/")
    overlaps = page.evaluate(
        """() => [...document.querySelectorAll('.quest-map svg.horizontal')].flatMap(map => {
            const boxes = [...map.querySelectorAll('text.label')].map(label => {
                const box = label.getBoundingClientRect();
                return {name: label.textContent, left: box.left, right: box.right, top: box.top};
            });
            return boxes.flatMap((a, i) => boxes.slice(i + 1)
                .filter(b => Math.abs(a.top - b.top) < 2 && a.left < b.right && b.left < a.right)
                .map(b => a.name + ' / ' + b.name));
        })"""
    )
    page.set_viewport_size(PHONE)
    assert page.locator(".quest-map svg.horizontal text.label").count() >= 12
    assert not overlaps, overlaps


@pytest.mark.parametrize("code", ("en", *LANGUAGES))
def test_the_quest_maps_point_names_clear_the_warbands_on_a_phone(reader, server, code):
    """On a phone's quest map (top to bottom) a point's name stops short of the warbands
    standing on it and of the map's edge: in every language (Italian names run longest) no
    name runs under a marker or out of the map, and the whole name is the point's title."""
    page = reader
    in_language(page, server, code)
    page.goto(f"{server}/c/{SAMPLES['warcry-ember-crown']}/")
    under = page.evaluate(
        """() => [...document.querySelectorAll('.quest-map svg.vertical')].flatMap(map => {
            const markers = [...map.querySelectorAll('.marker circle')]
                .map(circle => circle.getBoundingClientRect());
            const edge = map.getBoundingClientRect().right;
            return [...map.querySelectorAll('text.label')].filter(label => {
                const box = label.getBoundingClientRect();
                return box.right > edge || markers.some(m => box.left < m.right
                    && m.left < box.right && box.top < m.bottom && m.top < box.bottom);
            }).map(label => label.textContent);
        })"""
    )
    assert page.locator(".quest-map svg.vertical .marker").count() >= 2
    assert not under, under
    titles = page.locator(".quest-map svg.vertical .point circle title").all_text_contents()
    assert len(titles) >= 12 and all(". " in title for title in titles)


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_warcry_aftermath_reads_in_the_language_at_every_step(reader, server, code):
    """Crowmarch owes the aftermath of battle b9 in this language's copy of the sample:
    every step answered (the server rolls the dice), each read for English."""
    page, english, names = reader, english_words(code), proper_words()
    in_language(page, server, code)
    page.goto(f"{server}/c/ember-{code}/wizard?warband=crowmarch")
    page.on("dialog", lambda dialog: dialog.accept())  # "Decline the reward for good?"
    found = []
    for turn in range(60):
        found += english_on(page, english, names, f"{code}-wizard-{turn:02d}")
        if page.locator("[data-aftermath-done]").count():
            break
        if not answer_wizard(page):
            raise AssertionError("the wizard offered nothing to do: " + page.inner_text("main"))
    else:
        raise AssertionError("the wizard did not end")
    assert not found, "\n".join(found)


def answer_wizard(page) -> bool:
    """What the wizard asks now, answered by the form's own fields (never by its words):
    the server rolls the dice, a find goes to the fighter the page proposes, a reward is
    taken as proposed, and the step is completed."""
    every = page.locator("form.roll-all")  # a step's rolls, all on one form
    if every.count():
        every.first.locator("button[value=server]").click()
        return True
    roll = page.locator("form.roll")
    next_step = page.locator("form.next-step button:not([name=drop-kept])")
    if roll.count() and not (roll.first.locator("input[name=extra]").count() and next_step.count()):
        roll.first.locator("button[value=server]").click()
        return True
    for kind in ("ArtefactGiven", "ArtefactOfPowerGained", "CommandTraitGained"):
        form = page.locator(f"main form:has(input[name=type][value={kind}])")
        if form.count():
            form.first.locator("button[type=submit]").last.click()
            return True
    if next_step.count():
        next_step.last.click()
        return True
    return False
