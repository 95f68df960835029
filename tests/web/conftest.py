"""A Flask app over a temporary database, with the Warcry sample loaded where asked."""

import re

import pytest

from tracker import config
from tracker.dice import SeededRoller
from tracker.service import Service
from tracker.store import Store
from tracker.web import create_app

SAMPLE = config.SAMPLES / "warcry-ember-crown.jsonl"


@pytest.fixture
def app(tmp_path):
    return create_app({"DATABASE": str(tmp_path / "web.db"), "TESTING": True,
                       "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False,
                       "ROLLER": SeededRoller(11)})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def svc(app):
    store = Store(app.config["DATABASE"])
    store.init()
    yield Service(store, SeededRoller(5))
    store.close()


@pytest.fixture
def sample(svc):
    svc.import_lines(SAMPLE.read_text().splitlines())
    return "ember-crown-sample"


@pytest.fixture
def two(svc):
    """A campaign with two warbands of four fighters each."""
    svc.start("c", "warcry", "Test campaign", {"quest": "ember-crown"})
    events = []
    for wid, name in (("iron", "Ironjaws"), ("crow", "Crowmarch")):
        events.append({"type": "WarbandFounded", "data": {
            "warband": wid, "name": name, "player": f"{name} player", "faction": "Ash"}})
        for i in range(4):
            events.append({"type": "FighterAdded", "data": {
                "warband": wid, "fighter": f"{wid}-{i}", "name": f"{name} {i}",
                "runemarks": ["ember"], "leader": i == 0, "points": 100}})
    svc.append("c", events, 1)
    return "c"
