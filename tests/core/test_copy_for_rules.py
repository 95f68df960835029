"""A copy for the rules is made as the rules reach into it (`copy_for_rules`): every event of
every sample, applied to such a copy, gives the state an eager copy gives, and never changes
the state it was copied from, which readers share; nor does an event refused on it."""

import pytest

from tracker import cli, systems
from tracker.errors import TrackerError
from tracker.events import copied, state_text
from tracker.fold import apply_event
from tracker.service import Service
from tracker.store import open_store
from tracker.systems.base import copy_for_rules, settled


@pytest.fixture(scope="module")
def samples(tmp_path_factory):
    store = open_store(str(tmp_path_factory.mktemp("copies") / "samples.db"))
    store.init()
    cli.load_samples(Service(store))
    logs = {row.id: list(store.read(row.id)) for row in store.campaigns()}
    voids = {campaign: store.voids(campaign) for campaign in logs}
    store.close()
    return logs, voids


def _eager(state):
    return {key: value if key == "content" else copied(value) for key, value in state.items()}


def test_every_sample_event_on_a_copy_made_as_the_rules_reach_leaves_the_shared_state_alone(
    samples,
):
    logs, voids = samples
    assert {events[0].data["system"] for events in logs.values()} == {
        "warcry",
        "leaders",
        "claim",
        "monsters",
        "hellas",
    }
    stepped = 0
    for campaign, events in logs.items():
        system = systems.get(events[0].data["system"])
        skipped = voids[campaign]
        state = system.initial_state(events[0].data["settings"])
        for event in events[1:]:
            before = state_text(state)
            expected = apply_event(system, _eager(state), event, skipped)
            after = settled(apply_event(system, copy_for_rules(state), event, skipped))
            assert state_text(state) == before, (campaign, event.version, event.type)
            assert state_text(after) == state_text(expected), (campaign, event.version)
            parts = [part for part in after.values() if isinstance(part, dict | list)]
            assert all(type(part) in (dict, list) for part in parts), "settled: plain data"
            # The same event again (mostly refused): the state it is tried on stays as it was.
            again = state_text(after)
            try:
                apply_event(system, copy_for_rules(after), event, skipped)
            except TrackerError:
                pass
            assert state_text(after) == again, (campaign, event.version, event.type)
            state = after
            stepped += 1
    assert stepped > 700
