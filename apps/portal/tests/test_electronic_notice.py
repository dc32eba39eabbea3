"""The electronic notice (domicílio eletrônico): the holder opts in on the portal with the terms the regime
declares; only then, and only for the acts the regime allows, a notice goes by the portal. Opened by its
addressee, the opening is the receipt, proven by the instant, the account, the IP and the hash of the signed PDF
opened; not opened, the daily sweep records ciência by the declared lapse. The defence deadline the staff see
counts from either."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.utils import timezone

from apps.accounts.models import User
from apps.audit.models import AuditEvent
from apps.dueprocess.tests.helpers import open_case
from apps.enforcement.choices import EventKind, NoticeChannel, NoticePurpose
from apps.enforcement.models import Notice
from apps.enforcement.services.notices import electronic_lapse_sweep, notice_send
from apps.enforcement.tests.conftest import agent_patrocinio, patrocinio_licensed  # noqa: F401  (fixtures)
from apps.lawconfig.services import interpretation_choose
from apps.licensing.casebook import Case
from apps.licensing.models import Permit
from apps.portal.models import ElectronicNoticeConsent, PortalAccount
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


def _opt_in(account: PortalAccount) -> Client:
    """The holder accepts the regime's terms on the portal page."""
    client = portal_client(account)
    response = client.post(
        "/portal/notificacao-eletronica/", {"acao": "aderir", "aceito": "sim"}, REMOTE_ADDR="203.0.113.9"
    )
    assert response.status_code == 302
    return client


def _electronic_notice(
    municipality: Municipality, agent: User, case: Case, code: str, username: str = "helena"
) -> Notice:
    _opt_in(make_account(case, username))
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
    holder = portal_client(PortalAccount.objects.get(user__username="helena"))

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


def test_where_the_law_does_not_allow_the_electronic_channel_the_portal_offers_no_opt_in_and_sending_is_refused(
    olimpia: Municipality, olimpia_licensed: tuple[Case, Permit], agent_olimpia: User
) -> None:
    case = olimpia_licensed[0]
    holder = portal_client(make_account(case, "olga"))
    page = holder.get("/portal/notificacao-eletronica/").content.decode()
    assert "não admite a notificação por meio eletrônico" in page
    holder.post("/portal/notificacao-eletronica/", {"acao": "aderir", "aceito": "sim"})
    assert not ElectronicNoticeConsent.objects.exists()
    auto = open_case(olimpia, agent_olimpia, code="OLI-23-I", plate=case.vehicle.plate, on=ON)
    with pytest.raises(ValidationError) as refused:
        _send(auto, agent_olimpia)
    assert "art. 34" in " ".join(refused.value.messages)


def test_the_holder_opts_in_with_the_regimes_terms_audited_and_may_revoke(
    patrocinio: Municipality,
    patrocinio_licensed: tuple[Case, Permit],  # noqa: F811
) -> None:
    case = patrocinio_licensed[0]
    account = make_account(case, "helena")
    page = portal_client(account).get("/portal/notificacao-eletronica/").content.decode()
    assert "Termos de adesão" in page and "art. 19" in page and "Lei 5.832/2025" in page
    holder = _opt_in(account)
    consent = ElectronicNoticeConsent.objects.get()
    assert consent.accepted_ip == "203.0.113.9" and "via eletrônica" in consent.terms
    assert AuditEvent.objects.filter(
        action="portal.electronic_notice.accept", object_id=str(consent.pk)
    ).exists()
    assert "Adesão em vigor desde" in holder.get("/portal/notificacao-eletronica/").content.decode()

    holder.post("/portal/notificacao-eletronica/", {"acao": "revogar"})

    consent.refresh_from_db()
    assert consent.revoked_at is not None
    assert AuditEvent.objects.filter(
        action="portal.electronic_notice.revoke", object_id=str(consent.pk)
    ).exists()
    assert "Aderir à notificação eletrônica" in holder.get("/portal/notificacao-eletronica/").content.decode()


def test_opting_in_needs_the_terms_accepted(
    patrocinio: Municipality,
    patrocinio_licensed: tuple[Case, Permit],  # noqa: F811
) -> None:
    holder = portal_client(make_account(patrocinio_licensed[0], "helena"))
    response = holder.post("/portal/notificacao-eletronica/", {"acao": "aderir"}, follow=True)
    assert "marque que leu e aceita os termos" in response.content.decode()
    assert not ElectronicNoticeConsent.objects.exists()


def test_sending_electronically_without_the_holders_opt_in_is_refused_naming_the_article(
    patrocinio: Municipality,
    patrocinio_licensed: tuple[Case, Permit],  # noqa: F811
    agent_patrocinio: User,  # noqa: F811
) -> None:
    case = patrocinio_licensed[0]
    auto = open_case(patrocinio, agent_patrocinio, code="PAT-3", plate=case.vehicle.plate, on=ON)
    with pytest.raises(ValidationError) as refused:
        _send(auto, agent_patrocinio)
    message = " ".join(refused.value.messages)
    assert "não aderiu à notificação eletrônica" in message and "art. 19" in message
    assert not Notice.objects.exists()


def test_an_act_the_regime_does_not_send_electronically_is_refused_even_with_opt_in(
    patrocinio: Municipality,
    patrocinio_licensed: tuple[Case, Permit],  # noqa: F811
    agent_patrocinio: User,  # noqa: F811
) -> None:
    case = patrocinio_licensed[0]
    _opt_in(make_account(case, "helena"))
    auto = open_case(patrocinio, agent_patrocinio, code="PAT-3", plate=case.vehicle.plate, on=ON)
    with pytest.raises(ValidationError) as refused:
        notice_send(
            case=auto,
            actor=agent_patrocinio,
            purpose=NoticePurpose.FIRST_DECISION,
            channel=NoticeChannel.ELECTRONIC,
            sent_on=ON,
            as_of=ON,
        )
    assert "não vale para a notificação da decisão de 1ª instância" in " ".join(refused.value.messages)


def test_a_notice_not_opened_is_known_by_the_declared_lapse_with_its_evidence(
    patrocinio: Municipality,
    patrocinio_licensed: tuple[Case, Permit],  # noqa: F811
    agent_patrocinio: User,  # noqa: F811
) -> None:
    case = patrocinio_licensed[0]
    notice = _electronic_notice(patrocinio, agent_patrocinio, case, "PAT-3")
    # INT-PAT-ELECTRONIC-LAPSE (default): 10 dias corridos after 12/03/2026 -> ciência on 22/03/2026
    assert electronic_lapse_sweep(dt.date(2026, 3, 22)) == 0  # the lapse is not over yet
    notice.refresh_from_db()
    assert notice.ciencia_on is None

    assert electronic_lapse_sweep(dt.date(2026, 3, 23)) == 1

    notice.refresh_from_db()
    assert notice.ciencia_on == dt.date(2026, 3, 22) and notice.received_on is None
    event = notice.case.events.get(kind=EventKind.NOTICE_RECEIVED)
    assert "por decurso de prazo" in event.note and "disponibilizada no portal em 12/03/2026" in event.note
    assert "INT-PAT-ELECTRONIC-LAPSE" in event.note
    proof = AuditEvent.objects.get(action="notice.ciencia_evidence", object_id=str(notice.pk))
    assert (proof.after or {})["made_available_on"] == "2026-03-12"
    assert electronic_lapse_sweep(dt.date(2026, 3, 24)) == 0  # once
    # opened afterwards: the ciência stays the lapse's
    portal_client(PortalAccount.objects.get(user__username="helena")).get(
        f"/portal/notificacoes/{notice.pk}/pdf/"
    )
    notice.refresh_from_db()
    assert notice.ciencia_on == dt.date(2026, 3, 22)
    staff = Client()
    staff.force_login(agent_patrocinio)
    page = staff.get(
        f"/municipios/{patrocinio.ibge_code}/fiscalizacao/autos/{notice.case.pk}/"
    ).content.decode()
    assert '<td data-testid="ciencia">22/03/2026</td>' in page and "por decurso de prazo" in page


def test_where_the_municipality_chose_no_lapse_the_unopened_notice_stays_without_ciencia(
    patrocinio: Municipality,
    patrocinio_licensed: tuple[Case, Permit],  # noqa: F811
    agent_patrocinio: User,  # noqa: F811
) -> None:
    interpretation_choose(
        actor=None,
        municipality=patrocinio,
        regime_id="patrocinio_mg_aplicativo",
        interpretation_id="INT-PAT-ELECTRONIC-LAPSE",
        option="opening_only",
        decided_by_act="Parecer 1/2026",
        decided_on=dt.date(2026, 1, 5),
    )
    notice = _electronic_notice(patrocinio, agent_patrocinio, patrocinio_licensed[0], "PAT-3")
    assert electronic_lapse_sweep(dt.date(2026, 4, 30)) == 0
    notice.refresh_from_db()
    assert notice.ciencia_on is None


def test_staff_see_the_ciencia_and_the_deadline_counted_from_the_opening(
    patrocinio: Municipality,
    patrocinio_licensed: tuple[Case, Permit],  # noqa: F811
    agent_patrocinio: User,  # noqa: F811
) -> None:
    case = patrocinio_licensed[0]
    notice = _electronic_notice(patrocinio, agent_patrocinio, case, "PAT-3")
    portal_client(PortalAccount.objects.get(user__username="helena")).get(
        f"/portal/notificacoes/{notice.pk}/pdf/"
    )
    staff = Client()
    staff.force_login(agent_patrocinio)
    page = staff.get(
        f"/municipios/{patrocinio.ibge_code}/fiscalizacao/autos/{notice.case.pk}/"
    ).content.decode()
    today = f"{timezone.localdate():%d/%m/%Y}"
    assert f'<td data-testid="ciencia">{today}</td>' in page
    # Patrocínio (art. 19 § 1º): the penalty must be notified within 90 days of the auto's receipt — from the opening
    assert f"recebimento do auto de infração, {today})" in page
