"""No word a user reads escapes the catalogue: every page of every sample, and the answer to
each of their forms sent empty, rendered in a pseudo-language that brackets every
translated text. What is left outside the brackets must be a proper name (a name typed in
the sample's log or a content pack's), a number, a hash or a command: any other word was
never translated."""

import gettext
import json
import re
from html.parser import HTMLParser
from urllib.parse import urldefrag, urlparse

import flask_babel
import pytest
from pagetools import strings_in

from tracker import config, systems
from tracker.systems import i18n
from tracker.web import language

OPEN, CLOSE = "⟦", "⟧"
WORD = r"[^\W\d_]{2,}"
LANGUAGE = "pl"
LIMIT = 600
# Words a page may show untranslated: the product's name, formats, the languages' own names.
ALLOWED = {"Tracker", "PDF", "API", "JSON", "JSONL", "CSV", "QR", "OpenAPI", "HTTP", "URL"}
ALLOWED |= {word for name in i18n.LANGUAGES.values() for word in name.split()}
# The games' own names are proper names.
ALLOWED |= {word for s in systems.registry().values() for word in s.title.split()}


class Pseudo(gettext.NullTranslations):
    """Every text in brackets: what a page shows outside them was never translated. A
    content pack's names read in LANGUAGE, where the pack gives them."""

    language = LANGUAGE

    def gettext(self, message):
        return f"{OPEN}{message}{CLOSE}"

    def ngettext(self, singular, plural, n):
        return f"{OPEN}{singular if n == 1 else plural}{CLOSE}"

    def pgettext(self, context, message):
        return self.gettext(message)

    def npgettext(self, context, singular, plural, n):
        return self.ngettext(singular, plural, n)

    ugettext, ungettext = gettext, ngettext
    upgettext, unpgettext = pgettext, npgettext


@pytest.fixture
def pseudo(monkeypatch):
    found = Pseudo()
    monkeypatch.setattr(flask_babel.Domain, "get_translations", lambda self: found)
    monkeypatch.setattr(language, "get_translations", lambda: found)
    return found


class Words(HTMLParser):
    """The text a reader reads on a page, in order (a translated text may hold markup, so
    the brackets are followed across the page's text, code included, while the words of
    script, style and code are not looked at), the attributes a browser shows or speaks;
    and its links and forms, to go on."""

    SHOWN = ("placeholder", "title", "aria-label", "alt")
    UNREAD = ("script", "style", "code", "pre", "template", "time")  # time: Babel writes it

    def __init__(self):
        super().__init__()
        self.stream: list[tuple[str, bool]] = []  # (text, read by the reader)
        self.attributes: list[str] = []
        self.links: list[str] = []
        self.forms: list[tuple[str, dict]] = []
        self._skip = 0

    @property
    def texts(self) -> list[str]:
        """What the reader reads outside the brackets: the page's text, then each attribute."""
        out, depth = [], 0
        for text, read in self.stream:
            for char in text:
                if char == OPEN:
                    depth += 1
                elif char == CLOSE:
                    depth = max(depth - 1, 0)
                elif depth == 0 and read:
                    out.append(char)
            out.append(" ")
        return ["".join(out)] + [outside_brackets(a) for a in self.attributes]

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in self.UNREAD:
            self._skip += 1
        self.attributes += [attrs[name] for name in self.SHOWN if attrs.get(name)]
        if tag == "input" and attrs.get("type") in ("submit", "button") and attrs.get("value"):
            self.attributes.append(attrs["value"])
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        if tag == "form" and (attrs.get("method") or "").lower() == "post":
            self.forms.append((attrs.get("action") or "", {}))
        elif tag in ("input", "select", "textarea") and self.forms and attrs.get("name"):
            keep = attrs["name"] in ("csrf_token", "type", "expected_version", "version")
            self.forms[-1][1][attrs["name"]] = attrs.get("value", "") if keep else ""

    def handle_endtag(self, tag):
        if tag in self.UNREAD and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        self.stream.append((data, not self._skip))


def outside_brackets(text: str) -> str:
    """The text with every bracketed part (brackets may nest: a message in a message) cut."""
    out, depth = [], 0
    for char in text:
        if char == OPEN:
            depth += 1
        elif char == CLOSE:
            depth = max(depth - 1, 0)
        elif depth == 0:
            out.append(char)
    return "".join(out)


def proper_names(sample_lines: list[str]) -> list[str]:
    """Every text typed into the sample's log (and who typed it), every name of the content
    packs (a text of four words at most: a pack's summaries are prose), and every text the
    packs give in the pseudo-language's language (LANGUAGE)."""
    names = set()
    for line in sample_lines:
        record = json.loads(line)
        names |= strings_in(record.get("data", {})) | {record.get("meta", {}).get("actor", "")}
    for pack in config.PACKAGE.glob("systems/*/content/**/*.json"):
        content = json.loads(pack.read_text())
        names |= {text for text in strings_in(content) if len(text.split()) <= 4}
        names |= versions_in(content)
    return sorted(n for n in names if len(n) > 1)


def versions_in(value) -> set[str]:
    if isinstance(value, dict):
        found = strings_in((value.get("i18n") or {}).get(LANGUAGE, {}))
        return found | {s for k, v in value.items() if k != "i18n" for s in versions_in(v)}
    if isinstance(value, list):
        return {s for v in value for s in versions_in(v)}
    return set()


def marked(word: str, names: list[str]) -> bool:
    """A figure's or a card's mark made from a name: its first letters ("Bea", "StoG")."""
    return len(word) <= 4 and any(
        part.startswith(word[:3]) for name in names for part in name.split()
    )


def untranslated(texts: list[str], names: list[str]) -> set[str]:
    """Each word outside the brackets that is not a word of a name, with the text around
    it."""
    name_words = {w for n in names for w in re.findall(WORD, n)}
    left = set()
    for text in texts:
        rest = re.sub(r"\b[0-9a-f]{16,}\b", " ", text)  # hashes
        rest = re.sub(r"https?://\S+", " ", rest)  # addresses
        rest = re.sub(r"\b[a-z0-9]+(?:-[a-z0-9]+)+\b", " ", rest)  # ids
        for found in re.finditer(WORD, rest):
            word = found.group()
            cut = rest[found.end() : found.end() + 1] == "…" and any(
                w.startswith(word) for w in name_words
            )  # a name cut short to fit
            if (
                word not in ALLOWED
                and word not in name_words
                and not marked(word, names)
                and not cut
            ):
                around = " ".join(rest[found.start() - 30 : found.end() + 30].split())
                left.add(f"{word} «{around}»")
    return left


def read(client, url, names, **how):
    answer = client.post(url, **how) if "data" in how else client.get(url)
    words = Words()
    if answer.mimetype == "text/html":
        words.feed(answer.get_data(as_text=True))
    return answer, words, untranslated(words.texts, names)


def within(link: str, inside: str) -> bool:
    parts = urlparse(link)
    return (
        link.startswith("/")
        and not parts.netloc
        and (parts.path.startswith(inside) or not parts.path.startswith("/c/"))
        and "at=" not in parts.query
        and "upto=" not in parts.query
        and "/pdf/" not in parts.path
        and not parts.path.startswith(("/static/", "/api/", "/language"))
    )


@pytest.mark.catalogued
@pytest.mark.parametrize("sample", sorted(p.name for p in config.SAMPLES.glob("*.jsonl")))
def test_every_word_of_every_page_of_a_sample_and_its_forms_goes_through_the_catalogue(
    client, svc, pseudo, sample
):
    client.set_cookie("lang", LANGUAGE)  # the packs' names in it; the catalogue's bracketed
    lines = (config.SAMPLES / sample).read_text().splitlines()
    [result] = svc.import_lines(lines)
    inside = f"/c/{result.campaign}/"
    names = [*proper_names(lines), "org", *result.campaign.split("-")]
    seen, queue, found, forms = {"/", inside}, ["/", inside], {}, {}
    while queue:
        assert len(seen) < LIMIT, "the crawl found no end"
        url = queue.pop(0)
        answer, words, left = read(client, url, names)
        if left:
            found[url] = left
        for action, fields in words.forms:
            forms.setdefault((action or url, tuple(sorted(fields))), (url, fields))
        for link in words.links:
            link = urldefrag(link)[0]
            if link not in seen and within(link, inside):
                seen.add(link)
                queue.append(link)
    # Each form sent with its boxes empty: the refusal and its words, in the pseudo-language.
    for (action, _), (page, fields) in sorted(forms.items()):
        if not within(action, inside) or action.endswith(("/logout", "/language")):
            continue
        answer, _, left = read(client, action, names, data=fields, follow_redirects=True)
        assert answer.status_code < 500, (action, answer.status_code)
        if left:
            found[f"{action} (sent empty from {page})"] = left
    assert not found, "\n".join(f"{url}: {' '.join(sorted(w))}" for url, w in found.items())
