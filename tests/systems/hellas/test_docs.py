"""The event documentation names every event and only tests that exist."""

import re
from pathlib import Path

from tracker.systems.hellas import system

HERE = Path(__file__).resolve().parent
DOC = HERE.parents[2] / "docs" / "events" / "hellas.md"


def test_every_event_is_documented():
    documented = set(re.findall(r"\| `([A-Z][A-Za-z]+)` \|", DOC.read_text(encoding="utf-8")))
    assert set(system.events) <= documented


def test_every_test_the_rules_table_names_exists():
    named = set(re.findall(r"(test_[a-z0-9_]+)(?!\.py)\b", DOC.read_text(encoding="utf-8")))
    named = {n for n in named if not (HERE / f"{n}.py").exists()}
    defined = set()
    for path in HERE.glob("test_*.py"):
        defined |= set(re.findall(r"def (test_[a-z0-9_]+)", path.read_text(encoding="utf-8")))
    assert named and named <= defined, named - defined
