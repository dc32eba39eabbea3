"""The public lookup's lean path: the town list of the form is read once, not on every public request, the
town's law configuration is rebuilt only when the database's stamp says it changed, and a change shows up at
once; a lookup costs a constant few queries, none about who asks, and skips the session middleware
(apps.web.lean) while keeping every security header."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from apps.lawconfig.models import MunicipalClosure
from apps.licensing.models import Permit
from apps.public import stats
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


# --- the lean path: what one lookup costs the database, and which middleware it skips ---------------------

JSON_URL = "/api/publica/v1/verificacao/"
# The rate limit's counter, the permit, and the document standing's rows (licensing.standing): nothing about
# who asks (session, user, second factor, lockouts), nothing about the town once kept, and of its law only the
# configuration's stamp (lawconfig.config: the rows are read again only when the stamp changed).
LOOKUP_TABLES = {
    "outorga_cache",
    "lawconfig_configstamp",
    "licensing_permit",
    "registry_driver",
    "registry_document",
}
# The counter (one statement on PostgreSQL: outorga.cache.AtomicDatabaseCache.count; on SQLite the savepoint,
# read, write and release of its transaction), the permit with its town's configuration stamp (a subquery of the
# same SELECT, handed to config_for), and the standing's drivers and documents (the operator comes with the
# permit; one UNION ALL of the two SELECTs, written once, apps.public.standing_rows).
LOOKUP_QUERIES = 3 if connection.vendor == "postgresql" else 6


def _tables(captured: CaptureQueriesContext) -> set[str]:
    """The table each query reads or writes (the permit's joined rows come with it, in the same query)."""
    sql = " ".join(query["sql"] for query in captured.captured_queries)
    tables = set(re.findall(r'(?:FROM|UPDATE|INTO) "(\w+)"', sql))
    assert not re.search(r'"(django_session|accounts_\w+|auth_\w+|otp_\w+|axes_\w+)"', sql), sql
    return tables


def _lookups(client: Client, urls: list[str]) -> list[CaptureQueriesContext]:
    client.get(urls[0])  # the first lookup reads the town and builds its law configuration
    found = []
    for url in urls:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        found.append(captured)
    return found


@pytest.fixture
def kept_a_minute(settings: Any) -> Iterator[None]:
    settings.PUBLIC_MUNICIPALITY_TTL = 60
    settings.PUBLIC_COUNT_FLUSH_SECONDS = 60  # counts summed in memory, as in production
    yield
    stats._pending.clear()  # never written: the test's rows are gone with it


def test_a_json_lookup_costs_a_constant_few_queries_and_none_about_who_asks(
    kept_a_minute: None, olimpia_permit: Permit
) -> None:
    plates = [olimpia_permit.vehicle.plate, "ZZZ9Z99"]
    urls = [f"{JSON_URL}?municipio=3533908&placa={plate}" for plate in plates]
    known, unknown = _lookups(Client(), urls)
    assert len(known.captured_queries) == LOOKUP_QUERIES, [q["sql"] for q in known.captured_queries]
    assert _tables(known) == LOOKUP_TABLES
    assert _tables(unknown) == {"outorga_cache", "licensing_permit", "lawconfig_configstamp"}  # the subquery


def test_the_lookup_page_costs_the_same_queries_as_the_json(
    kept_a_minute: None, olimpia_permit: Permit
) -> None:
    plate = olimpia_permit.vehicle.plate
    urls = [f"/consulta/?q={plate}", f"/consulta/?municipio=3533908&q={plate}"]
    for captured in _lookups(Client(), urls):
        assert len(captured.captured_queries) == LOOKUP_QUERIES, [q["sql"] for q in captured.captured_queries]
        assert _tables(captured) == LOOKUP_TABLES


def test_an_anonymous_lookup_skips_the_session_middleware_and_keeps_the_security_headers(
    olimpia_permit: Permit,
) -> None:
    for url in (f"{JSON_URL}?municipio=3533908&placa={olimpia_permit.vehicle.plate}", "/consulta/"):
        response = Client().get(url)
        request = response.wsgi_request
        assert not hasattr(request, "session") and not hasattr(request, "_messages")
        assert not request.user.is_authenticated
        assert "Content-Security-Policy" in response and "Permissions-Policy" in response
        assert response["X-Frame-Options"] == "DENY" and "X-Request-ID" in response
        assert "Cookie" in response["Vary"] and not response.cookies


def test_a_signed_in_visitor_takes_the_full_path_and_keeps_their_name_on_the_page(
    olimpia_permit: Permit, analyst_olimpia_client: Client
) -> None:
    response = analyst_olimpia_client.get("/consulta/")
    assert hasattr(response.wsgi_request, "session") and response.wsgi_request.user.is_authenticated
    assert "Ana Analista" in response.content.decode()


def test_a_posted_lookup_page_still_meets_the_csrf_check(olimpia_permit: Permit) -> None:
    response = Client(enforce_csrf_checks=True).post("/consulta/")
    assert response.status_code == 403  # refused by CsrfViewMiddleware before the view's 405, as before


def test_a_closure_saved_in_this_process_is_read_by_the_next_lookup(
    kept_a_minute: None, olimpia_permit: Permit, olimpia: Municipality, today: dt.date
) -> None:
    url = f"{JSON_URL}?municipio=3533908&placa={olimpia_permit.vehicle.plate}"
    client = Client()
    client.get(url)
    MunicipalClosure.objects.create(municipality=olimpia, date=today, description="Ponto facultativo")
    with CaptureQueriesContext(connection) as captured:
        client.get(url)
    assert "lawconfig_municipalclosure" in _tables(captured)
