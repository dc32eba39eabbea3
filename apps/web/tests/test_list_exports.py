"""Every staff list downloads its rows as CSV and XLSX through the one export, behind the list's own gate."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook

from apps.accounts.models import User
from apps.audit.exports import EVENTS
from apps.audit.models import AuditEvent
from apps.audit.services import PERSONAL_DATA_LIST_EXPORT
from apps.dueprocess.exports import APPEALS, DEBTS
from apps.enforcement.exports import CASES
from apps.finance.exports import GUIDES, REFUNDS
from apps.inspections.exports import INSPECTIONS
from apps.licensing.exports import APPLICATIONS, PERMITS
from apps.public.exports import COMPLAINTS
from apps.registry.exports import DOCUMENTS, DRIVERS, OPERATORS, VEHICLES
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality
from apps.web.exports import ExportSpec

pytestmark = pytest.mark.django_db
OLIMPIA = "3533908"

LISTS: list[tuple[str, list[str], ExportSpec]] = [
    ("registry:operator_list", [OLIMPIA], OPERATORS),
    ("registry:vehicle_list", [OLIMPIA], VEHICLES),
    ("registry:driver_list", [OLIMPIA], DRIVERS),
    ("registry:document_list", [OLIMPIA], DOCUMENTS),
    ("licensing:application_list", [OLIMPIA], APPLICATIONS),
    ("licensing:permit_list", [OLIMPIA], PERMITS),
    ("inspections:calendar", [OLIMPIA], INSPECTIONS),
    ("enforcement:case_list", [OLIMPIA], CASES),
    ("dueprocess:queue", [OLIMPIA, "first"], APPEALS),
    ("dueprocess:active_debt", [OLIMPIA], DEBTS),
    ("finance:guide_list", [OLIMPIA], GUIDES),
    ("finance:refund_list", [OLIMPIA], REFUNDS),
    ("public:complaint-queue", [OLIMPIA], COMPLAINTS),
    ("audit:event_list", [], EVENTS),
]


@pytest.fixture
def everyone_client(make_staff: Callable[..., User], olimpia: Municipality) -> Client:
    user = make_staff("todos.papeis", *((olimpia, role) for role in Role.values))
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize(("name", "args", "spec"), LISTS, ids=[name for name, _, _ in LISTS])
def test_every_list_downloads_csv_and_xlsx_with_its_portuguese_headers(
    name: str, args: list[str], spec: ExportSpec, everyone_client: Client
) -> None:
    url = reverse(name, args=args)
    csv_response = everyone_client.get(url, {"formato": "csv"})
    assert csv_response.status_code == 200
    assert csv_response["Content-Type"] == "text/csv; charset=utf-8"
    assert f'filename="{spec.name}' in csv_response["Content-Disposition"]
    body = b"".join(csv_response.streaming_content).decode("utf-8")
    assert body.startswith("\ufeff" + ";".join(spec.headers) + "\r\n")
    xlsx_response = everyone_client.get(url, {"formato": "xlsx"})
    sheet = load_workbook(io.BytesIO(b"".join(xlsx_response.streaming_content))).active
    assert [cell.value for cell in sheet[1]] == spec.headers
    audited = AuditEvent.objects.filter(action=PERSONAL_DATA_LIST_EXPORT, object_type=f"export.{spec.name}")
    assert audited.count() == (2 if spec.personal_headers else 0)


@pytest.mark.parametrize(("name", "args", "spec"), LISTS, ids=[name for name, _, _ in LISTS])
def test_an_outsider_cannot_download_any_list(
    name: str, args: list[str], spec: ExportSpec, outsider_client: Client, olimpia: Municipality
) -> None:
    assert outsider_client.get(reverse(name, args=args), {"formato": "csv"}).status_code == 404


def test_the_list_page_offers_the_download(everyone_client: Client) -> None:
    for name, args, _ in LISTS:
        content = everyone_client.get(reverse(name, args=args)).content.decode()
        assert "formato=csv" in content and "formato=xlsx" in content, name
