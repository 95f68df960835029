"""No page links to a page that is not there: a crawler over a fresh campaign of every game,
started from the front page's own forms as a newcomer starts it."""

from html.parser import HTMLParser
from urllib.parse import urldefrag, urlparse

import pytest

from tracker import config, systems

LIMIT = 400  # pages a crawl may visit: a fresh campaign has far fewer


class _Page(HTMLParser):
    """The links of a page (a href, and what it loads) and its forms with their fields."""

    def __init__(self):
        super().__init__()
        self.links: list[str] = []
        self.forms: list[dict] = []
        self._select = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        if tag in ("link", "script", "img") and (attrs.get("href") or attrs.get("src")):
            self.links.append(attrs.get("href") or attrs.get("src"))
        if tag == "form":
            self.forms.append({"action": attrs.get("action", ""), "fields": {}, "required": []})
        elif self.forms and tag == "input" and attrs.get("name"):
            kind = attrs.get("type", "text")
            if kind in ("checkbox", "radio") and "checked" not in attrs:
                return
            self.forms[-1]["fields"].setdefault(attrs["name"], attrs.get("value", ""))
            if "required" in attrs:
                self.forms[-1]["required"].append(attrs["name"])
        elif self.forms and tag == "select" and attrs.get("name"):
            self._select = attrs["name"]
        elif self._select and tag == "option":
            fields = self.forms[-1]["fields"]
            if self._select not in fields or "selected" in attrs:
                fields[self._select] = attrs.get("value", "")

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None


def parse(response) -> _Page:
    page = _Page()
    page.feed(response.get_data(as_text=True))
    return page


def start_from_the_front_page(client, system: str) -> str:
    """A campaign of `system`, started with its start form's defaults; its id."""
    front = parse(client.get(f"/?system={system}"))
    [start] = [
        f for f in front.forms if f["action"] == "/campaigns" and f["fields"]["system"] == system
    ]
    fields = {**start["fields"], "name": f"First {system}", "campaign": f"first-{system}"}
    for number, name in enumerate(start["required"]):
        if not fields[name]:  # what a newcomer types: the players' names and short ids
            fields[name] = f"p{number}" if name.endswith("-id") else f"Player {number}"
    answer = client.post("/campaigns", data=fields)
    assert answer.status_code == 302, answer.get_data(as_text=True)
    return f"first-{system}"


def crawl(client, start: list[str], inside: str, follow=lambda link: True) -> dict[str, str]:
    """Every page reachable from `start` through links, staying on the site's own pages and
    inside the campaign at `inside`; the links that answer 400 or more, with where they are."""
    seen, queue, broken = set(start), [(url, "start") for url in start], {}
    while queue:
        assert len(seen) < LIMIT, "the crawl found no end"
        url, found_on = queue.pop(0)
        answer = client.get(url, follow_redirects=True)
        if answer.status_code >= 400:
            broken[url] = f"{answer.status_code}, linked from {found_on}"
            continue
        if answer.mimetype != "text/html":
            continue
        for link in parse(answer).links:
            link, _ = urldefrag(link)
            parts = urlparse(link)
            if not link or parts.scheme or parts.netloc or not link.startswith("/"):
                continue
            if parts.path.startswith("/c/") and not parts.path.startswith(inside):
                continue
            if link not in seen and follow(link):
                seen.add(link)
                queue.append((link, url))
    return broken


@pytest.mark.parametrize("system", sorted(systems.registry()))
def test_no_page_of_a_fresh_campaign_links_to_a_page_that_is_not_there(client, system):
    campaign = start_from_the_front_page(client, system)
    inside = f"/c/{campaign}/"
    assert crawl(client, ["/", inside], inside) == {}


def test_the_crawler_finds_a_link_that_is_not_there(client, monkeypatch):
    """The crawler itself: a page that links to nothing real is reported."""
    campaign = start_from_the_front_page(client, "warcry")
    broken = crawl(client, [f"/c/{campaign}/no-such-page"], f"/c/{campaign}/")
    assert list(broken) == [f"/c/{campaign}/no-such-page"]


def samples_crawl_links(link: str) -> bool:
    """In a sample, the moments of its past (?at=, ?upto=) are left out (there is a page of
    them for every event), and the PDFs (the crawl of a fresh campaign fetches them)."""
    parts = urlparse(link)
    return "at=" not in parts.query and "upto=" not in parts.query and "/pdf/" not in parts.path


@pytest.mark.parametrize("sample", sorted(p.name for p in config.SAMPLES.glob("*.jsonl")))
def test_no_page_of_a_sample_links_to_a_page_that_is_not_there(client, svc, sample):
    [result] = svc.import_lines((config.SAMPLES / sample).read_text().splitlines())
    inside = f"/c/{result.campaign}/"
    assert crawl(client, [inside], inside, follow=samples_crawl_links) == {}


@pytest.mark.parametrize(
    "page, args",
    [
        ("dashboard", {}),
        ("audit", {"upto": 40, "at": 50}),
        ("dice", {"at": 3}),
        ("roster", {"warband": "iron-jaws"}),
        ("warband", {"warband": "a b&c=d/é?", "at": None}),
        ("battle", {"battle": "b:1;x@y!", "step": 2}),
        ("play-on", {}),
    ],
)
def test_a_campaigns_links_are_the_paths_url_for_writes(app, page, args):
    from flask import url_for

    from tracker.web.rendering import page_path

    for cid in ("c", "page-one", "a-page"):
        with app.test_request_context("/"):
            if page in ("dashboard", "audit", "dice"):
                area = "campaign" if page == "dashboard" else "log"
                expected = url_for(f"{area}.{page}", cid=cid, **args)
            else:
                expected = url_for("campaign.page", cid=cid, page=page, **args)
            assert page_path(cid, page, dict(args)) == expected


@pytest.mark.parametrize("endpoint", ["campaign.dashboard", "campaign.play_on"])
def test_the_front_pages_links_are_the_paths_url_for_writes(app, endpoint):
    from flask import url_for

    from tracker.web.campaign import _finding

    with app.test_request_context("/"):
        link = _finding()[endpoint.replace("campaign.", "") + "_of"]
        for cid in ("c", "page-one", "hole", "a b&c=d/é?"):
            assert link(cid) == url_for(endpoint, cid=cid)
