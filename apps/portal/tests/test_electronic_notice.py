"""An electronic notice opened by its addressee in the portal: the opening is the receipt, proven by the instant,
the account, the IP and the hash of the signed PDF opened; the law of the regime decides whether it gives ciência,
and the defence deadline the staff see counts from it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from apps.accounts.models import User
from apps.audit.models import AuditEvent
from apps.dueprocess.tests.helpers import open_case
from apps.enforcement.choices import EventKind, NoticeChannel, NoticePurpose
from apps.enforcement.models import Notice
from apps.enforcement.services.notices import notice_send
from apps.enforcement.tests.conftest import agent_patrocinio, patrocinio_licensed  # noqa: F401  (fixtures)
from apps.licensing.casebook import Case
from apps.licensing.models import Permit
from apps.portal.tests.conftest import make_account, portal_client
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db
ON = dt.date(2026, 3, 12)


CAPTURE: list[Callable[..., Any]] = []


@pytest.fixture(autouse=True)
def _files_written(django_capture_on_commit_callbacks: Callable[..., Any]) -> Iterator[None]:
    """The notice's signed PDF is written after commit: the notice is sent inside a capture that runs them."""
    CAPTURE[:] = [django_capture_on_commit_callbacks]
    yield
    CAPTURE.clear()


def _electronic_notice(municipality: Municipality, agent: User, case: Case, code: str) -> Notice:
    auto = open_case(municipality, agent, code=code, plate=case.vehicle.plate, on=ON)
    with CAPTURE[0](execute=True):
        return _send(auto, agent)


def _send(auto: Any, agent: User) -> Notice:
    return notice_send(
        case=auto,
        actor=agent,
        purpose=NoticePurpose.INFRACTION,
        channel=NoticeChannel.ELECTRONIC,
        sent_on=ON,
        as_of=ON,
    )


def test_opening_the_notice_in_the_portal_is_its_ciencia_with_the_proof(
    patrocinio: Municipality,
    patrocinio_licensed: tuple[Case, Permit],  # noqa: F811
    agent_patrocinio: User,  # noqa: F811
) -> None:
    case = patrocinio_licensed[0]
    notice = _electronic_notice(patrocinio, agent_patrocinio, case, "PAT-3")
    assert notice.ciencia_on is None
    holder = portal_client(make_account(case, "helena"))

    response = holder.get(f"/portal/notificacoes/{notice.pk}/pdf/", REMOTE_ADDR="203.0.113.7")

    assert response.status_code == 200
    notice.refresh_from_db()
    today = timezone.localdate()
    assert notice.received_on == today and notice.ciencia_on == today
    event = notice.case.events.get(kind=EventKind.NOTICE_RECEIVED)
    assert (
        "aberta no portal" in event.note and "conta helena" in event.note and "IP 203.0.113.7" in event.note
    )
    assert notice.pdf_sha256[:16] in event.note
    proof = AuditEvent.objects.get(action="notice.ciencia_evidence", object_id=str(notice.pk))
    assert (proof.after or {})["pdf_sha256"] == notice.pdf_sha256 and (proof.after or {})[
        "ip"
    ] == "203.0.113.7"
    holder.get(f"/portal/notificacoes/{notice.pk}/pdf/", REMOTE_ADDR="198.51.100.1")
    assert (
        notice.case.events.filter(kind=EventKind.NOTICE_RECEIVED).count() == 1
    )  # later openings change nothing


def test_where_the_law_gives_no_electronic_ciencia_the_opening_is_recorded_without_starting_a_deadline(
    olimpia: Municipality, olimpia_licensed: tuple[Case, Permit], agent_olimpia: User
) -> None:
    case = olimpia_licensed[0]
    notice = _electronic_notice(olimpia, agent_olimpia, case, "OLI-23-I")
    portal_client(make_account(case, "olga")).get(f"/portal/notificacoes/{notice.pk}/pdf/")
    notice.refresh_from_db()
    assert notice.ciencia_on is None
    note = notice.case.events.get(kind=EventKind.NOTE).note
    assert note.startswith("Notificação eletrônica aberta no portal") and "sem ciência" in note
    assert not notice.case.events.filter(kind=EventKind.NOTICE_RECEIVED).exists()


def test_staff_see_the_ciencia_and_the_deadline_counted_from_the_opening(
    patrocinio: Municipality,
    patrocinio_licensed: tuple[Case, Permit],  # noqa: F811
    agent_patrocinio: User,  # noqa: F811
) -> None:
    case = patrocinio_licensed[0]
    notice = _electronic_notice(patrocinio, agent_patrocinio, case, "PAT-3")
    portal_client(make_account(case, "helena")).get(f"/portal/notificacoes/{notice.pk}/pdf/")
    staff = Client()
    staff.force_login(agent_patrocinio)
    page = staff.get(
        f"/municipios/{patrocinio.ibge_code}/fiscalizacao/autos/{notice.case.pk}/"
    ).content.decode()
    today = f"{timezone.localdate():%d/%m/%Y}"
    assert f'<td data-testid="ciencia">{today}</td>' in page
    # Patrocínio (art. 19 § 1º): the penalty must be notified within 90 days of the auto's receipt — from the opening
    assert f"recebimento do auto de infração, {today})" in page
