"""Appending over HTTP: gunicorn on loopback, 8 clients at once, against a bare endpoint."""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from bench.figures import ROOT, Figure, _fresh, _paired
from tracker.accounts import Accounts
from tracker.dice import SeededRoller
from tracker.service import Service
from tracker.store import open_store
from tracker.web.server import THREADS

CLIENTS = 8


def _port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _seed(path: Path) -> str:
    """One campaign per client plus a shared one, all run by one organiser; returns a token."""
    store = open_store(path)
    store.init()
    accounts = Accounts(store)
    accounts.init()
    service = Service(store, SeededRoller(3))
    user = accounts.sign_up("bench", "a fine long bench password")
    for cid in [f"own-{n}" for n in range(CLIENTS)] + ["shared"]:
        service.start(cid, "warcry", f"Bench {cid}", {"quest": "ember-crown"}, actor="bench")
        accounts.add_member(cid, user, "organiser")
    token = accounts.create_token(user, "bench")
    store.close()
    return token


class Client:
    """One keep-alive connection, as a real client would hold."""

    def __init__(self, port: int, token: str):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

    def call(self, method, path, body=None, headers=None):
        payload = None if body is None else json.dumps(body)
        self.conn.request(method, path, payload, {**self.headers, **(headers or {})})
        answer = self.conn.getresponse()
        return answer.status, json.loads(answer.read() or b"null")

    def append_own(self, number: int, versions: dict) -> None:
        """One warband founded in the client's own campaign, at the version it last saw."""
        status, answer = self.call(
            "POST",
            f"/api/campaigns/own-{number}/events",
            {"events": [_founded(number, versions[number])], "expected_version": versions[number]},
        )
        assert status == 201, (status, answer)
        versions[number] = answer["last_version"]


def serve(db: Path, port: int, log, *options: str) -> subprocess.Popen:
    """gunicorn as `serve` starts it, around the app and the bench's bare endpoint, once it
    answers on `port`."""
    server = subprocess.Popen(
        [sys.executable, "-m", "bench.serve", "--db", str(db), "--port", str(port), *options],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return server
        except OSError:
            time.sleep(0.05)
    server.kill()
    raise RuntimeError("the bench server did not start")


def _founded(number: int, n: int) -> dict:
    wid = f"w{number}-{n}"
    return {
        "type": "WarbandFounded",
        "data": {"warband": wid, "name": wid, "player": f"client {number}", "faction": "Load"},
    }


def _run(clients: int, work, per_client: int) -> float:
    """Runs work(client_number, per_client) in `clients` threads; returns seconds taken."""
    barrier = threading.Barrier(clients + 1)
    errors = []

    def body(number):
        try:
            barrier.wait()
            work(number, per_client)
        except BaseException as error:  # a failed client fails the figure, loudly
            errors.append(error)

    threads = [threading.Thread(target=body, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    barrier.wait()
    start = time.perf_counter()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return time.perf_counter() - start


def run(work_dir: Path, per_client: int = 100) -> tuple[Figure, dict]:
    db = _fresh(work_dir, "http.db")
    token = _seed(db)
    port = _port()
    log = open(work_dir / "server.log", "wb")
    server = serve(db, port, log, "--workers", "2")
    try:
        versions = {n: 1 for n in range(CLIENTS)}

        def append_own(number, count):
            client = Client(port, token)
            for _n in range(count):
                client.append_own(number, versions)

        def noop(number, count):
            client = Client(port, token)
            for n in range(count):
                status, _ = client.call(
                    "POST", "/bench/noop", {"events": [_founded(number, n)], "expected_version": 1}
                )
                assert status == 201, status

        # Warm both paths, then pairs run back to back (the machine has slow moments).
        _run(CLIENTS, noop, 10)
        _run(CLIENTS, append_own, 5)
        t_append, t_noop = _paired(
            lambda: _run(CLIENTS, append_own, per_client // 2),
            lambda: _run(CLIENTS, noop, per_client),
        )
        total = CLIENTS * per_client
        append_rate = CLIENTS * (per_client // 2) / t_append
        figure = Figure(
            "append over HTTP, 8 clients",
            "POST /api/campaigns/{own}/events",
            append_rate,
            "POST /bench/noop (same server)",
            total / t_noop,
            "requests/s",
            0.4,
            True,
            f"gunicorn gthread, 2 workers x {THREADS} threads, loopback, keep-alive, "
            "each client its own campaign; median of five pairs run back to back",
        )
        shared = _shared(port, token, 12)
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
    return figure, shared


def _shared(port: int, token: str, each: int) -> dict:
    """8 clients appending to one campaign with expected versions, retrying on conflict."""
    results = {}

    def work(number, count):
        client = Client(port, token)
        acknowledged, conflicts = [], 0
        for n in range(count):
            event = _founded(number, n)
            wid = event["data"]["warband"]
            _, campaign = client.call("GET", "/api/campaigns/shared")
            expected = campaign["version"]
            while True:
                status, answer = client.call(
                    "POST",
                    "/api/campaigns/shared/events",
                    {"events": [event], "expected_version": expected},
                    {"Idempotency-Key": f"key-{wid}"},
                )
                if status == 201:
                    acknowledged.append((wid, answer["last_version"]))
                    break
                assert status == 409, (status, answer)
                conflicts += 1
                expected = answer["current_version"]
        results[number] = (acknowledged, conflicts)

    seconds = _run(CLIENTS, work, each)
    client = Client(port, token)
    log, after = [], 0
    while after is not None:
        _, page = client.call("GET", f"/api/campaigns/shared/events?after={after}&limit=500")
        log += page["events"]
        after = page["next_after"]
    acknowledged = [a for acks, _ in results.values() for a in acks]
    founded = [e["data"]["warband"] for e in log if e["type"] == "WarbandFounded"]
    at = {e["data"]["warband"]: e["version"] for e in log if e["type"] == "WarbandFounded"}
    once = all(founded.count(wid) == 1 and at[wid] == v for wid, v in acknowledged)
    gapless = [e["version"] for e in log] == list(range(1, len(log) + 1))
    _, verdict = client.call("GET", "/api/campaigns/shared/verify")
    return {
        "acknowledged": len(acknowledged),
        "submitted": CLIENTS * each,
        "conflicts_retried": sum(c for _, c in results.values()),
        "log_events": len(log),
        "every_acknowledged_event_once": once and len(founded) == len(acknowledged),
        "versions_gapless": gapless,
        "verify_ok": bool(verdict.get("ok")),
        "seconds": seconds,
    }
