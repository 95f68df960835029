"""Sessions end on the server, each database keeps its own secret, every page sends the
security headers, log-ins are limited without locking the owner out, and API writes with
the session cookie need the CSRF token."""

import re
import subprocess
import sys

import pytest
from apiseed import PASSWORD, seed
from logins import csrf_of, logged_in
from pgserver import database_for

from tracker import config
from tracker.dice import SeededRoller
from tracker.web import create_app


@pytest.fixture(params=["sqlite", "postgresql"])
def app(request, tmp_path):
    """The security conftest's app, on each engine in turn: accounts, sessions, tokens,
    members and log-in limits behave the same on SQLite and PostgreSQL."""
    return create_app(
        {
            "DATABASE": database_for(request, tmp_path, "sessions.db"),
            "TESTING": True,
            "ROLLER": SeededRoller(9),
        }
    )


FIGHTER = {
    "type": "FighterAdded",
    "data": {"warband": "iron", "fighter": "f", "name": "F", "runemarks": ["ember"], "points": 5},
}


def cookie_of(client) -> str:
    return client.get_cookie("session").value


def test_each_database_keeps_its_own_secret(tmp_path):
    apps = []
    for name in ("one", "two"):
        app = create_app({"DATABASE": str(tmp_path / name / "t.db"), "TESTING": True})
        seed(app.config["DATABASE"])  # the same accounts, the same user ids, in both
        apps.append(app)
    one = logged_in(apps[0], "ivy")
    assert "ivy" in one.get("/").get_data(as_text=True)
    other = apps[1].test_client()
    other.set_cookie("session", cookie_of(one))
    assert ">ivy<" not in other.get("/").get_data(as_text=True)
    assert not (tmp_path / "one" / "secret_key").exists()


def test_commands_write_nothing_outside_the_database(tmp_path):
    work = tmp_path / "elsewhere"
    work.mkdir()
    db = tmp_path / "db" / "t.db"
    manage = [sys.executable, str(config.ROOT / "manage.py")]
    for args in (["--help"], ["init", "--db", str(db)], ["campaigns", "--db", str(db)]):
        run = subprocess.run(manage + args, cwd=work, capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
    assert list(work.iterdir()) == []
    assert sorted(p.name for p in db.parent.iterdir() if "secret" in p.name) == []


def test_a_session_cookie_copied_before_log_out_opens_nothing_after(app, roles):
    client = logged_in(app, "ivy")
    copied = cookie_of(client)
    client.post("/logout", data={"csrf_token": csrf_of(client.get("/"))})
    thief = app.test_client()
    thief.set_cookie("session", copied)
    assert thief.get("/c/c/").status_code == 404
    assert ">ivy<" not in thief.get("/").get_data(as_text=True)


def test_a_live_refresh_never_writes_the_session(app, roles):
    """Started before a post of the same browser answered, a live refresh that wrote the
    cookie back would lose what the post left in it (its flash)."""
    client = logged_in(app, "ivy")
    plain = client.get("/c/c/")
    live = client.get("/c/c/", headers={"HX-Request": "true"})
    assert plain.status_code == live.status_code == 200
    assert "Set-Cookie" in plain.headers  # a page keeps its session fresh
    assert "Set-Cookie" not in live.headers  # a live refresh leaves it as the browser has it


def test_a_password_change_ends_every_other_session(app, roles):
    laptop = logged_in(app, "ivy")
    phone = logged_in(app, "ivy")
    page = laptop.post(
        "/account",
        data={
            "action": "password",
            "old": PASSWORD,
            "new": "another long password",
            "csrf_token": csrf_of(laptop.get("/account")),
        },
    )
    assert page.status_code == 302
    assert phone.get("/c/c/").status_code == 404
    assert laptop.get("/c/c/").status_code == 200
    logged_in(app, "ivy", "another long password")


def test_every_page_sends_the_security_headers(app, roles, client):
    for path in ("/", "/login", "/signup", "/api/docs", "/api/campaigns", "/join/x"):
        headers = client.get(path).headers
        policy = headers["Content-Security-Policy"]
        script = re.search(r"script-src ([^;]+)", policy).group(1)
        assert "'unsafe-inline'" not in script and "frame-ancestors 'none'" in policy
        assert headers["X-Frame-Options"] == "DENY"
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "same-origin"


def test_no_template_carries_inline_script():
    for template in (config.ROOT / "templates").rglob("*.html"):
        text = template.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), template
        assert not re.search(r"<[a-z][^>]*\son[a-z]+=[\"']", text), template


def test_the_session_cookie_is_secure_behind_https(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "h.db"), "TESTING": True, "HTTPS": True})
    seed(app.config["DATABASE"])
    client = app.test_client()
    page = client.post(
        "/login",
        data={"name": "ivy", "password": PASSWORD, "csrf_token": csrf_of(client.get("/login"))},
    )
    assert "Secure" in page.headers["Set-Cookie"]


def wrong(app, name, address):
    client = app.test_client()
    return client.post(
        "/login",
        data={
            "name": name,
            "password": "not it at all",
            "csrf_token": csrf_of(client.get("/login")),
        },
        environ_base={"REMOTE_ADDR": address},
    )


def test_wrong_passwords_from_elsewhere_do_not_lock_the_owner_out(app, roles):
    for _ in range(8):
        wrong(app, "org", "10.9.9.9")
    assert wrong(app, "org", "10.9.9.9").status_code == 429
    logged_in(app, "org", address="127.0.0.1")  # the owner, from its own address


def test_spraying_many_names_from_one_address_is_limited(app, roles):
    answers = [wrong(app, f"name{n}", "10.1.1.1").status_code for n in range(25)]
    assert answers[:20] == [401] * 20 and set(answers[20:]) == {429}


def test_an_unknown_name_costs_a_password_check_as_a_known_one_does(app, roles, monkeypatch):
    import tracker.accounts.users

    checked = []
    real = tracker.accounts.users.check_password_hash
    monkeypatch.setattr(
        tracker.accounts.users, "check_password_hash", lambda h, p: checked.append(h) or real(h, p)
    )
    wrong(app, "nobody-at-all", "10.2.2.2")
    wrong(app, "ivy", "10.2.2.2")
    assert len(checked) == 2
    assert checked[0].split("$")[0] == checked[1].split("$")[0]  # the same kind of hash


def test_an_api_write_with_the_cookie_needs_the_csrf_token(app, roles):
    client = logged_in(app, "ivy")
    body = {"events": [FIGHTER], "expected_version": 11}
    refused = client.post("/api/campaigns/c/events", json=body)
    assert refused.status_code == 403 and "CSRF" in refused.json["message"]
    token = csrf_of(client.get("/account"))
    accepted = client.post("/api/campaigns/c/events", json=body, headers={"X-CSRFToken": token})
    assert accepted.status_code == 201


def test_an_api_write_with_a_token_needs_no_csrf_token(client, roles):
    body = {"events": [FIGHTER], "expected_version": 11}
    answer = client.post("/api/campaigns/c/events", json=body, headers=roles["player"].headers)
    assert answer.status_code == 201
