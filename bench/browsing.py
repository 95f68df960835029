"""A worker's memory after browsing many campaigns: what a process keeps of campaigns is
bounded (tracker.repository.Projections), so a worker that has served the pages of 500 campaigns
should stay within a small multiple of one that has served a single page.

The server is gunicorn as `serve` starts it (bench/serve.py), one worker, so that every page
lands in the process measured. Each of BROWSED campaigns (copies of the Warcry sample) is
read once as a visitor reads it: its dashboard, its audit log and its dice page. The figure
is the worker's resident memory then, against the same worker after one dashboard.

Alone: python -m bench.browsing [--campaigns 500]  (prints; writes nothing)
"""

from __future__ import annotations

import argparse
import http.client
import json
import tempfile
import time
from pathlib import Path

from bench.figures import ROOT, Figure
from bench.http import _port, serve
from bench.streams import workers_rss
from tracker.accounts import Accounts
from tracker.dice import SeededRoller
from tracker.service import Service
from tracker.store import open_store

BROWSED = 500
SAMPLE = ROOT / "events" / "warcry-ember-crown.jsonl"
PAGES = ("/c/{cid}/", "/c/{cid}/audit", "/c/{cid}/dice")


def _seed(path: Path, count: int) -> list[str]:
    store = open_store(path)
    store.init()
    Accounts(store).init()
    service = Service(store, SeededRoller(3))
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    accounts = Accounts(store)
    ids = []
    for n in range(count):
        cid = f"mem-{n}"
        service.import_lines(json.dumps({**json.loads(line), "campaign": cid}) for line in lines)
        accounts.set_public(cid, True)
        ids.append(cid)
    store.close()
    return ids


def _get(conn: http.client.HTTPConnection, path: str) -> None:
    conn.request("GET", path)
    answer = conn.getresponse()
    answer.read()
    assert answer.status == 200, (path, answer.status)


def run(work_dir: Path, count: int = BROWSED) -> tuple[Figure, dict]:
    db = work_dir / "browsing.db"
    ids = _seed(db, count)
    port = _port()
    with open(work_dir / "browsing-server.log", "wb") as log:
        server = serve(db, port, log, "--workers", "1")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            _get(conn, PAGES[0].format(cid=ids[0]))
            time.sleep(0.2)
            one = workers_rss(server.pid)
            began = time.perf_counter()
            for cid in ids:
                for page in PAGES:
                    _get(conn, page.format(cid=cid))
            took = time.perf_counter() - began
            browsed = workers_rss(server.pid)
            conn.close()
        finally:
            server.terminate()
            server.wait(10)
    mib = 1024 * 1024
    figure = Figure(
        f"a worker's memory after browsing {count} campaigns",
        f"after {count} campaigns",
        browsed / mib,
        "after one dashboard",
        one / mib,
        "MiB",
        2.0,
        False,
        f"gunicorn, one worker; the dashboard, audit log and dice page of each of {count} "
        f"copies of the Warcry sample, once each ({took:.0f} s); against the same worker "
        "after one dashboard",
    )
    return figure, {"after_one_mib": one / mib, "after_all_mib": browsed / mib}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--campaigns", type=int, default=BROWSED)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        figure, detail = run(Path(tmp), args.campaigns)
    print(json.dumps(detail, indent=1))
    print(f"{figure.ratio:.2f}x")


if __name__ == "__main__":
    main()
