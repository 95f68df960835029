"""Integration tests of Claim through the service and a real store: imports and appends."""

import json
from pathlib import Path

import pytest

from tracker.errors import BatchError, ImportFailed
from tracker.systems.claim.rules import legal_cards

EVENTS = Path(__file__).resolve().parents[3] / "events"
SAMPLES = sorted(EVENTS.glob("claim-*.jsonl"))
PLAYERS = [{"id": "ana", "name": "Ana"}, {"id": "ben", "name": "Ben"}]


def test_there_is_a_sample_campaign():
    assert [p.name for p in SAMPLES] == ["claim-tavern-nights.jsonl"]


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_each_sample_campaign_imports_and_ends_its_games(service, path):
    lines = path.read_text(encoding="utf-8").splitlines()
    [result] = service.import_lines(lines)
    campaign = json.loads(lines[0])["campaign"]
    view = service.state(campaign)
    state = view.state
    assert view.version == len(lines)
    assert state["game"]["over"]
    assert state["games_played"] == len(state["games"]) >= 1
    for summary in state["games"]:
        assert sum(summary["won"].values()) <= 5
    wins = sum(s["games_won"] for s in state["standings"].values())
    assert wins + state["games_drawn"] == state["games_played"]
    game = state["game"]
    assert len(game["tricks"]) == 26
    assert sorted(game["discards"] + game["scores"]["mara"] + game["scores"]["tobin"]) == sorted(
        state["deck"]
    )
    words = [entry.words for entry in service.history(campaign)]
    assert words[1].startswith("Game 1 was dealt")
    assert all(w not in {"GameDealt", "CardTurnedUp", "CardPlayed"} for w in words)


def test_the_tavern_nights_sample_ends_one_game_each(service):
    service.import_lines((EVENTS / "claim-tavern-nights.jsonl").read_text().splitlines())
    state = service.state("claim-tavern-nights").state
    assert [g["winner"] for g in state["games"]] == ["mara", "tobin"]
    assert state["standings"] == {
        "mara": {"games_won": 1, "games_lost": 1, "factions_won": 4},
        "tobin": {"games_won": 1, "games_lost": 1, "factions_won": 6},
    }


def test_an_import_without_the_recorded_deal_is_refused(service):
    lines = (EVENTS / "claim-tavern-nights.jsonl").read_text().splitlines()[:2]
    dealt = json.loads(lines[1])
    del dealt["data"]["deal"]
    with pytest.raises(ImportFailed) as caught:
        service.import_lines([lines[0], json.dumps(dealt)])
    assert caught.value.message == (
        "line 2: GameDealt: deal: an imported event carries its shuffled deck result"
    )


def test_an_imported_card_played_out_of_turn_names_its_line(service):
    lines = (EVENTS / "claim-tavern-nights.jsonl").read_text().splitlines()
    wrong = json.loads(lines[4])  # the follower's card of trick 1, before the lead
    with pytest.raises(ImportFailed) as caught:
        service.import_lines([*lines[:3], json.dumps({**wrong, "version": 4})])
    assert caught.value.message.startswith("line 4: it is Mara's turn to lead trick 1")


def test_a_game_appended_through_the_service_draws_its_deal_and_turned_up_cards(service):
    service.start("night", "claim", "A night", {"players": PLAYERS}, actor="ana")
    result = service.append("night", [{"type": "GameDealt", "data": {"game": 1}}], 1)
    assert result is not None
    first = service.store.event("night", 2)
    assert first.meta["source"] == "server-roll"
    assert len(first.data["deal"]["stock"]) == 26
    assert first.data["leader"] in {"ana", "ben"}
    while True:
        view = service.state("night")
        game = view.state["game"]
        if game["over"]:
            break
        if game["awaiting"] == "turn-up":
            service.append("night", [{"type": "CardTurnedUp", "data": {"game": 1}}], view.version)
            continue
        trick = game["trick"]
        lead = trick["cards"][0]["card"] if trick["cards"] else None
        card = legal_cards(game["hands"][game["turn"]], lead)[-1]
        service.append(
            "night",
            [{"type": "CardPlayed", "data": {"game": 1, "player": game["turn"], "card": card}}],
            view.version,
            actor=game["turn"],
        )
    state = service.state("night").state
    assert state["games_played"] == 1
    assert len(state["game"]["tricks"]) == 26
    turned = service.store.event("night", 3)
    assert turned.type == "CardTurnedUp"
    assert turned.data["card"] == first.data["deal"]["stock"][0]
    assert turned.meta["source"] == "server-roll"


def test_a_turned_up_card_typed_in_wrong_is_refused_and_nothing_is_written(service):
    service.start("night", "claim", "A night", {"players": PLAYERS})
    service.append("night", [{"type": "GameDealt", "data": {"game": 1, "leader": "ana"}}], 1)
    top = service.store.event("night", 2).data["deal"]["stock"][0]
    other = service.store.event("night", 2).data["deal"]["stock"][1]
    if other == top:
        pytest.skip("the two top cards are alike")
    with pytest.raises(BatchError) as caught:
        service.append("night", [{"type": "CardTurnedUp", "data": {"game": 1, "card": other}}], 2)
    assert caught.value.error.message == (
        f"the turned-up card is the top card of the deck, and {other} is not (trick 1)"
    )
    assert service.store.version("night") == 2


def test_a_played_card_cannot_be_voided_once_later_cards_depend_on_it(service):
    service.import_lines((EVENTS / "claim-tavern-nights.jsonl").read_text().splitlines())
    with pytest.raises(BatchError) as caught:
        service.append(
            "claim-tavern-nights",
            [{"type": "EventVoided", "data": {"version": 4, "reason": "misplayed"}}],
            None,
        )
    said = str(caught.value.error.message)
    assert "cannot be voided on its own" in said and "depends on it" in said
    assert "CardPlayed" not in said  # the entries in words, not their types
