"""The bench's data, made once and cached under bench/.cache/ (git-ignored)."""

from __future__ import annotations

import json
from pathlib import Path

from bench.generate import write_jsonl
from tracker.accounts import Accounts
from tracker.events import NewEvent
from tracker.store import open_store

CACHE = Path(__file__).resolve().parent / ".cache"
SIZES = {"1k": 1_000, "10k": 10_000, "100k": 100_000, "1M": 1_000_000}
GENERATOR_VERSION = 2  # bump when the generator changes: the cached files are made again


def campaign_id(size: str) -> str:
    return f"bench-{size.lower()}"


def jsonl(size: str) -> Path:
    """The synthetic campaign of this size as import lines, generated once."""
    path = CACHE / f"warcry-{size}-v{GENERATOR_VERSION}.jsonl"
    if not path.exists():
        print(f"  generating {size} events into {path.name} (once) ...", flush=True)
        write_jsonl(path, campaign_id(size), SIZES[size])
    return path


def database(size: str) -> Path:
    """A store holding the campaign of this size (public, so pages can be read), made once.

    Written through Store.append in batches: the events were already folded by the rules
    when they were generated, and the store chains their hashes as it writes them.
    """
    path = CACHE / f"warcry-{size}-v{GENERATOR_VERSION}.db"
    if path.exists():
        return path
    source = jsonl(size)
    print(f"  loading {size} events into {path.name} (once) ...", flush=True)
    tmp = path.with_suffix(".tmp.db")
    for extra in ("", "-wal", "-shm"):
        Path(str(tmp) + extra).unlink(missing_ok=True)
    store = open_store(tmp)
    store.init()
    Accounts(store).init()
    cid = campaign_id(size)
    batch, version = [], 0
    with open(source, encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            batch.append(NewEvent(record["type"], record["data"], record["meta"]))
            if len(batch) == 5000:
                version = store.append(cid, batch, version).last_version
                batch = []
    if batch:
        store.append(cid, batch, version)
    Accounts(store).set_public(cid, True)
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    tmp.replace(path)
    return path
