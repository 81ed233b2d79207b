"""Schemathesis over /api/v1/openapi.json against the app: no server errors, responses as
documented, schema-invalid requests refused with 4xx.

Schema-valid requests may still break the game's rules (a meld owner who is not a
player, K-A-2 without round the corner): the contract answers those 422, so
positive-data acceptance counts 422 as an answer."""

from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

from tests.conftest import make_app

CONFIG = SchemathesisConfig.from_dict(
    {"checks": {"positive_data_acceptance": {"expected-statuses": ["2xx", "422"]}}}
)


def _schema():
    import tempfile
    from pathlib import Path

    db = Path(tempfile.mkdtemp()) / "schemathesis.sqlite3"
    app = make_app(str(db))
    return schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app, config=CONFIG)


schema = _schema()


@schema.parametrize()
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_conforms_to_its_openapi_document(case):
    case.call_and_validate()
