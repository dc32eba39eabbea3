"""Every staff list page runs the same number of queries with 5 rows as with 50 (no query per row), and asks
for the user's permissions a bounded number of times whatever the number of rows and menu entries.

The demo is seeded once for the module (every list has rows of every kind, made through the services);
each test then copies the listed model's rows (`grow`) to 5 and to 50 and counts the page's queries.
A copy keeps every foreign key, so a row that reads a related object on its own is caught: Django caches a
related object per instance, never across rows.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import connection, models, transaction
from django.db.models import Count, Model, QuerySet, UniqueConstraint
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.http import urlencode

from apps.accounts.models import User
from apps.audit.models import AuditEvent
from apps.dueprocess.models import Appeal
from apps.enforcement.models import InfractionCase
from apps.finance.models import PaymentGuide, Refund
from apps.inspections.models import Inspection
from apps.licensing.models import Application, Permit
from apps.public.models import Complaint
from apps.registry.models import Document, Driver, Operator, Vehicle
from apps.tenancy.demo import DEMO_MUNICIPALITIES, seed_demo
from apps.tenancy.models import Membership, Municipality

pytestmark = pytest.mark.django_db

FEW, MANY = 5, 50
_SERIAL = itertools.count(1)
# The roles, once per request, plus the page's own role checks (role switcher, cards): a per-row or per-menu
# entry check would pass this at once.
PERMISSION_QUERY_CAP = 3


@dataclass(frozen=True)
class ListPage:
    url_name: str
    role: str  # the demo login's role word (<municipality>.<role>) for the staff who work this list
    model: type[Model]
    municipality_path: str = "municipality"
    args: tuple[str, ...] = ()
    query: str = ""
    in_municipality: bool = True  # the URL names the municipality (the audit trail spans all of the user's)
    # For a list the demo already fills past MANY rows: the field the page filters on (the GET parameter of
    # the same name); the test narrows the list to the field's rarest value.
    narrow_by: str = ""


PAGES = [
    ListPage("registry:operator_list", "analista", Operator),
    ListPage("registry:driver_list", "analista", Driver),
    ListPage("registry:vehicle_list", "analista", Vehicle),
    ListPage("registry:document_list", "analista", Document, narrow_by="kind"),
    ListPage("licensing:application_list", "analista", Application),
    ListPage("licensing:permit_list", "analista", Permit),
    ListPage("inspections:agenda", "vistoriador", Inspection, query="todas=1"),
    ListPage("enforcement:case_list", "agente", InfractionCase),
    ListPage("enforcement:my_cases", "agente", InfractionCase),
    ListPage("dueprocess:queue", "julgador", Appeal, "case__municipality", ("first",)),
    ListPage("dueprocess:queue", "jari", Appeal, "case__municipality", ("second",)),
    ListPage("finance:guide_list", "financeiro", PaymentGuide),
    ListPage("finance:refund_list", "financeiro", Refund, "payment__guide__municipality"),
    ListPage("public:complaint-queue", "analista", Complaint),
    ListPage("tenancy:team_list", "administrador", Membership),
    ListPage("audit:event_list", "auditor", AuditEvent, in_municipality=False, narrow_by="action"),
]


@pytest.fixture(scope="module")
def demo(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """The demo, seeded once and rolled back after the module's last test."""
    with django_db_blocker.unblock(), transaction.atomic():
        seed_demo()
        yield
        transaction.set_rollback(True)


def _unique_sets(model: type[Model]) -> list[list[models.Field[Any, Any]]]:
    meta = model._meta
    names = [list(fields) for fields in meta.unique_together]
    names += [list(c.fields) for c in meta.constraints if isinstance(c, UniqueConstraint) and c.fields]
    sets = [[meta.get_field(name) for name in group] for group in names]
    return sets + [[f] for f in meta.concrete_fields if f.unique and not f.primary_key]


def _vary(field: models.Field[Any, Any], value: Any, n: int) -> Any:
    if value is None:
        return None
    if isinstance(field, models.CharField):
        suffix = f"x{n:04d}"  # the x: no original value ends so
        return (str(value)[: (field.max_length or 20) - len(suffix)] + suffix)[-(field.max_length or 20) :]
    if isinstance(field, models.DateTimeField | models.DateField):
        return value - dt.timedelta(days=1000 * n)
    if isinstance(field, models.IntegerField):
        return value + 100_000 * n
    raise AssertionError(f"the test cannot make {field} distinct: teach _vary this field type")


def _variable(field: models.Field[Any, Any]) -> bool:
    """A scalar a copy may change without changing what the row means (not a choice, not the regime)."""
    return not field.is_relation and not field.choices and not field.name.endswith("regime_id")


def copy_row(row: Model) -> Model:
    """A copy of `row` under a new id; every unique key made distinct: its last free scalar varied, or, if it
    has none, the rows it points to copied in turn."""
    model = type(row)
    copy: Model = model._default_manager.get(pk=row.pk)
    copy.pk = None
    copy._state.adding = True
    for group in _unique_sets(model):
        free = [f for f in group if _variable(f)]
        if free:
            setattr(copy, free[-1].attname, _vary(free[-1], getattr(copy, free[-1].attname), next(_SERIAL)))
            continue
        for field in (f for f in group if f.is_relation and f.related_model is not Municipality):
            target = getattr(copy, field.name)
            if target is not None:
                setattr(copy, field.name, copy_row(target))
    copy.save(force_insert=True)
    return copy


def grow(rows: QuerySet[Any], to: int) -> None:
    existing = list(rows.order_by("pk"))
    assert existing, "the demo has no row for this list"
    for n in range(len(existing), to):
        copy_row(existing[n % len(existing)])


def _client(login: str) -> Client:
    client = Client()
    client.force_login(User.objects.get(username=login))
    return client


@dataclass(frozen=True)
class Visit:
    queries: int
    permission_queries: int  # reads of the user's memberships themselves (not for_user subqueries)
    size: int


def _visit(client: Client, url: str, query: str) -> Visit:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(f"{url}?{query}" if query else url)
    assert response.status_code == 200, url
    sqls = [q["sql"] for q in captured.captured_queries]
    permission = sum(
        s.startswith("SELECT") and 'FROM "tenancy_membership"' in s.split(" WHERE ")[0] for s in sqls
    )
    return Visit(len(sqls), permission, len(response.content))


@pytest.mark.parametrize("page", PAGES, ids=lambda page: f"{page.url_name}{''.join(page.args)}")
def test_a_staff_list_runs_the_same_queries_for_5_and_50_rows(demo: None, page: ListPage) -> None:
    town = max(DEMO_MUNICIPALITIES, key=lambda town: _rows(page, town.ibge_code).count())
    rows, query = _narrowed(page, _rows(page, town.ibge_code))
    url = reverse(page.url_name, args=[town.ibge_code, *page.args] if page.in_municipality else page.args)
    client = _client(f"{town.short}.{page.role}")
    with transaction.atomic():
        grow(rows, FEW)
        client.get(url)  # the session and caches, warmed
        few = _visit(client, url, query)
        grow(rows, MANY)
        many = _visit(client, url, query)
        transaction.set_rollback(True)
    assert many.size > few.size, "the copies are on the page"
    assert many.queries == few.queries, f"{few.queries} queries with {FEW} rows, {many.queries} with {MANY}"
    assert max(few.permission_queries, many.permission_queries) <= PERMISSION_QUERY_CAP


def _narrowed(page: ListPage, rows: QuerySet[Any]) -> tuple[QuerySet[Any], str]:
    if not page.narrow_by:
        return rows, page.query
    counts = rows.values(page.narrow_by).annotate(n=Count("pk")).order_by("n", page.narrow_by)
    rarest = counts[0][page.narrow_by]
    return rows.filter(**{page.narrow_by: rarest}), urlencode({page.narrow_by: rarest})


def _rows(page: ListPage, ibge_code: str) -> QuerySet[Any]:
    return page.model._default_manager.filter(**{f"{page.municipality_path}__ibge_code": ibge_code})
