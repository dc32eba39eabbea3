from __future__ import annotations

import uuid

import pytest
from django.test import Client

from apps.audit.context import current_request_id, new_request_id


def test_it_generates_a_uuid_when_none_comes_in() -> None:
    assert uuid.UUID(new_request_id(None)).version == 4


def test_it_keeps_a_well_formed_incoming_id() -> None:
    assert new_request_id("lb-7f3a9c21") == "lb-7f3a9c21"


@pytest.mark.parametrize("bad", ["short", "a" * 65, "abc\r\nSet-Cookie: x=1", "<script>alert(1)</script>"])
def test_it_replaces_a_malformed_incoming_id(bad: str) -> None:
    assert uuid.UUID(new_request_id(bad))


@pytest.mark.django_db
def test_it_sends_the_request_id_back_in_the_response(client: Client) -> None:
    response = client.get("/entrar/", HTTP_X_REQUEST_ID="proxy-123456")
    assert response["X-Request-ID"] == "proxy-123456"
    assert uuid.UUID(client.get("/entrar/")["X-Request-ID"])


def test_it_clears_the_context_after_the_request() -> None:
    assert current_request_id() == ""
