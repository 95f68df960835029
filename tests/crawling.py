"""A campaign's pages reached from its dashboard in a real browser, each looked at by the
test that crawls them (does it fit a phone? is it in the reader's language?)."""

import json
import re
from collections.abc import Callable
from urllib.parse import parse_qsl, urlencode, urlsplit

from tracker import config
from tracker.accounts import Accounts
from tracker.service import Service
from tracker.store import open_store

# The sample campaigns a browser test looks at, by a short name for its test ids.
SAMPLES = {
    "warcry": "ember-crown-sample",
    "claim": "claim-tavern-nights",
    "hellas-duel": "hellas-duel",
    "hellas-three-crowns": "hellas-three-crowns",
    "leaders-expert": "salt-vs-moth",
    "leaders-standard": "ember-vs-grey",
    "monsters": "twin-peaks-feud",
}


def tag_of(url: str, who: str = "") -> str:
    """A page's name for its screenshot: its path and query, `who` looked at it first."""
    parts = urlsplit(url)
    tag = re.sub(r"[^a-z0-9]+", "-", (parts.path + "-" + parts.query).lower()).strip("-")
    return f"{who}-{tag}" if who else tag


def organiser_of_the_samples(browser, server, database, name, password, viewport):
    """A browser context and its page, logged in as `name`, signed up in the page and made
    the organiser of every sample campaign (by the command line, on the server's database)."""
    context, page = signed_up(browser, server, name, password, viewport)
    made_organiser(database, name, SAMPLES.values())
    return context, page


def signed_up(browser, server, name, password, viewport, javascript=True):
    """A browser context and its page (`viewport`), signed up in the page as `name`."""
    context = browser.new_context(viewport=viewport, java_script_enabled=javascript)
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(server + "/signup")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", password)
    page.locator("main form button[type=submit]").first.click()
    page.wait_for_selector(".flashes")
    return context, page


def imported(database, source) -> None:
    """A JSON Lines file (a path, or its text) imported into the server's database, as the
    command line's `import` does it (in this process)."""
    text = source if isinstance(source, str) else source.read_text(encoding="utf-8")
    store = open_store(database)
    try:
        Service(store).import_lines(text.splitlines())
    finally:
        store.close()


def sample_copy(database, sample: str, campaign: str, upto: int | None = None) -> str:
    """A copy of a sample (its file in events/), or of its first `upto` events, imported as
    `campaign` into the server's database: a test that records its own events leaves the
    samples as the other tests find them. Gives the campaign's id."""
    lines = (config.SAMPLES / sample).read_text(encoding="utf-8").splitlines()[:upto]
    imported(
        database,
        "\n".join(json.dumps({**json.loads(line), "campaign": campaign}) for line in lines),
    )
    return campaign


def made_organiser(database, name: str, campaigns) -> None:
    """`name` made the organiser of each campaign on the server's database, as the command
    line's `members --add NAME --role organiser` makes one (in this process: a command's
    start is half a second)."""
    store = open_store(database)
    try:
        accounts = Accounts(store)
        user = accounts.by_name(name)
        for campaign in campaigns:
            accounts.add_member(campaign, user, "organiser")
    finally:
        store.close()


def crawl(page, server: str, campaign: str, per_page: int, check: Callable, prepare=None):
    """What `check(page, target)` finds on every page reached from the campaign's dashboard
    through its links (history moments and PDFs aside), pages of one path at most
    `per_page` times (they share one template); `prepare(page)` runs before each visit."""
    base = f"/c/{campaign}/"
    queue, seen, visits, found = [base], {base}, {}, []
    while queue:
        target = queue.pop(0)
        if prepare:
            prepare(page)
        answer = page.goto(server + target)
        assert answer.ok, f"{target} answered {answer.status}"
        found += check(page, target)
        # An SVG link's href is an object (its baseVal relative): only HTML links are followed.
        for href in page.eval_on_selector_all(
            "a[href]", "links => links.map(a => typeof a.href === 'string' ? a.href : '')"
        ):
            parts = urlsplit(href)
            args = parse_qsl(parts.query)
            if parts.netloc != urlsplit(server).netloc or not parts.path.startswith(base):
                continue
            if "/pdf/" in parts.path or any(k in ("at", "upto") for k, _ in args):
                continue
            link = parts.path + ("?" + urlencode(args) if args else "")
            if link in seen or visits.get(parts.path, 0) >= per_page:
                continue
            seen.add(link)
            visits[parts.path] = visits.get(parts.path, 0) + 1
            queue.append(link)
    return found


def seated(database, name: str, campaign: str, side: str) -> None:
    """`name` made the player of `side` in the campaign, as `members --add NAME --side SIDE`
    does it (in this process)."""
    store = open_store(database)
    try:
        view = Service(store).state(campaign)
        accounts = Accounts(store)
        names = view.system.sides(view.state)
        accounts.add_member(campaign, accounts.by_name(name), "player", side, names)
    finally:
        store.close()
