"""The event documentation names every event and only tests that exist."""

import re
from pathlib import Path

from tracker.systems.monsters import system

HERE = Path(__file__).resolve().parent
DOC = HERE.parents[2] / "docs" / "events" / "monsters.md"


def test_every_event_is_documented():
    text = DOC.read_text(encoding="utf-8")
    for event_type in system.events:
        assert f"`{event_type}`" in text


def test_every_test_the_rules_table_names_exists():
    text = DOC.read_text(encoding="utf-8")
    named = re.findall(r"`(test_\w+\.py)::(?:(\w+)::)?(test_\w+)`", text)
    assert len(named) > 40
    for filename, cls, name in named:
        source = (HERE / filename).read_text(encoding="utf-8")
        if cls:
            assert f"class {cls}" in source, cls
        assert f"def {name}(" in source, f"{filename}::{name}"
