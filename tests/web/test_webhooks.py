"""Webhooks: a campaign's happenings sent from the log, after the commit, signed, retried.

Every receiver here is a real HTTP server on a loopback address, which these tests' apps
allow (WEBHOOKS_ALLOW_PRIVATE); nothing is ever sent anywhere else.
"""

import hashlib
import hmac
import json
import socket
import threading
import time
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tracker import webhooks
from tracker.store import open_store
from tracker.web import create_app


class Receiver:
    """An HTTP server on 127.0.0.1 that keeps what it is sent and answers `status`."""

    def __init__(self, port: int = 0, status: int = 204):
        self.got: list[dict] = []
        self.status = status
        received = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                body = self.rfile.read(length)
                received.got.append({"headers": dict(self.headers), "body": body})
                self.send_response(received.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    opened = Receiver()
    yield opened
    opened.close()


def log_in(client, name, password):
    page = client.post("/login", data={"name": name, "password": password})
    assert page.status_code == 302, page.get_data(as_text=True)
    return client


def free_port() -> int:
    """A loopback port nothing listens on (a receiver that is down)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def app(tmp_path):
    return create_app(
        {
            "DATABASE": str(tmp_path / "web.db"),
            "TESTING": True,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "WEBHOOKS_ALLOW_PRIVATE": True,
            "WEBHOOKS_DELIVERER": False,  # each test delivers by hand
        }
    )


BATTLE = {
    "battle": "b1",
    "winner": "iron",
    "sides": [
        {"warband": "iron", "fighters": [f"iron-{i}" for i in range(4)]},
        {"warband": "crow", "fighters": [f"crow-{i}" for i in range(4)], "taken_down": ["crow-1"]},
    ],
}


def set_hook(client, cid, url, happenings=("battle", "aftermath", "game-over", "member")):
    return client.post(
        f"/c/{cid}/webhooks",
        data={"action": "save", "url": url, "happening": list(happenings), "language": "en"},
    )


def record_battle(client, cid):
    version = client.get(f"/api/campaigns/{cid}").get_json()["version"]
    return client.post(
        f"/api/campaigns/{cid}/events",
        json={"expected_version": version, "events": [{"type": "BattleFought", "data": BATTLE}]},
    )


def store_of(app):
    return open_store(app.config["DATABASE"])


def test_a_battle_recorded_is_delivered_once_and_signed(app, client, two, receiver):
    assert set_hook(client, two, receiver.url).status_code == 302
    assert record_battle(client, two).status_code == 201
    store = store_of(app)
    sent = webhooks.deliver_pending(store, allow_private=True)
    assert [answer.delivered for _, answer in sent] == [True]
    # Delivered: a second pass (or another deliverer) sends nothing more.
    assert webhooks.deliver_pending(store, allow_private=True) == []
    assert webhooks.deliver_pending(store_of(app), allow_private=True) == []
    assert len(receiver.got) == 1
    got = receiver.got[0]
    secret = webhooks.webhook(store, two).secret
    expected = "sha256=" + hmac.new(secret.encode(), got["body"], hashlib.sha256).hexdigest()
    assert got["headers"]["X-Tracker-Signature"] == expected
    assert got["headers"]["X-Tracker-Timestamp"].isdigit()
    message = json.loads(got["body"])
    assert message["content"].startswith("Test campaign: Battle b1")
    assert message["text"].startswith("Test campaign: Battle b1")
    assert "/c/c/audit?upto=12#e12" in message["content"]
    assert message["tracker"]["happening"] == "battle"
    assert message["tracker"]["type"] == "BattleFought"
    assert message["tracker"]["language"] == "en"
    assert message["allowed_mentions"] == {"parse": []}
    page = client.get(f"/c/{two}/webhooks").get_data(as_text=True)
    assert "delivered" in page and "204" in page and secret in page


def test_the_receiver_down_the_append_answers_at_once_and_the_delivery_retries(app, client, two):
    port = free_port()
    assert set_hook(client, two, f"http://127.0.0.1:{port}/hook").status_code == 302
    began = time.monotonic()
    assert record_battle(client, two).status_code == 201
    assert time.monotonic() - began < 2
    store = store_of(app)
    now = datetime.now(UTC)
    [(delivery, answer)] = webhooks.deliver_pending(store, now, allow_private=True)
    assert not answer.delivered and "refused" in answer.words
    # Not due again before its backoff has passed.
    assert webhooks.send_due(store, now + timedelta(seconds=5), allow_private=True) == []
    receiver = Receiver(port)
    try:
        later = now + timedelta(seconds=11)
        [(again, answer)] = webhooks.send_due(store, later, allow_private=True)
        assert again == delivery and answer.delivered
        assert len(receiver.got) == 1
        assert webhooks.send_due(store, later + timedelta(hours=3), allow_private=True) == []
    finally:
        receiver.close()
    [listed] = webhooks.deliveries(store, two)
    assert listed["status"] == "delivered" and listed["attempts"] == 2


def test_a_delivery_that_keeps_failing_is_given_up_after_six_attempts(app, client, two):
    assert set_hook(client, two, f"http://127.0.0.1:{free_port()}/hook").status_code == 302
    record_battle(client, two)
    store = store_of(app)
    moment = datetime.now(UTC)
    webhooks.collect(store)
    for _ in range(webhooks.ATTEMPTS):
        assert len(webhooks.send_due(store, moment, allow_private=True)) == 1
        moment += timedelta(hours=3)
    assert webhooks.send_due(store, moment, allow_private=True) == []
    [listed] = webhooks.deliveries(store, two)
    assert listed["status"] == "failed" and listed["attempts"] == webhooks.ATTEMPTS
    assert "given up" in client.get(f"/c/{two}/webhooks").get_data(as_text=True)


def test_a_receiver_that_answers_an_error_is_tried_again(app, client, two):
    receiver = Receiver(status=500)
    try:
        set_hook(client, two, receiver.url)
        record_battle(client, two)
        [(_, answer)] = webhooks.deliver_pending(store_of(app), allow_private=True)
        assert not answer.delivered and answer.words.startswith("500")
        [listed] = webhooks.deliveries(store_of(app), two)
        assert listed["status"] == "pending" and listed["last_answer"].startswith("500")
    finally:
        receiver.close()


@pytest.mark.parametrize(
    "url",
    [
        "http://10.1.2.3/hook",
        "http://192.168.0.9:8080/hook",
        "http://127.0.0.1:9/hook",
        "http://[::1]/hook",
        "http://169.254.169.254/latest/meta-data",
        "http://localhost/hook",
        "http://0.0.0.0/hook",
        "http://224.0.0.1/hook",
        "http://[::ffff:127.0.0.1]/hook",
    ],
)
def test_a_private_or_loopback_address_is_refused(tmp_path, organiser, svc, url):
    strict = create_app(
        {
            "DATABASE": svc.store.target,
            "TESTING": True,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "WEBHOOKS_DELIVERER": False,
        }
    )
    client = log_in(strict.test_client(), "org", "organiser-password")
    svc.start("c", "warcry", "Test campaign", {"quest": "ember-crown"})
    page = set_hook(client, "c", url)
    assert page.status_code == 400
    text = page.get_data(as_text=True)
    assert "private, loopback or reserved address" in text and "nothing was saved" in text
    assert "Traceback" not in text
    assert webhooks.webhook(svc.store, "c") is None


@pytest.mark.parametrize(
    "url, words",
    [
        ("ftp://example.org/hook", "starting with https://"),
        ("not an address", "starting with https://"),
        ("http://127.0.0.1:99999/hook", "port"),
        ("", "starting with https://"),
    ],
)
def test_an_address_that_is_not_a_web_address_is_refused_in_words(client, two, url, words):
    page = set_hook(client, two, url)
    assert page.status_code == 400
    assert words in page.get_data(as_text=True)


def test_no_happening_chosen_is_refused(client, two, receiver):
    page = set_hook(client, two, receiver.url, happenings=())
    assert page.status_code == 400
    assert "Choose at least one happening to send; nothing was saved." in page.get_data(
        as_text=True
    )


def test_an_address_allowed_when_saved_is_checked_again_when_sent(app, client, two, receiver):
    set_hook(client, two, receiver.url)
    record_battle(client, two)
    [(_, answer)] = webhooks.deliver_pending(store_of(app), allow_private=False)
    assert not answer.delivered and "not sent" in answer.words
    assert receiver.got == []


def test_only_the_chosen_happenings_are_sent(app, client, two, receiver):
    set_hook(client, two, receiver.url, happenings=("game-over",))
    record_battle(client, two)
    assert webhooks.deliver_pending(store_of(app), allow_private=True) == []
    assert receiver.got == []


def test_what_was_recorded_before_the_webhook_is_not_sent(app, client, two, svc, receiver):
    svc.append(two, [{"type": "BattleFought", "data": BATTLE}], 11)
    set_hook(client, two, receiver.url)
    assert webhooks.deliver_pending(store_of(app), allow_private=True) == []


def test_an_aftermath_finished_is_sent(app, client, sample_like, receiver):
    cid, finish = sample_like
    set_hook(client, cid, receiver.url, happenings=("aftermath",))
    finish()
    sent = webhooks.deliver_pending(store_of(app), allow_private=True)
    assert sent and all(answer.delivered for _, answer in sent)
    assert {json.loads(g["body"])["tracker"]["happening"] for g in receiver.got} == {"aftermath"}


@pytest.fixture
def sample_like(svc, tmp_path):
    """The Warcry sample, cut just before the last event that finishes an aftermath:
    appending it finishes one."""
    from tracker import config
    from tracker.repository import worded_step
    from tracker.service import Service

    lines = (config.SAMPLES / "warcry-ember-crown.jsonl").read_text().splitlines()
    rows = [json.loads(line) for line in lines if line.strip()]
    whole = Service(open_store(tmp_path / "whole.db"))
    whole.store.init()
    cid = whole.import_lines(lines)[0].campaign
    system, _ = whole.system_of(cid)
    state, finishing, voided = None, [], whole.store.voids(cid)
    for event in whole.store.read(cid):
        state, _ = worded_step(system, state, event, voided)
        if event.type in system.events and system.happening(state, event) == "aftermath":
            finishing.append(event.version)
    whole.store.close()
    last = finishing[-1] - 1  # the index of its line
    svc.import_lines(lines[:last])

    def finish():
        row = rows[last]
        svc.append(cid, [{"type": row["type"], "data": row["data"]}], last)

    return cid, finish


def test_a_new_member_is_sent(app, client, two, receiver, accounts):
    set_hook(client, two, receiver.url, happenings=("member",))
    code = accounts.invite(two, accounts.by_name("org"), "ironjaws")
    player = app.test_client()
    player.post("/signup", data={"name": "ply", "password": "player-password"})
    log_in(player, "ply", "player-password")
    assert player.post(f"/join/{code}").status_code == 302
    [(_, answer)] = webhooks.deliver_pending(store_of(app), allow_private=True)
    assert answer.delivered
    message = json.loads(receiver.got[0]["body"])
    assert message["tracker"]["happening"] == "member"
    assert "ply joined the campaign and plays" in message["content"]


def test_only_the_organiser_sees_the_webhook_page(app, client, two, accounts, anon):
    set_hook(client, two, "http://127.0.0.1:9/hook")
    accounts.sign_up("ply", "player-password")
    accounts.add_member(two, accounts.by_name("ply"), "player", "ironjaws")
    player = log_in(app.test_client(), "ply", "player-password")
    for reader in (player, anon):
        page = reader.get(f"/c/{two}/webhooks")
        assert page.status_code in (302, 403, 404)
        assert webhooks.webhook(accounts.store, two).secret not in page.get_data(as_text=True)
        refused = set_hook(reader, two, "http://127.0.0.1:10/other")
        assert refused.status_code in (302, 403, 404)
    assert webhooks.webhook(accounts.store, two).url == "http://127.0.0.1:9/hook"
    assert "Webhooks</a>" not in player.get(f"/c/{two}/").get_data(as_text=True)
    assert "Webhooks</a>" in client.get(f"/c/{two}/").get_data(as_text=True)


def test_a_new_secret_signs_what_is_sent_from_then_on(app, client, two, receiver):
    set_hook(client, two, receiver.url)
    old = webhooks.webhook(store_of(app), two).secret
    assert client.post(f"/c/{two}/webhooks", data={"action": "secret"}).status_code == 302
    new = webhooks.webhook(store_of(app), two).secret
    assert new != old
    record_battle(client, two)
    webhooks.deliver_pending(store_of(app), allow_private=True)
    body = receiver.got[0]["body"]
    expected = "sha256=" + hmac.new(new.encode(), body, hashlib.sha256).hexdigest()
    assert receiver.got[0]["headers"]["X-Tracker-Signature"] == expected


def test_a_removed_webhook_sends_nothing_more(app, client, two, receiver):
    set_hook(client, two, receiver.url)
    record_battle(client, two)
    assert client.post(f"/c/{two}/webhooks", data={"action": "remove"}).status_code == 302
    assert webhooks.deliver_pending(store_of(app), allow_private=True) == []
    assert receiver.got == []


def test_the_deliverer_thread_sends_without_being_asked(tmp_path, organiser, svc, receiver):
    live = create_app(
        {
            "DATABASE": svc.store.target,
            "TESTING": True,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "WEBHOOKS_ALLOW_PRIVATE": True,
        }
    )
    client = log_in(live.test_client(), "org", "organiser-password")
    svc.start("c", "warcry", "Test campaign", {"quest": "ember-crown"})
    from warbands import two_warbands

    svc.append("c", two_warbands("{name} player"), 1)
    set_hook(client, "c", receiver.url)
    record_battle(client, "c")
    deadline = time.monotonic() + 10
    while not receiver.got and time.monotonic() < deadline:
        time.sleep(0.1)
    try:
        assert len(receiver.got) == 1
    finally:
        live.extensions["tracker.webhooks"].stopping = True


def test_two_deliverers_on_postgresql_send_a_delivery_once(pg_url, receiver):
    from warbands import two_warbands

    from tracker.accounts import Accounts
    from tracker.service import Service

    first = open_store(pg_url)
    first.init()
    Accounts(first).init()
    webhooks.init(first)
    user = Accounts(first).sign_up("org", "organiser-password")
    svc = Service(first)
    svc.start("c", "warcry", "Test campaign", {"quest": "ember-crown"})
    svc.append("c", two_warbands("{name} player"), 1)
    webhooks.save(
        first, "c", receiver.url, ["battle"], user.id, site="http://x", allow_private=True
    )
    svc.append("c", [{"type": "BattleFought", "data": BATTLE}], 11)
    others = [open_store(pg_url) for _ in range(4)]
    start = threading.Barrier(len(others))

    def deliver(store):
        start.wait()
        webhooks.deliver_pending(store, allow_private=True)

    threads = [threading.Thread(target=deliver, args=(s,)) for s in others]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(receiver.got) == 1
    assert first.one("SELECT count(*) FROM webhook_deliveries")[0] == 1
    for store in (first, *others):
        store.close()


def test_the_webhook_form_needs_its_csrf_token(svc, organiser, receiver):
    guarded = create_app(
        {
            "DATABASE": svc.store.target,
            "TESTING": True,
            "SECRET_KEY": "test",
            "WEBHOOKS_ALLOW_PRIVATE": True,
            "WEBHOOKS_DELIVERER": False,
        }
    )
    svc.start("c", "warcry", "Test campaign", {"quest": "ember-crown"})
    client = guarded.test_client()
    page = client.get("/login")
    token = page.get_data(as_text=True).split('name="csrf_token" value="')[1].split('"')[0]
    client.post(
        "/login", data={"name": "org", "password": "organiser-password", "csrf_token": token}
    )
    refused = set_hook(client, "c", receiver.url)
    assert refused.status_code == 400 and "This form has expired" in refused.get_data(as_text=True)
    assert webhooks.webhook(svc.store, "c") is None
    form = client.get("/c/c/webhooks").get_data(as_text=True)
    token = form.split('name="csrf_token" value="')[1].split('"')[0]
    saved = client.post(
        "/c/c/webhooks",
        data={"action": "save", "url": receiver.url, "happening": ["battle"], "csrf_token": token},
    )
    assert saved.status_code == 302
    assert webhooks.webhook(svc.store, "c").happenings == ("battle",)


@pytest.mark.catalogued
def test_a_battle_in_a_polish_campaign_is_delivered_in_polish(app, client, two, receiver):
    """The campaign's language (Members page) is what its webhook speaks, whatever the
    webhook's own setting and whoever recorded the battle."""
    chosen = client.post(f"/c/{two}/members", data={"action": "language", "language": "pl"})
    assert chosen.status_code == 302
    assert set_hook(client, two, receiver.url).status_code == 302
    assert record_battle(client, two).status_code == 201
    [(_, answer)] = webhooks.deliver_pending(store_of(app), allow_private=True)
    assert answer.delivered
    message = json.loads(receiver.got[0]["body"])
    assert message["tracker"]["language"] == "pl"
    english = "Test campaign: Battle b1"
    assert message["content"].startswith("Test campaign: ")
    assert not message["content"].startswith(english)
    assert message["content"].startswith("Test campaign: Bitwa b1")
