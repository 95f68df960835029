"""Private campaigns stay hidden from those who may not see them in every list of campaigns,
its search, its game filter and its pages, on each engine: the front page and
/api/campaigns, for every role."""

import re

import pytest
from apiseed import seed

from tracker.accounts import Accounts
from tracker.dice import SeededRoller
from tracker.service import Service
from tracker.store import SQLiteStore, open_store
from tracker.web import create_app

SETTINGS = {"quest": "ember-crown"}


@pytest.fixture
def server(any_store):
    """'c' (private, seeded with its roles), 'hid-1'..'hid-3' (private to nemo's rival),
    'pub-1'..'pub-3' (public): an app over the engine's database."""
    target = any_store.path if isinstance(any_store, SQLiteStore) else any_store.url
    roles = seed(target)
    store = open_store(target)
    accounts, service = Accounts(store), Service(store, SeededRoller(2))
    rival = accounts.sign_up("rival", "a fine long password")
    for n in (1, 2, 3):
        service.start(f"hid-{n}", "warcry", f"Hidden league {n}", SETTINGS)
        accounts.add_member(f"hid-{n}", rival, "organiser")
        service.start(f"pub-{n}", "warcry", f"Open league {n}", SETTINGS)
        accounts.set_public(f"pub-{n}", True)
    store.close()
    app = create_app({"DATABASE": target, "TESTING": True, "ROLLER": SeededRoller(9)})
    return app, roles


VISIBLE = {
    "anonymous": {"pub-1", "pub-2", "pub-3"},
    "organiser": {"c", "pub-1", "pub-2", "pub-3"},
    "player": {"c", "pub-1", "pub-2", "pub-3"},
    "non-member": {"pub-1", "pub-2", "pub-3"},
}


def listed(client, headers, url) -> list[str]:
    """Every id the API lists from `url`, following its Link headers page by page."""
    ids = []
    while url:
        answer = client.get(url, headers=headers)
        assert answer.status_code == 200, answer.get_data(as_text=True)
        ids += [c["id"] for c in answer.get_json()]
        found = re.match(r'<([^>]+)>; rel="next"', answer.headers.get("Link", ""))
        url = found.group(1) if found else None
    return ids


@pytest.mark.parametrize("role", sorted(VISIBLE))
def test_the_api_lists_searches_and_pages_only_what_a_role_may_see(server, role):
    app, roles = server
    client, headers = app.test_client(), roles[role].headers
    assert listed(client, headers, "/api/campaigns") == sorted(VISIBLE[role])
    assert listed(client, headers, "/api/campaigns?limit=1") == sorted(VISIBLE[role])
    assert listed(client, headers, "/api/campaigns?q=league&limit=2") == sorted(VISIBLE[role])
    assert listed(client, headers, "/api/campaigns?q=hid") == []
    assert listed(client, headers, "/api/campaigns?game=warcry&q=hidden") == []
    assert listed(client, headers, "/api/campaigns?after=hid-1&limit=1") == sorted(
        c for c in VISIBLE[role] if c > "hid-1"
    )
    assert client.get("/api/campaigns/hid-1", headers=headers).status_code == 404


def test_the_front_page_lists_searches_and_pages_no_private_campaign_of_others(server):
    app, roles = server
    client = app.test_client()
    for url in ("/", "/?q=hidden", "/?q=hid", "/?game=warcry", "/?after=hid-0", "/?before=z"):
        page = client.get(url).get_data(as_text=True)
        assert "Hidden league" not in page
        assert "/c/hid-" not in page
    page = client.get("/?q=open&before=pub-3").get_data(as_text=True)
    assert "Open league 1" in page and "Open league 3" not in page


def test_a_page_of_the_api_names_role_and_publicity_as_the_single_row_does(server):
    app, roles = server
    client, headers = app.test_client(), roles["player"].headers
    for row in client.get("/api/campaigns", headers=headers).get_json():
        assert row == client.get(f"/api/campaigns/{row['id']}", headers=headers).get_json()
