"""Every event of Leaders reads as a sentence a player would say: each event type from the
sample matches, every kind of action a board offers (its button and its log line), and a
two-piece recruit, each checked for a full sentence."""

from leaders_table import ALICE, BOB, DECK, QUEEN, Table, arranged
from sentences import sample_words, sentence_problems

from tracker.events import Event
from tracker.systems.leaders import rules, system, views

# -- the words of every event type ---------------------------------------------------------

#: a board where each active ability of Alice's has something to work on
EVERY_ABILITY = {
    "acrobat": (ALICE, (0, 1)),
    "colossus": (ALICE, (0, 0)),
    "rider": (ALICE, (-2, 2)),
    "royal-guard": (ALICE, (3, -3)),
    "illusionist": (ALICE, (-3, 0)),
    "claw": (ALICE, (2, 1)),
    "manipulator": (ALICE, (-1, -1)),
    "wanderer": (ALICE, (-3, 3)),
    "brewmaster": (ALICE, (1, 2)),
    "hermit": (BOB, (1, -1)),
    "cub": (BOB, (2, -2)),
}


def action_words() -> tuple[list[tuple[str, str]], set]:
    """The button and the log line of every action the board offers Alice, and the kinds of
    action seen (ability, form)."""
    table = arranged(EVERY_ABILITY)
    said, kinds = [], set()
    for piece_id, offered in system.views.action_options(table.state, ALICE).items():
        for option in offered:
            kind, data = option["type"], option["data"]
            after = views.trial(table.state, kind, data)
            event = Event(None, "c", 0, kind, data, {}, None, None)
            said += [(kind, option["label"]), (kind, system.describe(after, event))]
            kinds.add((table.match["pieces"][piece_id]["ability"], kind, data.get("form")))
    return said, kinds


def recruit_words() -> list[tuple[str, str]]:
    """Hermit and Cub, one card of two pieces, recruited on two spaces."""
    table = Table().start(deck=["hermit-and-cub"] + [c for c in DECK if c != "hermit-and-cub"])
    table.do("ActionPhaseEnded", player=ALICE)
    table.recruit(ALICE, "hermit-and-cub", (-1, 3), (-2, 3))
    return [("CharacterRecruited", system.describe(table.state, table.last_event))]


def test_every_leaders_event_reads_as_a_sentence_a_player_would_say(service):
    acted, _ = action_words()
    said = sample_words(service, "leaders", system) + acted + recruit_words()
    assert {kind for kind, _ in said} == set(system.events)
    wrong = [(kind, words, p) for kind, words in said if (p := sentence_problems(words, kind))]
    assert not wrong, wrong


def test_every_active_ability_and_both_forms_of_the_claw_are_worded():
    _, kinds = action_words()
    used = {ability for ability, kind, _ in kinds if kind == "AbilityUsed"}
    assert used == set(rules.ACTIVE)
    assert {("claw", "AbilityUsed", "move"), ("claw", "AbilityUsed", "pull")} <= kinds


def test_a_two_piece_recruit_names_both_pieces_and_their_spaces():
    assert recruit_words() == [
        (
            "CharacterRecruited",
            "Alice recruited the Hermit of Stonewell (Hermit) on (-1, 3) and Burr the Cub "
            "(Cub) on (-2, 3)",
        )
    ]


def test_each_event_is_described_in_one_line_of_words():
    table = arranged({"rider": (ALICE, (-1, -2)), "claw": (ALICE, (2, -3))})
    table.move(ALICE, "claw", (1, -3))
    words = system.describe(table.state, table.last_event)
    assert words == "The Hook (Alice's Claw) moved to (1, -3); Alice wins match m1 by capture"
    table = arranged({"colossus": (ALICE, (0, 0)), "rider": (BOB, (1, 0))})
    table.use(ALICE, "colossus", (2, 0), target="rider")
    assert system.describe(table.state, table.last_event) == (
        "Old Millstone (Alice's Colossus) pushed Corvin of the Long Road (Bob's Rider) to (2, 0) "
        "and took its space (1, 0)"
    )


def test_describe_gives_words_for_setup_events():
    table = Table()
    table.do("MatchStarted", match="m1")
    assert system.describe(table.state, table.last_event) == "Match m1 began in standard mode"
    table.do("LeaderChosen", player=ALICE, leader=QUEEN)
    assert system.describe(table.state, table.last_event) == (
        "Alice chose the Ember Queen as Leader"
    )
    event = Event(None, "c", 9, "FirstPlayerDrawn", {"first": BOB}, {}, None, None)
    assert system.describe(table.state, event) == "Bob was drawn to play first"
