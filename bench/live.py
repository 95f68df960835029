"""Live pages under load: how long a page takes while 8 clients record, with 50 event streams
open against none (the same server, the same recording, side by side)."""

from __future__ import annotations

import socket
import sqlite3
import statistics
import threading
import time
from pathlib import Path

from bench.figures import ROOT, Figure, _fresh
from bench.http import CLIENTS, Client, _port, serve
from tracker import config
from tracker.accounts import Accounts
from tracker.dice import SeededRoller
from tracker.service import Service
from tracker.store import open_store
from tracker.web.server import THREADS

STREAMS = 50
PAGE = "/c/ember-crown-sample/"  # the sample's dashboard: 322 events, every warband drawn
LOOKS = 40  # page loads a side, one after another
# Streams come from many loopback addresses, a few from each, as the pages of many players
# do: `serve` lets a worker hold 24 streams from one address (tracker/web/live.py), and 50
# from 127.0.0.1 alone would measure that limit, not the streams.
AN_ADDRESS = 4


def source(n: int) -> str:
    """The loopback address stream `n` comes from: 127.0.0.2 for the first AN_ADDRESS."""
    return f"127.0.0.{2 + n // AN_ADDRESS}"


def _seed(path: Path) -> str:
    """The sample and one campaign per recording client, all public; returns a token."""
    store = open_store(path)
    store.init()
    accounts = Accounts(store)
    accounts.init()
    service = Service(store, SeededRoller(3))
    user = accounts.sign_up("bench", "a fine long bench password")
    service.import_lines((config.SAMPLES / "warcry-ember-crown.jsonl").read_text().splitlines())
    accounts.set_public("ember-crown-sample", True)
    for n in range(CLIENTS):
        cid = f"own-{n}"
        service.start(cid, "warcry", f"Bench {cid}", {"quest": "ember-crown"}, actor="bench")
        accounts.add_member(cid, user, "organiser")
        accounts.set_public(cid, True)
    token = accounts.create_token(user, "bench")
    store.close()
    return token


class Reader(Client):
    """A browser loading pages (anonymous: the campaigns are public)."""

    def call_page(self, path: str) -> int:
        self.conn.request("GET", path)
        answer = self.conn.getresponse()
        answer.read()
        return answer.status


class Stream:
    """One open page's stream, read in a thread of its own; counts the versions it hears.
    With `refetch`, each announcement fetches the page again, as a live page does (the
    announcements heard meanwhile make one fetch, as htmx's queue does)."""

    def __init__(self, port: int, campaign: str, refetch: bool, source: str | None = None):
        self.port, self.campaign, self.refetch = port, campaign, refetch
        self.heard = self.fetched = 0
        self.status = None  # the answer's status, once heard
        self.open = threading.Event()  # set once the stream opens, or is refused
        self.sock = socket.create_connection(
            ("127.0.0.1", port), timeout=60, source_address=(source, 0) if source else None
        )
        request = (
            f"GET /c/{campaign}/live HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        page = Reader(self.port, "") if self.refetch else None
        tail = b""
        try:
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    return
                text = tail + chunk
                if self.status is None and text.startswith(b"HTTP/"):
                    self.status = int(text.split(b" ", 2)[1])
                    if self.status != 200:
                        self.open.set()  # refused: the caller says so
                        return
                if b"retry:" in text:
                    self.open.set()
                heard = text.count(b"event: version")
                tail = text[-20:]
                self.heard += heard
                if heard and page is not None:
                    self.fetched += page.call_page(f"/c/{self.campaign}/") == 200
        except OSError:
            return

    def close(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


def _side(port: int, token: str, streams: int, refetch: bool = False) -> dict:
    """Page latency (ms) while 8 clients record, with `streams` streams open."""
    opened = [Stream(port, f"own-{n % CLIENTS}", refetch, source(n)) for n in range(streams)]
    for stream in opened:
        assert stream.open.wait(30), "a stream did not open"
        assert stream.status == 200, f"a stream was refused: {stream.status}"
    stop = threading.Event()
    appended = [0] * CLIENTS
    versions = {n: _version(port, token, n) for n in range(CLIENTS)}

    def record(number):
        client = Client(port, token)
        while not stop.is_set():
            client.append_own(number, versions)
            appended[number] += 1

    recorders = [threading.Thread(target=record, args=(n,), daemon=True) for n in range(CLIENTS)]
    for thread in recorders:
        thread.start()
    time.sleep(0.5)  # the recording under way
    reader, took = Reader(port, ""), []
    started = time.perf_counter()
    for _ in range(LOOKS):
        begin = time.perf_counter()
        status = reader.call_page(PAGE)
        took.append((time.perf_counter() - begin) * 1000)
        assert status == 200, status
    seconds = time.perf_counter() - started
    stop.set()
    for thread in recorders:
        thread.join(60)
    for stream in opened:
        stream.close()
    took.sort()
    return {
        "median_ms": statistics.median(took),
        "p90_ms": took[int(len(took) * 0.9) - 1],
        "appends_per_s": sum(appended) / (seconds + 0.5),
        "heard": sum(s.heard for s in opened),
        "refetched": sum(s.fetched for s in opened),
    }


def _version(port: int, token: str, number: int) -> int:
    _, campaign = Client(port, token).call("GET", f"/api/campaigns/own-{number}")
    return campaign["version"]


def run(work_dir: Path, rounds: int = 5, options: tuple = ()) -> tuple[Figure, dict]:
    """Rounds of (no streams, 50 streams), the side going first taking turns; the round whose
    ratio is the median. Also one side where every stream fetches its page on each version."""
    db = _fresh(work_dir, "live.db")
    token = _seed(db)
    port = _port()
    log = open(work_dir / "live-server.log", "wb")
    server = serve(db, port, log, *options)
    try:
        _side(port, token, 0)  # warm: the sample folded, the connections made
        pairs = []
        for n in range(rounds):
            if n % 2:
                streams, none = _side(port, token, STREAMS), _side(port, token, 0)
            else:
                none, streams = _side(port, token, 0), _side(port, token, STREAMS)
            pairs.append((streams, none))
        pairs.sort(key=lambda pair: pair[0]["median_ms"] / pair[1]["median_ms"])
        streams, none = pairs[len(pairs) // 2]
        refetching = _side(port, token, STREAMS, refetch=True)
    finally:
        server.terminate()
        server.wait(timeout=60)
        log.close()
    figure = Figure(
        f"page while 8 record, {STREAMS} streams open",
        f"GET {PAGE} with {STREAMS} streams",
        streams["median_ms"],
        "the same with no stream",
        none["median_ms"],
        "ms",
        1.5,
        False,
        f"{_server(options)}; 8 clients appending over the API "
        f"all along ({streams['appends_per_s']:.0f}/s with streams, "
        f"{none['appends_per_s']:.0f}/s without); {LOOKS} page loads a side; streams heard "
        f"{streams['heard']} versions; median of {rounds} rounds",
    )
    details = {
        "with streams": streams,
        "without": none,
        "streams that fetch their page on each version": refetching,
    }
    return figure, details


SERVERS = (("new", ()), ("old", ("--old-server",)))


def refetching(work_dir: Path, rounds: int = 2, compared=SERVERS) -> list[tuple[str, dict]]:
    """The side where every stream fetches its page on each version, on each server of
    `compared` ((name, bench/serve.py options): today's and the old one, by default) up at
    once, each on a copy of one database, `rounds` rounds, the server going first taking
    turns: (server, side) in the order run."""
    db = _fresh(work_dir, "refetch-0.db")
    token = _seed(db)
    paths = [db]
    for n in range(1, len(compared)):
        paths.append(_fresh(work_dir, f"refetch-{n}.db"))
        source, copy = sqlite3.connect(db), sqlite3.connect(paths[-1])
        source.backup(copy)
        source.close()
        copy.close()
    servers, logs, measured = {}, [], []
    try:
        for (name, options), path in zip(compared, paths):
            port = _port()
            logs.append(open(work_dir / f"refetch-{name}.log", "wb"))
            servers[name] = (port, serve(path, port, logs[-1], *options))
        for port, _ in servers.values():
            _side(port, token, 0)  # warm
        names = [name for name, _ in compared]
        for n in range(rounds):
            for name in names if n % 2 == 0 else names[::-1]:
                measured.append((name, _side(servers[name][0], token, STREAMS, refetch=True)))
    finally:
        for _, server in servers.values():
            server.terminate()
            server.wait(timeout=60)
        for log in logs:
            log.close()
    return measured


def _server(options: tuple) -> str:
    if "--old-server" in options:
        return "gunicorn gthread, 2 workers x 64 threads, access log on (the old settings)"
    return f"gunicorn StreamingWorker, 2 workers x {THREADS} threads"


def main() -> None:
    """python -m bench.live [--old-server | --refetching]: this figure alone, printed
    (bench/RESULTS.md is not written); with --old-server, on the settings before streams held
    no thread; with --refetching, only the side whose streams fetch their page, on both."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m bench.live")
    parser.add_argument("--old-server", action="store_true")
    parser.add_argument(
        "--refetching",
        action="store_true",
        help="only the side where every stream fetches its page, on both servers at once",
    )
    parser.add_argument(
        "--threads",
        type=lambda text: [int(n) for n in text.split(",")],
        help="with --refetching: today's server with each of these thread counts (8,16,32)",
    )
    args = parser.parse_args()
    work = ROOT / "bench" / ".cache"
    work.mkdir(parents=True, exist_ok=True)
    if args.refetching:
        compared = SERVERS
        if args.threads:
            compared = [(f"{n} threads", ("--threads", str(n))) for n in args.threads]
        for name, values in refetching(work, compared=compared):
            print(
                f"- {name} server, streams that fetch their page on each version: {shown(values)}"
            )
        return
    figure, details = run(work, options=("--old-server",) if args.old_server else ())
    print(
        f"{figure.name}: {figure.ratio:.2f} ({figure.target_text}: "
        f"{'pass' if figure.passed else 'FAIL'}); {figure.ours} {figure.ours_value:.1f} ms, "
        f"{figure.theirs} {figure.theirs_value:.1f} ms"
    )
    print(figure.note)
    for name, values in details.items():
        print(f"- {name}: {shown(values)}")


def shown(values: dict) -> str:
    return ", ".join(
        f"{k} {v:.1f}" if isinstance(v, float) else f"{k} {v}" for k, v in values.items()
    )


if __name__ == "__main__":
    main()
