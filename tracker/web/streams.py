"""Streams that hold no thread: each process's one announcer writes every open live stream.

Once a stream's view has let it in (who may read the campaign, and the limits below), the
server hands its connection to the announcer (tracker/web/server.py) and the request thread
goes back to requests. The announcer is one thread over non-blocking sockets (a selector): it
tells each stream its campaign's new versions as the feed hears them, beats when it is quiet,
says `bye` when a stream's time is up, and notices a closed page when its socket is read as
ended. An idle stream costs a socket and a small record, not a thread.

Limits keep one client from taking them all: streams per client address, per account and in
all, counted in this process; a stream takes its slot when let in and gives it back when it
ends, however it ends.

A stream tells at most one version each `spacing` seconds: a version that comes sooner is
held and told, the newest of them, when the time is up. A quiet campaign's first version is
told at once; a burst of appends costs each open page one fetch of itself, not one for each.
"""

from __future__ import annotations

import logging
import selectors
import socket
import threading
import time
from typing import NamedTuple

from tracker.systems.i18n import ngettext

log = logging.getLogger(__name__)


# A refusal's English says "pages" whatever the number (a limit is rarely 1); the catalogue's
# languages have their own plural forms.


class Refusal(NamedTuple):
    """Why a stream is not let in: the HTTP status, when to try again (seconds), the words."""

    status: int
    retry_after: int
    words: str


# How soon a refused page may ask again (seconds); it refreshes itself this often meanwhile.
RETRY_AFTER = 30


class Slots:
    """How many streams each client address and each account holds in this process, and in
    all. `take` lets a stream in or says why not; `give_back` ends its hold."""

    def __init__(self, per_address: int, per_account: int, total: int):
        self.per_address, self.per_account, self.total = per_address, per_account, total
        self._lock = threading.Lock()
        self._addresses: dict[str, int] = {}
        self._accounts: dict[int, int] = {}
        self._held = 0

    def take(self, address: str, account: int | None) -> Refusal | None:
        with self._lock:
            if self._held >= self.total:
                return Refusal(
                    503,
                    RETRY_AFTER,
                    ngettext(
                        "this server holds %(num)d live pages already, as many as it may; this "
                        "page looks for news every %(seconds)s seconds instead",
                        "this server holds %(num)d live pages already, as many as it may; this "
                        "page looks for news every %(seconds)s seconds instead",
                        self.total,
                        seconds=RETRY_AFTER,
                    ),
                )
            if self._addresses.get(address, 0) >= self.per_address:
                return Refusal(
                    429,
                    RETRY_AFTER,
                    ngettext(
                        "your address has %(num)d live pages open on this server, as many as "
                        "one address may; this page looks for news every %(seconds)s seconds "
                        "instead (close a page you no longer need)",
                        "your address has %(num)d live pages open on this server, as many as "
                        "one address may; this page looks for news every %(seconds)s seconds "
                        "instead (close a page you no longer need)",
                        self.per_address,
                        seconds=RETRY_AFTER,
                    ),
                )
            if account is not None and self._accounts.get(account, 0) >= self.per_account:
                return Refusal(
                    429,
                    RETRY_AFTER,
                    ngettext(
                        "your account has %(num)d live pages open on this server, as many as "
                        "one account may; this page looks for news every %(seconds)s seconds "
                        "instead (close a page you no longer need)",
                        "your account has %(num)d live pages open on this server, as many as "
                        "one account may; this page looks for news every %(seconds)s seconds "
                        "instead (close a page you no longer need)",
                        self.per_account,
                        seconds=RETRY_AFTER,
                    ),
                )
            self._held += 1
            self._addresses[address] = self._addresses.get(address, 0) + 1
            if account is not None:
                self._accounts[account] = self._accounts.get(account, 0) + 1
            return None

    def give_back(self, address: str, account: int | None) -> None:
        with self._lock:
            self._held -= 1
            _less(self._addresses, address)
            if account is not None:
                _less(self._accounts, account)

    def held(self) -> int:
        with self._lock:
            return self._held


def _less(counts: dict, key) -> None:
    left = counts.get(key, 0) - 1
    if left > 0:
        counts[key] = left
    else:
        counts.pop(key, None)


class Listener:
    """One stream the announcer holds: its socket, its campaign, the last version it told,
    who reads it, when it next beats and when it ends."""

    __slots__ = (
        "sock",
        "campaign",
        "last",
        "reader",
        "deadline",
        "beat_at",
        "quiet_until",
        "owed",
        "done",
    )

    def __init__(self, sock: socket.socket, campaign: str, last: int, reader, deadline: float):
        self.sock, self.campaign, self.last, self.reader = sock, campaign, last, reader
        self.deadline = deadline
        self.beat_at = 0.0
        self.quiet_until = 0.0  # no version is told before then
        self.owed = 0  # the newest version held back meanwhile
        # Called once when the stream ends, however it ends (gives back its slot and watch).
        self.done = None


class Announcer:
    """The one thread of a process that writes every handed-off stream.

    `may_read(reader, campaign)` is asked before a version is told (once for all the streams
    of one reader on one campaign); `beat` is how often a quiet stream says it is there;
    `spacing` the least time between two versions told to one stream."""

    def __init__(self, may_read, beat: float, retry_ms: int, spacing: float = 0.0):
        self.may_read, self.beat, self.retry_ms = may_read, beat, retry_ms
        self.spacing = spacing
        self._owing: set[Listener] = set()  # streams holding a version back
        self._lock = threading.Lock()
        self._arrived: list[tuple[Listener, int]] = []
        self._versions: dict[str, int] = {}
        self._stopping = False
        self._selector = selectors.DefaultSelector()
        self._wake_in, self._wake_out = socket.socketpair()
        self._wake_in.setblocking(False)
        self._wake_out.setblocking(False)
        self._selector.register(self._wake_in, selectors.EVENT_READ, None)
        self._by_campaign: dict[str, set[Listener]] = {}
        self._count = 0
        self._thread = threading.Thread(target=self._run, name="tracker-announcer", daemon=True)
        self._thread.start()

    # -- from request threads and the feed ----------------------------------------------

    def add(self, listener: Listener, newest: int) -> None:
        """Hold `listener` from now on; `newest` is the campaign's version when it was let in."""
        with self._lock:
            stopping = self._stopping
            if not stopping:
                self._arrived.append((listener, newest))
        if stopping:
            _close(listener)
        else:
            self._wake()

    def heard(self, versions: dict[str, int]) -> None:
        """The feed's news: the newest version of each campaign that moved."""
        with self._lock:
            for campaign, version in versions.items():
                self._versions[campaign] = max(version, self._versions.get(campaign, 0))
        self._wake()

    def stop(self) -> None:
        """Say `bye` to every stream and end them (the process is stopping)."""
        with self._lock:
            self._stopping = True
        self._wake()
        self._thread.join(timeout=5.0)

    def count(self) -> int:
        with self._lock:
            return self._count + len(self._arrived)

    def _wake(self) -> None:
        try:
            self._wake_out.send(b"!")
        except (BlockingIOError, OSError):
            pass  # a wake is pending already

    # -- the announcer's own thread -------------------------------------------------------

    def _run(self) -> None:
        due = time.monotonic() + self.beat
        while True:
            soonest = min([due] + [listener.quiet_until for listener in self._owing])
            try:
                events = self._selector.select(max(0.0, min(soonest - time.monotonic(), 1.0)))
            except OSError:
                log.exception("the announcer's selector failed")
                time.sleep(0.1)
                continue
            for key, _ in events:
                if key.data is None:
                    self._drain_wake()
                else:
                    self._readable(key.data)
            with self._lock:
                arrived, self._arrived = self._arrived, []
                versions, self._versions = self._versions, {}
                stopping = self._stopping
            for listener, newest in arrived:
                self._open(listener, newest)
            if versions:
                self._tell(versions)
            if self._owing:
                self._tell_owed()
            if stopping:
                self._end_all()
                return
            now = time.monotonic()
            if now >= due:
                due = self._sweep(now)

    def _drain_wake(self) -> None:
        try:
            while self._wake_in.recv(4096):
                pass
        except (BlockingIOError, OSError):
            pass

    def _open(self, listener: Listener, newest: int) -> None:
        try:
            listener.sock.setblocking(False)
            self._selector.register(listener.sock, selectors.EVENT_READ, listener)
        except (OSError, ValueError):
            _close(listener)
            return
        self._by_campaign.setdefault(listener.campaign, set()).add(listener)
        with self._lock:
            self._count += 1
        listener.beat_at = time.monotonic() + self.beat
        opening = f"retry: {self.retry_ms}\n: watching {listener.campaign}\n\n"
        if self._send(listener, opening.encode()) and newest > listener.last:
            self._tell({listener.campaign: newest}, only=listener)

    def _tell(self, versions: dict[str, int], only: Listener | None = None) -> None:
        for campaign, version in versions.items():
            listeners = [only] if only else list(self._by_campaign.get(campaign, ()))
            self._tell_each(campaign, [(listener, version) for listener in listeners])

    def _tell_owed(self) -> None:
        """Tell the versions held back whose streams' quiet time is over."""
        now = time.monotonic()
        due: dict[str, list] = {}
        for listener in [each for each in self._owing if each.quiet_until <= now]:
            self._owing.discard(listener)
            due.setdefault(listener.campaign, []).append((listener, listener.owed))
        for campaign, pairs in due.items():
            self._tell_each(campaign, pairs)

    def _tell_each(self, campaign: str, pairs: list) -> None:
        """Tell each (listener, version) its version, asking once a reader whether it may."""
        verdicts: dict = {}
        now = time.monotonic()
        for listener, version in pairs:
            if version <= listener.last:
                continue
            if now < listener.quiet_until:
                listener.owed = max(listener.owed, version)
                self._owing.add(listener)
                continue
            key = _reader_key(listener.reader)
            if key not in verdicts:
                verdicts[key] = self._may_read(listener.reader, campaign)
            if not verdicts[key]:
                self._end(listener, bye=True)
                continue
            listener.last = version
            text = f"id: {version}\nevent: version\ndata: {version}\n\n"
            if self._send(listener, text.encode()):
                listener.beat_at = now + self.beat
                listener.quiet_until = now + self.spacing

    def _may_read(self, reader, campaign: str) -> bool:
        try:
            return bool(self.may_read(reader, campaign))
        except Exception:  # a passing database error: tell nothing this time, ask again next
            log.exception("the announcer could not ask who may read %s", campaign)
            return True

    def _sweep(self, now: float) -> float:
        """Beat the quiet streams, end those whose time is up; when to look again."""
        due = now + self.beat
        for listeners in list(self._by_campaign.values()):
            for listener in list(listeners):
                if now >= listener.deadline:
                    self._end(listener, bye=True)
                    continue
                if now >= listener.beat_at:
                    if not self._send(listener, b": still here\n\n"):
                        continue
                    listener.beat_at = now + self.beat
                due = min(due, listener.beat_at, listener.deadline)
        return due

    def _readable(self, listener: Listener) -> None:
        try:
            data = listener.sock.recv(4096)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:  # the page was closed
            self._end(listener, bye=False)

    def _send(self, listener: Listener, data: bytes) -> bool:
        """Write `data` whole, or end the stream: a page that does not read what little a
        stream says is not listening."""
        try:
            sent = listener.sock.send(data)
        except (BlockingIOError, InterruptedError, OSError):
            sent = -1
        if sent == len(data):
            return True
        self._end(listener, bye=False)
        return False

    def _end(self, listener: Listener, bye: bool) -> None:
        if bye:
            try:
                listener.sock.send(
                    b"event: bye\ndata: the stream ends; the page opens the next one\n\n"
                )
            except OSError:
                pass
        self._owing.discard(listener)
        try:
            self._selector.unregister(listener.sock)
        except (KeyError, ValueError):
            return  # ended already
        listeners = self._by_campaign.get(listener.campaign)
        if listeners is not None:
            listeners.discard(listener)
            if not listeners:
                del self._by_campaign[listener.campaign]
        with self._lock:
            self._count -= 1
        _close(listener)

    def _end_all(self) -> None:
        for listeners in list(self._by_campaign.values()):
            for listener in list(listeners):
                self._end(listener, bye=True)
        self._selector.close()
        self._wake_in.close()
        self._wake_out.close()


def _reader_key(reader):
    return getattr(reader, "id", None)


def _close(listener: Listener) -> None:
    try:
        listener.sock.close()
    except OSError:
        pass
    done, listener.done = listener.done, None
    if done is not None:
        try:
            done()
        except Exception:
            log.exception("a stream's end could not be recorded")
