"""Every event of monster battles reads as a sentence a player would say: each event type,
from the sample campaign and from battles played here, is checked for a full sentence."""

import re
from pathlib import Path

import pytest

from tracker.dice import SeededRoller
from tracker.service import Service
from tracker.store import Store
from tracker.systems.monsters import system

EVENTS = Path(__file__).resolve().parents[3] / "events"

# -- what makes words a sentence a player would say ----------------------------------------

COORDINATES = re.compile(r"\(-?\d+, -?\d+\)")
CHECKS = (
    (re.compile(r"^\s|\s$"), "space at an end"),
    (re.compile(r"  "), "a doubled space"),
    (re.compile(r" [.,;:)]"), "a space before punctuation"),
    (re.compile(r"\( "), "a space after a bracket"),
    (re.compile(r"\(\)"), "empty brackets"),
    (re.compile(r"[,;:]\s*[.,;:]"), "punctuation with nothing between"),
    (re.compile(r"[,;:(-]$"), "an unfinished end"),
    (re.compile(r"\b(?:the|a|an|of|to|on|in|at|and|by|with|from)$", re.I), "a dangling last word"),
    (re.compile(r"\b(\w+) \1\b", re.I), "a doubled word"),
    (re.compile(r"\b(?:None|null|True|False)\b|[{}\[\]]"), "code in the words"),
    (re.compile(r"\b\d+ (?:in|on|at|to|from|left)\b"), "a number without its noun"),
    (re.compile(r"'s's\b"), "a doubled possessive"),
)


def sentence_problems(words: str, event_type: str) -> list[str]:
    """What keeps the words of an event from being a sentence a player would say."""
    if not words or not words.strip():
        return ["no words"]
    if words == event_type or re.fullmatch(r"(?:[A-Z][a-z]+){2,}", words):
        return ["the event's type instead of words"]
    found = [] if words[0].isupper() else ["no capital letter at the start"]
    plain = COORDINATES.sub("(q, r)", words)
    found += [what for pattern, what in CHECKS if pattern.search(plain)]
    return found


def test_the_sentence_check_catches_the_words_players_would_not_say():
    for bad in (
        "",
        "FigureMoved",
        "Eleni recruited 1 in Aigialos",
        "See it at the table then: .",
        "Alice used the Hook (Claw): ",
        "Alice moved  the Hook",
        "the Cat lost a life (1 left)",
        "Alice's Bear attacked None",
        "Bob recruited the",
    ):
        assert sentence_problems(bad, "FigureMoved"), bad
    assert not sentence_problems("Alice's Cat moved from (2, 2) to (3, 4) (3 steps)", "X")


# -- the words of every event type ---------------------------------------------------------


@pytest.fixture
def service(tmp_path):
    store = Store(tmp_path / "t.db")
    store.init()
    yield Service(store, SeededRoller(11))
    store.close()


def sample_words(service) -> list[tuple[str, str]]:
    said = []
    for path in sorted(EVENTS.glob("monsters-*.jsonl")):
        lines = path.read_text(encoding="utf-8").splitlines()
        service.import_lines(lines)
        campaign = service.campaigns()[-1].id
        said += [(e.event.type, e.words) for e in service.history(campaign)]
    return [(kind, words) for kind, words in said if kind in system.events]


def played_words(table_factory) -> list[tuple[str, str]]:
    """Battles played here for what the sample does not show: a flier coming down, sixes,
    a kill, a king entering a castle on its way, a concession and a draw."""
    said = []

    def do(table, kind, **data):
        table.do(kind, **data)
        said.append((kind, table.describe()))

    table = table_factory()
    do(table, "BattleBegun", battle="b1", map="twin-peaks", first="alice")
    do(table, "FiguresChosen", battle="b1", figures=["knight", "bear", "pigeon"], king="knight")
    table.arrange(
        {"alice-bear": (2, 2), "bob-pigeon": (4, 2), "alice-knight": (0, 0), "bob-knight": (8, 8)}
        | {"bob-bear": (6, 6), "alice-pigeon": (6, 2)}
    )
    do(table, "FigureMoved", battle="b1", piece="alice-bear", path=[[3, 2]])
    do(table, "FlierCameDown", battle="b1", flier="bob-pigeon", attacker="alice-bear")
    rounds = [{"attacker": [6, 6], "defender": [6, 1]}]
    do(
        table,
        "AttackMade",
        battle="b1",
        attacker="alice-bear",
        defender="bob-pigeon",
        rounds=rounds,
    )
    do(table, "FigureMoved", battle="b1", piece="bob-bear", path=[[6, 5]])
    do(table, "FigureMoved", battle="b1", piece="alice-pigeon", path=[[6, 3], [6, 4]])
    rounds = [{"attacker": [3], "defender": [4]}]
    do(
        table,
        "AttackMade",
        battle="b1",
        attacker="alice-pigeon",
        defender="bob-bear",
        rounds=rounds,
    )
    do(table, "BattleEnded", battle="b1", winner="bob", reason="conceded")

    table = table_factory()
    table.begin(figures=("knight",))
    table.arrange({"alice-knight": (6, 7), "bob-knight": (2, 2)})
    do(
        table,
        "FigureMoved",
        battle="b1",
        piece="alice-knight",
        path=[[7, 7], [8, 7], [8, 8], [7, 8]],
    )
    do(table, "BattleEnded", battle="b1", winner="alice", reason="castle-taken")

    table = table_factory()
    table.begin(figures=("knight",))
    table.arrange({"alice-knight": (4, 4), "bob-knight": (6, 4)})
    do(table, "FigureMoved", battle="b1", piece="alice-knight", path=[[5, 4]])
    rounds = [{"attacker": [6, 6], "defender": [6, 6]}]
    do(
        table,
        "AttackMade",
        battle="b1",
        attacker="alice-knight",
        defender="bob-knight",
        rounds=rounds,
    )
    do(table, "BattleEnded", battle="b1", winner=None, reason="both-kings-fell")
    return said


def test_every_monster_battles_event_reads_as_a_sentence_a_player_would_say(service, table_factory):
    said = sample_words(service) + played_words(table_factory)
    assert {kind for kind, _ in said} == set(system.events)
    wrong = [(kind, words, p) for kind, words in said if (p := sentence_problems(words, kind))]
    assert not wrong, wrong


def test_an_attack_in_words_says_each_round_and_what_it_cost(table_factory):
    said = dict(played_words(table_factory)[:5])
    assert said["AttackMade"] == (
        "Alice's Bear attacked Bob's Pigeon: 14 against 8; the Bear rolled two sixes; "
        "the Pigeon was killed"
    )
