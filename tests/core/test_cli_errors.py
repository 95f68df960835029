"""Every command of the command line, with every kind of wrong argument: one line on stderr,
a non-zero exit, never a traceback. And a database that may only be read is still read."""

import os
import shutil
import socket
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from tracker import config

SAMPLE = str(config.SAMPLES / "leaders-standard.jsonl")
WARCRY = str(config.SAMPLES / "warcry-ember-crown.jsonl")
CAMPAIGN = "ember-vs-grey"
COMMANDS = ("init", "serve", "import", "export", "verify", "state", "campaigns", "rebuild")
READS = ("export", "verify", "state", "campaigns")
ROOT = os.geteuid() == 0


def tracker(*args, stdin=b"", cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "tracker", *args],
        capture_output=True,
        input=stdin,
        cwd=cwd,
        timeout=120,
    )


def one_line_error(result) -> str | None:
    """What is wrong with the way a command failed, or None when it failed as it should."""
    stderr = result.stderr.decode("utf-8", "replace")
    lines = [line for line in stderr.splitlines() if line.strip()]
    if result.returncode == 0:
        return "exited 0"
    if "Traceback" in stderr:
        return "printed a traceback:\n" + stderr
    if len(lines) != 1 or not lines[0].startswith("error: "):
        return f"printed {len(lines)} lines on stderr:\n" + stderr
    return None


def run_all(cases):
    """Run every case at once (each is a process of its own); the failures, by case."""
    with ThreadPoolExecutor(4) as pool:
        results = pool.map(lambda args: tracker(*args), cases)
        faults = {" ".join(args): one_line_error(result) for args, result in zip(cases, results)}
    return {case: fault for case, fault in faults.items() if fault}


def args_for(command: str, db: str) -> list[str]:
    """The command with arguments that are right, but for the database."""
    extra = {
        "import": [SAMPLE],
        "export": [CAMPAIGN],
        "state": [CAMPAIGN],
        "serve": ["--port", str(free_port())],
    }
    return [command, *extra.get(command, []), "--db", db]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def loaded(tmp_path):
    path = str(tmp_path / "data" / "tracker.db")
    assert tracker("init", "--db", path).returncode == 0
    assert tracker("import", SAMPLE, "--db", path).returncode == 0
    # Long enough that folding it leaves a snapshot (which a read-only database cannot keep).
    assert tracker("import", WARCRY, "--db", path).returncode == 0
    return path


def make_read_only(path):
    """The file and its folder made read-only: as root, by the immutable attribute (root
    writes through modes), else by their modes. Returns how to undo it."""
    folder = os.path.dirname(path)
    if ROOT:
        if shutil.which("chattr") is None:
            pytest.skip("chattr is needed to make a file read-only for root")
        done = subprocess.run(["chattr", "+i", path, folder], capture_output=True)
        if done.returncode != 0:
            pytest.skip("this file system does not take the immutable attribute")
        return lambda: subprocess.run(["chattr", "-i", path, folder], check=True)
    os.chmod(path, 0o444)
    os.chmod(folder, 0o555)
    return lambda: (os.chmod(folder, 0o755), os.chmod(path, 0o644))


@pytest.fixture
def read_only(loaded):
    undo = make_read_only(loaded)
    yield loaded
    undo()


@pytest.fixture
def wrong_databases(tmp_path):
    """Each kind of wrong --db: missing, a folder, garbage, an SQLite file of another program."""
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(os.urandom(4096))
    folder = tmp_path / "folder.db"
    folder.mkdir()
    other = tmp_path / "other.db"
    subprocess.run(
        [
            sys.executable,
            "-c",
            f"import sqlite3; sqlite3.connect({str(other)!r}).execute('create table t (x)')",
        ],
        check=True,
    )
    kinds = {
        "missing": str(tmp_path / "missing" / "none.db"),
        "folder": str(folder),
        "garbage": str(garbage),
        "another program's": str(other),
    }
    if not ROOT:
        unreadable = tmp_path / "unreadable.db"
        shutil.copy(other, unreadable)
        unreadable.chmod(0)
        kinds["unreadable"] = str(unreadable)
    return kinds


def test_every_command_on_every_kind_of_wrong_database_fails_in_one_line(wrong_databases):
    cases = []
    for kind, db in wrong_databases.items():
        for command in COMMANDS:
            if command in ("init", "serve") and kind in ("missing", "another program's"):
                continue  # these make the database, or add the tracker's tables beside others
            cases.append(args_for(command, db))
    assert run_all(cases) == {}


def test_every_command_that_writes_says_in_one_line_that_the_database_may_only_be_read(
    read_only,
):
    cases = [args_for(command, read_only) for command in COMMANDS if command not in READS]
    assert run_all(cases) == {}
    for args in cases[:1]:
        assert "may only be read" in tracker(*args).stderr.decode()


def test_init_on_a_read_only_database_does_not_say_it_is_ready(read_only):
    result = tracker("init", "--db", read_only)
    assert result.returncode != 0 and b"database ready" not in result.stdout


def test_a_database_that_may_only_be_read_is_read(read_only):
    assert CAMPAIGN in tracker("campaigns", "--db", read_only).stdout.decode()
    assert tracker("verify", "--db", read_only).returncode == 0
    assert tracker("export", CAMPAIGN, "--db", read_only).stdout.count(b"\n") == 40
    state = tracker("state", CAMPAIGN, "--at", "12", "--db", read_only)
    assert state.returncode == 0 and b'"version": 12' in state.stdout
    state = tracker("state", "ember-crown-sample", "--db", read_only)
    assert state.returncode == 0 and b'"version": 322' in state.stdout, state.stderr


def test_every_wrong_argument_of_every_command_fails_in_one_line(loaded, tmp_path):
    folder = tmp_path / "a-folder"
    folder.mkdir()
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_bytes(os.urandom(2048))
    latin = tmp_path / "latin-1.jsonl"
    latin.write_bytes('{"campaign": "café"}\n'.encode("latin-1"))
    utf16 = tmp_path / "utf-16.jsonl"
    utf16.write_text('{"campaign": "x"}\n', encoding="utf-16")
    not_json = tmp_path / "words.jsonl"
    not_json.write_text("these are words\n")
    db = ["--db", loaded]
    cases = [
        ["frobnicate"],
        ["init", "--db"],
        ["init", "--nonsense", *db],
        ["import", *db],
        ["import", str(tmp_path / "none.jsonl"), *db],
        ["import", str(folder), *db],
        ["import", str(garbage), *db],
        ["import", str(latin), *db],
        ["import", str(utf16), *db],
        ["import", str(not_json), *db],
        ["import", SAMPLE, *db],  # the campaign is there already
        ["import", SAMPLE, SAMPLE, *db],
        ["export", *db],
        ["export", "no-such-campaign", *db],
        ["export", "../../etc", *db],
        ["verify", "no-such-campaign", *db],
        ["state", *db],
        ["state", "no-such-campaign", *db],
        ["state", CAMPAIGN, "--at", "x", *db],
        ["state", CAMPAIGN, "--at", "0", *db],
        ["state", CAMPAIGN, "--at", "-3", *db],
        ["state", CAMPAIGN, "--at", "99999", *db],
        ["state", CAMPAIGN, "--at", *db],
        ["campaigns", "extra", *db],
        ["rebuild", "extra", *db],
        ["serve", "--port", "99999", *db],
        ["serve", "--port", "0", *db],
        ["serve", "--port", "x", *db],
        ["serve", "--workers", "0", *db],
        ["serve", "--host", "no-such-host.invalid", *db],
    ]
    assert run_all(cases) == {}
    if not ROOT:
        unreadable = tmp_path / "unreadable.jsonl"
        shutil.copy(SAMPLE, unreadable)
        unreadable.chmod(0)
        result = tracker("import", str(unreadable), *db)
        assert one_line_error(result) is None and b"Permission denied" in result.stderr
        assert b"may only be read" not in result.stderr  # the file is at fault, not the database


def test_import_of_text_that_is_not_utf8_names_the_file_and_the_byte(loaded, tmp_path):
    latin = tmp_path / "latin-1.jsonl"
    latin.write_bytes('{"campaign": "café"}\n'.encode("latin-1"))
    for args, stdin in (([str(latin)], b""), (["-"], latin.read_bytes())):
        result = tracker("import", *args, "--db", loaded, stdin=stdin)
        assert one_line_error(result) is None
        assert b"is not UTF-8 text (byte 18 is 0xe9)" in result.stderr


def test_serve_on_a_port_in_use_says_so_in_one_line_without_claiming_to_serve(loaded):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = tracker("serve", "--port", str(port), "--db", loaded)
    assert one_line_error(result) is None
    assert b"the port is in use" in result.stderr and b"serving" not in result.stdout


def test_the_console_script_and_python_m_tracker_run_the_same_commands(loaded):
    script = os.path.join(os.path.dirname(sys.executable), "tracker")
    if not os.path.exists(script):
        pytest.skip("the tracker is not installed with its console script here")
    for command in ([script], [sys.executable, "-m", "tracker"]):
        result = subprocess.run(
            [*command, "campaigns", "--db", loaded], capture_output=True, timeout=60
        )
        assert result.returncode == 0 and CAMPAIGN in result.stdout.decode()
