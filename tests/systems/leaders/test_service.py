"""Leaders through the service: sample files imported, a match appended with server draws."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tracker.dice import SeededRoller
from tracker.errors import BatchError
from tracker.service import Service

EVENTS = Path(__file__).resolve().parents[3] / "events"


def _import(service: Service, name: str):
    lines = (EVENTS / name).read_text(encoding="utf-8").splitlines()
    [result] = service.import_lines(lines)
    return result


def test_the_standard_sample_match_imports_and_alice_wins_by_capture(service):
    _import(service, "leaders-standard.jsonl")
    view = service.state("ember-vs-grey")
    match = view.state["match"]
    assert (match["phase"], match["winner"], match["how"]) == ("over", "alice", "capture")
    assert match["pieces"]["assassin"]["at"] == [0, -1]
    assert view.state["standings"]["alice"]["won"] == 1
    assert view.state["standings"]["bob"]["lost"] == 1
    assert view.state["matches"][0]["to_version"] == view.version
    words = [entry.words for entry in service.history("ember-vs-grey")]
    assert words[-1].endswith("Alice wins match first-blood by capture")


def test_the_expert_sample_match_imports_with_both_exiles_and_a_nemesis_move(service):
    _import(service, "leaders-expert.jsonl")
    state = service.state("salt-vs-moth").state
    match = state["match"]
    assert match["exiled"] == ["assassin", "archer", "protector", "jailer"]
    assert match["pieces"]["nemesis"]["at"] == [1, -1]
    assert (match["winner"], match["how"]) == ("bob", "capture")


def test_the_samples_time_travel_to_the_wait_for_the_nemesis(service):
    _import(service, "leaders-expert.jsonl")
    lines = (EVENTS / "leaders-expert.jsonl").read_text().splitlines()
    version = next(
        n for n, line in enumerate(lines, start=1) if json.loads(line)["type"] == "NemesisMoved"
    )
    before = service.state("salt-vs-moth", at=version - 1).state["match"]
    assert before["nemesis"]["owner"] == "bob"


def test_a_match_appended_through_the_service_has_its_deck_and_first_player_drawn(service):
    service.start(
        "duel",
        "leaders",
        "A duel",
        {"players": [{"id": "ann", "name": "Ann"}, {"id": "ben", "name": "Ben"}]},
    )
    service.append(
        "duel",
        [
            {"type": "MatchStarted", "data": {"match": "m1"}},
            {"type": "LeaderChosen", "data": {"player": "ann", "leader": "salt-king"}},
            {"type": "LeaderChosen", "data": {"player": "ben", "leader": "moth-duchess"}},
            {"type": "DeckShuffled", "data": {}},
            {"type": "FirstPlayerDrawn", "data": {}},
        ],
        1,
        roller=SeededRoller(3),
    )
    view = service.state("duel")
    match = view.state["match"]
    assert sorted(match["row"] + match["deck"]) == sorted(match["pool"])
    assert len(match["row"]) == 3
    assert match["active"] in ("ann", "ben") and match["phase"] == "action"
    first = service.store.event("duel", 6)
    assert first.meta["source"] == "server-roll" and first.data["first"] == match["active"]
    assert "deck" not in view.to_json()["match"]
    player = match["active"]
    leader = {"ann": "salt-king", "ben": "moth-duchess"}[player]
    with pytest.raises(BatchError) as caught:
        service.append(
            "duel",
            [
                {
                    "type": "CharacterMoved",
                    "data": {"player": player, "character": leader, "path": [[0, 1]]},
                }
            ],
            view.version,
        )
    assert "a move goes to an adjacent space" in caught.value.message
    assert service.state("duel").version == view.version


def test_an_import_without_the_shuffled_deck_is_refused(service):
    lines = (EVENTS / "leaders-standard.jsonl").read_text().splitlines()
    broken = [json.loads(line) for line in lines]
    broken[4]["data"] = {}
    assert broken[4]["type"] == "DeckShuffled"
    from tracker.errors import ImportFailed

    with pytest.raises(ImportFailed) as caught:
        service.import_lines(json.dumps(line) for line in broken)
    assert "line 5" in caught.value.message and "shuffled deck" in caught.value.message


def test_a_campaign_on_another_board_layout_carries_that_layout(service):
    service.start(
        "wide",
        "leaders",
        "Wide gates",
        {
            "players": [{"id": "ann", "name": "Ann"}, {"id": "ben", "name": "Ben"}],
            "board": "wide-gates",
        },
    )
    state = service.state("wide").state
    assert state["board"]["id"] == "wide-gates"
    assert len(state["board"]["seats"][0]["recruitment"]) == 6
