"""Many clients appending to one campaign over HTTP, through gunicorn on loopback, with
expected versions and retries: every acknowledged event is in the log exactly once."""

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from apiseed import seed
from serving import QUICK_START

from tracker import config

CLIENTS, EACH = 8, 12


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def server(tmp_path):
    database = str(tmp_path / "http.db")
    roles = seed(database)
    port = free_port()
    log = open(tmp_path / "server.log", "wb")
    process = subprocess.Popen(
        [
            sys.executable,
            str(config.ROOT / "manage.py"),
            "serve",
            "--db",
            database,
            "--port",
            str(port),
            "--workers",
            "2",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, **QUICK_START},
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(150):
        try:
            urllib.request.urlopen(url + "/api/systems", timeout=1)
            break
        except OSError:
            time.sleep(0.1)
    yield url, roles["organiser"].headers
    process.terminate()
    process.wait(timeout=30)
    log.close()


def call(url, method="GET", body=None, headers=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        url,
        data=data,
        method=method,
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def client(base, headers, number):
    """Append EACH warbands, each with its own idempotency key, retrying on conflict."""
    acknowledged, conflicts = [], 0
    for n in range(EACH):
        wid = f"w{number}-{n}"
        event = {
            "type": "WarbandFounded",
            "data": {"warband": wid, "name": wid, "player": f"client {number}", "faction": "Load"},
        }
        _, campaign = call(f"{base}/api/campaigns/c", headers=headers)
        expected = campaign["version"]
        while True:
            status, body = call(
                f"{base}/api/campaigns/c/events",
                "POST",
                {"events": [event], "expected_version": expected},
                {**headers, "Idempotency-Key": f"key-{wid}"},
            )
            if status == 201:
                acknowledged.append((wid, body["last_version"]))
                break
            assert status == 409, body
            conflicts += 1
            expected = body["current_version"]
    return acknowledged, conflicts


def test_many_clients_over_http_lose_nothing_and_double_nothing(server):
    base, headers = server
    with ThreadPoolExecutor(CLIENTS) as pool:
        results = list(pool.map(lambda n: client(base, headers, n), range(CLIENTS)))
    acknowledged = [a for acks, _ in results for a in acks]
    assert len(acknowledged) == CLIENTS * EACH
    log, after = [], 0
    while after is not None:
        _, page = call(f"{base}/api/campaigns/c/events?after={after}&limit=500", headers=headers)
        log += page["events"]
        after = page["next_after"]
    founded = [e["data"]["warband"] for e in log if e["type"] == "WarbandFounded"]
    versions = {e["data"]["warband"]: e["version"] for e in log if e["type"] == "WarbandFounded"}
    for wid, version in acknowledged:
        assert founded.count(wid) == 1 and versions[wid] == version
    assert [e["version"] for e in log] == list(range(1, len(log) + 1))
    _, verdict = call(f"{base}/api/campaigns/c/verify", headers=headers)
    assert verdict["ok"]
    print(f"{len(acknowledged)} acknowledged, {sum(c for _, c in results)} conflicts retried")
