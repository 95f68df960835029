"""A backup is a consistent copy of everything while writers go on writing; restoring it
brings back the log, accounts, members, tokens and visibility; the command line lists and
sets a campaign's members and visibility."""

import subprocess
import sys
import threading

from apiseed import PASSWORD, seed
from logins import logged_in

from tracker import config
from tracker.accounts import Accounts
from tracker.events import NewEvent
from tracker.store import open_store
from tracker.web import create_app


def manage(*args):
    return subprocess.run(
        [sys.executable, str(config.ROOT / "manage.py"), *args], capture_output=True, text=True
    )


def test_a_backup_taken_while_writers_write_is_consistent_and_restores_everything(tmp_path):
    db = tmp_path / "live.db"
    seed(str(db))
    stop, going, written = threading.Event(), threading.Event(), []

    def write():
        writer = open_store(db)
        while not stop.is_set() and len(written) < 3000:
            writer.append("busy", [NewEvent("Noted", {"n": len(written)})], len(written))
            written.append(1)
            if len(written) == 20:
                going.set()
        writer.close()

    thread = threading.Thread(target=write)
    thread.start()
    try:
        assert going.wait(30)
        run = manage("backup", "--db", str(db), str(tmp_path / "copy.db"))
        during = len(written)
    finally:
        stop.set()
        thread.join()
    assert run.returncode == 0, run.stderr
    assert len(written) > 20 and during > 20
    restored = tmp_path / "restored.db"
    run = manage("restore", "--db", str(restored), str(tmp_path / "copy.db"))
    assert run.returncode == 0, run.stderr
    store = open_store(restored)
    versions = [e.version for e in store.read("busy")]
    assert versions == list(range(1, len(versions) + 1))  # no gap: a moment of the log
    assert store.verify("busy") is None and store.verify("c") is None
    store.close()
    app = create_app({"DATABASE": str(restored), "TESTING": True})
    client = logged_in(app, "ivy")  # the accounts came back
    assert client.get("/c/c/").status_code == 200  # and ivy's membership of the private "c"


def test_restore_refuses_to_overwrite_a_database(tmp_path):
    db = tmp_path / "a.db"
    seed(str(db))
    assert manage("backup", "--db", str(db), str(tmp_path / "b.db")).returncode == 0
    run = manage("restore", "--db", str(db), str(tmp_path / "b.db"))
    assert run.returncode == 1 and "exists already" in run.stderr
    assert manage("backup", "--db", str(db), str(tmp_path / "b.db")).returncode == 1


def test_the_command_line_lists_and_sets_members_and_visibility(tmp_path):
    db = tmp_path / "a.db"
    seed(str(db))
    listed = manage("members", "c", "--db", str(db))
    assert "ivy\tplayer\tiron" in listed.stdout and "org\torganiser\t-" in listed.stdout
    taken = manage("members", "c", "--db", str(db), "--add", "nemo", "--side", "crow")
    assert taken.returncode == 1 and "Crowmarch is played by cole already" in taken.stderr
    assert "nemo" not in manage("members", "c", "--db", str(db)).stdout
    manage("members", "c", "--db", str(db), "--remove", "cole")
    added = manage("members", "c", "--db", str(db), "--add", "nemo", "--side", "crow")
    assert "nemo\tplayer\tcrow" in added.stdout
    removed = manage("members", "c", "--db", str(db), "--remove", "ivy")
    assert "ivy" not in removed.stdout
    assert manage("visibility", "c", "--db", str(db)).stdout.strip() == "c: private"
    assert manage("visibility", "c", "public", "--db", str(db)).stdout.strip() == "c: public"
    store = open_store(db)
    assert Accounts(store).is_public("c")
    store.close()
    unknown = manage("members", "c", "--db", str(db), "--add", "nobody")
    assert unknown.returncode == 1 and unknown.stderr.count("\n") == 1
    assert PASSWORD not in unknown.stderr
