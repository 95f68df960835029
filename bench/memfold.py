"""Fold one bench campaign in this fresh process and print its peak memory as JSON."""

import json
import resource
import sys

from bench import data
from tracker import systems
from tracker.fold import fold
from tracker.store import open_store


def _high_water_mib() -> float:
    """This process's peak resident memory. Not ru_maxrss: on Linux that keeps the high
    water mark of the parent that forked it, which is the bench itself."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(size: str) -> None:
    store = open_store(data.database(size))
    system = systems.get("warcry")
    state = fold(system, store.read(data.campaign_id(size)))
    peak = _high_water_mib()
    size_mib = len(json.dumps(state)) / 2**20  # after the peak is read: this costs memory too
    print(json.dumps({"maxrss_mib": peak, "state_mib": size_mib}))


if __name__ == "__main__":
    main(sys.argv[1])
