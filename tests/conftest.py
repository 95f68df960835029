"""Fixtures shared by every ring of tests: a store on a temporary SQLite file and a service."""

import pytest

from tracker.dice import SeededRoller
from tracker.service import Service
from tracker.store import Store


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "tracker.db"


@pytest.fixture
def store(db_path):
    store = Store(db_path)
    store.init()
    yield store
    store.close()


@pytest.fixture
def service(store):
    return Service(store, SeededRoller(7))
