"""Every event of monster battles reads as a sentence a player would say: each event type,
from the sample campaign and from battles played here, is checked for a full sentence."""

from sentences import sample_words, sentence_problems

from tracker.systems.monsters import system

# -- the words of every event type ---------------------------------------------------------


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
    said = sample_words(service, "monsters", system) + played_words(table_factory)
    assert {kind for kind, _ in said} == set(system.events)
    wrong = [(kind, words, p) for kind, words in said if (p := sentence_problems(words, kind))]
    assert not wrong, wrong


def test_an_attack_in_words_says_each_round_and_what_it_cost(table_factory):
    said = dict(played_words(table_factory)[:5])
    assert said["AttackMade"] == (
        "Alice's Bear attacked Bob's Pigeon: 14 against 8; the Bear rolled two sixes; "
        "the Pigeon was killed"
    )
