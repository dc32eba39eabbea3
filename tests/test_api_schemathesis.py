"""Schemathesis over the whole OpenAPI schema (/api/v1/openapi.json): the session API as a logged-in staff
member, the platform API with a platform's token, and the public verification without login.

Every generated request must get an answer that is not a server error (5xx), a refusal (4xx) when the data
breaks the schema, and, for each status the schema documents, a body that matches it. Bounded for CI: a few
derandomized examples per operation (plus the schema's own coverage cases), no Hypothesis deadline, no example
database: about 40 s of CPU; on a shared two-core machine under load, 1.5 to 3 minutes of wall time.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import Client
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import negative_data_rejection, response_schema_conformance

from apps.accounts.models import User
from apps.platforms.services import credential_issue, platform_create
from apps.tenancy.models import Municipality
from outorga.wsgi import application

schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", application)
CSRF_SECRET = "s" * 32  # a known CSRF secret sent as cookie and header, as a browser client would
PLATFORM_PREFIX = "/api/v1/platform/"
PUBLIC_PREFIX = "/api/publica/"


@pytest.fixture(autouse=True)
def _connection_kept_across_requests() -> Iterator[None]:
    """The WSGI handler closes "old" connections at each request's start and end; inside the test's
    transaction that would close the test database connection (PostgreSQL); Django's test client disconnects
    them for the same reason."""
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    yield
    for signal in (request_started, request_finished):
        signal.connect(close_old_connections)


@pytest.fixture
def credentials(
    db: None, settings: Any, admin_user: User, olimpia: Municipality, patrocinio: Municipality
) -> dict[str, str]:
    """A logged-in staff session (the superuser: every operation reachable) and a platform token for
    Patrocínio; limits raised so the run tests the API, not the rate limiter."""
    settings.PLATFORM_RATE_LIMIT = settings.PUBLIC_RATE_LIMIT = 100_000
    browser = Client()
    browser.force_login(admin_user)
    platform = platform_create(actor=None, name="Roda Já Mobilidade", cnpj="11222333000181")
    issued = credential_issue(actor=None, platform=platform, municipality=patrocinio)
    return {
        "cookie": f"sessionid={browser.cookies['sessionid'].value}; csrftoken={CSRF_SECRET}",
        "token": issued.token,
        "platform_ibge": patrocinio.ibge_code,
    }


@schema.parametrize()
@settings(
    max_examples=5,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_every_operation_answers_without_server_errors_and_keeps_its_schema(
    case: schemathesis.Case[Any], credentials: dict[str, str]
) -> None:
    path = case.operation.path
    headers: dict[str, str] = {}
    if path.startswith(PLATFORM_PREFIX):
        # The token's own town: other towns answer 403 at once and would leave the endpoints untested.
        case.path_parameters = {**(case.path_parameters or {}), "ibge_code": credentials["platform_ibge"]}
        headers["Authorization"] = f"Bearer {credentials['token']}"
    elif not path.startswith(PUBLIC_PREFIX):
        headers |= {"Cookie": credentials["cookie"], "X-CSRFToken": CSRF_SECRET}
    case.call_and_validate(
        headers=headers, checks=[not_a_server_error, response_schema_conformance, negative_data_rejection]
    )


def test_a_non_numeric_id_in_any_documented_path_answers_json_404(admin_client: Client) -> None:
    """Schemathesis sends the integers the schema asks for; a client typing letters must get 404, never 500."""
    raw = admin_client.get("/api/v1/openapi.json").json()
    probed = 0
    for path, operations in raw["paths"].items():
        if "{id}" not in path:
            continue
        for method in operations:
            url = path.replace("{id}", "abc").replace("{ibge_code}", "3533908")
            response = getattr(admin_client, method)(url, content_type="application/json")
            assert response.status_code in {401, 403, 404}, (method, url, response.status_code)
            assert response["Content-Type"].startswith("application/json"), (method, url)
            probed += 1
    assert probed >= 20
