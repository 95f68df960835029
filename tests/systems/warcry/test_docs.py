"""docs/events/warcry.md stays true: its table of rules names tests that exist, and every
event type of the system is documented with each of its fields."""

import ast
import re
from pathlib import Path

import pytest

from tracker.systems.warcry.schemas import EVENTS

HERE = Path(__file__).resolve().parent
DOC = HERE.parents[2] / "docs" / "events" / "warcry.md"
REFERENCE = re.compile(r"`(test_[a-z0-9_]*\.py)::(test_[A-Za-z0-9_]+)`")


def section(text: str, title: str) -> str:
    """The body of the `## title` section, up to the next `## ` heading."""
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def table_rows() -> list[tuple[str, list[tuple[str, str]]]]:
    """(rule, [(file, test)]) for every row of the table "Rules and their tests"."""
    body = section(DOC.read_text(encoding="utf-8"), "Rules and their tests")
    rows = []
    for line in body.splitlines():
        if not line.startswith("|") or set(line) <= {"|", "-", " "}:
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if cells[0] == "rule (rules page)":
            continue
        rows.append((cells[0], REFERENCE.findall(" ".join(cells[1:]))))
    return rows


def defined_tests(filename: str) -> set[str]:
    tree = ast.parse((HERE / filename).read_text(encoding="utf-8"))
    return {
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
    }


def test_the_table_of_rules_has_rows_and_each_row_names_a_test():
    rows = table_rows()
    assert len(rows) >= 50
    for rule, refs in rows:
        assert refs, f"the rule {rule!r} names no test as `file.py::test_name`"


def test_every_test_the_table_names_exists_in_its_file():
    missing = []
    for rule, refs in table_rows():
        for filename, name in refs:
            path = HERE / filename
            if not path.exists() or name not in defined_tests(filename):
                missing.append(f"{filename}::{name} (for {rule!r})")
    assert not missing, "the table names tests that do not exist: " + "; ".join(missing)


# The files of the rules' tests, one a subject: every test in them is in the table.
RULE_FILES = [
    "test_glory.py",
    "test_injuries.py",
    "test_destiny.py",
    "test_fighters.py",
    "test_search_and_lesser_artefacts.py",
    "test_campaign_map.py",
    "test_rewards.py",
    "test_aftermath_steps.py",
    "test_battles.py",
    "test_content.py",
    "test_factions.py",
    "test_mustering.py",
    "test_convergence.py",
    "test_story.py",
    "test_rules_versions.py",
    "test_content_packs.py",
    "test_rosters.py",
]


@pytest.mark.parametrize("filename", RULE_FILES)
def test_every_rule_test_is_listed_in_the_table(filename):
    listed = {name for _, refs in table_rows() for f, name in refs if f == filename}
    unlisted = sorted(defined_tests(filename) - listed)
    assert not unlisted, f"tests of {filename} missing from the table: {', '.join(unlisted)}"


@pytest.mark.parametrize("event_type", sorted(EVENTS))
def test_every_event_type_is_documented_with_its_fields(event_type):
    text = DOC.read_text(encoding="utf-8")
    heading = f"\n### `{event_type}`\n"
    assert heading in text, f"{event_type} has no section in {DOC.name}"
    start = text.index(heading) + len(heading)
    end = min(i for i in (text.find("\n### ", start), text.find("\n## ", start)) if i != -1)
    body = text[start:end]
    for field in EVENTS[event_type]._declared_fields:
        assert f"| `{field}` |" in body, f"{event_type}.{field} is not in its table"
    assert f'"type": "{event_type}"' in body, f"{event_type} has no example line"


def test_the_documented_event_types_are_the_systems_events():
    text = DOC.read_text(encoding="utf-8")
    documented = set(re.findall(r"^### `([A-Za-z]+)`$", text, flags=re.M))
    assert documented == set(EVENTS)
