"""Many live pages at once, and the server before and after its streams held no thread.

`crowd`: 1,000 streams of server-sent events held open on one public campaign from 250
loopback addresses (127.0.0.2 ... 127.0.0.251, 4 an address: the per-address limit of a
worker is not what is measured), all read by one selector in this process (a thread a socket
would load the client). Every stream must be let in (200), and each must hear the next
version within 2 s of an append to its campaign. While they are open, the load of 20 clients
(bench/load.py) runs on the load's ten campaigns, against the same load with no stream, side
by side, the side going first taking turns: other users' page read p95 with the streams at
most 1.5 times without, no answer a 5xx. Memory per 1,000 streams: the gunicorn workers' RSS
with the streams open, less before they were opened.

`servers`: the load figures of 20 and 50 clients (throughput and read p95 against the bare
Flask endpoint) on two servers running at once from the same code (bench/serve.py): today's
settings, and the old ones (gthread worker, 64 threads, access log on), rounds taking turns.

Alone: python -m bench.streams [--seconds 8] [--rounds 3] [--only crowd,servers]
(prints; writes nothing)
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import resource
import selectors
import socket
import sqlite3
import threading
import time
from collections import Counter
from pathlib import Path

from bench.figures import ROOT, Figure, _fresh
from bench.http import _port, serve
from bench.live import AN_ADDRESS, source
from bench.load import (
    CAMPAIGNS,
    FLASK,
    SECONDS,
    Seeded,
    Tally,
    _seed,
    organisers,
    p95,
    paired,
    side,
)
from bench.serve import OLD
from tracker.web.server import THREADS

STREAMS = 1000
WITHIN = 2.0  # seconds from an append to every stream hearing it
CLIENTS = 20  # the load beside the streams
CAMPAIGN = f"load-{CAMPAIGNS}"  # the streams' campaign: public, outside the load's ten
ROUNDS = 3
EVERY = 1.0  # seconds between the appends the streams are timed on, under the load
_DATA = re.compile(rb"^data: (\d+)$", re.M)


def _more_files(wanted: int) -> None:
    """This process's open-file limit raised to its hard limit, if `wanted` needs it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted + 200:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


class Crowd:
    """`count` streams on `campaign`, AN_ADDRESS from each loopback address from
    127.0.0.2 on (bench/live.py's `source`), read by one selector in a thread of their own. For each stream: the
    status it was answered, and when it first heard each version."""

    def __init__(self, port: int, campaign: str, count: int = STREAMS):
        _more_files(count)
        self.count = count
        self.statuses: list[int | None] = [None] * count
        self.heard: list[dict[int, float]] = [{} for _ in range(count)]
        self.ended = [False] * count
        self._buffers = [b""] * count
        self._headed = [False] * count
        self._selector = selectors.DefaultSelector()
        self._stop = False
        self._socks = []
        request = (
            f"GET /c/{campaign}/live HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n"
        ).encode()
        began = time.perf_counter()
        for n in range(count):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.bind((source(n), 0))
            sock.connect(("127.0.0.1", port))
            sock.sendall(request)
            sock.setblocking(False)
            self._socks.append(sock)
            self._selector.register(sock, selectors.EVENT_READ, n)
        self.sent = time.perf_counter() - began  # seconds to connect and send every request
        self._thread = threading.Thread(target=self._read, name="bench-crowd", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while not self._stop:
            for key, _ in self._selector.select(0.2):
                n = key.data
                try:
                    chunk = key.fileobj.recv(65536)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    chunk = b""
                now = time.perf_counter()
                if not chunk:
                    self.ended[n] = True
                    self._selector.unregister(key.fileobj)
                    continue
                self._take(n, self._buffers[n] + chunk, now)

    def _take(self, n: int, text: bytes, now: float) -> None:
        if not self._headed[n]:
            end = text.find(b"\r\n\r\n")
            if end < 0:
                self._buffers[n] = text
                return
            self.statuses[n] = int(text.split(b" ", 2)[1])
            self._headed[n] = True
            text = text[end + 4 :]
        cut = text.rfind(b"\n") + 1  # whole lines only; the rest waits for the next chunk
        for match in _DATA.finditer(text, 0, cut):
            self.heard[n].setdefault(int(match.group(1)), now)
        self._buffers[n] = text[cut:]

    def wait(self, test, timeout: float) -> bool:
        """Whether test(n) holds for every stream within `timeout` seconds."""
        until = time.perf_counter() + timeout
        while time.perf_counter() < until:
            if all(test(n) for n in range(self.count)):
                return True
            time.sleep(0.01)
        return all(test(n) for n in range(self.count))

    def answered(self, timeout: float = 60.0) -> Counter:
        """The statuses, once every stream was answered (or the time is up: None)."""
        self.wait(lambda n: self.statuses[n] is not None or self.ended[n], timeout)
        return Counter(self.statuses)

    def delays(self, version: int, at: float, timeout: float = 10.0) -> list[float]:
        """Seconds from `at` to each accepted stream hearing `version` (inf: not heard)."""
        self.wait(lambda n: self.statuses[n] != 200 or version in self.heard[n], timeout)
        return [
            self.heard[n].get(version, float("inf")) - at
            for n in range(self.count)
            if self.statuses[n] == 200
        ]

    def close(self) -> None:
        self._stop = True
        self._thread.join(5)
        for sock in self._socks:
            try:
                sock.close()
            except OSError:
                pass
        self._selector.close()


class Appender:
    """The organiser correcting a fighter's name on the streams' campaign over the API, one
    event at a time: each call appends one and answers (its version, when it was sent)."""

    def __init__(self, port: int, seeded: Seeded, campaign: str = CAMPAIGN):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.seeded, self.campaign = seeded, campaign
        self.version = seeded.versions[campaign]
        self.warband = seeded.warbands[0]
        self.count = 0

    def __call__(self) -> tuple[int, float]:
        self.count += 1
        event = {
            "type": "FighterCorrected",
            "data": {
                "warband": self.warband,
                "fighter": self.seeded.fighters[self.campaign][self.warband],
                "name": f"streamed {self.count}",
            },
        }
        while True:
            body = json.dumps({"events": [event], "expected_version": self.version})
            sent = time.perf_counter()
            self.conn.request(
                "POST",
                f"/api/campaigns/{self.campaign}/events",
                body,
                {
                    "Authorization": f"Bearer {self.seeded.organiser}",
                    "Content-Type": "application/json",
                },
            )
            answer = self.conn.getresponse()
            content = json.loads(answer.read())
            if answer.status == 201:
                self.version = content["last_version"]
                return self.version, sent
            assert answer.status == 409, (answer.status, content)
            self.version = content["current_version"]

    def close(self) -> None:
        self.conn.close()


def workers_rss(server_pid: int) -> int:
    """Bytes of resident memory of the server's children (the gunicorn workers)."""
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            if int(stat.rsplit(")", 1)[1].split()[1]) != server_pid:
                continue
            for line in Path(f"/proc/{entry}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except (OSError, ValueError, IndexError):
            continue
    return total


def _streamed_side(port: int, server, seeded: Seeded, seconds: float, rounds: list) -> Tally:
    """The load of CLIENTS clients with STREAMS streams open on CAMPAIGN; what the streams
    met goes into `rounds` (a dict a round)."""
    appender = Appender(port, seeded)
    before = workers_rss(server.pid)
    began = time.perf_counter()
    crowd = Crowd(port, CAMPAIGN)
    try:
        statuses = crowd.answered()
        opened = crowd.wait(lambda n: crowd.statuses[n] != 200 or crowd.heard[n], 30)
        took = time.perf_counter() - began
        time.sleep(0.5)  # the last streams settled in the announcer
        after = workers_rss(server.pid)
        version, sent = appender()
        quiet = crowd.delays(version, sent)
        loaded: list[float] = []
        result: list = []
        loading = threading.Thread(
            target=lambda: result.append(side(port, organisers(seeded, CLIENTS), seeded, seconds))
        )
        loading.start()
        time.sleep(min(EVERY, seconds / 4))
        while loading.is_alive():
            version, sent = appender()
            loaded += crowd.delays(version, sent)
            time.sleep(max(0.0, EVERY - (time.perf_counter() - sent)))
        loading.join()
        rounds.append(
            {
                "statuses": statuses,
                "opened": opened,
                "open_seconds": took,
                "rss_before": before,
                "rss_after": after,
                "quiet": quiet,
                "loaded": loaded,
                "ended": sum(crowd.ended),
            }
        )
        if not result:
            raise RuntimeError("the load beside the streams failed")
        return result[0]
    finally:
        crowd.close()
        appender.close()
        time.sleep(1.0)  # the server notices the closed pages before the next side


def crowd(work_dir: Path, seconds: float = SECONDS, rounds: int = ROUNDS):
    """The 1,000-stream figures and the details each printed line gives."""
    db = _fresh(work_dir, "streams.db")
    seeded = _seed(db, CAMPAIGNS + 1)
    port = _port()
    log = open(work_dir / "streams-server.log", "wb")
    server = serve(db, port, log)
    met: list[dict] = []
    try:
        side(port, organisers(seeded, CLIENTS, bare=FLASK), seeded, min(2.0, seconds / 4))
        side(port, organisers(seeded, CLIENTS), seeded, min(2.0, seconds / 4))  # folded: warm
        streaming, quiet = paired(
            lambda: _streamed_side(port, server, seeded, seconds, met),
            lambda: side(port, organisers(seeded, CLIENTS), seeded, seconds),
            rounds,
            lambda a, b: p95(a.reads) / p95(b.reads),
        )
    finally:
        server.terminate()
        server.wait(timeout=60)
        log.close()
    return _crowd_figures(streaming, quiet, met, seconds, rounds)


def _crowd_figures(streaming: Tally, quiet: Tally, met: list[dict], seconds, rounds):
    accepted = min(r["statuses"].get(200, 0) for r in met)
    refused = sum((r["statuses"] for r in met), Counter())
    refused.pop(200, None)
    delays = [d for r in met for d in r["quiet"] + r["loaded"]]
    within = sum(d <= WITHIN for d in delays)
    slowest = max(delays) if delays else float("nan")
    per_thousand = [
        (r["rss_after"] - r["rss_before"]) / 2**20 * 1000 / max(1, r["statuses"].get(200, 0))
        for r in met
    ]
    errors = streaming.server_errors + quiet.server_errors
    answered = streaming.requests + quiet.requests
    server = f"gunicorn {THREADS} threads a worker, 2 workers, streams handed to the announcer"
    where = (
        f"{STREAMS} streams on {CAMPAIGN}, {AN_ADDRESS} from each of "
        f"{STREAMS // AN_ADDRESS} loopback addresses, read by one selector"
    )
    figures = [
        Figure(
            f"{STREAMS:,} streams: let in",
            "answered 200 (the fewest of the rounds)",
            accepted,
            "opened",
            STREAMS,
            "streams",
            1.0,
            True,
            f"{server}; {where}; {rounds} rounds"
            + (f"; refused or unanswered: {dict(refused)}" if refused else ""),
        ),
        Figure(
            f"{STREAMS:,} streams: the next version heard within {WITHIN:g} s of an append",
            f"heard within {WITHIN:g} s",
            within,
            "streams times appends",
            len(delays),
            "hearings",
            1.0,
            True,
            f"{where}; the organiser appends over the API, timed from the request's sending; "
            f"once quiet and every {EVERY:g} s under the load of {CLIENTS} clients; "
            f"slowest {slowest:.2f} s",
        ),
        Figure(
            f"busy server, {CLIENTS} clients, {STREAMS:,} streams: read p95",
            f"with {STREAMS:,} streams open",
            p95(streaming.reads),
            "without",
            p95(quiet.reads),
            "ms",
            1.5,
            False,
            f"{server}; the load of {CLIENTS} clients on its ten campaigns, with {where} (an "
            f"append there every {EVERY:g} s, each told to every stream); {seconds:g} s a "
            f"side, median of {rounds} pairs",
        ),
        Figure(
            f"busy server with {STREAMS:,} streams: answers 5xx or failed",
            "5xx or no answer",
            errors,
            "answers",
            answered,
            "requests",
            0.0,
            False,
            f"both sides of the {CLIENTS}-client load, in the median pair",
        ),
    ]
    details = {
        "streams opened": "; ".join(
            f"round {k + 1}: {r['statuses'].get(200, 0)} let in in {r['open_seconds']:.1f} s, "
            f"every one heard its first version: {r['opened']}, ended by the server "
            f"{r['ended']}"
            for k, r in enumerate(met)
        ),
        "heard after an append": "; ".join(
            f"round {k + 1}: quiet slowest {max(r['quiet'], default=float('nan')):.2f} s, "
            f"under the load {len(r['loaded']) // max(1, len(r['quiet']))} appends, slowest "
            f"{max(r['loaded'], default=float('nan')):.2f} s, median "
            f"{sorted(r['loaded'])[len(r['loaded']) // 2] if r['loaded'] else float('nan'):.2f} s"
            for k, r in enumerate(met)
        ),
        f"memory per {STREAMS:,} streams": ", ".join(f"{m:.1f} MiB" for m in per_thousand)
        + " (the workers' RSS with them open less just before, each round: the first round's"
        " streams are the server's first, later rounds reuse the memory they left free; "
        "the kernel's socket buffers not counted; workers' RSS before "
        + ", ".join(f"{r['rss_before'] / 2**20:.0f}" for r in met)
        + " MiB)",
        f"{CLIENTS} clients, {STREAMS:,} streams open": _described(streaming),
        f"{CLIENTS} clients, no stream": _described(quiet),
    }
    return figures, details


def _described(t: Tally) -> str:
    from bench.load import _described as described

    return described(t)


# -- the server before and after --------------------------------------------------------------


SETTINGS = {
    "new": (),
    "old": ("--old-server",),
}


def servers(work_dir: Path, seconds: float = SECONDS, rounds: int = ROUNDS) -> dict:
    """The load figures of 20 and 50 clients on today's server and the old one, both running
    at once on copies of one database, the setting going first taking turns. Answers the
    printed lines."""
    db = _fresh(work_dir, "servers-new.db")
    seeded = _seed(db, CAMPAIGNS)
    old_db = _fresh(work_dir, "servers-old.db")
    source, copy = sqlite3.connect(db), sqlite3.connect(old_db)
    source.backup(copy)
    source.close()
    copy.close()
    ports, running, logs = {}, {}, []
    try:
        for name, path in (("new", db), ("old", old_db)):
            ports[name] = _port()
            logs.append(open(work_dir / f"servers-{name}.log", "wb"))
            running[name] = serve(path, ports[name], logs[-1], *SETTINGS[name])
        for name in SETTINGS:
            for bare in (FLASK, None):
                side(ports[name], organisers(seeded, 20, bare), seeded, min(2.0, seconds / 4))
        measured: dict = {}
        for clients in (20, 50):
            pairs: dict = {name: [] for name in SETTINGS}
            for n in range(rounds):
                for name in list(SETTINGS)[:: 1 if n % 2 == 0 else -1]:
                    pairs[name].append(_pair(ports[name], seeded, clients, seconds, n % 2 == 0))
            for name, each in pairs.items():
                each.sort(key=lambda pair: pair[0].rate / pair[1].rate)
                measured[(name, clients)] = each[len(each) // 2]
    finally:
        for server in running.values():
            server.terminate()
            server.wait(timeout=60)
        for log in logs:
            log.close()
    return _compared(measured, seconds, rounds)


def _pair(port: int, seeded: Seeded, clients: int, seconds: float, mix_first: bool) -> tuple:
    """(the mix, the bare endpoint) of `clients` clients, back to back."""
    mixed = side(port, organisers(seeded, clients), seeded, seconds) if mix_first else None
    bare = side(port, organisers(seeded, clients, FLASK), seeded, seconds)
    if mixed is None:
        mixed = side(port, organisers(seeded, clients), seeded, seconds)
    return mixed, bare


def _compared(measured: dict, seconds: float, rounds: int) -> dict:
    lines = {}
    shown = {}
    for (name, clients), (mixed, bare) in measured.items():
        shown[(name, clients)] = (
            mixed.rate / bare.rate,
            p95(mixed.reads) / p95(bare.reads),
        )
        lines[f"{name} server, {clients} clients"] = (
            f"throughput {mixed.rate / bare.rate:.2f} of the bare endpoint "
            f"({mixed.rate:.0f} / {bare.rate:.0f} requests/s), read p95 "
            f"{p95(mixed.reads) / p95(bare.reads):.2f} of its ({p95(mixed.reads):.1f} / "
            f"{p95(bare.reads):.1f} ms), 5xx or no answer {mixed.server_errors + bare.server_errors}"
        )
    for clients in (20, 50):
        new_mixed, new_bare = measured[("new", clients)]
        old_mixed, old_bare = measured[("old", clients)]
        (t_new, p_new), (t_old, p_old) = shown[("new", clients)], shown[("old", clients)]
        lines[f"new / old, {clients} clients"] = (
            f"throughput against bare {t_new / t_old:.2f}, read p95 against bare "
            f"{p_new / p_old:.2f}; the mix's requests/s {new_mixed.rate / old_mixed.rate:.2f}, "
            f"its read p95 {p95(new_mixed.reads) / p95(old_mixed.reads):.2f}; the bare "
            f"endpoint's requests/s {new_bare.rate / old_bare.rate:.2f}"
        )
    lines["settings"] = (
        f"new: 2 workers, StreamingWorker x {THREADS} threads, no access log; old: 2 workers, "
        f"{OLD['worker_class']} x {OLD['threads']} threads, access log to the server's log; "
        f"both servers up at once, {seconds:g} s a side, each setting's median of {rounds} "
        "pairs (by throughput ratio), the setting going first and the side going first taking "
        "turns"
    )
    return lines


# -- alone ---------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.streams", description=__doc__)
    parser.add_argument("--seconds", type=float, default=SECONDS)
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    parser.add_argument("--only", default="crowd,servers")
    args = parser.parse_args()
    parts = {p.strip() for p in args.only.split(",")}
    work = ROOT / "bench" / ".cache"
    work.mkdir(parents=True, exist_ok=True)
    from bench.run import line

    if "crowd" in parts:
        figures, details = crowd(work, args.seconds, args.rounds)
        for name, text in details.items():
            print(f"- {name}: {text}", flush=True)
        for figure in figures:
            print(line(figure), flush=True)
    if "servers" in parts:
        for name, text in servers(work, args.seconds, args.rounds).items():
            print(f"- {name}: {text}", flush=True)


if __name__ == "__main__":
    main()
