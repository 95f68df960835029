"""Two app servers (two gunicorns, on two ports) against one PostgreSQL database: clients of
both appending to one campaign lose nothing, double nothing and leave no gap."""

import os
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from api.test_http_concurrency import CLIENTS, EACH, call, client, free_port
from apiseed import seed
from serving import QUICK_START

from tracker import config
from tracker.store import open_store


def _serve(url: str, port: int, log) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, str(config.ROOT / "manage.py"), "serve", "--db", url]
        + ["--port", str(port), "--workers", "2"],
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, **QUICK_START},
    )


@pytest.fixture
def servers(pg_url, tmp_path):
    roles = seed(pg_url)
    ports = [free_port(), free_port()]
    log = open(tmp_path / "servers.log", "wb")
    processes = [_serve(pg_url, port, log) for port in ports]
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    for base in bases:
        for _ in range(300):
            try:
                urllib.request.urlopen(base + "/api/systems", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
    yield bases, roles["organiser"].headers, pg_url
    for process in processes:
        process.terminate()
    for process in processes:
        process.wait(timeout=30)
    log.close()


def test_clients_of_two_app_servers_on_one_database_lose_nothing_and_double_nothing(servers):
    bases, headers, url = servers
    with ThreadPoolExecutor(CLIENTS) as pool:
        results = list(pool.map(lambda n: client(bases[n % 2], headers, n), range(CLIENTS)))
    acknowledged = [a for acks, _ in results for a in acks]
    assert len(acknowledged) == CLIENTS * EACH
    store = open_store(url)
    try:
        log = list(store.read("c"))
        assert [e.version for e in log] == list(range(1, len(log) + 1))
        founded = [e.data["warband"] for e in log if e.type == "WarbandFounded"]
        versions = {e.data["warband"]: e.version for e in log if e.type == "WarbandFounded"}
        for wid, version in acknowledged:
            assert founded.count(wid) == 1 and versions[wid] == version
        assert store.verify("c") is None
    finally:
        store.close()
    for base in bases:  # each server reads what the other wrote
        status, campaign = call(f"{base}/api/campaigns/c", headers=headers)
        assert status == 200 and campaign["version"] == len(log)


def test_an_append_through_one_app_server_wakes_a_watcher_of_the_other_within_two_seconds(
    servers,
):
    import threading

    bases, headers, url = servers
    watcher = open_store(url)  # what the live pages of the second server wait on
    seen, woke = watcher.position(), []
    thread = threading.Thread(target=lambda: (watcher.wait(seen, 10), woke.append(time.time())))
    thread.start()
    time.sleep(0.5)
    sent = time.time()
    acks, _ = client(bases[0], headers, 99)
    thread.join(15)
    watcher.close()
    assert acks and woke and woke[0] - sent < 2


def test_a_page_open_on_one_app_server_hears_of_an_append_through_the_other_within_two_seconds(
    servers,
):
    """The live page's own stream, served by the second server, while a client of the first
    records: LISTEN/NOTIFY carries the new version across."""
    import http.client
    import threading
    from urllib.parse import urlsplit

    from tracker.accounts import Accounts

    bases, headers, url = servers
    store = open_store(url)
    try:
        Accounts(store).set_public("c", True)  # an anonymous reader may open its stream
        since = store.version("c")
    finally:
        store.close()
    second = urlsplit(bases[1])
    stream = http.client.HTTPConnection(second.hostname, second.port, timeout=15)
    stream.request("GET", f"/c/c/live?since={since}", headers={"Accept": "text/event-stream"})
    answer = stream.getresponse()
    assert answer.status == 200
    heard = []

    def listen():
        for line in answer:
            if line.startswith(b"data: ") and line[6:].strip().isdigit():
                heard.append((int(line[6:]), time.time()))
                return

    thread = threading.Thread(target=listen, daemon=True)
    thread.start()
    time.sleep(0.5)
    sent = time.time()
    acks, _ = client(bases[0], headers, 98)
    thread.join(10)
    stream.close()
    assert acks and heard, "the second server's stream told no new version"
    version, when = heard[0]
    assert version > since and when - sent < 2
