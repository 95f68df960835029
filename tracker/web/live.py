"""Live pages: one poller per process follows the log, and every open page hears, through a
stream of server-sent events, the new version of its campaign.

The stream tells a version number and nothing else: the page then fetches itself again through
the ordinary views, whose permission checks decide what it shows (hidden cards stay hidden).
The poller asks the store's three seam methods (`position`, `wait`, `changes`), so another
engine only has to answer those (PostgreSQL through LISTEN/NOTIFY).
"""

from __future__ import annotations

import logging
import os
import threading
import time
import weakref

from flask import Blueprint, Response, current_app, request

from tracker.accounts import Accounts
from tracker.errors import NotFound
from tracker.permissions import Policy
from tracker.store import Store, is_url
from tracker.web.context import current_user, kept_store, policy, store

bp = Blueprint("live", __name__)
log = logging.getLogger(__name__)

# How long one stream stays open before it ends and the browser opens the next (seconds);
# how often a quiet stream says it is still there, which is also how a closed page is noticed;
# how soon the browser comes back after a stream ends (milliseconds).
LIVE_SECONDS = 300.0
BEAT_SECONDS = 15.0
RETRY_MS = 1000
# How long the poller waits for the store to say something may have changed, at most.
POLL_SECONDS = 1.0

_feeds: weakref.WeakSet[Feed] = weakref.WeakSet()


def init_app(app) -> None:
    app.register_blueprint(bp)
    app.config.setdefault("LIVE_SECONDS", LIVE_SECONDS)
    app.config.setdefault("LIVE_BEAT_SECONDS", BEAT_SECONDS)


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
        _feeds.add(self)

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
            reader = Store(self.path)
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
        for _, campaign, version in changes:
            newest[campaign] = max(version, newest.get(campaign, 0))
        with self._lock:
            for campaign, version in newest.items():
                self._latest[campaign] = max(version, self._latest.get(campaign, 0))
            topics = [self._topics[c] for c in newest if c in self._topics]
        for topic in topics:
            topic.announce(newest[topic.campaign])


_making = threading.Lock()


def feed(app) -> Feed:
    """The app's feed in this process (a forked worker makes its own)."""
    with _making:
        kept = app.extensions.get("tracker.live")
        if kept is None or kept.pid != os.getpid() or kept.path != app.config["DATABASE"]:
            kept = app.extensions["tracker.live"] = Feed(app.config["DATABASE"])
        return kept


def stop_all() -> None:
    """End the streams of every feed of this process, so that it may exit at once."""
    for each in list(_feeds):
        each.stop()


def _number(text: str | None) -> int:
    text = (text or "").strip()
    return int(text) if text.isdigit() else 0


@bp.get("/c/<cid>/live")
def stream(cid: str):
    """The campaign's versions as server-sent events, from after ?since= (or the
    Last-Event-ID a browser sends when it comes back), for those who may read it."""
    policy().require_read(cid)
    log_store = store()
    if not log_store.exists(cid):
        raise NotFound(f"there is no campaign {cid!r} that you may see")
    since = max(_number(request.args.get("since")), _number(request.headers.get("Last-Event-ID")))
    live = feed(current_app)
    topic = live.watch(cid, log_store.position())
    try:
        current = log_store.version(cid)  # read after joining: nothing falls between
    except BaseException:
        live.leave(topic)
        raise
    config = current_app.config
    rights = _Rights(config["DATABASE"], current_user(), cid)
    events = _events(
        live, topic, since, current, (config["LIVE_SECONDS"], config["LIVE_BEAT_SECONDS"]), rights
    )
    return Response(
        _Stream(live, topic, events, rights),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


def _events(live: Feed, topic: Topic, last: int, current: int, times, may_read):
    """The stream itself: a `version` event each time the campaign moves past `last`, a
    comment when it is quiet (every `beat` seconds), and `bye` when it ends (after `seconds`,
    at shutdown, or when the reader may no longer read the campaign)."""
    seconds, beat = times
    deadline = time.monotonic() + seconds
    yield f"retry: {RETRY_MS}\n: watching {topic.campaign}\n\n"
    newest = max(current, topic.version)
    while not live.stopping:
        if newest > last:
            if not may_read():
                break
            last = newest
            yield f"id: {last}\nevent: version\ndata: {last}\n\n"
        left = deadline - time.monotonic()
        if left <= 0:
            break
        newest = topic.wait_beyond(last, min(beat, left))
        if newest <= last and not live.stopping and time.monotonic() < deadline:
            yield ": still here\n\n"
    yield "event: bye\ndata: the stream ends; the page opens the next one\n\n"


class _Rights:
    """Whether the reader may still read the campaign, asked before each version a stream
    tells: a member removed meanwhile hears no more. Its own read-only connection, opened at
    the first question, so that no snapshot another read of the thread left open answers."""

    def __init__(self, path: str, user, campaign: str):
        self.path, self.user, self.campaign = path, user, campaign
        self.reader: Store | None = None
        self.owned = False

    def __call__(self) -> bool:
        if self.reader is None:
            # A server database's pooled connections see every commit: the process's store.
            self.reader = kept_store(self.path) if is_url(self.path) else self._own()
        return Policy(Accounts(self.reader), self.user).can_read(self.campaign)

    def _own(self) -> Store:
        self.owned = True
        return Store(self.path, readonly=True)

    def close(self) -> None:
        if self.reader is not None and self.owned:
            self.reader.close()
        self.reader, self.owned = None, False


class _Stream:
    """A stream's body: its watcher leaves the topic when the server closes the response,
    whether or not the stream was ever read (a closed page, a stopped server)."""

    def __init__(self, live: Feed, topic: Topic, events, rights: _Rights):
        self.live, self.topic, self.events, self.rights = live, topic, events, rights
        self.left = False

    def __iter__(self):
        return self.events

    def close(self) -> None:
        self.events.close()
        self.rights.close()
        if not self.left:
            self.left = True
            self.live.leave(self.topic)
