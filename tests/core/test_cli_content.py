"""`tracker content import FILE --campaign C`: a content file into a campaign's log, all of
it or nothing, every error one line on stderr."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tracker import config

MANAGE = str(config.ROOT / "manage.py")
SAMPLE = str(config.SAMPLES / "warcry-ember-crown.jsonl")
DATA = Path(__file__).parents[1] / "systems" / "warcry" / "data"


def run(*args):
    return subprocess.run(
        [sys.executable, MANAGE, *args],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=120,
    )


@pytest.fixture
def db(tmp_path):
    path = str(tmp_path / "t.db")
    assert run("init", "--db", path).returncode == 0
    assert run("import", SAMPLE, "--db", path).returncode == 0
    return path


def versions(db) -> int:
    state = json.loads(run("state", "ember-crown-sample", "--db", db).stdout)
    return state["version"]


def test_content_import_appends_the_files_factions_to_the_campaign(db):
    before = versions(db)
    file = str(DATA / "three-factions.json")
    result = run("content", "import", file, "--campaign", "ember-crown-sample", "--db", db)
    assert result.returncode == 0, result.stderr
    assert versions(db) == before + 1
    assert "--db PATH" in run("content", "import", "--help").stdout


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("broken-toughness.json", "fighter 5 (Wick Thrall): the field toughness"),
        ("reavers.ros", "is not JSON"),
    ],
)
def test_a_wrong_content_file_is_one_line_on_stderr_and_writes_nothing(db, name, words):
    before = versions(db)
    result = run(
        "content", "import", str(DATA / name), "--campaign", "ember-crown-sample", "--db", db
    )
    assert result.returncode != 0 and "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0]
    assert versions(db) == before


def test_content_import_needs_a_campaign_that_exists(db):
    file = str(DATA / "three-factions.json")
    result = run("content", "import", file, "--campaign", "nowhere", "--db", db)
    assert result.returncode != 0 and len(result.stderr.strip().splitlines()) == 1
