"""An app over a temporary database with a private Warcry campaign and every role:
its organiser, the player of Ironjaws, the player of Crowmarch, a non-member, nobody."""

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
            "DATABASE": str(tmp_path / "api.db"),
            "TESTING": True,
            "SECRET_KEY": "test",
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
    yield Service(store)
    store.close()
