"""The export's format published: a JSON Schema of each game's export lines at
/api/schemas/<game>, which every line of every sample meets, linked from the OpenAPI
document."""

import json

import jsonschema_rs
import pytest

from tracker import config, systems
from tracker.service import Service
from tracker.store import open_store
from tracker.web import create_app

SAMPLES = sorted(config.SAMPLES.glob("*.jsonl"))


@pytest.fixture
def web(tmp_path):
    return create_app(
        {"DATABASE": str(tmp_path / "web.db"), "TESTING": True, "SECRET_KEY": "test"}
    ).test_client()


def schema_of(web, game):
    answer = web.get(f"/api/schemas/{game}")
    assert answer.status_code == 200
    assert answer.mimetype == "application/schema+json"
    return jsonschema_rs.validator_for(json.loads(answer.data))


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda path: path.stem)
def test_every_exported_line_of_every_sample_meets_its_games_schema(web, tmp_path, sample):
    service = Service(open_store(tmp_path / "export.db"))
    service.store.init()
    for result in service.import_lines(sample.read_text(encoding="utf-8").splitlines()):
        game, _ = service.system_of(result.campaign)
        validator = schema_of(web, game.name)
        for number, line in enumerate(service.export(result.campaign), 1):
            errors = [e.message for e in validator.iter_errors(json.loads(line))]
            assert not errors, f"{sample.name} line {number}: {errors[:3]}"
    service.store.close()


def test_the_files_of_the_samples_as_written_meet_the_schemas_too(web):
    for sample in SAMPLES:
        lines = [json.loads(line) for line in sample.read_text().splitlines() if line.strip()]
        validator = schema_of(web, lines[0]["data"]["system"])
        for number, line in enumerate(lines, 1):
            assert validator.is_valid(line), f"{sample.name} line {number}"


def test_a_line_that_breaks_its_events_schema_does_not_meet_it(web):
    validator = schema_of(web, "warcry")
    good = {
        "campaign": "c",
        "type": "AftermathStepCompleted",
        "data": {"warband": "iron", "step": 2},
    }
    assert validator.is_valid(good)
    for bad in (
        {**good, "data": {"warband": "iron", "step": 9}},
        {**good, "data": {"warband": "iron", "step": 2, "extra": 1}},
        {**good, "data": {"warband": "iron"}},
        {**good, "type": "NoSuchEvent"},
        {**good, "unknown": True},
        {**good, "version": 0},
        {key: value for key, value in good.items() if key != "campaign"},
    ):
        assert not validator.is_valid(bad), bad


def test_the_index_names_every_game_and_the_openapi_document_links_it(web):
    games = web.get("/api/schemas").get_json()["games"]
    assert set(games) == set(systems.registry())
    assert games["claim"]["schema"].endswith("/api/schemas/claim")
    document = web.get("/api/openapi.json").get_json()
    assert document["externalDocs"]["url"] == "/api/schemas"
    assert "/api/schemas/{name}" in document["paths"]
    assert "/api/schemas/<game>" in document["info"]["description"]


def test_an_unknown_game_is_answered_in_words(web):
    answer = web.get("/api/schemas/chess")
    assert answer.status_code == 404
    assert "there is no game called 'chess'" in answer.get_json()["message"]
