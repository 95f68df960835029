"""A busy server: many clients at once on ten campaigns, a quarter of their requests appends
over the API and the rest page reads, against the same clients on a bare Flask endpoint.

The server is gunicorn as `serve` starts it (bench/serve.py). The clients are threads of this
process, each with one keep-alive http.client connection: a light client (about a tenth of a
millisecond of CPU a request), so that the load generator leaves the two cores to the server.
Each side runs for SECONDS; sides are paired back to back, ROUNDS times, the side going first
taking turns, and each figure keeps its median pair.

Alone: python -m bench.load [--seconds 8] [--rounds 3]  (prints; writes nothing)
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import random
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bench import data
from bench.figures import ROOT, Figure, _fresh
from bench.http import _port, serve
from bench.live import Stream, source
from tracker.accounts import Accounts
from tracker.dice import SeededRoller
from tracker.service import Service
from tracker.store import open_store
from tracker.web.server import THREADS

CAMPAIGNS = 10  # read and written by every side
PLAYERS = 4  # players per campaign recording for different sides (target 2)
SECONDS = 8.0  # a side
ROUNDS = 3
APPENDS = 0.25  # the share of requests that append
STREAMS = 50
READS = ("dashboard", "roster", "audit")  # the pages read, as often each
PASSWORD = "a fine long bench password"
_names = itertools.count(1)  # every correction a name of its own, over every side
EVERY: list = []  # every side's tally since the run began: their appends are all checked


# -- the campaigns ----------------------------------------------------------------------------


@dataclass
class Seeded:
    organiser: str  # the organiser's API token (every campaign)
    players: list[str]  # player k's token: side k of every shared campaign, of its own ones
    fighters: dict  # {campaign: {warband: fighter}}
    warbands: list[str]
    versions: dict  # {campaign: version after the seed}


def _seed(path: Path | str, copies: int = CAMPAIGNS * PLAYERS) -> Seeded:
    """`copies` copies of the bench's 1k campaign (six warbands, battles and whole
    aftermaths), all public, in the database at `path` (a file, or a PostgreSQL URL). The
    first CAMPAIGNS are the shared ones; player k holds side k in each of them, and side k
    of the copies 10k .. 10k+9 alone (the uncontended side)."""
    store = open_store(path)
    store.init()
    accounts = Accounts(store)
    accounts.init()
    service = Service(store, SeededRoller(3))
    lines = data.jsonl("1k").read_text(encoding="utf-8").splitlines()
    organiser = accounts.sign_up("organiser", PASSWORD)
    players = [accounts.sign_up(f"player-{k}", PASSWORD) for k in range(PLAYERS)]
    fighters, versions = {}, {}
    for n in range(copies):
        cid = f"load-{n}"
        service.import_lines(json.dumps({**json.loads(line), "campaign": cid}) for line in lines)
        accounts.set_public(cid, True)
        accounts.add_member(cid, organiser, "organiser")
        view = service.state(cid)
        warbands = sorted(view.state["warbands"])
        fighters[cid] = {wb: next(iter(view.state["warbands"][wb]["fighters"])) for wb in warbands}
        versions[cid] = view.version
        shared, k = n < CAMPAIGNS, n // CAMPAIGNS
        for j, player in enumerate(players):
            if shared or j == k:
                accounts.add_member(cid, player, "player", warbands[j])
    seeded = Seeded(
        accounts.create_token(organiser, "bench"),
        [accounts.create_token(player, "bench") for player in players],
        fighters,
        warbands,
        versions,
    )
    store.close()
    return seeded


# -- one client ---------------------------------------------------------------------------------


@dataclass
class Tally:
    """What the clients of one side got: times in ms, statuses, acknowledged appends."""

    reads: list = field(default_factory=list)
    appends: list = field(default_factory=list)  # acknowledged, their 409 retries included
    statuses: Counter = field(default_factory=Counter)
    failures: Counter = field(default_factory=Counter)  # no answer: the error, how often
    acknowledged: list = field(default_factory=list)  # (campaign, version, name)
    requests: int = 0
    seconds: float = 0.0

    def add(self, other: Tally) -> None:
        self.reads += other.reads
        self.appends += other.appends
        self.statuses.update(other.statuses)
        self.failures.update(other.failures)
        self.acknowledged += other.acknowledged
        self.requests += other.requests

    @property
    def rate(self) -> float:
        return self.requests / self.seconds

    @property
    def server_errors(self) -> int:
        return sum(n for status, n in self.statuses.items() if status >= 500)


def p95(values: list) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(len(ordered) * 0.95) - 1)] if ordered else float("nan")


@dataclass
class Role:
    """Who a client is and what it does: its token, the campaign it reads and writes, the
    side it records for (None: the organiser, any warband), the consistency it asks for."""

    token: str
    campaign: str  # where it records
    side: str | None
    consistency: str
    bare: str | None = None  # a bare endpoint it sends the same requests to instead
    reads: str | None = None  # the campaign whose pages it reads (None: where it records)


class LoadClient:
    """One keep-alive connection: the mix of APPENDS appends and page reads, or the same
    requests to the bare endpoint."""

    def __init__(self, port: int, role: Role, seeded: Seeded, number: int):
        self.port, self.role, self.seeded, self.number = port, role, seeded, number
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.random = random.Random(number)
        self.version = seeded.versions.get(role.campaign, 1)

    def request(self, tally: Tally, method: str, path: str, body=None) -> tuple[int, bytes]:
        headers = {"Authorization": f"Bearer {self.role.token}"}
        if body is not None:
            headers["Content-Type"] = "application/json"
            body = json.dumps(body)
        try:
            self.conn.request(method, path, body, headers)
            answer = self.conn.getresponse()
            status, content = answer.status, answer.read()
        except (OSError, http.client.HTTPException) as error:
            self.conn.close()  # counted as a failure, as a 5xx is; the next request reconnects
            status, content = 599, b""
            tally.failures[type(error).__name__] += 1
        tally.requests += 1
        tally.statuses[status] += 1
        return status, content

    def run(self, tally: Tally, until: float) -> None:
        while time.perf_counter() < until:
            if self.random.random() < APPENDS:
                self.append(tally)
            else:
                self.read(tally)

    def read(self, tally: Tally) -> None:
        cid, role = self.role.reads or self.role.campaign, self.role
        if role.bare:
            path = role.bare
        else:
            warband = role.side or self.random.choice(self.seeded.warbands)
            pages = {
                "dashboard": f"/c/{cid}/",
                "roster": f"/c/{cid}/roster?warband={warband}",
                "audit": f"/c/{cid}/audit",
            }
            path = pages[self.random.choice(READS)]
        began = time.perf_counter()
        status, _ = self.request(tally, "GET", path)
        tally.reads.append((time.perf_counter() - began) * 1000)
        assert status < 400 or status >= 500, (path, status)

    def append(self, tally: Tally) -> None:
        """One correction of a fighter's name (a legal event that leaves the state the same
        size), sent at the version this client last saw; on 409, sent again at the version
        the answer names, until it is acknowledged."""
        cid, role = self.role.campaign, self.role
        warband = role.side or self.random.choice(self.seeded.warbands)
        name = f"n{next(_names)}"
        event = {
            "type": "FighterCorrected",
            "data": {
                "warband": warband,
                "fighter": self.seeded.fighters.get(cid, {}).get(warband, "f"),
                "name": name,
            },
        }
        path = role.bare or f"/api/campaigns/{cid}/events"
        began = time.perf_counter()
        while True:
            body = {"events": [event], "expected_version": self.version}
            if role.consistency == "sides":
                body["consistency"] = "sides"
            status, content = self.request(tally, "POST", path, body)
            if status == 201:
                break
            if status != 409:
                assert status >= 500, (status, content[:300])
                return  # a failure: counted, never acknowledged
            self.version = json.loads(content)["current_version"]
        tally.appends.append((time.perf_counter() - began) * 1000)
        if not role.bare:
            self.version = json.loads(content)["last_version"]
            tally.acknowledged.append((cid, self.version, name))


def side(port: int | list[int], roles: list[Role], seeded: Seeded, seconds: float) -> Tally:
    """Every role's client running the mix for `seconds`, all at once; given several ports
    (app servers), the clients are spread over them in turn, as a balancer would."""
    ports = port if isinstance(port, list) else [port]
    clients = [LoadClient(ports[n % len(ports)], role, seeded, n) for n, role in enumerate(roles)]
    tallies = [Tally() for _ in clients]
    errors: list[BaseException] = []
    barrier = threading.Barrier(len(clients) + 1)
    until = [0.0]

    def body(client, tally):
        try:
            barrier.wait()
            client.run(tally, until[0])
        except BaseException as error:  # a failed client fails the figure, loudly
            errors.append(error)

    threads = [threading.Thread(target=body, args=pair) for pair in zip(clients, tallies)]
    for thread in threads:
        thread.start()
    until[0] = time.perf_counter() + seconds
    barrier.wait()
    began = time.perf_counter()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    total = Tally(seconds=time.perf_counter() - began)
    for tally in tallies:
        total.add(tally)
    EVERY.append(total)
    for client in clients:
        client.conn.close()
    return total


# -- the roles of each figure -------------------------------------------------------------------


# The bare endpoints (bench/serve.py): a Flask app of one route that does nothing, which the
# issue's load targets measure the app against; and the WSGI wrapper answering alone, without
# Flask, the server's own floor (printed beside the figures, no ratio).
FLASK, WSGI = "/bench/flask", "/bench/noop"


def organisers(seeded: Seeded, clients: int, bare: str | None = None) -> list[Role]:
    """Target 1: the organiser's clients, spread over the ten campaigns, strict versions."""
    return [
        Role(seeded.organiser, f"load-{n % CAMPAIGNS}", None, "strict", bare)
        for n in range(clients)
    ]


def players(seeded: Seeded, contended: bool) -> list[Role]:
    """Target 2: PLAYERS players for each of the ten campaigns, each recording for its own
    side with the per-side condition; uncontended, each records in a campaign of its own
    (and reads the same pages of the ten, so that both sides read alike)."""
    roles = []
    for k in range(PLAYERS):
        for j in range(CAMPAIGNS):
            cid = f"load-{j if contended or k == 0 else CAMPAIGNS * k + j}"
            roles.append(
                Role(seeded.players[k], cid, seeded.warbands[k], "sides", reads=f"load-{j}")
            )
    return roles


def paired(ours, theirs, rounds: int, key) -> tuple:
    """(ours(), theirs()) back to back `rounds` times, the one going first taking turns; the
    pair whose key(ours, theirs) is the median."""
    pairs = []
    for n in range(rounds):
        if n % 2:
            b = theirs()
            a = ours()
        else:
            a = ours()
            b = theirs()
        pairs.append((a, b))
    pairs.sort(key=lambda pair: key(*pair))
    return pairs[len(pairs) // 2]


def _once(port: int, token: str, tallies: list[Tally], first: dict) -> tuple[int, int]:
    """(acknowledged appends found exactly once at their version, acknowledged appends),
    reading each campaign's log from the seed on; also checks that versions have no gap."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    names: dict = {}
    for cid, after in first.items():
        expected = after
        while after is not None:
            conn.request(
                "GET",
                f"/api/campaigns/{cid}/events?after={after}&limit=500",
                headers={"Authorization": f"Bearer {token}"},
            )
            page = json.loads(conn.getresponse().read())
            for event in page["events"]:
                expected += 1
                assert event["version"] == expected, (cid, event["version"], expected)
                if event["type"] == "FighterCorrected":
                    key = (cid, event["data"]["name"])
                    names.setdefault(key, []).append(event["version"])
            after = page["next_after"]
    conn.close()
    acknowledged = [a for tally in tallies for a in tally.acknowledged]
    once = sum(names.get((cid, name)) == [version] for cid, version, name in acknowledged)
    return once, len(acknowledged)


# -- the figures --------------------------------------------------------------------------------


def run(work_dir: Path, seconds: float = SECONDS, rounds: int = ROUNDS):
    """The load figures, and the details each printed line gives."""
    db = _fresh(work_dir, "load.db")
    seeded = _seed(db)
    port = _port()
    log = open(work_dir / "load-server.log", "wb")
    server = serve(db, port, log)
    figures, details = [], {}
    EVERY.clear()
    try:
        warm = min(2.0, seconds / 4)
        for roles in (organisers(seeded, 20, bare=FLASK), players(seeded, False)):
            side(port, roles, seeded, warm)  # every campaign folded in both workers
        for clients in (20, 50):
            mixed, bare = paired(
                lambda clients=clients: side(port, organisers(seeded, clients), seeded, seconds),
                lambda clients=clients: side(
                    port, organisers(seeded, clients, bare=FLASK), seeded, seconds
                ),
                rounds,
                lambda a, b: a.rate / b.rate,
            )
            figures += _mixed_figures(
                clients, mixed, bare, f"{seconds:g} s a side, median of {rounds} pairs"
            )
            floor = side(port, organisers(seeded, clients, bare=WSGI), seeded, seconds)
            details[f"{clients} clients"] = (
                f"{_described(mixed)}; the bare Flask endpoint: {_described(bare)}; the WSGI "
                f"wrapper alone, without Flask: {floor.rate:.0f} requests/s, p95 "
                f"{p95(floor.reads):.0f} ms"
            )
        contended, alone = paired(
            lambda: side(port, players(seeded, True), seeded, seconds),
            lambda: side(port, players(seeded, False), seeded, seconds),
            rounds,
            lambda a, b: p95(a.appends) / p95(b.appends),
        )
        figures.append(_players_figure(contended, alone))
        details["players, shared campaigns"] = _described(contended)
        details["players, campaigns of their own"] = _described(alone)
        streaming, quiet = paired(
            lambda: _with_streams(port, seeded, seconds),
            lambda: side(port, organisers(seeded, 20), seeded, seconds),
            rounds,
            lambda a, b: p95(a.reads) / p95(b.reads),
        )
        figures.append(_streams_figure(streaming, quiet))
        details[f"20 clients, {STREAMS} streams open"] = _described(streaming)
        details["20 clients, no stream"] = _described(quiet)
        mixed, bare = _undrawn(work_dir, db, seeded, seconds, rounds)
        figures += _undrawn_figures(mixed, bare, f"{seconds:g} s a side, median of {rounds} pairs")
        details["20 clients, pages undrawn"] = (
            f"{_described(mixed)}; the bare Flask endpoint: {_described(bare)}"
        )
        once, acknowledged = _once(port, seeded.organiser, EVERY, seeded.versions)
        errors = sum(t.server_errors for t in EVERY)
        answered = sum(t.requests for t in EVERY)
        failures = sum((t.failures for t in EVERY), Counter())
        details["every side"] = (
            f"{answered} requests, {acknowledged} appends acknowledged, {errors} 5xx or "
            f"no answer" + (f" ({dict(failures)})" if failures else "")
        )
        figures.append(_once_figure(once, acknowledged, errors, answered))
    finally:
        server.terminate()
        server.wait(timeout=60)
        log.close()
    return figures, details


def _undrawn(work_dir: Path, db, seeded: Seeded, seconds: float, rounds: int) -> tuple:
    """The 20-client mix and the bare endpoint on a second server over the same database,
    whose pages draw no template (`bench.serve --pages-undrawn`)."""
    port = _port()
    with open(work_dir / "load-undrawn-server.log", "wb") as log:
        server = serve(db, port, log, "--pages-undrawn")
        try:
            for roles in (organisers(seeded, 20, bare=FLASK), organisers(seeded, 20)):
                side(port, roles, seeded, min(2.0, seconds / 4))
            return paired(
                lambda: side(port, organisers(seeded, 20), seeded, seconds),
                lambda: side(port, organisers(seeded, 20, bare=FLASK), seeded, seconds),
                rounds,
                lambda a, b: a.rate / b.rate,
            )
        finally:
            server.terminate()
            server.wait(timeout=60)


def _with_streams(port: int, seeded: Seeded, seconds: float) -> Tally:
    opened = [Stream(port, f"load-{n % CAMPAIGNS}", False, source(n)) for n in range(STREAMS)]
    try:
        for stream in opened:
            assert stream.open.wait(30), "a stream did not open"
            assert stream.status == 200, f"a stream was refused: {stream.status}"
        return side(port, organisers(seeded, 20), seeded, seconds)
    finally:
        for stream in opened:
            stream.close()


def _described(t: Tally) -> str:
    return (
        f"{t.rate:.0f} requests/s, read p95 {p95(t.reads):.0f} ms, acknowledged-append p95 "
        f"{p95(t.appends):.0f} ms, {len(t.appends)} appends, "
        f"409s {t.statuses.get(409, 0)}, 5xx or no answer {t.server_errors}"
        + (f" ({dict(t.failures)})" if t.failures else "")
    )


SERVER = (
    f"gunicorn StreamingWorker (gthread, streams handed to an announcer), 2 workers x "
    f"{THREADS} threads, loopback, keep-alive"
)


def _mixed_figures(clients: int, mixed: Tally, bare: Tally, timing: str) -> list[Figure]:
    note = (
        f"{SERVER}; {clients} clients over {CAMPAIGNS} campaigns of 1k events, "
        f"{APPENDS:.0%} appends (strict, retried on 409), the rest dashboard, roster sheet and "
        f"audit log; {timing}"
    )
    return [
        Figure(
            f"busy server, {clients} clients: throughput",
            "the mix",
            mixed.rate,
            "GET/POST /bench/flask (bare Flask)",
            bare.rate,
            "requests/s",
            0.3,
            True,
            note,
        ),
        Figure(
            f"busy server, {clients} clients: read p95",
            "a page read",
            p95(mixed.reads),
            "GET /bench/flask (bare Flask)",
            p95(bare.reads),
            "ms",
            4,
            False,
            note,
        ),
    ]


def _undrawn_figures(mixed: Tally, bare: Tally, timing: str) -> list[Figure]:
    """The mix of 20 clients with no page drawn, against issue 38's targets for the mix
    (throughput >= 0.4, read p95 <= 2.5): what the rest of a request leaves for the pages."""
    note = (
        f"{SERVER}, every template answered by a fixed body of 26 kB (`bench.serve "
        f"--pages-undrawn`: the request, the reader, the state and the page's context as "
        f"always, nothing drawn); 20 clients, the same mix; {timing}"
    )
    return [
        Figure(
            "busy server, 20 clients, pages undrawn: throughput",
            "the mix, no page drawn",
            mixed.rate,
            "GET/POST /bench/flask (bare Flask)",
            bare.rate,
            "requests/s",
            0.4,
            True,
            note,
        ),
        Figure(
            "busy server, 20 clients, pages undrawn: read p95",
            "a page read, not drawn",
            p95(mixed.reads),
            "GET /bench/flask (bare Flask)",
            p95(bare.reads),
            "ms",
            2.5,
            False,
            note,
        ),
    ]


def _players_figure(contended: Tally, alone: Tally) -> Figure:
    return Figure(
        f"busy server, {PLAYERS} players a campaign: append p95",
        f"{PLAYERS} players a campaign",
        p95(contended.appends),
        "one player a campaign",
        p95(alone.appends),
        "ms",
        3,
        False,
        f"{SERVER}; {PLAYERS * CAMPAIGNS} clients, each a player recording for its own side "
        f"with the per-side condition, the same mix; against the same clients each recording "
        f"in a campaign of its own, reading the same pages; acknowledged appends, their 409 "
        f"retries included",
    )


def _streams_figure(streaming: Tally, quiet: Tally) -> Figure:
    return Figure(
        f"busy server, 20 clients, {STREAMS} streams: read p95",
        f"with {STREAMS} streams open",
        p95(streaming.reads),
        "without",
        p95(quiet.reads),
        "ms",
        1.5,
        False,
        f"{SERVER}; the load of 20 clients, with {STREAMS} live streams open on its campaigns "
        f"(4 from each loopback address)",
    )


def _once_figure(once: int, acknowledged: int, errors: int, answered: int) -> Figure:
    return Figure(
        "busy server: acknowledged appends in the log once",
        "found once at their version",
        once,
        "acknowledged",
        acknowledged,
        "appends",
        1.0 if errors == 0 else float("inf"),
        True,
        f"every side of the load; {errors} answers 5xx or failed of {answered} (none allowed)",
    )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__)
    parser.add_argument("--seconds", type=float, default=SECONDS)
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    args = parser.parse_args()
    work = ROOT / "bench" / ".cache"
    work.mkdir(parents=True, exist_ok=True)
    from bench.run import line

    figures, details = run(work, args.seconds, args.rounds)
    for name, text in details.items():
        print(f"- {name}: {text}")
    for figure in figures:
        print(line(figure))


if __name__ == "__main__":
    main()
