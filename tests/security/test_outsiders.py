"""An outsider against a served tracker (gunicorn on loopback, as `serve` runs it): streams by
the hundred from one address and from many, a body far too large. Each is answered in words,
nothing is written, and the server keeps answering everyone else."""

import socket
import time
import urllib.request

import pytest
from apiseed import seed
from serving import served

from tracker.accounts import Accounts
from tracker.dice import SeededRoller
from tracker.service import Service
from tracker.store import open_store


@pytest.fixture(scope="module")
def served_tracker(tmp_path_factory):
    """The tracker served as `serve` serves it, over a public campaign "c"."""
    folder = tmp_path_factory.mktemp("outsiders")
    database = str(folder / "t.db")
    seed(database)
    store = open_store(database)
    Accounts(store).set_public("c", True)
    store.close()
    with open(folder / "server.log", "wb") as log, served(database, log=log) as (_, port):
        yield port, database


def open_streams(port: int, count: int, addresses: int) -> tuple[list[socket.socket], dict]:
    """`count` streams of campaign "c" from `addresses` loopback addresses; the open ones and
    how many were answered with each status line."""
    kept, statuses = [], {}
    for n in range(count):
        sock = socket.socket()
        sock.bind((f"127.0.0.{2 + n % addresses}", 0))
        sock.settimeout(10)
        sock.connect(("127.0.0.1", port))
        sock.sendall(b"GET /c/c/live HTTP/1.1\r\nHost: tracker\r\n\r\n")
        head = _head(sock)
        status = int(head.split(b" ", 2)[1])
        statuses[status] = statuses.get(status, 0) + 1
        if status == 200:
            kept.append(sock)
        else:
            assert b"Retry-After: 30" in head, head
            sock.close()
    return kept, statuses


def _head(sock: socket.socket) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
    return data


def others_answered(port: int) -> None:
    """Everyone else is still served: the front page, a campaign page, the API."""
    for path in ("/", "/c/c/", "/api/systems", "/c/c/audit"):
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as page:
            assert page.status == 200


def append_one(database: str) -> int:
    store = open_store(database)
    try:
        svc = Service(store, SeededRoller(1))
        version = store.version("c")
        data = {"warband": f"gulls{version}", "name": "Gulls", "player": "P", "faction": "Ash"}
        svc.append("c", [{"type": "WarbandFounded", "data": data}], version, actor="org")
        return version + 1
    finally:
        store.close()


def test_a_hundred_and_forty_streams_from_one_address_are_limited_in_words(served_tracker):
    port, database = served_tracker
    before = open_store(database, readonly=True)
    version = before.version("c")
    before.close()
    kept, statuses = open_streams(port, 140, addresses=1)
    try:
        # Each of the two workers holds at most 24 streams of one address.
        assert statuses.get(200, 0) <= 48 and statuses[429] >= 140 - 48
        others_answered(port)
        refused = socket.create_connection(
            ("127.0.0.1", port), timeout=10, source_address=("127.0.0.2", 0)
        )
        refused.sendall(b"GET /c/c/live HTTP/1.1\r\nHost: tracker\r\nConnection: close\r\n\r\n")
        answer = b""
        while chunk := refused.recv(4096):
            answer += chunk
        assert b"429" in answer.split(b"\r\n")[0]
        assert b"live pages open on this server" in answer
    finally:
        for sock in kept:
            sock.close()
    after = open_store(database, readonly=True)
    assert after.version("c") == version  # nothing was written
    after.close()


def test_a_hundred_and_forty_streams_from_as_many_addresses_are_all_held_and_told(served_tracker):
    port, database = served_tracker
    kept, statuses = open_streams(port, 140, addresses=140)
    try:
        assert statuses == {200: 140}
        others_answered(port)
        version = append_one(database)
        for sock in kept:
            sock.settimeout(10)
            heard = b""
            while f"data: {version}".encode() not in heard:
                chunk = sock.recv(4096)
                assert chunk, heard
                heard += chunk
    finally:
        for sock in kept:
            sock.close()


def test_a_hundred_megabyte_body_is_refused_in_words_before_it_is_read(served_tracker):
    port, database = served_tracker
    before = open_store(database, readonly=True)
    campaigns = len(before.campaigns())
    before.close()
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    size = 100 * 1024 * 1024
    sock.sendall(
        b"POST /api/campaigns HTTP/1.1\r\nHost: tracker\r\nContent-Type: application/json\r\n"
        + f"Content-Length: {size}\r\n\r\n".encode()
    )
    started = time.monotonic()
    sent, answer = 0, b""
    sock.settimeout(0.05)
    block = b" " * 65536
    while sent < size and time.monotonic() - started < 10:
        try:
            sent += sock.send(block)
        except (BlockingIOError, TimeoutError):
            pass
        except (BrokenPipeError, ConnectionResetError):
            break
        try:
            chunk = sock.recv(65536)
            if chunk:
                answer += chunk
        except (BlockingIOError, TimeoutError):
            pass
        except ConnectionResetError:
            break
        if b"\r\n\r\n" in answer:
            break
    sock.settimeout(10)
    try:
        while b"nothing was written" not in answer and (chunk := sock.recv(65536)):
            answer += chunk  # the rest of the answer after its headers
    except (ConnectionResetError, TimeoutError):
        pass
    sock.close()
    assert sent < size, "the whole body was taken in"
    assert answer.split(b"\r\n")[0].endswith(b"413 CONTENT TOO LARGE") or b" 413 " in answer
    assert b"the request is larger than the 2 MB the tracker reads at once" in answer
    assert b"Connection: close" in answer
    others_answered(port)
    after = open_store(database, readonly=True)
    assert len(after.campaigns()) == campaigns
    after.close()


def test_a_page_says_in_words_that_its_body_was_too_large(app, client):
    app.config["MAX_CONTENT_LENGTH"] = 4096
    page = client.post("/login", data={"name": "x" * 10000, "password": "y"})
    assert page.status_code == 413
    assert "The request is larger than the 4 kB the tracker reads at once" in page.text


def test_a_stream_over_the_limits_is_refused_with_retry_after_and_holds_nothing(app, client):
    app.config.update(LIVE_PER_ADDRESS=2, LIVE_SECONDS=30.0)
    open_store(app.config["DATABASE"]).close()
    seed(app.config["DATABASE"])
    store = open_store(app.config["DATABASE"])
    Accounts(store).set_public("c", True)
    store.close()
    held = [client.get("/c/c/live", buffered=False) for _ in range(2)]
    refused = client.get("/c/c/live")
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "30"
    assert "Your address has 2 live pages open on this server" in refused.text
    from_elsewhere = client.get(
        "/c/c/live", buffered=False, environ_base={"REMOTE_ADDR": "10.9.9.9"}
    )
    assert from_elsewhere.status_code == 200
    for response in held + [from_elsewhere]:
        response.close()
    again = client.get("/c/c/live", buffered=False)
    assert again.status_code == 200  # a closed stream gave its slot back
    again.close()


def test_streams_of_one_account_are_limited_from_every_address(app):
    from logins import logged_in

    app.config.update(LIVE_PER_ACCOUNT=2, LIVE_SECONDS=30.0)
    seed(app.config["DATABASE"])
    client = logged_in(app, "ivy")
    held = [
        client.get("/c/c/live", buffered=False, environ_base={"REMOTE_ADDR": f"10.0.0.{n}"})
        for n in range(2)
    ]
    assert [response.status_code for response in held] == [200, 200]
    refused = client.get("/c/c/live", environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert refused.status_code == 429
    assert "Your account has 2 live pages open on this server" in refused.text
    for response in held:
        response.close()


def test_a_full_process_answers_503_with_retry_after(app, client):
    app.config.update(LIVE_PER_PROCESS=1, LIVE_SECONDS=30.0)
    seed(app.config["DATABASE"])
    store = open_store(app.config["DATABASE"])
    Accounts(store).set_public("c", True)
    store.close()
    held = client.get("/c/c/live", buffered=False)
    refused = client.get("/c/c/live", environ_base={"REMOTE_ADDR": "10.1.1.1"})
    assert refused.status_code == 503 and refused.headers["Retry-After"] == "30"
    assert "This server holds 1 live pages already" in refused.text
    held.close()


def test_a_limit_is_set_from_the_environment_and_a_bad_one_is_refused(monkeypatch, tmp_path):
    from tracker.web import create_app

    monkeypatch.setenv("TRACKER_LIVE_PER_ADDRESS", "3")
    assert create_app({"DATABASE": str(tmp_path / "e.db")}).config["LIVE_PER_ADDRESS"] == 3
    monkeypatch.setenv("TRACKER_LIVE_PER_ADDRESS", "many")
    with pytest.raises(ValueError, match="TRACKER_LIVE_PER_ADDRESS is a whole number"):
        create_app({"DATABASE": str(tmp_path / "e.db")})
