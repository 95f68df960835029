"""The event documentation of Leaders names every event and only tests that exist."""

import re
from pathlib import Path

from tracker.systems.leaders import system

HERE = Path(__file__).resolve().parent
DOC = HERE.parents[2] / "docs" / "events" / "leaders.md"
TESTS = [*HERE.glob("test_*.py"), HERE.parents[1] / "web" / "test_leaders_pages.py"]


def test_every_leaders_event_is_documented():
    text = DOC.read_text(encoding="utf-8")
    for event_type in system.events:
        assert f"`{event_type}`" in text, event_type


def test_every_test_the_leaders_rules_table_names_exists():
    named = set(re.findall(r"`(test_\w+)`", DOC.read_text(encoding="utf-8")))
    defined = set()
    for path in TESTS:
        defined |= set(re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M))
    assert len(named) > 80
    assert not named - defined, sorted(named - defined)
