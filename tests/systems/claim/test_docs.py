"""The event documentation names every event and field, and only tests that exist."""

import re
from pathlib import Path

from tracker.systems.claim import system

HERE = Path(__file__).resolve().parent
DOC = HERE.parents[2] / "docs" / "events" / "claim.md"


def _documented_fields(heading: str) -> set[str]:
    """The fields the table under `heading` names in its first column."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index(heading)
    section = re.split(r"\n#{2,3} ", text[start + len(heading) :])[0]
    named = set()
    for row in re.findall(r"^\| ([^|]+) \|", section, re.M):
        named |= set(re.findall(r"`(\w+)`", row))
    return named


def test_every_event_is_documented_with_every_field():
    for event_type in system.events:
        fields = set(system.schema(event_type).fields)
        assert fields <= _documented_fields(f"### `{event_type}`"), event_type


def test_every_setting_is_documented():
    fields = set(system.settings_schema().fields)
    assert fields <= _documented_fields("## Settings")


def test_every_test_named_in_the_rules_table_exists():
    doc = DOC.read_text(encoding="utf-8")
    named = set(re.findall(r"`(test_\w+)`", doc))
    defined = set()
    for path in [*HERE.glob("test_*.py"), HERE.parents[1] / "web" / "test_claim_pages.py"]:
        defined |= set(re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M))
    assert named and not named - defined
