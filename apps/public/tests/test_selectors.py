"""The lookup's SELECT written once (apps.public.selectors) reads what the ORM's select_related + only() read:
the same permits, the same loaded columns, the same related rows, for every kind of lookup."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.models import Model
from django.test.utils import CaptureQueriesContext

from apps.lawconfig.models import ConfigStamp
from apps.licensing.casebook import Case
from apps.licensing.models import Permit
from apps.public import verification
from apps.public.choices import LookupVia
from apps.public.selectors import STAMP
from apps.public.verification import PUBLIC_FIELDS, Query
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db
RELATED = ("municipality", "vehicle", "operator", "operator__person", "operator__company")


def _orm(query: Query) -> list[Permit]:
    rows = Permit.objects.select_related(*RELATED[:3], *RELATED[3:]).only(*PUBLIC_FIELDS).order_by()
    if query.via == LookupVia.TOKEN:
        return list(rows.filter(qr_token=query.value))
    if query.via == LookupVia.PLATE:
        town = query.municipality
        rows = rows.filter(vehicle__plate=query.value).exclude(kind="emergency")
        return list(rows if town is None else rows.filter(municipality=town, vehicle__municipality=town))
    sequence, year = query.value.split("/")
    return list(rows.filter(municipality=query.municipality, year=int(year), sequence=int(sequence)))


def _loaded(obj: Model | None) -> dict[str, Any] | None:
    """What an object holds without another query: its loaded columns (the stamp, which the ORM's query does
    not read, is compared on its own below)."""
    if obj is None:
        return None
    return {name: getattr(obj, name) for name in obj.__dict__ if not name.startswith("_") and name != STAMP}


def _shape(permit: Permit) -> list[Any]:
    found: list[Any] = [_loaded(permit)]
    for path in RELATED:
        obj: Any = permit
        for step in path.split("__"):
            obj = getattr(obj, step) if obj is not None else None
        found.append(_loaded(obj))
    return found


def _same_as_the_orm(queries: list[Query]) -> None:
    for query in queries:
        with CaptureQueriesContext(connection) as captured:
            shapes = [_shape(permit) for permit in verification._permits_for(query)]
        assert len(captured.captured_queries) == 1  # the related rows came with the permit
        assert shapes == [_shape(permit) for permit in _orm(query)], query


def test_every_kind_of_lookup_reads_what_the_orm_reads(
    olimpia_permit: Permit, mei_case: Case, olimpia: Municipality
) -> None:
    plate, number = olimpia_permit.vehicle.plate, olimpia_permit.number
    queries = [
        Query(LookupVia.TOKEN, olimpia_permit.qr_token),
        Query(LookupVia.PLATE, plate),
        Query(LookupVia.PLATE, plate, olimpia),
        Query(LookupVia.PERMIT, number, olimpia),
    ]
    _same_as_the_orm(queries)
    assert [p.number for p in verification._permits_for(queries[3])] == [number]
    Permit.objects.filter(pk=olimpia_permit.pk).update(operator=mei_case.operator)  # a company holds it now
    _same_as_the_orm(queries)
    holders = [p.operator.company for p in verification._permits_for(queries[1])]
    assert [company.legal_name[:12] for company in holders if company] == ["Jose Pereira"]


def test_nothing_found_is_an_empty_list(olimpia_permit: Permit, olimpia: Municipality) -> None:
    assert list(verification._permits_for(Query(LookupVia.PLATE, "ZZZ9Z99"))) == []
    assert list(verification._permits_for(Query(LookupVia.PERMIT, "9999/2026", olimpia))) == []


def test_each_permit_comes_with_its_towns_configuration_stamp(
    olimpia_permit: Permit, olimpia: Municipality
) -> None:
    query = Query(LookupVia.TOKEN, olimpia_permit.qr_token)
    token = ConfigStamp.objects.get(municipality=olimpia).token
    assert [getattr(p, STAMP) for p in verification._permits_for(query)] == [token]
    ConfigStamp.objects.filter(
        municipality=olimpia
    ).delete()  # never trusted: "" makes config_for read the rows
    assert [getattr(p, STAMP) for p in verification._permits_for(query)] == [""]
