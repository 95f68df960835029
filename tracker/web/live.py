"""Live pages: one poller per process follows the log, and every open page hears, through a
stream of server-sent events, the new version of its campaign.

The stream tells a version number and nothing else: the page then fetches itself again through
the ordinary views, whose permission checks decide what it shows (hidden cards stay hidden).
The poller asks the store's three seam methods (`position`, `wait`, `changes`), so another
engine only has to answer those (PostgreSQL through LISTEN/NOTIFY).

Served by `tracker serve`, a stream holds no request thread: once this view has let it in,
the server hands its connection to the process's announcer (tracker/web/streams.py). Under
any other WSGI server (the tests' client, say) the same stream is a body that blocks its
thread as it waits.
"""

from __future__ import annotations

import functools
import logging
import os
import threading
import time
import weakref

from flask import Blueprint, Response, current_app, request

from tracker.accounts import Accounts
from tracker.errors import NotFound
from tracker.permissions import Policy
from tracker.store import Store, is_url, open_store
from tracker.systems.i18n import _
from tracker.web.context import current_user, kept_store, policy, store
from tracker.web.language import capitalised
from tracker.web.streams import RETRY_AFTER, Announcer, Listener, Refusal, Slots

bp = Blueprint("live", __name__)
log = logging.getLogger(__name__)

# How long one stream stays open before it ends and the browser opens the next (seconds);
# how often a quiet stream says it is still there, which is also how a closed page is noticed;
# how soon the browser comes back after a stream ends (milliseconds).
LIVE_SECONDS = 300.0
BEAT_SECONDS = 15.0
RETRY_MS = 1000
# The least time between two versions told to one stream (seconds): a burst of appends makes
# each open page fetch itself at most once a second, not once for each append.
SPACING_SECONDS = 1.0
# How long the poller waits for the store to say something may have changed, at most.
POLL_SECONDS = 1.0

_feeds: weakref.WeakSet[Feed] = weakref.WeakSet()


# Live streams one process holds at most: from one client address, for one account, in all.
# A table of six players with a few pages each stays far inside; one client looping over
# `curl -N` does not take the server's streams from everyone else.
PER_ADDRESS = 24
PER_ACCOUNT = 24
PER_PROCESS = 5000


def init_app(app) -> None:
    app.register_blueprint(bp)
    app.config.setdefault("LIVE_SECONDS", LIVE_SECONDS)
    app.config.setdefault("LIVE_BEAT_SECONDS", BEAT_SECONDS)
    app.config.setdefault("LIVE_SPACING", SPACING_SECONDS)
    # How often a page whose stream was refused fetches itself instead (seconds).
    app.config.setdefault("LIVE_SLOW_SECONDS", RETRY_AFTER)
    app.config.setdefault("LIVE_PER_ADDRESS", PER_ADDRESS)
    app.config.setdefault("LIVE_PER_ACCOUNT", PER_ACCOUNT)
    app.config.setdefault("LIVE_PER_PROCESS", PER_PROCESS)


class Topic:
    """The watchers of one campaign: the newest version the poller saw, and a condition that
    wakes them when it grows."""

    def __init__(self, campaign: str, version: int):
        self.campaign = campaign
        self.version = version
        self.watchers = 0
        self.closed = False
        self.changed = threading.Condition()

    def announce(self, version: int) -> None:
        with self.changed:
            self.version = max(version, self.version)
            self.changed.notify_all()

    def close(self) -> None:
        with self.changed:
            self.closed = True
            self.changed.notify_all()

    def wait_beyond(self, version: int, timeout: float) -> int:
        """The topic's version once it is beyond `version`, when the topic closes, or when
        `timeout` passes."""
        with self.changed:
            self.changed.wait_for(lambda: self.version > version or self.closed, timeout)
            return self.version


class Feed:
    """One database's changes for this process: a single poller thread fanning out to the
    topics of the campaigns being watched. The poller runs while anyone watches."""

    def __init__(self, path: str):
        self.path = path
        self.pid = os.getpid()
        self.stopping = False
        self._lock = threading.Lock()
        self._topics: dict[str, Topic] = {}
        self._latest: dict[str, int] = {}  # every campaign the poller saw change
        self._polling = False
        self._listeners: list = []  # told of every change to a watched campaign
        _feeds.add(self)

    def listen(self, listener) -> None:
        """Tell `listener(versions)` the newest version of each watched campaign that moves."""
        with self._lock:
            self._listeners.append(listener)

    def watch(self, campaign: str, position: int) -> Topic:
        """Join the watchers of `campaign`; `position` is where the log stood when the caller
        looked, from where the poller starts if it is not running yet."""
        with self._lock:
            topic = self._topics.get(campaign)
            if topic is None:
                topic = self._topics[campaign] = Topic(campaign, self._latest.get(campaign, 0))
            topic.watchers += 1
            if not self._polling and not self.stopping:
                self._polling = True
                threading.Thread(
                    target=self._poll, args=(position,), name="tracker-live", daemon=True
                ).start()
            return topic

    def leave(self, topic: Topic) -> None:
        with self._lock:
            topic.watchers -= 1
            if topic.watchers <= 0 and self._topics.get(topic.campaign) is topic:
                del self._topics[topic.campaign]

    def watchers(self) -> int:
        with self._lock:
            return sum(topic.watchers for topic in self._topics.values())

    def stop(self) -> None:
        """End every stream (the process is shutting down)."""
        with self._lock:
            self.stopping = True
            topics = list(self._topics.values())
        for topic in topics:
            topic.close()

    def _idle(self) -> bool:
        """Whether the poller may stop: nobody watches (then it says it has stopped)."""
        with self._lock:
            if self._topics and not self.stopping:
                return False
            self._polling = False
            return True

    def _poll(self, position: int) -> None:
        try:
            reader = open_store(self.path)
        except Exception:  # the next watcher starts another poller
            log.exception("the live feed could not open the log")
            with self._lock:
                self._polling = False
            return
        try:
            while not self._idle():
                try:
                    reader.wait(position, POLL_SECONDS)
                    changes = reader.changes(position)
                except Exception:  # a passing database error: look again a moment later
                    log.exception("the live feed could not read the log")
                    time.sleep(POLL_SECONDS)
                    continue
                if changes:
                    position = changes[-1][0]
                    self._fan_out(changes)
        finally:
            reader.close()

    def _fan_out(self, changes: list[tuple[int, str, int]]) -> None:
        newest: dict[str, int] = {}
        for _position, campaign, version in changes:
            newest[campaign] = max(version, newest.get(campaign, 0))
        with self._lock:
            for campaign, version in newest.items():
                self._latest[campaign] = max(version, self._latest.get(campaign, 0))
            topics = [self._topics[c] for c in newest if c in self._topics]
            listeners = list(self._listeners)
        for topic in topics:
            topic.announce(newest[topic.campaign])
        watched = {topic.campaign: newest[topic.campaign] for topic in topics}
        for listener in listeners if watched else ():
            listener(watched)


_making = threading.Lock()


def feed(app) -> Feed:
    """The app's feed in this process (a forked worker makes its own)."""
    with _making:
        kept = app.extensions.get("tracker.live")
        if kept is None or kept.pid != os.getpid() or kept.path != app.config["DATABASE"]:
            kept = app.extensions["tracker.live"] = Feed(app.config["DATABASE"])
        return kept


def slots(app) -> Slots:
    """The app's stream limits in this process."""
    with _making:
        kept = app.extensions.get("tracker.slots")
        if kept is None or kept[0] != os.getpid():
            config = app.config
            limits = Slots(
                config["LIVE_PER_ADDRESS"], config["LIVE_PER_ACCOUNT"], config["LIVE_PER_PROCESS"]
            )
            kept = app.extensions["tracker.slots"] = (os.getpid(), limits)
        return kept[1]


_announcers: weakref.WeakSet[Announcer] = weakref.WeakSet()


def announcer(app) -> Announcer:
    """The app's announcer in this process, listening to its feed (made at the first hand-off)."""
    live = feed(app)
    with _making:
        kept = app.extensions.get("tracker.announcer")
        if kept is None or kept[0] is not live:
            path = app.config["DATABASE"]
            config = app.config
            told = Announcer(
                _Readers(path), config["LIVE_BEAT_SECONDS"], RETRY_MS, config["LIVE_SPACING"]
            )
            live.listen(told.heard)
            _announcers.add(told)
            kept = app.extensions["tracker.announcer"] = (live, told)
        return kept[1]


def stop_all() -> None:
    """End the streams of every feed of this process, so that it may exit at once."""
    for each in list(_feeds):
        each.stop()
    for each in list(_announcers):
        each.stop()


def _number(text: str | None) -> int:
    text = (text or "").strip()
    return int(text) if text.isdigit() else 0


@bp.get("/c/<cid>/live")
def stream(cid: str):
    """The campaign's versions as server-sent events, from after ?since= (or the
    Last-Event-ID a browser sends when it comes back), for those who may read it; a client
    over its limits is told so (429 or 503, with Retry-After) and the page refreshes slower."""
    policy().require_read(cid)
    log_store = store()
    if not log_store.exists(cid):
        raise NotFound(_("there is no campaign %(campaign)r that you may see", campaign=cid))
    since = max(_number(request.args.get("since")), _number(request.headers.get("Last-Event-ID")))
    user = current_user()
    hold = _Hold(slots(current_app), request.remote_addr or "", user.id if user else None)
    refusal = hold.take()
    if refusal is not None:
        return _refused(refusal)
    live = feed(current_app)
    try:
        topic = live.watch(cid, log_store.position())
    except BaseException:
        hold.give_back()
        raise
    hold.topic = (live, topic)
    try:
        current = log_store.version(cid)  # read after joining: nothing falls between
    except BaseException:
        hold.give_back()
        raise
    return Response(
        Watch(current_app._get_current_object(), hold, cid, since, current, user),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        direct_passthrough=True,
    )


def _refused(refusal: Refusal) -> Response:
    return Response(
        capitalised(refusal.words) + ".\n",
        status=refusal.status,
        mimetype="text/plain",
        headers={"Retry-After": str(refusal.retry_after), "Cache-Control": "no-store"},
    )


class _Hold:
    """What a stream holds while it is open (its slot, its place among the campaign's
    watchers), given back exactly once however the stream ends."""

    def __init__(self, limits: Slots, address: str, account: int | None):
        self.limits, self.address, self.account = limits, address, account
        self.topic: tuple[Feed, Topic] | None = None
        self.held = False

    def take(self) -> Refusal | None:
        refusal = self.limits.take(self.address, self.account)
        self.held = refusal is None
        return refusal

    def give_back(self) -> None:
        if self.held:
            self.held = False
            self.limits.give_back(self.address, self.account)
        if self.topic is not None:
            live, topic = self.topic
            self.topic = None
            live.leave(topic)


class Watch:
    """A stream's body. A server that can hand the connection on (`tracker serve`) calls
    `hand_to(sock)` and the announcer writes the rest; any other server iterates it, and the
    iteration waits in its thread. Either way its hold is given back when it ends."""

    def __init__(self, app, hold: _Hold, campaign: str, since: int, current: int, user):
        self.app, self.hold, self.campaign = app, hold, campaign
        self.since, self.current, self.user = since, current, user
        self.handed = False
        self._events = None

    def hand_to(self, sock) -> None:
        """Give the stream's connection (its headers sent) to the process's announcer."""
        self.handed = True
        config = self.app.config
        listener = Listener(
            sock, self.campaign, self.since, self.user, time.monotonic() + config["LIVE_SECONDS"]
        )
        listener.done = self.hold.give_back
        topic = self.hold.topic[1]
        announcer(self.app).add(listener, max(self.current, topic.version))

    def __iter__(self):
        if self._events is None:
            live, topic = self.hold.topic
            config = self.app.config
            self._rights = _Readers(config["DATABASE"])
            times = (config["LIVE_SECONDS"], config["LIVE_BEAT_SECONDS"])
            may_read = functools.partial(self._rights, self.user, self.campaign)
            self._events = _events(live, topic, self.since, self.current, times, may_read)
        return self._events

    def close(self) -> None:
        if self.handed:
            return  # the announcer holds it now
        if self._events is not None:
            self._events.close()
            self._rights.close()
        self.hold.give_back()


def _events(live: Feed, topic: Topic, last: int, current: int, times, may_read):
    """The stream itself: a `version` event each time the campaign moves past `last`, a
    comment when it is quiet (every `beat` seconds), and `bye` when it ends (after `seconds`,
    at shutdown, or when the reader may no longer read the campaign)."""
    seconds, beat = times
    deadline = time.monotonic() + seconds
    yield f"retry: {RETRY_MS}\n: watching {topic.campaign}\n\n".encode()
    newest = max(current, topic.version)
    while not live.stopping:
        if newest > last:
            if not may_read():
                break
            last = newest
            yield f"id: {last}\nevent: version\ndata: {last}\n\n".encode()
        left = deadline - time.monotonic()
        if left <= 0:
            break
        newest = topic.wait_beyond(last, min(beat, left))
        if newest <= last and not live.stopping and time.monotonic() < deadline:
            yield b": still here\n\n"
    yield b"event: bye\ndata: the stream ends; the page opens the next one\n\n"


class _Readers:
    """Whether a reader may still read a campaign, asked before a stream tells a version (a
    member removed meanwhile hears no more): on the process's store for a server database,
    whose pooled connections see every commit, else on a read-only connection of its own,
    opened at the first question, so that no snapshot another read left open answers. One
    asker serves one thread: the announcer's, or a blocking stream's."""

    def __init__(self, path: str):
        self.path = path
        self.reader: Store | None = None

    def __call__(self, user, campaign: str) -> bool:
        if self.reader is None:
            url = is_url(self.path)
            self.reader = kept_store(self.path) if url else open_store(self.path, readonly=True)
        try:
            return Policy(Accounts(self.reader), user).can_read(campaign)
        finally:
            if not is_url(self.path):
                self.reader.finish_request()  # no read transaction left open on the file

    def close(self) -> None:
        if self.reader is not None and not is_url(self.path):
            self.reader.close()
        self.reader = None
