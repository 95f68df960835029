"""Integration: the sample campaigns imported through the service, and appends with server rolls."""

from pathlib import Path

import pytest

from tracker.errors import BatchError, ImportFailed
from tracker.systems.hellas import system

EVENTS = Path(__file__).resolve().parents[3] / "events"


def _import(service, name):
    lines = (EVENTS / name).read_text(encoding="utf-8").splitlines()
    service.import_lines(lines)
    return service.state(name.removesuffix(".jsonl"))


def test_the_two_player_sample_ends_with_a_monster_slayer(service):
    view = _import(service, "hellas-duel.jsonl")
    game = view.state["game"]
    assert game["over"]["winner"] == "alexa"
    assert game["over"]["condition"] == "slayer"
    assert game["slain"] == {"alexa": ["harpy", "boar", "chimera"], "bion": []}
    assert {m: v["level"] for m, v in game["monuments"].items()} == {
        "zeus": 2,
        "hermes": 2,
        "athena": 2,
    }
    assert game["quests_done"] == {"alexa": ["oracle-stair"], "bion": []}
    assert game["heroes"]["alexa"]["strength"] == 3  # two blessings of Athena
    assert game["battles"][0]["outcome"]["winner"] == "bion"
    assert game["grants"] == []
    assert view.state["standings"]["alexa"]["by"]["slayer"] == 1
    # The first event carries the board it was played on.
    first = service.store.event("hellas-duel", 1)
    assert len(first.data["settings"]["content"]["regions"]) == 19
    public = view.to_json()
    assert public["progress"]["alexa"]["slayer"] == {"have": 3, "need": 3}


def test_the_three_player_sample_ends_with_a_king_of_kings(service):
    view = _import(service, "hellas-three-crowns.jsonl")
    game = view.state["game"]
    assert game["over"]["winner"] == "fotini"
    assert game["over"]["condition"] == "king_of_kings"
    assert game["monuments"]["zeus"]["level"] == 5
    assert game["king"]["tokens"] == 0
    assert game["regions"]["orchia"]["controller"] == "fotini"
    assert game["regions"]["kopais"]["controller"] == "elias"
    assert game["excluded_lands"] == ["achaion"]  # the content's default for three players
    assert [b["outcome"]["winner"] for b in game["battles"]] == ["elias"]
    assert game["artifacts"]["wind-sandals"] == {"owner": "elias", "charged": True}


def test_the_audit_log_of_a_sample_reads_as_words(service):
    _import(service, "hellas-three-crowns.jsonl")
    words = [entry.words for entry in service.history("hellas-three-crowns")]
    assert words[1] == "Game crowns-1 began: Dora, Elias, Fotini"
    assert words[-1] == (
        "Fotini marched 1 hoplite from Orchia to Aulida; Fotini wins game crowns-1 as King of Kings"
    )
    assert all(w for w in words)


def test_time_travel_shows_the_battle_still_undecided(service):
    _import(service, "hellas-three-crowns.jsonl")
    view = service.state("hellas-three-crowns", at=49)
    assert view.state["game"]["battle"]["cards"] == {"dora": ["spear-2"], "elias": []}


def test_an_import_with_a_broken_rule_names_its_line(service):
    lines = (EVENTS / "hellas-duel.jsonl").read_text(encoding="utf-8").splitlines()
    lines.insert(3, lines[2])  # the hero moves twice in one turn
    with pytest.raises(ImportFailed) as failed:
        service.import_lines(lines)
    assert failed.value.line == 4
    assert "each kind of normal action is taken once a turn" in failed.value.message


def _start(service):
    service.start(
        "duel",
        "hellas",
        "A duel",
        {"players": [{"id": "ann", "name": "Ann"}, {"id": "bo", "name": "Bo"}]},
    )
    service.append(
        "duel",
        [
            {
                "type": "GameStarted",
                "data": {
                    "game": "g1",
                    "order": ["ann", "bo"],
                    "heroes": {"ann": "eirinos", "bo": "phlios"},
                    "hoplites": {"ann": {"korythos": 3}, "bo": {"phlios": 3}},
                    "monsters": {"boar": "eirinos"},
                    "hands": {"ann": ["helm-1", "spear-1"], "bo": ["helm-1", "shield-1"]},
                },
            }
        ],
        1,
    )


def test_the_server_deals_the_starting_hands_from_the_deck_and_hides_them(service):
    service.start(
        "deal",
        "hellas",
        "A deal",
        {"players": [{"id": "ann", "name": "Ann"}, {"id": "bo", "name": "Bo"}]},
    )
    service.append(
        "deal", [{"type": "GameStarted", "data": {"game": "g1", "order": ["ann", "bo"]}}], 1
    )
    started = service.store.event("deal", 2)
    assert started.meta["source"] == "server-roll"
    state = service.state("deal").state
    hands = started.data["hands"]
    assert {p: sorted(c) for p, c in hands.items()} == state["game"]["hands"]
    assert all(len(cards) == 2 for cards in hands.values())
    # The board's own setup: each seat's hero and hoplites come from the content.
    assert state["game"]["heroes"]["ann"]["region"] == "korythos"
    assert state["game"]["regions"]["phlios"]["hoplites"] == {"bo": 3}
    shown = system.visible_event_data(state, "GameStarted", started.data, 2, "bo")
    assert shown["hands"]["bo"] == hands["bo"]
    assert shown["hands"]["ann"] == "2 cards, hidden"
    public = system.public_state(state)
    assert "hands" not in public["game"] and "deck" not in public["game"]
    assert public["game"]["hand_counts"] == {"ann": 2, "bo": 2}
    assert public["game"]["deck_count"] == 20
    assert system.visible_state(state, "ann")["hand"] == sorted(hands["ann"])


def test_the_server_rolls_the_monsters_attack_and_draws_the_event_card(service):
    _start(service)
    service.append(
        "duel",
        [
            {"type": "HuntBegan", "data": {"player": "ann", "monster": "boar"}},
            {
                "type": "HeroAttacked",
                "data": {"player": "ann", "wounds": [{"wound": "hide", "cards": ["spear-1"]}]},
            },
            {"type": "MonsterAttacked", "data": {"player": "ann"}},
        ],
        2,
        actor="ann",
    )
    attack = service.store.event("duel", 5)
    assert attack.meta["source"] == "server-roll"
    assert 1 <= attack.data["roll"][0] <= 6
    view = service.state("duel")
    assert view.state["game"]["hunt"]["attacks"][0]["roll"] == attack.data["roll"][0]


def test_the_server_draws_an_event_card_not_yet_drawn(service):
    _start(service)
    service.append(
        "duel",
        [
            {"type": "MonumentBuilt", "data": {"player": "ann", "monument": "zeus"}},
            {"type": "MonsterPhaseResolved", "data": {"player": "ann"}},
            {"type": "EventResolved", "data": {"player": "ann"}},
        ],
        2,
    )
    drawn = service.store.event("duel", 4)
    view = service.state("duel")
    assert drawn.data["card"] in view.state["content"]["event_cards"]
    assert view.state["game"]["events_drawn"] == [drawn.data["card"]]


def test_an_append_that_breaks_a_rule_writes_nothing(service):
    _start(service)
    with pytest.raises(BatchError) as failed:
        service.append(
            "duel",
            [
                {"type": "Prayed", "data": {"player": "ann"}},
                {"type": "Prayed", "data": {"player": "ann"}},
            ],
            2,
        )
    assert failed.value.index == 1
    assert "exactly one special action" in failed.value.message
    assert service.store.version("duel") == 2


def test_a_player_records_only_for_its_own_side(service):
    _start(service)
    state = service.state("duel").state
    assert system.sides(state) == {"ann": "Ann", "bo": "Bo"}
    assert system.sides_of(state, "Prayed", {"player": "bo"}) == {"bo"}
    assert system.sides_of(
        state, "RegionControlChanged", {"region": "thessa", "player": None, "reason": "x"}
    ) == {"ann"}
    assert system.sides_of(state, "GameAbandoned", {"reason": "x"}) == set()
