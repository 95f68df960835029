"""Every event of Claim reads as a sentence a player would say: each event type from the
sample campaign and from whole games played here (each trick led and followed, phase two
beginning, a game won and a game with no winner), checked for a full sentence."""

import re

from sentences import sample_words, sentence_problems

from tracker.systems.claim import system
from tracker.systems.claim.rules import legal_cards
from tracker.systems.claim.words import result_words

# -- the words of every event type ---------------------------------------------------------


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
    said = sample_words(service, "claim", system) + played_words(h)
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
