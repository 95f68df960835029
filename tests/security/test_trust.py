"""Nothing is trusted unchecked: snapshots are bound to their log, a witness catches a log
cut short, and bad input gets a clear answer with nothing written."""

import json
import subprocess
import sys

import pytest

from tracker import config
from tracker.service import Service
from tracker.store import open_store, snapshot_digest

SAMPLE = config.SAMPLES / "warcry-ember-crown.jsonl"
CAMPAIGN = "ember-crown-sample"


@pytest.fixture
def sampled(tmp_path):
    """The Warcry sample in a database of its own, folded once (which leaves a snapshot)."""
    path = tmp_path / "t.db"
    store = open_store(path)
    store.init()
    service = Service(store)
    service.import_lines(SAMPLE.read_text().splitlines())
    service.rebuild()
    yield service, path
    store.close()


def glory(service):
    service.repository.forget()
    return {w: b["glory"] for w, b in service.state(CAMPAIGN).state["warbands"].items()}


def tamper(service, digest: bool):
    """Add 1000 glory to every warband inside the latest stored snapshot."""
    conn = service.store.conn
    version, text, head = conn.execute(
        "SELECT version, state, head FROM snapshots ORDER BY version DESC LIMIT 1"
    ).fetchone()
    state = json.loads(text)
    for band in state["warbands"].values():
        band["glory"] += 1000
    text = json.dumps(state)
    new_digest = snapshot_digest(head, text) if digest else "0" * 64
    conn.execute(
        "UPDATE snapshots SET state = ?, digest = ? WHERE version = ?", (text, new_digest, version)
    )


def manage(*args, cwd=None):
    return subprocess.run(
        [sys.executable, str(config.ROOT / "manage.py"), *args],
        capture_output=True,
        text=True,
        cwd=cwd,
    )


def test_a_snapshot_changed_in_the_database_is_never_used(sampled):
    service, _ = sampled
    honest = glory(service)
    tamper(service, digest=False)
    assert glory(service) == honest


def test_a_snapshot_whose_head_is_not_the_logs_is_never_used(sampled):
    service, _ = sampled
    honest = glory(service)
    tamper(service, digest=True)
    service.store.conn.execute("UPDATE snapshots SET head = ?", ("f" * 64,))
    assert glory(service) == honest


def test_verify_refolds_reports_and_drops_a_snapshot_that_differs(sampled):
    service, path = sampled
    honest = glory(service)
    tamper(service, digest=True)  # a careful tamperer: the digest made anew
    run = manage("verify", "--db", str(path))
    assert run.returncode == 1 and "snapshots that differ" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1
    assert glory(service) == honest
    assert manage("verify", "--db", str(path)).returncode == 0


def test_verify_checks_a_witness_and_catches_a_log_cut_short(sampled):
    service, path = sampled
    version, head = service.store.head(CAMPAIGN)
    ok = manage("verify", CAMPAIGN, "--db", str(path), "--at", str(version), "--head", head[:16])
    assert ok.returncode == 0, ok.stderr
    grouped = " ".join(head[i : i + 4] for i in range(0, 64, 4))
    assert (
        manage(
            "verify", CAMPAIGN, "--db", str(path), "--at", str(version), "--head", grouped
        ).returncode
        == 0
    )
    # Somebody with the file deletes the last two events, triggers, snapshots and all.
    conn = service.store.conn
    conn.execute("DELETE FROM snapshots")
    conn.execute("DROP TRIGGER events_refuse_delete")
    conn.execute("DELETE FROM events WHERE campaign = ? AND version > ?", (CAMPAIGN, version - 2))
    # The chain alone still holds, but the database's record of the head does not.
    whole = manage("verify", "--db", str(path))
    assert whole.returncode == 1, whole.stdout
    assert f"the log ends at event {version - 2}, but its head was event {version}" in whole.stderr
    # One who also knows to mend that record is caught by the witness only.
    conn.execute(
        "UPDATE heads SET version = ?, hash = (SELECT hash FROM events WHERE campaign = ? "
        "AND version = ?) WHERE campaign = ?",
        (version - 2, CAMPAIGN, version - 2, CAMPAIGN),
    )
    conn.commit()
    assert manage("verify", "--db", str(path)).returncode == 0
    cut = manage("verify", CAMPAIGN, "--db", str(path), "--at", str(version), "--head", head)
    assert cut.returncode == 1 and "only" in cut.stderr and "removed" in cut.stderr
    assert len(cut.stderr.strip().splitlines()) == 1


def test_the_api_checks_a_witness(client, roles, svc):
    version, head = svc.store.head("c")
    reader = roles["player"].headers
    holds = client.get(f"/api/campaigns/c/verify?at={version}&head={head}", headers=reader)
    assert holds.status_code == 200 and holds.json["ok"] and holds.json["witness"]["holds"]
    wrong = client.get(f"/api/campaigns/c/verify?at=2&head={head}", headers=reader)
    assert wrong.status_code == 200 and not wrong.json["ok"]
    assert "rewritten" in wrong.json["witness"]["reason"]


def test_the_roster_sheet_battle_report_and_export_show_the_witness(tmp_path):
    from tracker.web import create_app

    app = create_app({"DATABASE": str(tmp_path / "w.db"), "TESTING": True})
    store = open_store(tmp_path / "w.db")
    store.init()
    Service(store).import_lines(SAMPLE.read_text().splitlines())
    from tracker.accounts import Accounts

    Accounts(store).init()
    Accounts(store).set_public(CAMPAIGN, True)
    version, head = store.head(CAMPAIGN)
    client = app.test_client()
    warband = next(iter(Service(store).state(CAMPAIGN).state["warbands"]))
    for path in (f"/c/{CAMPAIGN}/roster?warband={warband}", f"/c/{CAMPAIGN}/battle?battle=b1"):
        page = client.get(path).get_data(as_text=True)
        assert f"at event <strong>{version}</strong>" in page or "at event" in page
        assert head[:4] + " " + head[4:8] in page
    export = client.get(f"/api/campaigns/{CAMPAIGN}/export")
    assert export.headers["X-Tracker-Head"] == head
    assert export.headers["X-Tracker-Version"] == str(version)
    run = manage("export", CAMPAIGN, "--db", str(tmp_path / "w.db"))
    assert f"event {version}, head {head}" in run.stderr
    store.close()


def test_a_page_asked_with_a_bearer_token_renders_as_anonymous(client, roles):
    headers = roles["organiser"].headers
    front = client.get("/", headers=headers)
    assert front.status_code == 200 and "Log in" in front.get_data(as_text=True)
    assert client.get("/c/c/", headers=headers).status_code == 404  # private, for anonymous
    assert client.get("/login", headers=headers).status_code == 200


def test_a_cursor_past_two_to_the_63_is_a_400(client, roles):
    answer = client.get(f"/api/campaigns/c/events?after={2**63}", headers=roles["player"].headers)
    assert answer.status_code == 400


def test_a_lone_surrogate_is_refused_in_the_api_with_nothing_written(client, roles, svc):
    body = (
        '{"expected_version": 11, "events": [{"type": "FighterAdded", "data": {"warband": '
        '"iron", "fighter": "x", "name": "\\ud800", "runemarks": ["ember"], "points": 5}}]}'
    )
    headers = {**roles["player"].headers, "Content-Type": "application/json"}
    answer = client.post("/api/campaigns/c/events", data=body, headers=headers)
    assert answer.status_code == 400 and "not Unicode" in answer.json["message"]
    assert svc.store.version("c") == 11
    start = '{"campaign": "s", "system": "warcry", "name": "\\udfff", "settings": {"quest": "ember-crown"}}'
    assert client.post("/api/campaigns", data=start, headers=headers).status_code == 400


def test_a_lone_surrogate_in_an_import_is_one_line_on_stderr(tmp_path):
    db = tmp_path / "i.db"
    manage("init", "--db", str(db))
    line = '{"campaign": "z", "type": "CampaignStarted", "data": {"system": "warcry", "name": "\\ud800", "settings": {"quest": "ember-crown"}}}\n'
    (tmp_path / "s.jsonl").write_text(line)
    run = manage("import", "--db", str(db), str(tmp_path / "s.jsonl"))
    assert run.returncode == 1 and len(run.stderr.strip().splitlines()) == 1
    assert "not Unicode" in run.stderr and "Traceback" not in run.stderr
