"""The public lookup's standing reads its drivers and documents through SQL written once
(apps.public.standing_rows) and its configuration stamp from the lookup's SELECT: the same facts, so the same
decision, as licensing.standing through the ORM — for permits whose documents are valid, expired, missing or not
accepted, held by a person or a company, in two regimes."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.licensing.casebook import Case
from apps.licensing.models import Permit
from apps.licensing.standing import ORM_ROWS, Standing, permit_standing
from apps.public import verification
from apps.public.choices import LookupVia
from apps.public.standing_rows import PUBLIC_ROWS
from apps.public.verification import Query
from apps.registry.choices import DocumentStatus
from apps.registry.models import Document, Driver

pytestmark = pytest.mark.django_db
Change = Callable[[Permit, dt.date], Any]


def _both(permit: Permit, as_of: dt.date) -> tuple[Standing, Standing]:
    """The standing as every other screen reads it, and as the public lookup does."""
    by_orm = permit_standing(Permit.objects.get(pk=permit.pk), as_of=as_of)
    [looked_up] = verification._permits_for(Query(LookupVia.TOKEN, permit.qr_token))
    return by_orm, permit_standing(looked_up, as_of=as_of, reader=PUBLIC_ROWS)


def _rows_alike(permit: Permit) -> None:
    """Row for row, both readers return the same drivers and documents."""
    operators = [permit.operator_id]
    fields = ("pk", "operator_id", "person_id", "role", "cnh_category", "cnh_ear", "cnh_expiry", "vehicle_id")

    def drivers(reader: Any) -> list[tuple[Any, ...]]:
        return [tuple(getattr(d, name) for name in fields) for d in reader.drivers(operators)]

    assert drivers(PUBLIC_ROWS) == drivers(ORM_ROWS)
    owners = {"vehicle_id": [permit.vehicle_id], "operator_id": operators}
    person = permit.operator.person_id
    if person:
        owners["person_id"] = [person]
    kinds = sorted(set(Document.objects.values_list("kind", flat=True)))
    assert list(PUBLIC_ROWS.documents(owners, kinds)) == list(ORM_ROWS.documents(owners, kinds))
    both, by_orm = PUBLIC_ROWS.rows(operators, owners, kinds), ORM_ROWS.rows(operators, owners, kinds)
    assert [drivers(_Given(both[0])), list(both[1])] == [drivers(_Given(by_orm[0])), list(by_orm[1])]
    assert both[1] and (both[0] or not Driver.objects.filter(operator_id__in=operators, active=True))


class _Given:
    """A reader handing back drivers already read (to compare them field by field like a reader's)."""

    def __init__(self, found: Any) -> None:
        self.found = list(found)

    def drivers(self, operator_ids: list[int]) -> list[Driver]:
        return self.found


def _expire(kind: str) -> Change:
    def change(permit: Permit, today: dt.date) -> None:
        Document.objects.filter(vehicle=permit.vehicle, kind=kind).update(
            valid_until=today - dt.timedelta(days=1)
        )

    return change


def _remove(kind: str) -> Change:
    def change(permit: Permit, today: dt.date) -> None:
        Document.objects.filter(vehicle=permit.vehicle, kind=kind).delete()

    return change


def _refuse_all(permit: Permit, today: dt.date) -> None:
    Document.objects.filter(vehicle=permit.vehicle).update(status=DocumentStatus.NOT_ACCEPTED)


def _cnh_lapsed(permit: Permit, today: dt.date) -> None:
    Driver.objects.filter(operator=permit.operator).update(cnh_expiry=today - dt.timedelta(days=40))


CHANGES: dict[str, Change | None] = {
    "valid": None,
    "insurance expired": _expire("app_insurance"),
    "insurance missing": _remove("app_insurance"),
    "crlv missing": _remove("crlv"),
    "documents not accepted": _refuse_all,
    "cnh lapsed": _cnh_lapsed,
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_a_person_holders_permit_stands_the_same_by_both_paths(
    change: str, olimpia_permit: Permit, today: dt.date
) -> None:
    alter = CHANGES[change]
    if alter is not None:
        alter(olimpia_permit, today)
    by_orm, public = _both(olimpia_permit, today)
    assert public == by_orm
    if change != "valid":
        assert not public.authorized, public
    _rows_alike(olimpia_permit)


@pytest.mark.parametrize("change", ["valid", "insurance expired", "crlv missing"])
def test_a_company_holders_permit_stands_the_same_by_both_paths(
    change: str, olimpia_permit: Permit, mei_case: Case, today: dt.date
) -> None:
    Permit.objects.filter(pk=olimpia_permit.pk).update(operator=mei_case.operator)  # a company holds it now
    permit = Permit.objects.get(pk=olimpia_permit.pk)
    alter = CHANGES[change]
    if alter is not None:
        alter(permit, today)
    by_orm, public = _both(permit, today)
    assert public == by_orm
    _rows_alike(permit)


def test_another_regime_and_dates_ahead_stand_the_same(patrocinio_permit: Permit, today: dt.date) -> None:
    for days in (0, 100, 400):  # documents lapse one after another, then the permit itself
        by_orm, public = _both(patrocinio_permit, today + dt.timedelta(days=days))
        assert public == by_orm, days


def test_the_public_path_reads_the_stamp_with_the_permit_and_nothing_more(
    olimpia_permit: Permit, today: dt.date
) -> None:
    _both(olimpia_permit, today)  # the configuration built once, under the current stamp
    [looked_up] = verification._permits_for(Query(LookupVia.TOKEN, olimpia_permit.qr_token))
    with CaptureQueriesContext(connection) as captured:
        permit_standing(looked_up, as_of=today, reader=PUBLIC_ROWS)
    sql = " ".join(q["sql"] for q in captured.captured_queries)
    assert len(captured.captured_queries) == 1, sql  # the drivers and the documents, one UNION ALL
    assert "registry_driver" in sql and "registry_document" in sql
    assert "lawconfig_configstamp" not in sql
