"""Whole-database verify knows what should be there: the head each campaign's log had is kept
beside the log (`heads`, by a trigger in every insert's transaction), so a campaign deleted
or a log truncated behind the tracker's back fails `verify` in words, on both engines; and a
witness file of every head (`witness --all`) catches even a log rewritten consistently."""

import json
import sqlite3
import subprocess
import sys

import psycopg
import pytest
from pgserver import database_for

from tracker import config
from tracker.events import NewEvent
from tracker.service import Service
from tracker.store import open_store


def manage(*args):
    return subprocess.run(
        [sys.executable, str(config.ROOT / "manage.py"), *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def note(n):
    return NewEvent("Noted", {"n": n}, {"actor": "t"})


def started(store, campaign, notes):
    """A Warcry campaign whose first event is its start, then `notes` events of no game
    (never folded here: verify folds only to hold a snapshot against the log)."""
    Service(store).start(campaign, "warcry", campaign.upper())
    store.append(campaign, [note(n) for n in range(notes)], 1)


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request, tmp_path):
    """A database on each engine with two campaigns: "a" at event 5, "b" at event 3."""
    target = database_for(request, tmp_path)
    store = open_store(target)
    store.init()
    started(store, "a", 4)
    started(store, "b", 2)
    store.close()
    return target


def owner(db, *statements):
    """Statements run straight on the database as its owner, triggers and all."""
    if db.startswith("postgresql"):
        with psycopg.connect(db, autocommit=True) as conn:
            for statement in statements:
                conn.execute(statement)
        return
    conn = sqlite3.connect(db)
    for statement in statements:
        conn.execute(statement)
    conn.commit()
    conn.close()


def heads(db):
    store = open_store(db)
    try:
        return {c: (v, h[:12]) for c, v, h in store.query("SELECT * FROM heads ORDER BY campaign")}
    finally:
        store.close()


def test_every_append_keeps_its_campaigns_head_beside_the_log(db):
    store = open_store(db)
    assert heads(db) == {"a": (5, store.head("a")[1][:12]), "b": (3, store.head("b")[1][:12])}
    store.append("b", [note(9)], 3)
    store.close()
    assert heads(db)["b"][0] == 4
    assert manage("verify", "--db", db).returncode == 0


def test_verify_of_the_whole_database_names_a_campaign_whose_events_were_deleted(db):
    if db.startswith("postgresql"):
        owner(
            db, "ALTER TABLE events DISABLE TRIGGER USER", "DELETE FROM events WHERE campaign = 'b'"
        )
    else:
        owner(db, "DROP TRIGGER events_refuse_delete", "DELETE FROM events WHERE campaign = 'b'")
    run = manage("verify", "--db", db)
    assert run.returncode == 1
    assert "campaign b: the log holds none of its events, but its head was event 3" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1
    one = manage("verify", "b", "--db", db)
    assert one.returncode == 1 and "its head was event 3" in one.stderr


def test_verify_of_the_whole_database_names_a_log_truncated_by_its_owner(db):
    if db.startswith("postgresql"):
        owner(db, "ALTER TABLE events DISABLE TRIGGER ALL", "TRUNCATE events")
    else:
        owner(db, "DROP TRIGGER events_refuse_delete", "DELETE FROM events")
    run = manage("verify", "--db", db)
    assert run.returncode == 1
    assert "campaign a: the log holds none of its events, but its head was event 5" in run.stderr
    assert "campaign b: the log holds none of its events, but its head was event 3" in run.stderr


def test_verify_names_a_log_cut_short(db):
    if db.startswith("postgresql"):
        owner(db, "ALTER TABLE events DISABLE TRIGGER USER")
    else:
        owner(db, "DROP TRIGGER events_refuse_delete")
    owner(db, "DELETE FROM events WHERE campaign = 'a' AND version > 2")
    run = manage("verify", "--db", db)
    assert (
        run.returncode == 1
        and "campaign a: the log ends at event 2, but its head was event 5 (" in (run.stderr)
    )


def test_a_database_made_before_heads_gets_them_filled_from_its_log_on_init(db):
    on = " ON events" if db.startswith("postgresql") else ""
    owner(db, f"DROP TRIGGER events_keep_head{on}", "DROP TABLE heads")
    assert manage("verify", "--db", db).returncode == 0  # read as it is: no heads to hold
    assert manage("init", "--db", db).returncode == 0
    assert {c: v for c, (v, _) in heads(db).items()} == {"a": 5, "b": 3}
    assert manage("verify", "--db", db).returncode == 0


def test_a_witness_file_of_every_head_catches_a_log_rewritten_or_shortened(db, tmp_path):
    file = tmp_path / "witness.jsonl"
    wrote = manage("witness", "--all", "--db", db, "--out", str(file))
    assert wrote.returncode == 0, wrote.stderr
    lines = [json.loads(line) for line in file.read_text().splitlines()]
    assert [(w["campaign"], w["version"]) for w in lines] == [("a", 5), ("b", 3)]
    ok = manage("verify", "--db", db, "--witness", str(file))
    assert ok.returncode == 0 and "every head of" in ok.stdout
    # Somebody with the owner's rights rewrites "a" from event 2 on, consistently (a new
    # chain, the heads record mended too), and cuts "b" short, records and all.
    store = open_store(db)
    rows = store.query(
        "SELECT version, type, data, meta, recorded_at FROM events WHERE campaign = 'a'"
    )
    store.close()
    if db.startswith("postgresql"):
        owner(db, "ALTER TABLE events DISABLE TRIGGER USER")
    else:
        owner(db, "DROP TRIGGER events_refuse_delete")
    owner(
        db,
        "DELETE FROM events WHERE campaign = 'a' AND version > 1",
        "DELETE FROM events WHERE campaign = 'b' AND version > 1",
        "DELETE FROM heads",
    )
    if db.startswith("postgresql"):
        owner(db, "ALTER TABLE events ENABLE TRIGGER USER")
    store = open_store(db)
    store.init()
    store.append("a", [NewEvent("Noted", {"n": 99}, {"actor": "t"})] * (len(rows) - 1), 1)
    store.close()
    owner(
        db,
        "INSERT INTO heads (campaign, version, hash) SELECT campaign, version, hash FROM events "
        "WHERE campaign = 'b' AND version = 1",
    )
    assert manage("verify", "--db", db).returncode == 0  # the chains and the record agree
    run = manage("verify", "--db", db, "--witness", str(file))
    assert run.returncode == 1
    assert "campaign a: event 5 has the head" in run.stderr and "rewritten" in run.stderr
    assert "campaign b: the log holds only 1 events, not 3" in run.stderr


def test_a_witness_file_that_is_not_one_is_refused_in_words(db, tmp_path):
    file = tmp_path / "w.txt"
    file.write_text("a 5 abc\n")
    run = manage("verify", "--db", db, "--witness", str(file))
    assert run.returncode == 1 and "line 1 of" in run.stderr and "is not a witness" in run.stderr


def test_an_app_role_without_the_owners_rights_keeps_the_heads_but_cannot_change_them(pg_url):
    store = open_store(pg_url)
    store.init()
    started(store, "a", 1)
    store.close()
    owner(
        pg_url,
        "CREATE ROLE tracker_app LOGIN",
        "GRANT SELECT, INSERT ON events TO tracker_app",
        "GRANT SELECT ON heads TO tracker_app",
    )
    as_app = pg_url.replace("tracker@", "tracker_app@")
    try:
        app = open_store(as_app)
        app.append("a", [note(7)], 2)
        app.close()
        assert heads(pg_url)["a"][0] == 3
        with psycopg.connect(as_app, autocommit=True) as conn:
            for statement in ("UPDATE heads SET version = 1", "DELETE FROM heads"):
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    conn.execute(statement)
    finally:
        owner(pg_url, "DROP OWNED BY tracker_app", "DROP ROLE tracker_app")
    assert manage("verify", "--db", pg_url).returncode == 0
