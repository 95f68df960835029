"""An event recorded in an older shape is read in today's: `ArtefactDiscarded` named its
`discarded` field `artefact` once. The log, the sample and their hashes keep the old shape."""

import json
from pathlib import Path

import pytest

import tracker.importer
from tracker.errors import BatchError, InvalidEvent
from tracker.systems.warcry import system

EVENTS = Path(__file__).resolve().parents[3] / "events"
SAMPLE = EVENTS / "warcry-ember-crown.jsonl"
CAMPAIGN = "ember-crown-sample"
OLD = {"warband": "crowmarch", "fighter": "ilse", "artefact": "lesser"}

# Each sample's head (version, hash) when imported at this moment, as the tracker gave it
# before the field was renamed: the hash is over the data as stored.
AT = "2026-12-01T00:00:00.000000Z"
HEADS = {
    "claim-tavern-nights": (
        133,
        "7c4bfbe6de6f6af244e228c72556c05381a52c1f5f29d4dbb62d5f9b690b0186",
    ),
    "hellas-duel": (
        62,
        "1e198bd4b1c9ff7be746a256232daad18c4e0656aeeda9800c70667b9a696eac",
    ),
    "hellas-three-crowns": (
        94,
        "6ddde1475f460595932d7ddc1c079410d4a02eab432b08231b02a3916089be6d",
    ),
    "salt-vs-moth": (
        24,
        "1388d46578a1d9a852de29feb9cebde1587123cf670dcafccccd201333482717",
    ),
    "ember-vs-grey": (
        40,
        "a01cf811da76b73dd2707dd0d940113e8951449053a70adfedefb57adb0008e2",
    ),
    "twin-peaks-feud": (
        51,
        "e4803e703dd5d8d54da04f3d2a6369fe20f6a3e743d06e4068d3b843ed81a9c6",
    ),
    "ember-crown-sample": (
        322,
        "08795e9cf8cbac8bfaaf4a722f991f9e609d00bf56420d2443ae01d0f07d8959",
    ),
}


def sample_lines(name=SAMPLE):
    return name.read_text(encoding="utf-8").splitlines()


def old_discard_version(service) -> int:
    """The version of the sample's one discard, recorded in the old shape."""
    [version] = [e.version for e in service.store.read(CAMPAIGN) if e.type == "ArtefactDiscarded"]
    return version


def test_an_old_discard_is_read_with_its_field_renamed_and_a_new_one_as_it_is():
    assert system.upcast_data("ArtefactDiscarded", OLD) == {
        "warband": "crowmarch",
        "fighter": "ilse",
        "discarded": "lesser",
    }
    new = {"warband": "crowmarch", "fighter": "ilse", "discarded": "power"}
    assert system.upcast_data("ArtefactDiscarded", new) is new


def test_the_sample_keeps_its_discard_in_the_old_shape():
    lines = [json.loads(line) for line in sample_lines() if line.strip()]
    [discard] = [line["data"] for line in lines if line["type"] == "ArtefactDiscarded"]
    assert discard == OLD


def test_an_old_discard_imports_and_is_stored_as_recorded(service):
    service.import_lines(sample_lines())
    stored = service.store.event(CAMPAIGN, old_discard_version(service))
    assert stored.data == OLD
    assert service.verify(CAMPAIGN) is None


def test_an_old_discard_in_the_log_folds_as_a_discard(service):
    service.import_lines(sample_lines())
    version = old_discard_version(service)
    before = service.state(CAMPAIGN, at=version - 1).state["warbands"]["crowmarch"]
    after = service.state(CAMPAIGN, at=version).state["warbands"]["crowmarch"]
    held = before["fighters"]["ilse"]["lesser_artefact"]["name"]
    assert after["fighters"]["ilse"]["lesser_artefact"] is None
    assert after["fighters"]["ilse"]["dropped"] == held


def test_an_old_discard_reads_in_the_audit_log(service):
    service.import_lines(sample_lines())
    version = old_discard_version(service)
    [entry] = [e for e in service.history(CAMPAIGN) if e.event.version == version]
    assert entry.words == (
        "Crowmarch's Ilse Quill discarded the lesser artefact Rune-Scratched Buckler"
    )


def test_playing_on_past_an_old_discard_copies_it_in_the_current_shape(service):
    service.import_lines(sample_lines())
    version = old_discard_version(service)
    source = service.state(CAMPAIGN)
    service.branch(CAMPAIGN, source.version, "played-on", "Played on", actor="alice")
    copy = service.state("played-on")
    assert copy.version == source.version
    assert copy.state["warbands"] == source.state["warbands"]
    assert service.store.event("played-on", version).data == system.upcast_data(
        "ArtefactDiscarded", OLD
    )


def test_a_new_discard_is_submitted_with_the_new_field_and_the_old_one_is_refused(service):
    service.import_lines(sample_lines())
    head = service.store.version(CAMPAIGN)
    old = {"warband": "ironjaws", "fighter": "varka", "artefact": "lesser"}
    with pytest.raises((BatchError, InvalidEvent)):
        service.append(CAMPAIGN, [{"type": "ArtefactDiscarded", "data": old}], head)
    new = {"warband": "ironjaws", "fighter": "varka", "discarded": "lesser"}
    service.append(CAMPAIGN, [{"type": "ArtefactDiscarded", "data": new}], head)
    assert service.store.event(CAMPAIGN, head + 1).data == new
    varka = service.state(CAMPAIGN).state["warbands"]["ironjaws"]["fighters"]["varka"]
    assert varka["lesser_artefact"] is None and varka["dropped"] == "Bone Knuckles"


@pytest.mark.parametrize("path", sorted(EVENTS.glob("*.jsonl")), ids=lambda p: p.stem)
def test_every_sample_keeps_its_head_hash(service, monkeypatch, path):
    monkeypatch.setattr(tracker.importer, "utcnow", lambda: AT)
    [result] = service.import_lines(sample_lines(path))
    assert service.store.head(result.campaign) == HEADS[result.campaign]
