"""A campaign's pages reached from its dashboard in a real browser, each looked at by the
test that crawls them (does it fit a phone? is it in the reader's language?)."""

from collections.abc import Callable
from urllib.parse import parse_qsl, urlencode, urlsplit


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
