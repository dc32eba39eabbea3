"""The OpenAPI schema documents every platform endpoint with the Bearer scheme and the error shape."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db
PATHS = {
    "/api/v1/platform/{ibge_code}/checks/": "post",
    "/api/v1/platform/{ibge_code}/substitutions/": "post",
    "/api/v1/platform/{ibge_code}/substitutions/{id}/": "get",
    "/api/v1/platform/{ibge_code}/changes/": "get",
    "/api/v1/platform/{ibge_code}/roster/": "post",
    "/api/v1/platform/{ibge_code}/roster/{id}/": "get",
}


def test_every_platform_endpoint_is_documented(admin_client: Client) -> None:
    schema = admin_client.get("/api/v1/openapi.json").json()
    assert schema["components"]["securitySchemes"]["platformToken"]["scheme"] == "bearer"
    for path, method in PATHS.items():
        operation = schema["paths"][path][method]
        assert operation["security"] == [{"platformToken": []}], path
        assert operation["responses"]["401"]["content"]["application/json"]["schema"]["$ref"].endswith(
            "/Error"
        )
        assert operation["summary"], path
