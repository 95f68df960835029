"""schemathesis over the whole OpenAPI document, in-process, with a seeded campaign and the
organiser's token: no server error, and every answer as the document says."""

import tempfile
from pathlib import Path

import schemathesis
from apiseed import seed
from hypothesis import HealthCheck, settings
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


@schema.parametrize()
@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.function_scoped_fixture,
    ],
)
def test_the_api_answers_as_its_document_says(case):
    case.call_and_validate(headers=ROLES["organiser"].headers, checks=CHECKS)
