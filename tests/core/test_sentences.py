"""The sentence check itself: it catches the words players would not say."""

from sentences import sentence_problems


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
