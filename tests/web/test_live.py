"""The live stream of a campaign's versions (server-sent events) and the live pages around it,
through Flask's test client."""

import re
import time

import pytest
from pagetools import version

from tracker.web import live


@pytest.fixture
def quick(app):
    """Streams that beat every tenth of a second and end after two seconds."""
    app.config.update(LIVE_SECONDS=2.0, LIVE_BEAT_SECONDS=0.1)
    return app


def log_in(client, name, password):
    page = client.post("/login", data={"name": name, "password": password})
    assert page.status_code == 302
    return client


class Reader:
    """An open stream, read event by event (a comment line alone is a beat)."""

    def __init__(self, response):
        self.response = response
        self.chunks = response.iter_encoded()
        self.seen = []

    def next_event(self, seconds: float = 5.0) -> dict | None:
        """The next event with a name (its fields), or None when the stream has ended."""
        deadline = time.monotonic() + seconds
        for chunk in self.chunks:
            self.seen.append(chunk.decode())
            fields = dict(
                line.split(": ", 1) for line in chunk.decode().splitlines() if ": " in line
            )
            if "event" in fields:
                return fields
            assert time.monotonic() < deadline, "no event came: " + "".join(self.seen)
        return None

    def close(self):
        self.response.close()


def open_stream(client, cid, since=None, **headers):
    url = f"/c/{cid}/live" + ("" if since is None else f"?since={since}")
    return client.get(url, buffered=False, headers=headers)


def found(svc, warband, expected, cid="c"):
    data = {"warband": warband, "name": warband.title(), "player": "P", "faction": "Ash"}
    return svc.append(cid, [{"type": "WarbandFounded", "data": data}], expected)


def test_a_stream_announces_each_new_version_of_its_campaign(quick, client, two, svc):
    seen = version(svc)
    response = open_stream(client, two, since=seen)
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    reader = Reader(response)
    assert next(reader.chunks).decode().startswith("retry: ")
    found(svc, "gulls", seen)
    event = reader.next_event()
    assert event == {"id": str(seen + 1), "event": "version", "data": str(seen + 1)}
    reader.close()


def test_a_stream_tells_only_the_version_never_the_events_data(quick, client, two, svc):
    seen = version(svc)
    reader = Reader(open_stream(client, two, since=seen))
    found(svc, "secret-gulls", seen)
    reader.next_event()
    reader.close()
    assert "secret" not in "".join(reader.seen).lower() and "Gulls" not in "".join(reader.seen)


def test_a_page_older_than_the_campaign_hears_the_newest_version_at_once(quick, client, two, svc):
    reader = Reader(open_stream(client, two, since=version(svc) - 3))
    assert reader.next_event(1.0)["data"] == str(version(svc))
    reader.close()


def test_a_browser_coming_back_is_told_only_what_is_newer_than_its_last_event(
    quick, client, two, svc
):
    reader = Reader(open_stream(client, two, since=1, **{"Last-Event-ID": str(version(svc))}))
    assert reader.next_event() == {"event": "bye", "data": reader.seen[-1].split("data: ")[1][:-2]}
    reader.close()


def test_a_stream_ends_cleanly_after_its_time_and_leaves_nothing_watching(
    quick, client, two, svc, app
):
    reader = Reader(open_stream(client, two, since=version(svc)))
    started = time.monotonic()
    assert reader.next_event(5.0)["event"] == "bye"
    assert reader.next_event() is None  # the body ends: the browser opens the next stream
    assert 1.5 < time.monotonic() - started < 5.0
    reader.close()
    assert live.feed(app).watchers() == 0


def test_a_stopping_server_ends_every_open_stream_at_once(quick, client, two, svc, app):
    app.config.update(LIVE_SECONDS=60.0)
    readers = [Reader(open_stream(client, two, since=version(svc))) for _ in range(3)]
    for reader in readers:
        next(reader.chunks)
    started = time.monotonic()
    live.stop_all()
    for reader in readers:
        assert reader.next_event()["event"] == "bye"
        assert reader.next_event() is None
        reader.close()
    assert time.monotonic() - started < 2.0


def test_a_closed_page_leaves_its_campaigns_watchers_even_if_never_read(quick, client, two, app):
    response = open_stream(client, two)
    assert live.feed(app).watchers() == 1
    response.close()
    assert live.feed(app).watchers() == 0


def test_one_poller_serves_every_stream_of_the_process(quick, client, two, svc, app):
    import threading

    before = {t.ident for t in threading.enumerate() if t.name == "tracker-live"}
    seen = version(svc)
    readers = [Reader(open_stream(client, two, since=seen)) for _ in range(5)]
    pollers = {t.ident for t in threading.enumerate() if t.name == "tracker-live"} - before
    assert len(pollers) <= 1
    found(svc, "gulls", seen)
    for reader in readers:
        assert reader.next_event()["data"] == str(seen + 1)
        reader.close()


def test_a_private_campaigns_stream_is_only_for_those_who_may_read_it(
    quick, app, two, svc, accounts, anon
):
    assert not accounts.is_public(two)
    assert open_stream(anon, two).status_code == 404
    accounts.sign_up("stranger", "a stranger's password")
    stranger = log_in(app.test_client(), "stranger", "a stranger's password")
    assert open_stream(stranger, two).status_code == 404
    player = accounts.sign_up("pia", "pia's long password")
    accounts.add_member(two, player, "player", "crow")
    response = open_stream(log_in(app.test_client(), "pia", "pia's long password"), two)
    assert response.status_code == 200
    response.close()


def test_a_public_campaign_streams_to_anyone_and_no_campaign_is_not_found(
    quick, anon, sample, accounts
):
    accounts.set_public(sample, True)
    response = open_stream(anon, sample)
    assert response.status_code == 200
    response.close()
    assert open_stream(anon, "no-such-campaign").status_code == 404


def test_a_page_at_its_latest_version_connects_to_its_stream_and_an_earlier_one_does_not(
    client, two, svc
):
    html = client.get(f"/c/{two}/").get_data(as_text=True)
    assert f'sse-connect="/c/{two}/live?since={version(svc)}"' in html
    live = re.search(r'<div id="live"[^>]*>', html).group(0)
    assert f'data-version="{version(svc)}"' in live and 'hx-get="/c/c/"' in live
    assert 'hx-trigger="sse:version"' in live and 'hx-select="#live"' in live
    assert "htmx.min.js" in html and '"allowEval":false' in html
    earlier = client.get(f"/c/{two}/?at=2").get_data(as_text=True)
    assert "sse-connect" not in earlier and "htmx.min.js" not in earlier
    assert "sse-connect" not in client.get("/").get_data(as_text=True)


def test_a_page_showing_a_refused_entry_holds_its_live_refresh(client, two, svc):
    stale = version(svc)
    found(svc, "gulls", stale)
    data = {"warband": "iron", "fighter": "owl", "name": "Owl", "points": "abc"}
    page = client.post(
        f"/c/{two}/warband?warband=iron",
        data={"type": "FighterAdded", "expected_version": str(stale), **data},
    )
    assert page.status_code in (409, 422)
    assert "data-live-hold" in page.get_data(as_text=True)
    assert "data-live-hold" not in client.get(f"/c/{two}/").get_data(as_text=True)


def test_the_scripts_a_live_page_loads_are_served_with_the_content_security_policy(client, two):
    page = client.get(f"/c/{two}/")
    assert "script-src 'self'" in page.headers["Content-Security-Policy"]
    assert "unsafe-eval" not in page.headers["Content-Security-Policy"]
    for name in ("htmx.min.js", "htmx-ext-sse.min.js", "htmx.LICENSE", "htmx-ext-sse.LICENSE"):
        assert client.get(f"/static/{name}").status_code == 200
    assert "<script>" not in page.get_data(as_text=True)


# A page of each game beside its dashboard: the board, a seat, the battles, the wizard.
GAME_PAGES = {
    "warcry-ember-crown": ["", "warband?warband=ironjaws", "wizard?warband=crowmarch", "battles"],
    "claim-tavern-nights": ["", "table?player=mara"],
    "leaders-standard": ["", "match"],
    "monsters-twin-peaks-feud": ["", "battle"],
    "hellas-duel": ["", "play"],
}


@pytest.mark.parametrize("sample", GAME_PAGES)
def test_every_games_pages_are_live_and_each_fetches_itself_again(client, svc, sample):
    from tracker import config

    lines = (config.SAMPLES / f"{sample}.jsonl").read_text().splitlines()
    cid = svc.import_lines(lines)[0].campaign
    for page in GAME_PAGES[sample] + ["audit"]:
        answer = client.get(f"/c/{cid}/{page}")
        assert answer.status_code == 200, page
        html = answer.get_data(as_text=True)
        assert f'sse-connect="/c/{cid}/live?since={version(svc, cid)}"' in html, page
        # The part swapped is fetched from the page's own address, through its own view.
        live = re.search(r'<div id="live"[^>]*>', html).group(0)
        assert f'hx-get="/c/{cid}/{page}'.replace("&", "&amp;") in live, page


def test_a_member_removed_while_watching_hears_no_more_versions(quick, app, two, svc, accounts):
    player = accounts.sign_up("pia", "pia's long password")
    accounts.add_member(two, player, "player", "crow")
    watching = log_in(app.test_client(), "pia", "pia's long password")
    reader = Reader(open_stream(watching, two, since=version(svc)))
    next(reader.chunks)
    accounts.remove_member(two, player)
    found(svc, "gulls", version(svc))
    assert reader.next_event()["event"] == "bye"
    assert "event: version" not in "".join(reader.seen)
    reader.close()


def test_a_live_refresh_leaves_the_flash_to_the_page_it_was_meant_for(client, app):
    """A live refresh fetched while a player's own form is being answered must not take the
    "Recorded: ..." message that the player's next page shows."""
    with client.session_transaction() as session:
        session["_flashes"] = [("message", "Recorded: a fighter joined")]
    refresh = client.get("/", headers={"HX-Request": "true"})
    assert "Recorded: a fighter joined" not in refresh.get_data(as_text=True)
    page = client.get("/")
    assert "Recorded: a fighter joined" in page.get_data(as_text=True)
