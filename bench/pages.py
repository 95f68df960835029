"""A game's pages as a server renders them: the first page against the warm one, and the
template device (parts of pages kept by their inputs) switched off against on.

- **first page**: each game's dashboard rendered first by a fresh app whose templates were
  compiled as `serve` compiles them (`templating.compile_all`, in gunicorn's master before
  the workers fork), against the same page warm (target: at most 3x). The campaign's state
  is folded first on both sides. The note gives the first page of a fresh app that compiled
  nothing: what a visitor met before.
- **devices**: a page through an app with a device on against the same app with it off
  (`TEMPLATE_PARTS_KEPT=0`), straight through WSGI (no test
  client), in turns. A device pays where it takes a clear share (say 15%) off a page
  (target: at most 0.85).

The campaigns are the samples (events/), imported once into bench/.cache/, each public and
read anonymously.
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

from werkzeug.test import EnvironBuilder

from bench import data
from bench.figures import Figure, _paired, _seconds
from tracker import config
from tracker.accounts import Accounts
from tracker.service import Service
from tracker.store import open_store

VERSION = 1  # bump when the database below changes: it is made again
SAMPLES = {
    "warcry": "warcry-ember-crown",
    "hellas": "hellas-three-crowns",
    "claim": "claim-tavern-nights",
    "monsters": "monsters-twin-peaks-feud",
    "leaders": "leaders-standard",
}
REQUESTS = 100
FIRSTS = 5  # fresh apps a side of the first page


def database() -> tuple[Path, dict[str, str]]:
    """The samples in one database (made once), and each game's campaign id."""
    path = data.CACHE / f"pages-samples-v{VERSION}.db"
    ids = {}
    fresh = not path.exists()
    if fresh:
        data.CACHE.mkdir(exist_ok=True)
    store = open_store(path)
    try:
        if fresh:
            store.init()
            Accounts(store).init()
        service = Service(store)
        for game, sample in SAMPLES.items():
            lines = (config.SAMPLES / f"{sample}.jsonl").read_text().splitlines()
            if fresh:
                [result] = service.import_lines(lines)
                Accounts(store).set_public(result.campaign, True)
                ids[game] = result.campaign
            else:
                ids[game] = _campaign_of(lines[0])
    finally:
        store.close()
    return path, ids


def _campaign_of(line: str) -> str:
    return json.loads(line)["campaign"]


def _app(path: Path, **config_):
    from tracker.web import create_app

    return create_app({"DATABASE": str(path), "SECRET_KEY": "bench", **config_})


def _get(app, url: str) -> bytes:
    """`url` through the app's WSGI callable, as a server calls it."""
    statuses = []
    body = app(EnvironBuilder(path=url).get_environ(), lambda s, h, e=None: statuses.append(s))
    try:
        page = b"".join(body)
    finally:
        getattr(body, "close", lambda: None)()
    assert statuses[0].startswith("200"), (url, statuses[0])
    return page


def _first(path: Path, cid: str, url: str, compiled: bool) -> float:
    """Seconds of the first render of `url` by a fresh app, its templates compiled first
    (as `serve` does) or not. The campaign's state is folded first (through the API, which
    renders no template): a campaign's first reader pays its fold whatever the templates."""
    from tracker.web import templating

    app = _app(path)
    if compiled:
        templating.compile_all(app)
    _get(app, f"/api/campaigns/{cid}/state")
    began = time.perf_counter()
    _get(app, url)
    return time.perf_counter() - began


def first_pages() -> list[Figure]:
    """Each game's dashboard: the first render after `serve`'s compiling, against warm."""
    path, ids = database()
    out = []
    for game, cid in ids.items():
        url = f"/c/{cid}/"
        compiled = statistics.median(_first(path, cid, url, True) for _ in range(FIRSTS))
        cold = statistics.median(_first(path, cid, url, False) for _ in range(FIRSTS))
        app = _app(path)
        _get(app, url)

        def warm(app=app, url=url):
            for _ in range(REQUESTS):
                _get(app, url)

        out.append(
            Figure(
                f"{game}'s first page, templates compiled before serving",
                "first render",
                compiled * 1000,
                "warm render",
                _seconds(warm)() / REQUESTS * 1000,
                "ms",
                3.0,
                False,
                f"the dashboard through WSGI, median of {FIRSTS} fresh apps; warm: {REQUESTS} "
                f"renders; the first render of an app that compiled nothing: {cold * 1000:.0f} ms",
            )
        )
    return out


def devices() -> list[Figure]:
    """Each template device on against off, on the pages that read most through it."""
    path, ids = database()
    switched = {"kept parts": {"TEMPLATE_PARTS_KEPT": 0}}
    pages = [
        ("warcry dashboard", f"/c/{ids['warcry']}/"),
        ("hellas dashboard", f"/c/{ids['hellas']}/"),
    ]
    pages += [(f"{game} dashboard", f"/c/{ids[game]}/") for game in ("claim", "leaders")]
    pages += [("warcry audit log", f"/c/{ids['warcry']}/audit"), ("front page", "/")]
    on = _app(path)
    out = []
    for device, off_config in switched.items():
        off = _app(path, **off_config)
        for name, url in pages:
            _get(on, url), _get(off, url)

            def timed(app, url=url):
                def requests():
                    for _ in range(REQUESTS):
                        _get(app, url)

                return _seconds(requests)

            t_on, t_off = _paired(timed(on), timed(off))
            out.append(
                Figure(
                    f"{device} on the {name}",
                    "on",
                    t_on / REQUESTS * 1000,
                    "off",
                    t_off / REQUESTS * 1000,
                    "ms",
                    0.85,
                    False,
                    f"through WSGI, warm, {REQUESTS} requests a side, median of five pairs",
                )
            )
    return out


def run() -> list[Figure]:
    began = time.perf_counter()
    figures = first_pages() + devices()
    print(f"   ({time.perf_counter() - began:.0f} s)", flush=True)
    return figures
