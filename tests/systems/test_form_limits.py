"""A form's limits are read from the schemas that check what it sends, never restated."""

import re

from tracker import config, systems
from tracker.systems.base import IdPattern


def test_an_events_limits_are_its_schemas():
    warcry = systems.registry()["warcry"]
    assert warcry.limits("FighterAdded", "name") == {"maxlength": 80}
    assert warcry.limits("FighterAdded", "fighter") == {"maxlength": 63}
    assert warcry.limits("ReinforcementsBought", "points") == {"min": 10, "max": 1000}


def test_a_path_reaches_into_nested_lists_and_objects():
    warcry = systems.registry()["warcry"]
    assert warcry.limits("QuestDefined", "map.name") == {"maxlength": 80}
    assert warcry.limits("QuestDefined", "command_traits.id") == {"maxlength": 63}
    assert warcry.limits("QuestDefined", "reward.text") == {"maxlength": 1000}


def test_the_settings_limits_are_the_settings_schemas():
    for name in ("claim", "hellas", "leaders", "monsters"):
        system = systems.registry()[name]
        assert system.settings_limits("players.name") == {"maxlength": 60}, name
        assert "maxlength" in system.settings_limits("players.id"), name


def test_an_id_pattern_bounds_its_length():
    pattern = IdPattern(5)
    assert pattern("abcde") == "abcde"
    assert not pattern.regex.match("abcdef")
    assert not pattern.regex.match("-abc")


def test_no_template_restates_a_limit():
    restated = re.compile(r"""\b(maxlength|minlength|min|max)=["']?\d""")
    found = [
        f"{path.relative_to(config.TEMPLATES)}: {match.group(0)}"
        for path in sorted(config.TEMPLATES.rglob("*.html"))
        for match in restated.finditer(path.read_text())
    ]
    assert found == []
