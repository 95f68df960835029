"""Every event of Claim reads as a sentence a player would say: each event type from the
sample campaign and from whole games played here (each trick led and followed, phase two
beginning, a game won and a game with no winner), checked for a full sentence."""

import re
from pathlib import Path

import pytest

from tracker.dice import SeededRoller
from tracker.service import Service
from tracker.store import Store
from tracker.systems.claim import legal_cards, system
from tracker.systems.claim.system import result_words

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
        "CardPlayed",
        "Eleni recruited 1 in Aigialos",
        "See it at the table then: .",
        "Alice used the Hook (Claw): ",
        "Alice moved  the Hook",
        "the Cat lost a life (1 left)",
        "Alice's Bear attacked None",
        "Bob recruited the",
    ):
        assert sentence_problems(bad, "CardPlayed"), bad
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
    for path in sorted(EVENTS.glob("claim-*.jsonl")):
        service.import_lines(path.read_text(encoding="utf-8").splitlines())
        campaign = service.campaigns()[-1].id
        said += [(e.event.type, e.words) for e in service.history(campaign)]
    return [(kind, words) for kind, words in said if kind in system.events]


def played_words(h) -> list[tuple[str, str]]:
    """A whole game of first legal cards, then a last trick that ends with no winner."""
    said = []
    state = h.fresh()

    def worded(kind, **data):
        event = h.event(kind, **data)
        system.apply(state, event)
        said.append((kind, system.describe(state, event)))

    worded("GameDealt", game=1, leader="ana", deal=h.arrange())
    game = state["game"]
    while not game["over"]:
        if game["phase"] == 1:
            worded("CardTurnedUp", game=1, card=game["stock"][0])
        leader = game["trick"]["leader"]
        other = "ben" if leader == "ana" else "ana"
        lead = game["hands"][leader][0]
        worded("CardPlayed", game=1, player=leader, card=lead)
        follow = legal_cards(game["hands"][other], lead)[0]
        worded("CardPlayed", game=1, player=other, card=follow)
    state = h.at_trick(26, ana=["goblins-1"], ben=["goblins-2"])
    h.play(state, "ana", "goblins-1")
    last = h.event("CardPlayed", game=1, player="ben", card="goblins-2")
    system.apply(state, last)
    said.append(("CardPlayed", system.describe(state, last)))
    return said


def test_every_claim_event_reads_as_a_sentence_a_player_would_say(service, h):
    said = sample_words(service) + played_words(h)
    assert {kind for kind, _ in said} == set(system.events)
    assert any("phase two begins" in words for _, words in said)
    assert any("is over with no winner" in words for _, words in said)
    assert any(re.search(r"is over: \w+ wins", words) for _, words in said)
    wrong = [(kind, words, p) for kind, words in said if (p := sentence_problems(words, kind))]
    assert not wrong, wrong


def test_a_games_result_names_the_factions_each_player_won():
    state = {"players": [{"id": "ana", "name": "Ana"}, {"id": "ben", "name": "Ben"}]}
    game = {"number": 2, "result": {"winner": "ben", "won": {"ana": 1, "ben": 4}}}
    assert result_words(state, game) == "game 2 is over: Ben wins (Ana won 1 faction, Ben 4)"
