"""manage.py, run as a user runs it: a real process, one line on stderr for every error."""

import json
import os
import subprocess
import sys

import pytest

from tracker import config

MANAGE = str(config.ROOT / "manage.py")
SAMPLE = str(config.SAMPLES / "warcry-ember-crown.jsonl")
CAMPAIGN = "ember-crown-sample"


def run(*args, env=None, stdin=None):
    result = subprocess.run(
        [sys.executable, MANAGE, *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        input=stdin,
        timeout=120,
    )
    return result


def assert_one_line_error(result, words):
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ") and words in lines[0]
    assert "Traceback" not in result.stderr


@pytest.fixture
def db(tmp_path):
    path = str(tmp_path / "cli.db")
    assert run("init", "--db", path).returncode == 0
    return path


@pytest.fixture
def loaded(db):
    result = run("import", SAMPLE, "--db", db)
    assert result.returncode == 0, result.stderr
    return db


def test_every_command_has_help_text():
    result = run("--help")
    for command in ("init", "serve", "import", "export", "verify", "state", "campaigns", "rebuild"):
        assert command in result.stdout
        help_text = run(command, "--help").stdout
        assert "--db PATH" in help_text and len(help_text.splitlines()) > 3


def test_init_creates_the_database_and_the_tracker_db_variable_names_it(tmp_path):
    path = tmp_path / "from-env.db"
    result = run("init", env={"TRACKER_DB": str(path)})
    assert result.returncode == 0 and path.exists()


def test_import_reports_each_campaign_with_its_head(db):
    result = run("import", SAMPLE, "--db", db)
    assert result.returncode == 0
    assert f"imported {CAMPAIGN}:" in result.stdout and "head " in result.stdout


def test_import_of_a_bad_file_names_the_line_and_writes_nothing(db, tmp_path):
    lines = open(SAMPLE).read().splitlines()
    lines[4] = lines[4].replace('"points": 120', '"points": 120, "extra": 1')
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines))
    assert_one_line_error(run("import", str(bad), "--db", db), "line 5:")
    assert run("campaigns", "--db", db).stdout == ""


def test_import_of_a_missing_file_is_one_line(db):
    assert_one_line_error(run("import", "/nowhere.jsonl", "--db", db), "No such file")


def test_export_then_import_gives_the_same_head(loaded, tmp_path):
    exported = run("export", CAMPAIGN, "--db", loaded).stdout
    assert all(json.loads(line)["campaign"] == CAMPAIGN for line in exported.splitlines())
    other = str(tmp_path / "other.db")
    run("init", "--db", other)
    result = run("import", "-", "--db", other, stdin=exported)
    assert result.returncode == 0, result.stderr
    heads = [run("campaigns", "--db", path).stdout.split("\t")[-1] for path in (loaded, other)]
    assert heads[0] == heads[1]


def test_state_prints_the_folded_state_and_travels_in_time(loaded):
    now = json.loads(run("state", CAMPAIGN, "--db", loaded).stdout)
    then = json.loads(run("state", CAMPAIGN, "--at", "20", "--db", loaded).stdout)
    assert now["system"] == "warcry" and then["version"] == 20
    wb = now["warbands"]["ironjaws"]
    for key in (
        "name",
        "player",
        "faction",
        "glory",
        "territories",
        "map_position",
        "aftermath",
        "fighters",
    ):
        assert key in wb
    fighter = wb["fighters"]["varka"]
    for key in (
        "name",
        "leader",
        "destiny",
        "status",
        "lesser_artefact",
        "artefact_of_power",
        "command_trait",
        "favoured",
    ):
        assert key in fighter
    assert isinstance(now["battles"], list) and len(now["head"]) == 64


def test_state_of_an_unknown_campaign_or_version_is_one_line(loaded):
    assert_one_line_error(run("state", "nope", "--db", loaded), "no campaign 'nope'")
    assert_one_line_error(
        run("state", CAMPAIGN, "--at", "99999", "--db", loaded), "has events 1 to"
    )


def test_campaigns_lists_id_system_name_version_and_head(loaded):
    line = run("campaigns", "--db", loaded).stdout.strip()
    campaign, system, name, version, head = line.split("\t")
    assert (campaign, system) == (CAMPAIGN, "warcry") and int(version) > 100 and len(head) == 64


def test_verify_exits_zero_when_chains_hold_and_one_naming_a_broken_event(loaded):
    assert run("verify", "--db", loaded).returncode == 0
    import sqlite3

    raw = sqlite3.connect(loaded)
    raw.execute("DROP TRIGGER events_refuse_update")
    raw.execute("UPDATE events SET data = replace(data, '220', '999') WHERE version = 4")
    raw.commit()
    raw.close()
    result = run("verify", CAMPAIGN, "--db", loaded)
    assert result.returncode == 1
    assert_one_line_error(result, f"{CAMPAIGN}: event 4 (FighterAdded)")


def test_rebuild_replays_every_campaign_with_a_progress_bar(loaded):
    result = run("rebuild", "--db", loaded)
    assert result.returncode == 0 and "rebuilt 1 campaigns" in result.stdout
    assert "replaying" in result.stderr


def test_a_missing_database_and_an_unknown_command_are_one_line(tmp_path):
    assert_one_line_error(
        run("campaigns", "--db", str(tmp_path / "none.db")), "there is no database"
    )
    assert_one_line_error(run("frobnicate"), "No such command")
