"""Content that cannot start a game is refused with words, before any campaign is written."""

import copy

import pytest

from tracker.errors import RuleViolation
from tracker.systems.base import load_json
from tracker.systems.hellas import system

BASE = load_json(system.content_dir / "base.json")


def _settings(content):
    return {
        "players": [{"id": "ann", "name": "Ann"}, {"id": "bo", "name": "Bo"}],
        "content": content,
    }


def test_the_base_board_starts_a_campaign():
    assert system.initial_state(_settings(copy.deepcopy(BASE)))["game"] is None


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (
            lambda c: c["event_cards"]["red-comet"].update(monster="hydra"),
            "the event card red-comet names no monster",
        ),
        (
            lambda c: c["quests"]["oracle-stair"].update(region="atlantis"),
            "the quest oracle-stair needs a region",
        ),
        (
            lambda c: c["quests"]["oracle-stair"].update(needs={"charm": 2}),
            "needs an attribute heroes do not have",
        ),
        (
            lambda c: c["quests"]["oracle-stair"]["rewards"].append({"grant": "gold"}),
            "gives something the rules do not know",
        ),
        (
            lambda c: c["combat_cards"]["spear-1"].update(copies=0),
            "the combat card spear-1 needs at least one copy",
        ),
        (lambda c: c["limits"].pop("hand"), "no hand limit"),
        (
            lambda c: c["monuments"]["zeus"].update(
                blessing={"grant": "attribute", "attribute": "luck"}
            ),
            "raises an attribute heroes do not have",
        ),
        (
            lambda c: c["start"]["seats"][0].update(hero="atlantis"),
            "a seat of the board's setup stands on no region",
        ),
    ],
)
def test_content_that_cannot_be_played_is_refused_in_words(change, words):
    content = copy.deepcopy(BASE)
    change(content)
    with pytest.raises(RuleViolation) as refused:
        system.initial_state(_settings(content))
    assert words in refused.value.message
