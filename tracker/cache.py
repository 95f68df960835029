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
    takes an entry (nobody else has it then), brings it up to date and puts it back. At most
    `size` entries; the oldest go first."""

    def __init__(self, size: int):
        self.size = size
        self.lock = threading.Lock()
        self.entries: OrderedDict = OrderedDict()

    def take(self, key):
        with self.lock:
            return self.entries.pop(key, None)

    def put(self, key, entry) -> None:
        with self.lock:
            self.entries[key] = entry
            self.entries.move_to_end(key)
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()


class _ThreadStates(threading.local):
    def __init__(self):
        self.entries: OrderedDict = OrderedDict()


class StateCache:
    """The latest states for readers and for writers, the campaigns' first events, the
    dice tallies and the worded ends of the logs.

    Readers share a state and never change it: each thread keeps its own (a thread serves one
    request at a time, so nobody changes it under a page). A writer changes the state it
    applies events to: it takes one (the last writer's, handed over, else its thread's), which
    leaves the cache while the writer has it, and hands the new state on to the next writer.
    """

    def __init__(self, readers: int = 8, writers: int = 64):
        self.readers = readers
        self._threads = _ThreadStates()
        self._writers = Handover(writers)
        self._firsts: dict[str, tuple[str, str]] = {}
        self.tallies = Handover(writers)
        self.tails = Handover(writers)  # the worded ends of logs (tracker.wording)

    # -- readers -----------------------------------------------------------------------------

    def read(self, key) -> Kept | None:
        """This thread's kept state, to read and not to change."""
        entries = self._threads.entries
        kept = entries.get(key)
        if kept is not None:
            entries.move_to_end(key)
        return kept

    def keep(self, key, kept: Kept) -> None:
        entries = self._threads.entries
        entries[key] = kept
        entries.move_to_end(key)
        while len(entries) > self.readers:
            entries.popitem(last=False)

    def forget(self, key) -> None:
        self._threads.entries.pop(key, None)

    # -- writers -----------------------------------------------------------------------------

    def take(self, key) -> Kept | None:
        """A state the caller now owns and may change: the last writer's, else this thread's."""
        return self._writers.take(key) or self._threads.entries.pop(key, None)

    def hand_on(self, key, kept: Kept) -> None:
        """The state a writer leaves for the next writer of this process."""
        self._writers.put(key, kept)

    # -- first events --------------------------------------------------------------------------

    def first(self, first_hash: str) -> tuple[str, str] | None:
        """(system, name) of the campaign whose first event has this hash; it never changes."""
        return self._firsts.get(first_hash)

    def remember_first(self, first_hash: str, system: str, name: str) -> None:
        self._firsts[first_hash] = (system, name)

    def clear(self) -> None:
        self._threads.entries.clear()
        self._writers.clear()
        self.tallies.clear()
        self.tails.clear()
