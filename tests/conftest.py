"""Fixtures shared by every ring of tests: a store on a temporary SQLite file and a service."""

import pytest

from tracker.dice import SeededRoller
from tracker.service import Service
from tracker.store import open_store


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "tracker.db"


@pytest.fixture
def store(db_path):
    store = open_store(db_path)
    store.init()
    yield store
    store.close()


@pytest.fixture
def service(store):
    return Service(store, SeededRoller(7))


@pytest.fixture(scope="session")
def pg_server():
    """One PostgreSQL server for the whole session (skips, or fails under CI, without one)."""
    from pgserver import start_server

    server = start_server()
    yield server
    server.close()


@pytest.fixture
def pg_url(pg_server):
    """The URL of a new, empty PostgreSQL database on the session's server."""
    return pg_server.database()


@pytest.fixture(params=["sqlite", "postgresql"])
def any_store(request, tmp_path):
    """A store on each engine in turn: the same test body for both."""
    if request.param == "sqlite":
        opened = open_store(tmp_path / "tracker.db")
    else:
        opened = open_store(request.getfixturevalue("pg_url"))
    opened.init()
    yield opened
    opened.close()
