"""Each figure of the bench: two things measured side by side in one run, and their ratio."""

from __future__ import annotations

import functools
import gc
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from bench import data
from tracker import systems
from tracker.events import GENESIS, NewEvent, canonical, chain_hash, utcnow
from tracker.fold import fold
from tracker.service import Service
from tracker.store import open_store
from tracker.store.records import INSERT
from tracker.store.sqlite import SCHEMA

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Figure:
    name: str
    ours: str  # label of the numerator
    ours_value: float
    theirs: str  # label of the denominator
    theirs_value: float
    unit: str
    target: float
    at_least: bool  # True: ratio >= target passes; False: ratio <= target passes
    note: str = ""

    @property
    def ratio(self) -> float:
        return self.ours_value / self.theirs_value if self.theirs_value else float("inf")

    @property
    def passed(self) -> bool:
        return self.ratio >= self.target if self.at_least else self.ratio <= self.target

    @property
    def target_text(self) -> str:
        return f"{'>=' if self.at_least else '<='} {self.target:g}"


def _paired(ours, theirs, rounds: int = 5) -> tuple[float, float]:
    """Seconds of ours() and theirs() measured back to back, `rounds` times, the one going
    first taking turns; the pair whose ratio is the median of all the pairs' ratios.

    This machine's speed drifts from one moment to the next: two runs made back to back meet
    the same moment, and the median pair is the one least disturbed either way.
    """
    pairs = []
    for round_ in range(rounds):
        gc.collect()
        if round_ % 2:
            t_theirs = theirs()
            t_ours = ours()
        else:
            t_ours = ours()
            t_theirs = theirs()
        pairs.append((t_ours, t_theirs))
    return _median_pair(pairs)


def _median_pair(pairs: list[tuple[float, float]]) -> tuple[float, float]:
    """Of (ours, theirs) pairs of seconds, the one whose ratio is the median."""
    return sorted(pairs, key=lambda pair: pair[1] / pair[0])[len(pairs) // 2]


def _seconds(fn):
    """fn, made to answer how many seconds it took."""

    def timed() -> float:
        start = time.perf_counter()
        fn()
        return time.perf_counter() - start

    return timed


def _fresh(directory: Path, name: str) -> Path:
    path = directory / name
    for extra in ("", "-wal", "-shm"):
        Path(str(path) + extra).unlink(missing_ok=True)
    return path


def _sample_events(count: int) -> list[NewEvent]:
    """`count` events of the 10k campaign (after its start), as they would be appended."""
    out = []
    with open(data.jsonl("10k"), encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            out.append(NewEvent(record["type"], record["data"], record["meta"]))
            if len(out) > count:
                break
    return out


# -- 1, 2: appending one event per transaction ----------------------------------------------


def _in_turns(makers: dict, count: int, block: int, rounds: int) -> list[dict[str, float]]:
    """Seconds each writer took to write `count` events, in `rounds` rounds: each maker,
    called afresh every round, gives (write(first, last), close); the writers take turns
    `block` appends at a time, the one going first taking turns too."""
    results = []
    for round_ in range(rounds):
        gc.collect()
        writers = {name: make() for name, make in makers.items()}
        seconds = dict.fromkeys(writers, 0.0)
        names = list(writers)
        for turn, first in enumerate(range(0, count, block)):
            last = min(count, first + block)
            shift = (turn + round_) % len(names)  # who goes first takes turns
            for name in names[shift:] + names[:shift]:
                start = time.perf_counter()
                writers[name][0](first, last)
                seconds[name] += time.perf_counter() - start
        for _, close in writers.values():
            close()
        results.append(seconds)
    return results


def _chained_rows(events: list[NewEvent], campaign: str = "bench") -> list[tuple]:
    """The rows of `events` as the log holds them (hashes and all), made beforehand."""
    rows, head, now = [], GENESIS, utcnow()
    for version, event in enumerate(events, start=1):
        d, m = canonical(event.data), canonical(event.meta)
        head = chain_hash(head, campaign, version, event.type, d, m, now)
        rows.append((campaign, version, event.type, d, m, now, head))
    return rows


def appends(work: Path, count: int = 2000, block: int = 50, rounds: int = 5) -> list[Figure]:
    """The five writers take turns a block of appends at a time, on five fresh files.

    An append is bound by the disk's sync, whose speed moves from one second to the next: in
    blocks of `block` appends, the writers meet the same moments of the disk, which whole
    runs of a few seconds one after the other did not. Each round writes `count` events a
    writer; of `rounds` rounds, each comparison keeps the one whose ratio is its median.
    """
    events = _sample_events(count)
    rows = _chained_rows(events)  # so raw sqlite3 only writes

    def through_store():
        store = open_store(_fresh(work, "append-store.db"))
        store.init()

        def write(first, last):
            for version in range(first, last):
                store.append("bench", [events[version]], version)

        return write, store.close

    def through_service():
        store = open_store(_fresh(work, "append-service.db"))
        store.init()
        service = Service(store)

        def write(first, last):
            for version in range(first, last):
                event = events[version]
                if version == 0:
                    data = event.data
                    service.start("bench", data["system"], data["name"], data["settings"])
                    continue
                service.append("bench", [{"type": event.type, "data": event.data}], version)

        return write, store.close

    def raw():
        conn = sqlite3.connect(_fresh(work, "append-raw.db"), isolation_level=None)
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        conn.executescript(SCHEMA)

        def write(first, last):
            for row in rows[first:last]:
                conn.execute("BEGIN IMMEDIATE")
                conn.execute(INSERT, row)
                conn.execute("COMMIT")

        return write, conn.close

    makers = {
        "store": through_store,
        "service": through_service,
        "raw": raw,
        "es": lambda: _eventsourcing_recorder(work, events, rows),
        "es app": lambda: _eventsourcing_application(work, events[:count]),
    }
    results = _in_turns(makers, count, block, rounds)

    def median(ours, theirs):
        return _median_pair([(r[ours], r[theirs]) for r in results])

    t_store, t_raw = median("store", "raw")
    t_store_es, t_es = median("store", "es")
    t_service, t_raw_s = median("service", "raw")
    t_service_es, t_es_app = median("service", "es app")
    pairs = f"the writers take turns, {block} appends at a time; the median of {rounds} rounds"
    durable = "WAL, synchronous=FULL (checked on the library's connection)"
    return [
        Figure(
            "append, one event per transaction",
            "tracker Store.append",
            count / t_store,
            "raw sqlite3 INSERT",
            count / t_raw,
            "events/s",
            0.7,
            True,
            f"{count} events, WAL, synchronous=FULL, same schema; {pairs}",
        ),
        Figure(
            "append vs eventsourcing",
            "tracker Store.append",
            count / t_store_es,
            "eventsourcing SQLiteAggregateRecorder",
            count / t_es,
            "events/s",
            1.0,
            True,
            f"{count} events, {durable}; {pairs}",
        ),
        Figure(
            "the whole write path vs raw sqlite3",
            "tracker Service.append",
            count / t_service,
            "raw sqlite3 INSERT",
            count / t_raw_s,
            "events/s",
            0.6,
            True,
            f"{count} events of the 10k campaign, each checked by its schema and the rules, "
            f"chained, written; WAL, synchronous=FULL, same schema; {pairs}",
        ),
        Figure(
            "the whole write path vs eventsourcing",
            "tracker Service.append",
            count / t_service_es,
            "eventsourcing Application.save",
            count / t_es_app,
            "events/s",
            1.0,
            True,
            f"{count} events, each an aggregate's event carrying the same type and data, "
            f"saved; {durable}; {pairs}",
        ),
    ]


def _wal_and_full(datastore) -> None:
    """That an eventsourcing datastore writes as durably as the tracker: WAL, synchronous
    FULL (SQLite's default; it cannot be set inside the transaction the library opens)."""
    with datastore.transaction(commit=False) as cursor:
        cursor.execute("PRAGMA synchronous")
        sync = cursor.fetchone()[0]
        cursor.execute("PRAGMA journal_mode")
        mode = cursor.fetchone()[0]
    assert mode == "wal" and sync == 2, (mode, sync)


def _eventsourcing_recorder(work: Path, events: list[NewEvent], rows: list[tuple]):
    """The eventsourcing library's recorder, given stored events made beforehand."""
    from uuid import uuid4

    from eventsourcing.persistence import StoredEvent
    from eventsourcing.sqlite import SQLiteAggregateRecorder, SQLiteDatastore

    datastore = SQLiteDatastore(str(_fresh(work, "append-es.db")))
    recorder = SQLiteAggregateRecorder(datastore, "stored_events")
    recorder.create_table()
    aggregate = uuid4()
    stored = [
        StoredEvent(aggregate, version, event.type, (row[3] + row[4]).encode())
        for version, (event, row) in enumerate(zip(events, rows, strict=True), start=1)
    ]

    def write(first, last):
        for item in stored[first:last]:
            recorder.insert_events([item])

    def close():
        _wal_and_full(datastore)
        datastore.close()

    return write, close


def _eventsourcing_application(work: Path, events: list[NewEvent]):
    """The eventsourcing library's whole write path: an Application saving an aggregate
    whose event carries each event's type and data, one event a save."""
    from eventsourcing.application import Application

    Campaign = _es_campaign()
    app = Application(
        env={
            "PERSISTENCE_MODULE": "eventsourcing.sqlite",
            "SQLITE_DBNAME": str(_fresh(work, "append-es-app.db")),
        }
    )
    held = []

    def write(first, last):
        for version in range(first, last):
            if version == 0:
                held.append(Campaign())  # its first event, as a campaign's start
            else:
                event = events[version]
                held[0].happened(event.type, event.data)
            app.save(held[0])

    def close():
        assert app.repository.get(held[0].id).version == len(events)
        _wal_and_full(app.recorder.datastore)
        app.close()

    return write, close


@functools.cache
def _es_campaign():
    """An eventsourcing aggregate that keeps a count and its last event's type and data
    (one class: the library knows a class by its name)."""
    from eventsourcing.domain import Aggregate, event

    class Campaign(Aggregate):
        def __init__(self):
            self.count = 0
            self.last = None

        @event("Happened")
        def happened(self, kind: str, data: dict):
            self.count += 1
            self.last = (kind, data)

    return Campaign


# -- 3: importing a file ----------------------------------------------------------------------


def importing(work: Path, size: str = "100k") -> Figure:
    source = data.jsonl(size)
    lines = source.read_text(encoding="utf-8").splitlines()

    def through_service():
        store = open_store(_fresh(work, "import.db"))
        store.init()
        start = time.perf_counter()
        Service(store).import_lines(lines)
        elapsed = time.perf_counter() - start
        store.close()
        return elapsed

    # The rows the import wrote, read back, so raw sqlite3 writes exactly the same bytes.
    through_service()
    check = sqlite3.connect(work / "import.db")
    rows = check.execute(
        "SELECT campaign, version, type, data, meta, recorded_at, hash FROM events "
        "ORDER BY position"
    ).fetchall()
    check.close()

    def raw():
        path = _fresh(work, "import-raw.db")
        conn = sqlite3.connect(path, isolation_level=None)
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        conn.executescript(SCHEMA)
        start = time.perf_counter()
        conn.execute("BEGIN IMMEDIATE")
        conn.executemany(INSERT, rows)
        conn.execute("COMMIT")
        elapsed = time.perf_counter() - start
        conn.close()
        return elapsed

    t_import, t_raw = _paired(through_service, raw)
    n = len(rows)
    return Figure(
        f"import a {size}-event file",
        "Service.import_lines",
        n / t_import,
        "raw sqlite3 executemany, one transaction",
        n / t_raw,
        "events/s",
        0.15,
        True,
        "validated by schema and rules, hashed, written; same schema; median of five pairs "
        "run back to back",
    )


# -- 4, 5: folding a whole log ----------------------------------------------------------------


def folding(work: Path, size: str = "100k") -> list[Figure]:
    store = open_store(data.database(size))
    cid = data.campaign_id(size)
    system = systems.get("warcry")

    def whole():
        return fold(system, store.read(cid))

    def loads_only():
        # The same rows and columns the fold reads, each data decoded by json.loads.
        cursor = store.conn.execute(
            "SELECT position, campaign, version, type, data, meta, recorded_at, hash "
            "FROM events WHERE campaign = ? ORDER BY version",
            (cid,),
        )
        for row in cursor:
            json.loads(row[4])

    count = store.version(cid)
    es_count = 10_000
    # Each comparison in pairs run back to back: a slow moment of the machine falls on both.
    t_fold, t_loads = _paired(_seconds(whole), _seconds(loads_only))
    with _eventsourcing_replay(work, es_count) as replay:
        t_fold_es, t_es = _paired(_seconds(whole), replay)
    store.close()
    pairs = "median of five pairs run back to back"
    return [
        Figure(
            f"fold a whole log ({size} events)",
            "read, decode, apply",
            count / t_fold,
            "read and json.loads alone",
            count / t_loads,
            "events/s",
            0.5,
            True,
            pairs,
        ),
        Figure(
            "fold vs eventsourcing replay",
            f"tracker fold ({size})",
            count / t_fold_es,
            "eventsourcing Aggregate replay",
            es_count / t_es,
            "events/s",
            2.0,
            True,
            f"eventsourcing replays one aggregate of {es_count} stored events "
            f"(same event data, SQLite); {pairs}",
        ),
    ]


@contextmanager
def _eventsourcing_replay(work: Path, count: int):
    """The eventsourcing library with one aggregate of `count` stored events: yields a
    function that replays it."""
    from eventsourcing.application import Application

    Campaign = _es_campaign()
    path = _fresh(work, "replay-es.db")
    os.environ.update(PERSISTENCE_MODULE="eventsourcing.sqlite", SQLITE_DBNAME=str(path))
    try:
        app = Application()
        campaign = Campaign()
        app.save(campaign)
        with open(data.jsonl("10k"), encoding="utf-8") as lines:
            for n, line in enumerate(lines):
                if n >= count - 1:
                    break
                record = json.loads(line)
                campaign.happened(record["type"], record["data"])
                if n % 500 == 0:
                    app.save(campaign)
        app.save(campaign)
        assert app.repository.get(campaign.id).version == count

        def replay() -> float:
            start = time.perf_counter()
            app.repository.get(campaign.id)
            return time.perf_counter() - start

        yield replay
        app.close()
    finally:
        for key in ("PERSISTENCE_MODULE", "SQLITE_DBNAME"):
            os.environ.pop(key, None)


# -- 6, 7: pages and time travel ---------------------------------------------------------------


def roster(small: str = "1k", large: str = "100k") -> Figure:
    from tracker.web import create_app

    def renders(size):
        """Twenty renders of the sheet by a warm server, timed; and the first one's time."""
        app = create_app(
            {"DATABASE": str(data.database(size)), "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False}
        )
        client = app.test_client()
        url = f"/c/{data.campaign_id(size)}/roster?warband=wb0"
        cold_start = time.perf_counter()
        answer = client.get(url)
        cold = time.perf_counter() - cold_start
        assert answer.status_code == 200, answer.status_code
        assert b"Warband 0" in answer.data

        def twenty():
            for _ in range(20):
                client.get(url)

        return _seconds(twenty), cold

    small_twenty, small_cold = renders(small)
    large_twenty, large_cold = renders(large)
    large_t, small_t = (t / 20 for t in _paired(large_twenty, small_twenty))
    return Figure(
        f"roster sheet at {large} events",
        f"render at {large}",
        large_t * 1000,
        f"render at {small}",
        small_t * 1000,
        "ms",
        1.5,
        False,
        f"warm server (the process has folded it once), 20 renders a side, median of five "
        f"pairs run back to back; the first render of the process took "
        f"{large_cold * 1000:.0f} ms at {large} and {small_cold * 1000:.0f} ms at {small}",
    )


def state_at_size(small: str = "1k", large: str = "100k") -> Figure:
    """The state at the head, as every page asks for it, by a warm process (one that has
    folded the campaign once): what a page's cost does beyond the roster sheet's."""

    def looks(size):
        store = open_store(data.database(size))
        service = Service(store)
        cid = data.campaign_id(size)
        service.repository.forget()
        start = time.perf_counter()
        view = service.state(cid)  # the first look of the process, from the snapshot
        first = time.perf_counter() - start
        assert view.version == store.version(cid)

        def hundred():
            for _ in range(100):
                service.state(cid)

        return _seconds(hundred), first, store

    small_looks, small_first, small_store = looks(small)
    large_looks, large_first, large_store = looks(large)
    large_t, small_t = (t / 100 for t in _paired(large_looks, small_looks))
    small_store.close()
    large_store.close()
    return Figure(
        f"state at {large} events",
        f"Service.state at {large}",
        large_t * 1e6,
        f"Service.state at {small}",
        small_t * 1e6,
        "us",
        1.5,
        False,
        f"warm process (it has folded the campaign once), 100 looks at the head a side, "
        f"median of five pairs run back to back; the first look of the process took "
        f"{large_first * 1000:.0f} ms at {large} and {small_first * 1000:.0f} ms at {small}",
    )


def time_travel(size: str = "100k") -> Figure:
    """A new process's cost: the in-process cache is emptied before each call."""
    store = open_store(data.database(size))
    cid = data.campaign_id(size)
    service = Service(store)
    latest = store.version(cid)
    store.drop_snapshots(cid)  # the same start on every run: no snapshot left by the last one
    service.repository.forget()  # as a process starting on the campaign: nothing folded in memory yet
    service.state(cid)  # the snapshots its first fold leaves, as any served campaign has

    def cold(version=None) -> float:
        service.repository.forget()
        start = time.perf_counter()
        service.state(cid, version)
        return time.perf_counter() - start

    # Five middle events 1,000 apart, between two snapshots (half a stretch to fold from the
    # one before), each asked for the first time; the head asked as often, alternately; the
    # median of each (a slow moment of the machine falls on one look, not on the figure).
    t_mid, t_head = [], []
    for version in range(latest // 2 + 499, latest // 2 + 5000, 1000):
        t_mid.append(cold(version))
        t_head.append(cold())
    first_mid = t_mid[0]
    t_mid = statistics.median(t_mid)
    t_head = statistics.median(t_head)
    service.repository.forget()
    store.close()
    return Figure(
        f"state mid-log ({size})",
        "state at event n/2",
        t_mid * 1000,
        "state at the head",
        t_head * 1000,
        "ms",
        3.0,
        False,
        "cold: the in-process cache emptied before each call, snapshots as left "
        "by the tracker; median of five middle events 1,000 apart and between snapshots, "
        f"each asked for the first time (the first took {first_mid * 1000:.0f} ms), "
        "against the median of five looks at the head",
    )


# -- 9: memory ---------------------------------------------------------------------------------


def memory(small: str = "1k", large: str = "1M") -> Figure:
    def peak(size):
        out = subprocess.run(
            [sys.executable, "-m", "bench.memfold", size],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        return json.loads(out.stdout.strip().splitlines()[-1])

    small_p = peak(small)
    large_p = peak(large)
    return Figure(
        f"peak memory folding {large}",
        f"peak RSS folding {large}",
        large_p["maxrss_mib"],
        f"peak RSS folding {small}",
        small_p["maxrss_mib"],
        "MiB",
        3.0,
        False,
        f"each in a fresh process; the folded state itself is "
        f"{large_p['state_mib']:.1f} MiB of JSON at {large} and "
        f"{small_p['state_mib']:.2f} MiB at {small}",
    )


def machine() -> str:
    import platform

    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return (
        f"{cpu}, {os.cpu_count()} cores, {mem:.0f} GiB, {platform.system()} "
        f"{platform.release()}, Python {platform.python_version()}, "
        f"SQLite {sqlite3.sqlite_version}"
    )
