"""The pages every visitor meets, on a server with many campaigns, and the log's own pages.

- The front page, `/api/campaigns` and one campaign's row (`/api/campaigns/<id>`) on a
  database of 10,000 campaigns, and on one of a campaign of 1M events beside a few small
  ones, each against the same on a database of 10 campaigns (target: at most 1.5x).
  The visitor is the same on every server: signed in, a member of 2 private campaigns; 10
  campaigns are public (8 on the server of 10, whose other 2 are the visitor's), and every
  other one is private to its organiser: each page shows about the same rows, and what
  differs is what the database holds.
- The audit log and the dice page against the dashboard, on a campaign of 200 events and
  one of 10k (target: at most 2x).

Measured through the real app in this process (Flask's test client, warm: every page asked
once before the clock starts), 20 requests a side, five pairs run back to back, the median.
The databases are made once under bench/.cache/: the small campaigns are copies of the
first 20 events of the synthetic 1k campaign under new ids and names (their chains made
again for each id), written by one import_rows, that is one executemany a batch.
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

from bench import data
from bench.figures import Figure, _paired, _seconds
from tracker.accounts import Accounts
from tracker.events import GENESIS, NewEvent, canonical, chain_hash
from tracker.store import Store, open_store

VERSION = 1  # bump when the databases below change: they are made again
PASSWORD = "bench-password"
SMALL_EVENTS = 20  # events of each small campaign
PUBLIC = 10  # public campaigns on every server
MINE = ("camp-00002", "camp-00007")  # the visitor's own, private
REQUESTS = 20


def _template() -> list[dict]:
    with open(data.jsonl("1k"), encoding="utf-8") as lines:
        return [json.loads(line) for _, line in zip(range(SMALL_EVENTS), lines, strict=False)]


def _copies(ids: list[str], recorded_at: str = "2026-01-01T00:00:00+00:00"):
    """Batches of rows of small campaigns under `ids`, each chained for its own id."""
    template = _template()
    batch = []
    for cid in ids:
        head = GENESIS
        for version, record in enumerate(template, start=1):
            body = record["data"]
            if version == 1:
                body = {**body, "name": f"League {cid}"}
            data_json, meta_json = canonical(body), canonical(record["meta"])
            head = chain_hash(head, cid, version, record["type"], data_json, meta_json, recorded_at)
            batch.append((cid, version, record["type"], data_json, meta_json, recorded_at, head))
        if len(batch) >= 20_000:
            yield batch
            batch = []
    if batch:
        yield batch


def _accounts(store: Store, ids: list[str], everyone_public: bool = False) -> None:
    """The visitor (a member of MINE), ten organisers of everything, PUBLIC public ones
    (or every one but the visitor's)."""
    accounts = Accounts(store)
    accounts.init()
    visitor = accounts.sign_up("visitor", PASSWORD)
    organisers = [accounts.sign_up(f"org{n}", PASSWORD) for n in range(10)]
    spread = len(ids) // PUBLIC
    with store.transaction() as tx:
        for n, cid in enumerate(ids):
            tx.execute(
                "INSERT INTO members (campaign, user_id, role) VALUES (?, ?, 'organiser')",
                (cid, organisers[n % 10].id),
            )
            public = (everyone_public or n % spread == spread // 2) and cid not in MINE
            tx.execute(
                "INSERT INTO campaign_access (campaign, public) VALUES (?, ?)", (cid, int(public))
            )
    for cid in MINE:
        accounts.add_member(cid, visitor, "player")


def database(kind: str) -> Path:
    """The server database of `kind`: "10" or "10k" small campaigns, "10k-public" (the same,
    every one public but the visitor's 2), or "1M" (the 1M-event campaign and nine small
    ones), made once."""
    path = data.CACHE / f"front-{kind}-v{VERSION}.db"
    if path.exists():
        return path
    tmp = path.with_suffix(".tmp.db")
    for extra in ("", "-wal", "-shm"):
        Path(str(tmp) + extra).unlink(missing_ok=True)
    count = {"10": 10, "10k": 10_000, "10k-public": 10_000, "1M": 9}[kind]
    print(f"  making {path.name} (once) ...", flush=True)
    if kind == "1M":
        shutil.copy(data.database("1M"), tmp)
    store = open_store(tmp)
    store.init()
    ids = [f"camp-{n:05}" for n in range(count)]
    store.import_rows(_copies(ids))
    everyone = ids + ([data.campaign_id("1M")] if kind == "1M" else [])
    if kind == "1M":
        with store.transaction() as tx:  # the big one is public already: one of the ten
            tx.execute("DELETE FROM campaign_access")
    _accounts(store, sorted(everyone), everyone_public=kind == "10k-public")
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    tmp.replace(path)
    return path


def _client(path: Path):
    from tracker.web import create_app

    app = create_app({"DATABASE": str(path), "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False})
    client = app.test_client()
    answer = client.post("/login", data={"name": "visitor", "password": PASSWORD})
    assert answer.status_code == 302, answer.status_code
    return client


def _timed(client, url: str, expect: bytes):
    answer = client.get(url)  # warm: the process has read it once
    assert answer.status_code == 200 and expect in answer.data, (url, answer.status_code)

    def twenty():
        for _ in range(REQUESTS):
            client.get(url)

    return _seconds(twenty)


def _figure(name, ours, theirs, big_label, small_label, target, note) -> Figure:
    t_ours, t_theirs = _paired(ours, theirs)
    return Figure(
        name,
        big_label,
        t_ours / REQUESTS * 1000,
        small_label,
        t_theirs / REQUESTS * 1000,
        "ms",
        target,
        False,
        note,
    )


def campaigns() -> list[Figure]:
    """The front page, the API's list and a campaign's row: big servers against 10."""
    small = _client(database("10"))
    out = []
    for kind, row in (("10k", "camp-05500"), ("1M", data.campaign_id("1M"))):
        big = _client(database(kind))
        pages = (
            ("front page", "/", b"League camp-00002"),
            ("/api/campaigns", "/api/campaigns", b'"camp-00007"'),
            ("a campaign's row", f"/api/campaigns/{row}", row.encode()),
        )
        for name, url, expect in pages:
            small_url = url.replace(row, "camp-00005")
            label = "10,000 campaigns" if kind == "10k" else "a campaign of 1M events and 9"
            out.append(
                _figure(
                    f"{name} with {label}",
                    _timed(big, url, expect),
                    _timed(small, small_url, expect if name != "a campaign's row" else b"camp-"),
                    f"{url} with {kind}",
                    f"{small_url} with 10",
                    1.5,
                    f"Flask test client, warm, signed in: a member of 2, 10 public; "
                    f"{REQUESTS} requests a side, median of five pairs",
                )
            )
    out += _full_pages(small)
    return out


def _full_pages(small) -> list[Figure]:
    """The two lists with 10,000 public campaigns: a full page against the 10."""
    big, out = _client(database("10k-public")), []
    for name, url, expect in (
        ("front page", "/", b"League camp-00024"),
        ("/api/campaigns", "/api/campaigns", b'"camp-00024"'),
    ):
        out.append(
            _figure(
                f"{name} with 10,000 public campaigns (a full page)",
                _timed(big, url, expect),
                _timed(small, url, b"camp-00007"),
                f"{url} with 10k public",
                f"{url} with 10",
                1.5,
                "as above, but every campaign public: the big page shows a full page (25 public "
                "and the visitor's 2 on the front page, 25 by the API), the small one 10",
            )
        )
    return out


def _log_database(events: int) -> tuple[Path, str]:
    if events == 10_000:
        return data.database("10k"), data.campaign_id("10k")
    path = data.CACHE / f"front-log-{events}-v{VERSION}.db"
    cid = f"bench-{events}"
    if not path.exists():
        tmp = path.with_suffix(".tmp.db")
        tmp.unlink(missing_ok=True)
        store = open_store(tmp)
        store.init()
        Accounts(store).init()
        with open(data.jsonl("1k"), encoding="utf-8") as lines:
            records = [json.loads(line) for _, line in zip(range(events), lines, strict=False)]
        store.append(cid, [NewEvent(r["type"], r["data"], r["meta"]) for r in records], 0)
        Accounts(store).set_public(cid, True)
        store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # all in the file it renames
        store.close()
        tmp.replace(path)
    return path, cid


def log_pages() -> list[Figure]:
    """The audit log and the dice page, each against the dashboard, at 200 and 10k events."""
    from tracker.web import create_app

    out = []
    for events in (200, 10_000):
        path, cid = _log_database(events)
        app = create_app({"DATABASE": str(path), "SECRET_KEY": "bench"})
        client = app.test_client()
        dashboard = _timed(client, f"/c/{cid}/", b"Warband 0")
        for page, expect in (("audit", b'<tr id="e'), ("dice", b"histogram")):
            out.append(
                _figure(
                    f"{page} page vs the dashboard at {events:,} events",
                    _timed(client, f"/c/{cid}/{page}", expect),
                    dashboard,
                    f"/{page}",
                    "dashboard",
                    2.0,
                    f"Flask test client, warm, anonymous on a public campaign; {REQUESTS} "
                    "requests a side, median of five pairs",
                )
            )
    return out


def run() -> list[Figure]:
    began = time.perf_counter()
    figures = campaigns() + log_pages()
    print(f"   ({time.perf_counter() - began:.0f} s)", flush=True)
    return figures
