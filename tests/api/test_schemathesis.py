"""schemathesis over the whole OpenAPI document, in-process, with a seeded campaign and the
organiser's token: no server error, and every answer as the document says."""

import tempfile
from pathlib import Path

import pytest
import schemathesis
from apiseed import seed
from hypothesis import HealthCheck, given, settings
from schemathesis import checks

from tracker.dice import SeededRoller
from tracker.web import create_app

_folder = Path(tempfile.mkdtemp(prefix="tracker-schemathesis-"))
app = create_app(
    {
        "DATABASE": str(_folder / "api.db"),
        "TESTING": True,
        "SECRET_KEY": "t",
        "ROLLER": SeededRoller(1),
    }
)
ROLES = seed(app.config["DATABASE"])
schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)

CHECKS = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_schema_conformance,
    checks.response_headers_conformance,
]


# One test an operation, each with an id of its own (its method and path): the suite's workers
# (pytest-xdist) hand tests out by id, and schemathesis's own parametrize gives every
# operation the same one.
OPERATIONS = [result.ok() for result in schema.get_all_operations()]


@pytest.mark.parametrize("operation", OPERATIONS, ids=[op.label for op in OPERATIONS])
def test_the_api_answers_as_its_document_says(operation):
    @given(case=operation.as_strategy())
    @settings(
        max_examples=30,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    def answers(case):
        case.call_and_validate(headers=ROLES["organiser"].headers, checks=CHECKS)

    answers()
