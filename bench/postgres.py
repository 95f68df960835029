"""PostgreSQL: the same appends and folds as on SQLite, and app servers side by side.

A PostgreSQL server of its own is started for the step in a temporary folder (initdb and
pg_ctl, as the tests start it: tests/pgserver.py), with fsync and synchronous_commit on, so
that its appends are as durable as SQLite's at synchronous=FULL.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg

from bench import data, load
from bench.figures import (
    ROOT,
    Figure,
    _chained_rows,
    _in_turns,
    _median_pair,
    _paired,
    _sample_events,
    _seconds,
)
from bench.http import CLIENTS, Client, _founded, _port, _run, _seed
from tracker.repository import Projections
from tracker.service import Service
from tracker.store import open_store
from tracker.store.postgres import _INSERT

sys.path.insert(0, str(ROOT / "tests"))
from pgserver import Server, binaries  # noqa: E402  (the tests' own server, reused)


def run(work: Path) -> tuple[list[Figure], list[dict], list[dict]]:
    """The figures of PostgreSQL against SQLite and raw psycopg, the app-server table, and
    target 1's load on PostgreSQL through one and two app processes."""
    folder = binaries()
    if folder is None:
        raise SystemExit(
            "the pg step needs PostgreSQL (initdb, pg_ctl): apt-get install postgresql"
        )
    server = Server(folder)
    try:
        figures = appends(server, work) + [folding(server, work)]
        scaling = app_servers(server)
        mixed = mixed_load(server)
    finally:
        server.close()
    return figures, scaling, mixed


def appends(
    server: Server, work: Path, count: int = 1000, block: int = 50, rounds: int = 5
) -> list[Figure]:
    """One event per transaction: the PostgreSQL store against raw psycopg INSERTs (each
    its own transaction, the same rows made beforehand) and against the SQLite store, each
    on a fresh database every round, taking turns `block` appends at a time (as the SQLite
    append figures are measured: the disk's sync moves from one second to the next)."""
    events = _sample_events(count)
    rows = _chained_rows(events)
    fresh = iter(range(10**6))

    def store_on(target):
        store = open_store(target)
        store.init()

        def write(first, last):
            for version in range(first, last):
                store.append("bench", [events[version]], version)

        return write, store.close

    def raw():
        url = server.database()
        schema = open_store(url)
        schema.init()  # the same schema, triggers and indexes
        schema.close()
        conn = psycopg.connect(url, autocommit=True)
        conn.execute("SET synchronous_commit = on")

        def write(first, last):
            for row in rows[first:last]:
                conn.execute(_INSERT, row)

        return write, conn.close

    makers = {
        "pg": lambda: store_on(server.database()),
        "psycopg": raw,
        "sqlite": lambda: store_on(str(work / f"pg-vs-sqlite-{next(fresh)}.db")),
    }
    results = _in_turns(makers, count, block, rounds)
    pg, psy = _median_pair([(r["pg"], r["psycopg"]) for r in results])
    pg2, lite = _median_pair([(r["pg"], r["sqlite"]) for r in results])
    note = (
        f"{count} events, one a transaction; fsync and synchronous_commit on; the writers "
        f"take turns, {block} appends at a time; the median of {rounds} rounds"
    )
    return [
        Figure(
            "append on PostgreSQL vs raw psycopg",
            "PostgresStore.append",
            count / pg,
            "raw psycopg INSERT, autocommit",
            count / psy,
            "events/s",
            0.6,
            True,
            note,
        ),
        Figure(
            "append on PostgreSQL vs SQLite",
            "PostgresStore.append",
            count / pg2,
            "SQLiteStore.append (synchronous=FULL)",
            count / lite,
            "events/s",
            0.2,
            True,
            note,
        ),
    ]


def folding(server: Server, work: Path) -> Figure:
    """A whole fold of the 10k campaign, no snapshot, on each engine."""
    lines = Path(data.jsonl("10k")).read_text(encoding="utf-8").splitlines()
    stores = [open_store(server.database()), open_store(str(work / "fold-pg-vs-sqlite.db"))]
    for store in stores:
        store.init()
        Service(store).import_lines(lines)
    cid = stores[0].campaigns()[0].id
    count = stores[0].version(cid)

    def fold_on(store):
        def go():
            store.drop_snapshots()
            Service(store, kept=Projections()).state(cid)

        return _seconds(go)

    pg, lite = _paired(fold_on(stores[0]), fold_on(stores[1]), rounds=3)
    for store in stores:
        store.close()
    return Figure(
        "fold on PostgreSQL vs SQLite (10k)",
        "fold over PostgresStore",
        count / pg,
        "fold over SQLiteStore",
        count / lite,
        "events/s",
        0.5,
        True,
        "read, decode, apply; snapshots dropped first; median of 3 pairs",
    )


def _serve(url: str, port: int) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, str(ROOT / "manage.py"), "serve", "--db", url]
        + ["--port", str(port), "--workers", "1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _up(port: int) -> None:
    for _ in range(300):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/systems", timeout=1)
            return
        except OSError:
            time.sleep(0.1)


@contextmanager
def _app_processes(url: str, count: int) -> Iterator[tuple[list[int], list[subprocess.Popen]]]:
    """`count` app processes on the database at `url`, each answering on a port of its own;
    (their ports, the processes), all stopped when the block ends."""
    ports = [_port() for _ in range(count)]
    processes = [_serve(url, port) for port in ports]
    try:
        for port in ports:
            _up(port)
        yield ports, processes
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(30)


def app_servers(server: Server, each: int = 40) -> list[dict]:
    """Appends and reads a second through 1, 2 and 4 app processes (gunicorn, one worker
    each) against one database, CLIENTS clients spread over them."""
    table = []
    for processes in (1, 2, 4):
        url = server.database()
        token = _seed(url)
        with _app_processes(url, processes) as (ports, _):
            table.append(_throughput(processes, ports, token, each))
    return table


def _throughput(processes: int, ports: list[int], token: str, each: int) -> dict:
    def append_own(number, count):
        client = Client(ports[number % len(ports)], token)
        for n in range(count):
            status, answer = client.call(
                "POST",
                f"/api/campaigns/own-{number}/events",
                {"events": [_founded(number, n)], "expected_version": n + 1},
            )
            assert status == 201, answer

    def read_own(number, count):
        client = Client(ports[number % len(ports)], token)
        for _ in range(count):
            status, _ = client.call("GET", f"/api/campaigns/own-{number}/events?limit=50")
            assert status == 200

    appended = _run(CLIENTS, append_own, each)
    read = _run(CLIENTS, read_own, each * 2)
    return {
        "app processes": processes,
        "appends/s": round(CLIENTS * each / appended, 1),
        "reads/s": round(CLIENTS * each * 2 / read, 1),
    }


def describe(scaling: list[dict]) -> str:
    return "; ".join(
        f"{row['app processes']} process(es): {row['appends/s']} appends/s, "
        f"{row['reads/s']} reads/s"
        for row in scaling
    )


# -- target 1's load on PostgreSQL ----------------------------------------------------------


def mixed_load(server: Server, clients: int = 20, seconds: float = 8.0) -> list[dict]:
    """Target 1's load (`clients` clients on the ten campaigns, a quarter of their requests
    appends, strict and retried on 409, the rest the dashboard, a roster sheet and the audit
    log, as `bench/load.py` makes it) on one PostgreSQL database, through 1 and through 2 app
    processes (each a gunicorn of one worker, as `serve --workers 1` starts it), the clients
    spread over them; with the cores each party kept busy meanwhile, which say what bounds
    it, and whether every acknowledged append is in the log once."""
    url = server.database()
    seeded = load._seed(url, copies=load.CAMPAIGNS)
    postmaster = int((server.folder / "data" / "postmaster.pid").read_text().split()[0])
    rows = []
    for processes in (1, 2):
        with _app_processes(url, processes) as (ports, apps):
            load.side(ports, load.organisers(seeded, clients), seeded, 2.0)  # warm
            before = _cpu(apps, postmaster)
            tally = load.side(ports, load.organisers(seeded, clients), seeded, seconds)
            after = _cpu(apps, postmaster)
            once, acknowledged = load._once(ports[0], seeded.organiser, [tally], seeded.versions)
        rows.append(
            {
                "app processes": processes,
                "requests/s": round(tally.rate),
                "read p95 ms": round(load.p95(tally.reads)),
                "append p95 ms": round(load.p95(tally.appends)),
                "5xx": tally.server_errors,
                **{
                    f"{party} cores": round((after[party] - before[party]) / tally.seconds, 2)
                    for party in after
                },
                "acknowledged appends in the log once": f"{once} of {acknowledged}",
            }
        )
    return rows


_TICK = os.sysconf("SC_CLK_TCK")


def _cpu(apps: list[subprocess.Popen], postmaster: int) -> dict[str, float]:
    """CPU seconds so far of the app processes (each gunicorn and its workers), of the
    database (the postmaster and its backends) and of this process (the clients)."""
    children: dict[int, list[int]] = {}
    seconds: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        children.setdefault(int(fields[1]), []).append(int(entry.name))
        seconds[int(entry.name)] = (int(fields[11]) + int(fields[12])) / _TICK

    def tree(pid: int) -> float:
        return seconds.get(pid, 0.0) + sum(tree(child) for child in children.get(pid, ()))

    return {
        "app": sum(tree(app.pid) for app in apps),
        "database": tree(postmaster),
        "clients": time.process_time(),
    }


def describe_load(rows: list[dict]) -> str:
    return "; ".join(", ".join(f"{key} {value}" for key, value in row.items()) for row in rows)
