"""An app over a temporary database with a private Warcry campaign "c" and every role (see
apiseed): its organiser, the player of Ironjaws, the player of Crowmarch, a non-member."""

import pytest
from apiseed import seed

from tracker.dice import SeededRoller
from tracker.service import Service
from tracker.store import open_store
from tracker.web import create_app


@pytest.fixture
def app(tmp_path):
    return create_app(
        {
            "DATABASE": str(tmp_path / "sec.db"),
            "TESTING": True,
            "ROLLER": SeededRoller(9),
        }
    )


@pytest.fixture
def roles(app):
    return seed(app.config["DATABASE"])


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def svc(app, roles):
    store = open_store(app.config["DATABASE"])
    yield Service(store, SeededRoller(4))
    store.close()
