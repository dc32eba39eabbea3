"""The public lookup's lean path: the town list of the form is read once, not on every public request, and a
town added shows up at once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db


def test_the_lookup_page_reads_the_towns_once_and_sees_a_new_one_at_once(
    settings: Any, olimpia: Municipality, make_municipality: Callable[..., Municipality]
) -> None:
    settings.PUBLIC_MUNICIPALITY_TTL = 60
    client = Client()
    client.get("/consulta/")
    with CaptureQueriesContext(connection) as captured:
        html = client.get("/consulta/").content.decode()
    assert "Olímpia-SP" in html
    assert not [q for q in captured.captured_queries if 'FROM "tenancy_municipality"' in q["sql"]]
    make_municipality("3557105", "Votuporanga", "SP", ["votuporanga_sp_escolar"])
    assert "Votuporanga-SP" in client.get("/consulta/").content.decode()
