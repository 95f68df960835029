"""Every page of every game's sample, at several moments of its log, as each player sees it:
a page answers, whoever's turn it is. (A page shows a player only its own side's forms, so
what the page says besides them must stand without them.)"""

import json
import re
from urllib.parse import urljoin, urlsplit

import pytest

from tests.pagetools import member
from tracker import config

SAMPLES = {
    "claim-tavern-nights.jsonl": "claim-tavern-nights",
    "hellas-duel.jsonl": "hellas-duel",
    "hellas-three-crowns.jsonl": "hellas-three-crowns",
    "leaders-expert.jsonl": "salt-vs-moth",
    "leaders-standard.jsonl": "ember-vs-grey",
    "monsters-twin-peaks-feud.jsonl": "twin-peaks-feud",
    "warcry-ember-crown.jsonl": "ember-crown-sample",
}
# The moments of each log looked at: these fractions of its events.
MOMENTS = (0.2, 0.4, 0.6, 0.8, 0.97)
# Pages of one endpoint are visited at most this many times (with their first-found arguments).
PER_PAGE = 2


def sides(lines: list[dict]) -> list[str]:
    """The sides of a campaign: its players, or (Warcry) its warbands."""
    players = lines[0]["data"]["settings"].get("players")
    if players:
        return [p["id"] for p in players]
    return [e["data"]["warband"] for e in lines if e["type"] == "WarbandFounded"]


def crawl(client, start: str) -> list[str]:
    """The campaign's pages reached from `start` (the links within /c/<campaign>/), each
    page asked once; what did not answer 200."""
    prefix = urlsplit(start).path
    seen, queue, kinds, failed = set(), [start], {}, []
    while queue:
        url = queue.pop(0)
        page = client.get(url)
        if page.status_code != 200:
            failed.append(f"{url}: {page.status_code}")
            continue
        for href in re.findall(r'href="([^"#]+)"', page.get_data(as_text=True)):
            link = urljoin(url, href.replace("&amp;", "&"))
            path = urlsplit(link).path
            if not path.startswith(prefix) or re.search(r"/(pdf|live|export)\b", path):
                continue
            if "upto=" in link or "at=" in link or link in seen:
                continue
            kind = path
            if kinds.get(kind, 0) >= PER_PAGE:
                continue
            kinds[kind] = kinds.get(kind, 0) + 1
            seen.add(link)
            queue.append(link)
    return failed


@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_every_page_answers_each_player_at_every_moment(app, svc, sample):
    raw = (config.SAMPLES / sample).read_text().splitlines()
    lines = [json.loads(line) for line in raw if line.strip()]
    failed = []
    for n, moment in enumerate(MOMENTS):
        campaign = f"seat-{n}"
        cut = raw[: max(2, int(len(raw) * moment))]
        copy = [line.replace(f'"{SAMPLES[sample]}"', f'"{campaign}"') for line in cut]
        svc.import_lines(copy)
        for i, side in enumerate(sides(lines)):
            player = member(app, campaign, f"p{n}-{i}", side)
            failed += [f"{side}: {f}" for f in crawl(player, f"/c/{campaign}/")]
    assert not failed, "\n".join(failed)
