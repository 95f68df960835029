"""Monster battles through the service: the sample campaigns imported, events appended, dice drawn."""

from pathlib import Path

import pytest

from tracker.dice import SeededRoller
from tracker.errors import BatchError

EVENTS = Path(__file__).resolve().parents[3] / "events"
PLAYERS = [{"id": "alice", "name": "Alice"}, {"id": "bob", "name": "Bob"}]


def test_every_sample_file_imports(service):
    files = sorted(EVENTS.glob("monsters-*.jsonl"))
    assert files
    for path in files:
        service.import_lines(path.read_text(encoding="utf-8").splitlines())


def test_the_twin_peaks_feud_ends_one_battle_each(service):
    lines = (EVENTS / "monsters-twin-peaks-feud.jsonl").read_text(encoding="utf-8").splitlines()
    service.import_lines(lines)
    view = service.state("twin-peaks-feud")
    state = view.state
    assert state["standings"] == {
        "alice": {"played": 2, "won": 1, "lost": 1, "drawn": 0},
        "bob": {"played": 2, "won": 1, "lost": 1, "drawn": 0},
    }
    assert [(b["id"], b["winner"], b["reason"]) for b in state["battles"]] == [
        ("b1", "alice", "castle-taken"),
        ("b2", "bob", "conceded"),
    ]
    assert state["records"]["bob-pigeon"]["kills"] == 2
    assert state["records"]["alice-knight"] == {
        "side": "alice",
        "kind": "knight",
        "name": "Knight",
        "battles": 1,
        "kills": 2,
        "lives_lost": 1,
        "deaths": 0,
    }
    # time travel: the board of the first battle as it ended
    ended = next(n for n, line in enumerate(lines, start=1) if '"BattleEnded"' in line)
    first = service.state("twin-peaks-feud", at=ended)
    assert first.state["battle"]["id"] == "b1"
    assert first.state["battle"]["board"] == {
        "1,6": "alice-knight",
        "1,7": "bob-knight",
        "4,1": "alice-pigeon",
    }
    words = [entry.words for entry in service.history("twin-peaks-feud")]
    assert "Bob's Pigeon stayed aloft and would not fight Alice's Bear" in words
    assert (
        "Alice's Knight moved from (2, 6) to (1, 6) (1 step) and Alice's king entered Bob's castle"
        in words
    )


def start_battle(service, first="alice"):
    service.start("skirmish", "monsters", "A skirmish", {"players": PLAYERS})
    events = [
        {"type": "BattleBegun", "data": {"battle": "b1", "map": "twin-peaks", "first": first}},
        {
            "type": "FiguresChosen",
            "data": {"battle": "b1", "figures": ["knight", "bear"], "king": "knight"},
        },
    ]
    placements = [
        ("alice-knight", [3, 1]),
        ("alice-bear", [3, 2]),
        ("bob-knight", [1, 6]),
        ("bob-bear", [2, 5]),
    ]
    events += [
        {"type": "FigurePlaced", "data": {"battle": "b1", "piece": piece, "at": at}}
        for piece, at in placements
    ]
    service.append("skirmish", events, 1, actor="alice")


def moved(piece, *path):
    return {"type": "FigureMoved", "data": {"battle": "b1", "piece": piece, "path": list(path)}}


def test_the_server_draws_the_first_player(service):
    service.start("skirmish", "monsters", "A skirmish", {"players": PLAYERS})
    result = service.append(
        "skirmish", [{"type": "BattleBegun", "data": {"battle": "b1", "map": "twin-peaks"}}], 1
    )
    event = service.store.event("skirmish", result.last_version)
    assert event.meta["source"] == "server-roll"
    assert service.state("skirmish").state["battle"]["first"] == event.data["first"]
    assert event.data["first"] in ("alice", "bob")


def test_the_server_rolls_every_die_of_an_attack_until_no_tie(service):
    start_battle(service)
    service.append("skirmish", [moved("alice-bear", [3, 3])], None, actor="alice")
    service.append("skirmish", [moved("bob-bear", [2, 4])], None, actor="bob")
    for seed in range(40):  # enough seeds that some attack needs a second round
        view = service.state("skirmish")
        if view.state["battle"]["phase"] != "fighting":
            break
        turn = view.state["battle"]["turn"]
        side = turn["side"]
        mine, theirs = f"{side}-bear", f"{'bob' if side == 'alice' else 'alice'}-bear"
        if view.state["battle"]["pieces"][theirs]["pos"] is None:
            break
        events = []
        if turn["moved"] is None:
            here = view.state["battle"]["pieces"][mine]["pos"]
            events.append(
                moved(
                    mine, [3, 2] if side == "alice" else [1, 5], [int(x) for x in here.split(",")]
                )
            )
        events.append(
            {"type": "AttackMade", "data": {"battle": "b1", "attacker": mine, "defender": theirs}}
        )
        result = service.append(
            "skirmish", events, view.version, actor=side, roller=SeededRoller(seed)
        )
        event = service.store.event("skirmish", result.last_version)
        assert event.meta["source"] == "server-roll"
        action = service.state("skirmish").state["battle"]["last_action"]
        results = [r["result"] for r in action["rounds"]]
        assert results[:-1] == ["tie"] * (len(results) - 1) and results[-1] != "tie"
        assert len(event.data["rounds"]) == len(results)
    records = service.state("skirmish").state["records"]
    assert records["alice-bear"]["lives_lost"] + records["bob-bear"]["lives_lost"] >= 2


def test_a_broken_rule_writes_nothing_and_names_the_rule(service):
    start_battle(service)
    version = service.state("skirmish").version
    with pytest.raises(
        BatchError,
        match=r"event 2 \(FigureMoved\): a player moves one figure a turn \(Alice already moved the Bear this turn\)",
    ):
        service.append(
            "skirmish", [moved("alice-bear", [3, 3]), moved("alice-knight", [3, 2])], version
        )
    with pytest.raises(BatchError, match="a walker stops before the mountains"):
        service.append("skirmish", [moved("alice-bear", [2, 2], [2, 3])], version)
    assert service.state("skirmish").version == version
