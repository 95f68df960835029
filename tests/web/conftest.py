"""A Flask app over a temporary database; the client is logged in as the organiser of every
campaign the tests make through `svc`. `anon` is a client nobody is logged in on."""

import pytest
from warbands import two_warbands

from tracker import config
from tracker.accounts import Accounts
from tracker.dice import SeededRoller
from tracker.service import Service
from tracker.store import open_store
from tracker.web import create_app

SAMPLE = config.SAMPLES / "warcry-ember-crown.jsonl"
PASSWORD = "organiser-password"


@pytest.fixture
def app(tmp_path):
    return create_app(
        {
            "DATABASE": str(tmp_path / "web.db"),
            "TESTING": True,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "ROLLER": SeededRoller(11),
        }
    )


class OrganisedService(Service):
    """The service, with the organiser made organiser of each campaign it starts or imports."""

    def __init__(self, store, roller, accounts, organiser):
        super().__init__(store, roller)
        self.accounts, self.organiser = accounts, organiser

    def start(self, campaign, *args, **kwargs):
        result = super().start(campaign, *args, **kwargs)
        self.accounts.add_member(campaign, self.organiser, "organiser")
        return result

    def import_lines(self, lines, **kwargs):
        results = super().import_lines(lines, **kwargs)
        for result in results:
            self.accounts.add_member(result.campaign, self.organiser, "organiser")
        return results


@pytest.fixture
def accounts(app):
    store = open_store(app.config["DATABASE"])
    store.init()
    accounts = Accounts(store)
    accounts.init()
    yield accounts
    store.close()


@pytest.fixture
def organiser(accounts):
    return accounts.sign_up("org", PASSWORD)


@pytest.fixture
def svc(accounts, organiser):
    store = open_store(accounts.store.target)
    yield OrganisedService(store, SeededRoller(5), Accounts(store), organiser)
    store.close()


def log_in(client, name, password):
    page = client.post("/login", data={"name": name, "password": password})
    assert page.status_code == 302, page.get_data(as_text=True)
    return client


@pytest.fixture
def client(app, organiser):
    return log_in(app.test_client(), "org", PASSWORD)


@pytest.fixture
def anon(app):
    return app.test_client()


@pytest.fixture
def sample(svc):
    svc.import_lines(SAMPLE.read_text().splitlines())
    return "ember-crown-sample"


@pytest.fixture
def two(svc):
    """A campaign with two warbands of four fighters each."""
    svc.start("c", "warcry", "Test campaign", {"quest": "ember-crown"})
    events = two_warbands("{name} player")
    svc.append("c", events, 1)
    return "c"
