"""The folded states a process keeps from one request to the next: one object owns them all.

A cache, never the truth: an entry is used only while the log still holds the event it was
folded to (its version and head hash), so it is never stale, whichever database it came from.
The web app makes one `StateCache` and hands it to every `Service` it builds; a command or a
test that builds a `Service` alone gets a cache of its own.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass


@dataclass
class Kept:
    """A campaign's state as folded to `version`, whose event has the hash `head`."""

    version: int
    head: str
    state: dict
    voided: dict


class Handover:
    """Entries handed from one request to the next, whichever thread it comes on: a request
    takes an entry (nobody else has it then), brings it up to date and puts it back, or lets
    it go. A request that asks for an entry another has taken waits until it is back (the
    phones of a table all ask for the same page at once when an event comes: one brings it
    forward, the others read it after) rather than making one of its own, up to `patience`
    seconds. At most `size` entries; the oldest go first."""

    def __init__(self, size: int, patience: float = 5.0):
        self.size = size
        self.patience = patience
        self.changed = threading.Condition(threading.Lock())
        self.entries: OrderedDict = OrderedDict()
        self.out: dict = {}  # key -> the thread that took it (the entry, or its absence)

    def take(self, key):
        """The entry, now the caller's alone (None: there is none; the caller may make it),
        until it calls `put` or `let_go`."""
        me = threading.get_ident()
        with self.changed:
            if self.out.get(key, me) != me:
                self.changed.wait_for(lambda: key not in self.out, self.patience)
            self.out[key] = me
            return self.entries.pop(key, None)

    def put(self, key, entry) -> None:
        with self.changed:
            self.entries[key] = entry
            self.entries.move_to_end(key)
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)
            self._release(key)

    def let_go(self, key) -> None:
        """The caller is done with what it took, and puts nothing back (it put it already,
        or has nothing worth keeping)."""
        with self.changed:
            self._release(key)

    def _release(self, key) -> None:
        if self.out.get(key) == threading.get_ident():
            del self.out[key]
            self.changed.notify_all()

    def clear(self) -> None:
        with self.changed:
            self.entries.clear()


class Pool:
    """States lent out one request at a time, whichever thread it comes on: a request takes
    one (nobody else has it then), brings it up to date, uses it and gives it back. A
    campaign may have several (one for each request that held one at once); a take gets the
    newest. At most `size` in all; the campaigns not given one back for longest go first."""

    def __init__(self, size: int):
        self.size = size
        self.lock = threading.Lock()
        self.entries: OrderedDict = OrderedDict()  # key: [Kept, ...]
        self.count = 0

    def take(self, key) -> Kept | None:
        with self.lock:
            kept = self.entries.get(key)
            if not kept:
                return None
            newest = max(range(len(kept)), key=lambda n: kept[n].version)
            self.count -= 1
            entry = kept.pop(newest)
            if not kept:
                del self.entries[key]
            return entry

    def put(self, key, entry: Kept) -> None:
        with self.lock:
            self.entries.setdefault(key, []).append(entry)
            self.entries.move_to_end(key)
            self.count += 1
            while self.count > self.size:
                oldest, kept = next(iter(self.entries.items()))
                kept.pop(0)
                self.count -= 1
                if not kept:
                    del self.entries[oldest]

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()
            self.count = 0


class _Held(threading.local):
    def __init__(self):
        self.entries: OrderedDict = OrderedDict()


class StateCache:
    """The latest states for readers and for writers, the campaigns' first events, the
    dice tallies and the worded ends of the logs.

    A state is in one place at a time: held by one thread (the request it serves reads it,
    and nobody changes it under the page), in a writer's hands (it applies events to it), or
    in the process's pool, from which any thread's next request takes it. A reader holds the
    state it took until its request gives its states back (`give_back`, at the end of each
    web request); without that (a command, a test) a thread keeps holding its own. So a
    state is folded once a process and brought forward in place by whoever takes it next,
    never copied, and a reader never sees a state another request is changing.
    """

    def __init__(self, readers: int = 8, kept: int = 64):
        self.readers = readers
        self._held = _Held()
        self._pool = Pool(kept)
        self._firsts: dict[str, tuple[str, str]] = {}
        self._writing: dict = {}
        self._writing_lock = threading.Lock()
        self.tallies = Handover(kept)
        self.tails = Handover(kept)  # the worded ends of logs (tracker.wording)

    # -- readers -----------------------------------------------------------------------------

    def read(self, key) -> Kept | None:
        """The state this thread holds, else one taken from the pool: to read, not to change
        (the caller may bring it forward, then `keep` it)."""
        entries = self._held.entries
        kept = entries.get(key)
        if kept is not None:
            entries.move_to_end(key)
            return kept
        kept = self._pool.take(key)
        if kept is not None:
            self.keep(key, kept)
        return kept

    def keep(self, key, kept: Kept) -> None:
        entries = self._held.entries
        entries[key] = kept
        entries.move_to_end(key)
        while len(entries) > self.readers:
            entries.popitem(last=False)  # the request may still read it: never lent out

    def forget(self, key) -> None:
        self._held.entries.pop(key, None)

    def give_back(self) -> None:
        """The end of a request: the states this thread holds go back to the pool."""
        entries = self._held.entries
        while entries:
            self._pool.put(*entries.popitem(last=False))

    # -- writers -----------------------------------------------------------------------------

    def take(self, key) -> Kept | None:
        """A state the caller now owns and may change: the pool's newest, else this thread's."""
        return self._pool.take(key) or self._held.entries.pop(key, None)

    def hand_on(self, key, kept: Kept) -> None:
        """The state a writer leaves for the next request of this process."""
        self._pool.put(key, kept)

    def writing(self, key) -> threading.RLock:
        """The turn of this process's writers of one campaign (`key`: its database and id):
        each then meets the state the one before handed on, at the head, instead of racing
        it to the log and folding a state of its own."""
        with self._writing_lock:
            return self._writing.setdefault(key, threading.RLock())

    # -- first events --------------------------------------------------------------------------

    def first(self, first_hash: str) -> tuple[str, str] | None:
        """(system, name) of the campaign whose first event has this hash; it never changes."""
        return self._firsts.get(first_hash)

    def remember_first(self, first_hash: str, system: str, name: str) -> None:
        self._firsts[first_hash] = (system, name)

    def clear(self) -> None:
        self._held.entries.clear()
        self._pool.clear()
        self.tallies.clear()
        self.tails.clear()
