"""Portal screens: each persona sees its own records; another operator's rows answer 404; staff get 403;
anonymous users go to the portal login. Writes from the screens reach the services."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from apps.accounts.models import User
from apps.dueprocess.models import Appeal, AppealAttachment
from apps.dueprocess.services.fines import fine_issue
from apps.dueprocess.tests.helpers import final_without_appeal, notify, open_case
from apps.enforcement.choices import NoticePurpose
from apps.enforcement.models import InfractionCase
from apps.finance.formatting import brl
from apps.finance.models import PaymentGuide
from apps.finance.services import payment_register
from apps.jobs.services import outbox_deliver
from apps.licensing.casebook import PROFILES, Case, make_driver, make_person
from apps.licensing.models import Application, Permit
from apps.portal.choices import PortalRole
from apps.portal.models import DocumentSubmission, PortalAccount, PortalInvitation
from apps.portal.tests.conftest import AS_OF, PASSWORD, make_account, pdf_upload, portal_client
from apps.registry.models import Document
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db

HOLDER_PAGES = (
    "portal:home",
    "portal:documents",
    "portal:vehicles",
    "portal:applications",
    "portal:application-new",
    "portal:guides",
    "portal:cases",
)


@pytest.mark.parametrize("name", HOLDER_PAGES)
def test_the_holder_opens_every_portal_page(alice_client: Client, alice_case: Case, name: str) -> None:
    response = alice_client.get(reverse(name))
    assert response.status_code == 200
    assert alice_case.operator.holder_name in response.content.decode()


def test_anonymous_users_go_to_the_portal_login(client: Client) -> None:
    response = client.get(reverse("portal:documents"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("portal:login"))


def test_staff_get_a_403_page_pointing_to_the_back_office(analyst_olimpia_client: Client) -> None:
    response = analyst_olimpia_client.get(reverse("portal:home"))
    assert response.status_code == 403
    assert "Servidores da prefeitura usam as telas internas" in response.content.decode()


def test_a_suspended_account_no_longer_opens_the_portal(alice: PortalAccount, alice_client: Client) -> None:
    PortalAccount.objects.filter(pk=alice.pk).update(active=False)
    assert alice_client.get(reverse("portal:home")).status_code == 403


def test_the_portal_login_signs_in_and_lands_on_the_summary(alice: PortalAccount, client: Client) -> None:
    response = client.post(reverse("portal:login"), {"username": "alice", "password": PASSWORD}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("portal:home")
    assert "O que vence primeiro" in response.content.decode()


# --- isolation ----------------------------------------------------------------------------------------------


def test_another_operators_rows_answer_404(
    alice_client: Client,
    bob_licensed: tuple[Case, Permit],
    make_case: Callable[..., InfractionCase],
    make_guide: Callable[..., PaymentGuide],
) -> None:
    bob_case, bob_permit = bob_licensed
    document = Document.objects.filter(person=bob_case.person).first()
    assert document is not None
    auto = make_case(bob_case, dt.date(2026, 3, 12))
    guide = make_guide(bob_case, bob_permit)
    application = Application.objects.get(pk=guide.origin_id)
    urls = [
        reverse("portal:permit-pdf", args=[bob_permit.pk]),
        reverse("portal:document-renew", args=[document.pk]),
        reverse("portal:application", args=[application.pk]),
        reverse("portal:guide", args=[guide.pk]),
        reverse("portal:guide-pdf", args=[guide.pk]),
        reverse("portal:case", args=[auto.pk]),
        reverse("portal:notice-pdf", args=[auto.notices.get().pk]),
    ]
    for url in urls:
        assert alice_client.get(url).status_code == 404, url
    response = alice_client.post(reverse("portal:case", args=[auto.pk]), {"text": "Tentativa."})
    assert response.status_code == 404
    assert not Appeal.objects.filter(case=auto).exists()


def test_lists_never_show_another_operators_rows(
    alice_client: Client, bob_licensed: tuple[Case, Permit], make_case: Callable[..., InfractionCase]
) -> None:
    bob_case, bob_permit = bob_licensed
    auto = make_case(bob_case, dt.date(2026, 3, 12))
    pages = "".join(alice_client.get(reverse(name)).content.decode() for name in HOLDER_PAGES)
    for secret in (bob_case.operator.holder_name, bob_permit.number, bob_case.vehicle.plate, auto.number):
        assert secret not in pages


def test_a_driver_sees_only_their_documents_and_vehicle(
    marcos: PortalAccount, votuporanga_licensed: tuple[Case, Permit]
) -> None:
    case, permit = votuporanga_licensed
    client = portal_client(marcos)
    page = client.get(reverse("portal:documents")).content.decode()
    company_doc = Document.objects.filter(company=case.company).first()
    assert company_doc is not None
    assert reverse("portal:document-renew", args=[company_doc.pk]) not in page
    assert client.get(reverse("portal:document-renew", args=[company_doc.pk])).status_code == 404
    own_doc = Document.objects.filter(person=case.person).first()
    assert own_doc is not None
    assert reverse("portal:document-renew", args=[own_doc.pk]) in page
    assert client.get(reverse("portal:document-renew", args=[own_doc.pk])).status_code == 200
    assert client.get(reverse("portal:permit-pdf", args=[permit.pk])).status_code == 200
    for name in ("portal:applications", "portal:guides", "portal:cases"):
        assert client.get(reverse(name)).status_code == 404


# --- actions --------------------------------------------------------------------------------------------------


def test_the_holder_renews_a_document_from_the_screen(
    alice: PortalAccount, alice_client: Client, alice_case: Case
) -> None:
    crlv = Document.objects.get(vehicle=alice_case.vehicle, kind="crlv")
    today = timezone.localdate()
    response = alice_client.post(
        reverse("portal:document-renew", args=[crlv.pk]),
        {
            "file": pdf_upload(),
            "issue_date": today.isoformat(),
            "expiry_date": (today + dt.timedelta(days=365)).isoformat(),
        },
        follow=True,
    )
    page = response.content.decode()
    assert "Documento enviado" in page and "aguardando a validação da secretaria" in page
    assert f'data-testid="submission-{crlv.pk}" data-state="pending"' in page
    assert not Document.objects.filter(
        vehicle=alice_case.vehicle, kind="crlv", uploaded_by=alice.user
    ).exists()


def test_the_analyst_accepts_a_sent_copy_and_the_operator_sees_the_new_validity(
    alice: PortalAccount,
    alice_client: Client,
    alice_case: Case,
    analyst_olimpia_client: Client,
    agent_olimpia: User,
    settings: Any,
    tmp_path: Any,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
    crlv = Document.objects.get(vehicle=alice_case.vehicle, kind="crlv")
    today = timezone.localdate()
    with django_capture_on_commit_callbacks(execute=True):
        alice_client.post(
            reverse("portal:document-renew", args=[crlv.pk]),
            {"file": pdf_upload(), "issue_date": today.isoformat()},
        )
    submission = DocumentSubmission.objects.get(renews=crlv)
    listing = reverse("portal:staff-submissions", args=["3533908"])
    page = analyst_olimpia_client.get(listing).content.decode()
    assert f'data-testid="submission-{submission.pk}"' in page and "Aceitar a cópia" in page
    agent = Client()
    agent.force_login(agent_olimpia)
    assert agent.get(listing).status_code == 404  # the agent does not validate documents
    decide = reverse("portal:staff-submission-decide", args=["3533908", submission.pk, "aceitar"])
    with django_capture_on_commit_callbacks(execute=True):
        response = analyst_olimpia_client.post(decide, follow=True)
    assert (
        "aceito" in response.content.decode()
        and "Nenhuma cópia aguardando validação." in response.content.decode()
    )
    new = Document.objects.get(portal_submission=submission)
    documents = alice_client.get(reverse("portal:documents")).content.decode()
    assert f"document-{crlv.pk}" not in documents and f"document-{new.pk}" in documents


def test_a_future_issue_date_is_refused_on_the_form(alice_client: Client, alice_case: Case) -> None:
    crlv = Document.objects.get(vehicle=alice_case.vehicle, kind="crlv")
    future = timezone.localdate() + dt.timedelta(days=5)
    response = alice_client.post(
        reverse("portal:document-renew", args=[crlv.pk]),
        {"file": pdf_upload(), "issue_date": future.isoformat()},
    )
    assert response.status_code == 200
    assert "Data de emissão" in response.content.decode()
    assert Document.objects.filter(vehicle=alice_case.vehicle, kind="crlv").count() == 1


def test_the_holder_protocols_a_cancellation_and_follows_it(
    alice: PortalAccount, alice_client: Client, alice_permit: Permit
) -> None:
    response = alice_client.post(
        reverse("portal:application-new"),
        {
            "kind": "cancellation",
            "permit": alice_permit.pk,
            "reason": "Aposentadoria",
            "carries_children_under_4_or_pcd": "unknown",
        },
        follow=True,
    )
    application = Application.objects.get(operator=alice.operator, kind="cancellation")
    assert response.redirect_chain[-1][0] == reverse("portal:application", args=[application.pk])
    assert "Protocolado" in response.content.decode()


def test_the_form_cannot_name_another_operators_permit(
    alice: PortalAccount, alice_client: Client, bob_licensed: tuple[Case, Permit]
) -> None:
    response = alice_client.post(
        reverse("portal:application-new"), {"kind": "cancellation", "permit": bob_licensed[1].pk}
    )
    assert response.status_code == 200
    assert not Application.objects.filter(kind="cancellation").exists()


def test_the_holder_files_a_defence_with_an_attachment(
    alice_client: Client, alice_case: Case, make_case: Callable[..., InfractionCase]
) -> None:
    auto = make_case(alice_case, timezone.localdate() - dt.timedelta(days=1))
    page = alice_client.get(reverse("portal:case", args=[auto.pk])).content.decode()
    assert "prazo até" in page
    response = alice_client.post(
        reverse("portal:case", args=[auto.pk]),
        {"text": "O veículo estava regular.", "attachments": [pdf_upload()]},
        follow=True,
    )
    appeal = Appeal.objects.get(case=auto)
    assert appeal.filed_by_portal and not appeal.late
    assert AppealAttachment.objects.filter(appeal=appeal).count() == 1
    assert "protocolado em" in response.content.decode()


def test_a_late_defence_from_the_screen_is_flagged(
    alice_client: Client, alice_case: Case, make_case: Callable[..., InfractionCase]
) -> None:
    auto = make_case(alice_case, dt.date(2026, 3, 12))
    page = alice_client.get(reverse("portal:case", args=[auto.pk])).content.decode()
    assert "o pedido será marcado como fora do prazo" in page
    response = alice_client.post(reverse("portal:case", args=[auto.pk]), {"text": "Razões."}, follow=True)
    assert Appeal.objects.get(case=auto).late
    assert "fora do prazo" in response.content.decode()


def test_guides_show_pix_and_give_a_receipt_once_paid(
    alice_client: Client,
    alice_case: Case,
    alice_permit: Permit,
    make_guide: Callable[..., PaymentGuide],
    make_staff: Callable[..., User],
    olimpia: object,
) -> None:
    guide = make_guide(alice_case, alice_permit)
    page = alice_client.get(reverse("portal:guide", args=[guide.pk])).content.decode()
    assert guide.pix_payload in page and "<svg" in page
    assert alice_client.get(reverse("portal:guide-receipt", args=[guide.pk])).status_code == 404
    pdf = alice_client.get(reverse("portal:guide-pdf", args=[guide.pk]))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    payment_register(
        actor=None,
        guide=guide,
        paid_on=dt.date(2026, 3, 10),
        amount_brl=Decimal("150.00"),
        method="pix",
        reference="E2E123",
        as_of=dt.date(2026, 3, 10),
    )
    receipt = alice_client.get(reverse("portal:guide-receipt", args=[guide.pk]))
    assert receipt.status_code == 200 and receipt.content.startswith(b"%PDF")


def test_the_permit_pdf_downloads(alice_client: Client, alice_permit: Permit) -> None:
    response = alice_client.get(reverse("portal:permit-pdf", args=[alice_permit.pk]))
    assert response.status_code == 200 and response.content.startswith(b"%PDF")


# --- staff screen -------------------------------------------------------------------------------------------


def test_an_analyst_invites_an_operator_from_the_back_office(
    analyst_olimpia_client: Client,
    olimpia: object,
    alice_case: Case,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    url = reverse("portal:staff-accounts", args=["3533908"])
    with django_capture_on_commit_callbacks(execute=True):
        response = analyst_olimpia_client.post(
            url, {"operator": alice_case.operator.pk, "role": "operator"}, follow=True
        )
    assert f"Convite do portal enviado para {alice_case.person.email}" in response.content.decode()
    outbox_deliver()
    (message,) = mail.outbox
    assert message.to == [alice_case.person.email] and "http://testserver/portal/convite/" in message.body
    assert PortalInvitation.objects.filter(operator=alice_case.operator, role="operator").exists()


def test_other_municipalities_staff_get_404_on_the_accounts_screen(
    agent_votuporanga_client: Client, olimpia: object
) -> None:
    response = agent_votuporanga_client.get(reverse("portal:staff-accounts", args=["3533908"]))
    assert response.status_code == 404


def test_documents_show_the_laws_reason_and_the_soonest_to_expire_first(
    alice_client: Client, alice_case: Case
) -> None:
    page = alice_client.get(reverse("portal:documents")).content.decode()
    today = timezone.localdate()
    soonest = Document.objects.filter(vehicle=alice_case.vehicle, status="valid", valid_until__gte=today)
    soonest_doc = soonest.order_by("valid_until").first()
    undated = Document.objects.filter(person=alice_case.person, valid_until__isnull=True).first()
    assert soonest_doc is not None and undated is not None
    assert page.index(f"document-{soonest_doc.pk}") < page.index(f"document-{undated.pk}")
    assert f"O próximo a vencer é {soonest_doc.get_kind_display()}" in page
    assert "Pela lei:" in page and "Lei 5.171/2025 (Olímpia), art. 9º" in page


def test_the_holder_sees_and_pays_a_fine_but_never_another_operators(
    alice_client: Client,
    alice_case: Case,
    bob_licensed: tuple[Case, Permit],
    agent_olimpia: User,
    judge_olimpia: User,
    make_staff: Callable[..., User],
    olimpia: Municipality,
) -> None:
    finance = make_staff("fabi.financeiro", (olimpia, Role.FINANCE), full_name="Fabiana Financeiro")
    guides, autos = [], []
    for case in (alice_case, bob_licensed[0]):
        auto = open_case(
            olimpia, agent_olimpia, code="OLI-23-I", plate=case.vehicle.plate, on=dt.date(2026, 3, 12)
        )
        sanction = final_without_appeal(
            auto, agent_olimpia, judge_olimpia, dt.date(2026, 3, 13), dt.date(2026, 3, 24)
        )
        notify(auto, agent_olimpia, dt.date(2026, 3, 25), NoticePurpose.FINAL_DECISION)
        guides.append(fine_issue(sanction=sanction, actor=finance, as_of=dt.date(2026, 3, 25)))
        autos.append(auto)
    mine, theirs = guides
    assert isinstance(mine, PaymentGuide) and isinstance(theirs, PaymentGuide)
    listing = alice_client.get(reverse("portal:guides")).content.decode()
    assert f"Guia {mine.number}" in listing and f"Guia {theirs.number}" not in listing
    amount = brl(mine.amount_brl)  # one money format everywhere: R$ 1.152,60
    assert amount in listing and f'data-testid="guide-overdue-{mine.pk}"' in listing  # due in March 2026
    page = alice_client.get(reverse("portal:guide", args=[mine.pk])).content.decode()
    assert "Multa — auto de infração" in page and mine.pix_payload in page and amount in page
    assert 'data-copy-target="pix-payload"' in page and "Copiar o código PIX" in page
    case_page = alice_client.get(reverse("portal:case", args=[autos[0].pk])).content.decode()
    sanction = autos[0].sanction
    assert sanction.penalty_text in case_page and amount in case_page
    assert f"Pague a guia {mine.number}: venceu em {mine.due_on:%d/%m/%Y}." in case_page
    assert alice_client.get(reverse("portal:guide", args=[theirs.pk])).status_code == 404


def test_the_judge_downloads_a_portal_attachment_and_the_operator_gets_404(
    alice: PortalAccount,
    alice_client: Client,
    alice_case: Case,
    make_case: Callable[..., InfractionCase],
    judge_olimpia: User,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    auto = make_case(alice_case, timezone.localdate() - dt.timedelta(days=1))
    with django_capture_on_commit_callbacks(execute=True):  # the file is written once the appeal commits
        alice_client.post(
            reverse("portal:case", args=[auto.pk]), {"text": "Razões.", "attachments": [pdf_upload()]}
        )
    attachment = AppealAttachment.objects.get(appeal__case=auto)
    assert (
        attachment.uploaded_by_id == alice.user_id
    )  # the portal's files are dueprocess's, with their sender
    url = reverse("dueprocess:attachment", args=["3533908", attachment.pk])
    judge = Client()
    judge.force_login(judge_olimpia)
    response = judge.get(url)
    assert response.status_code == 200 and b"".join(response.streaming_content).startswith(b"%PDF")  # type: ignore[attr-defined]
    assert alice_client.get(url).status_code == 404


def test_posting_a_defence_when_none_is_open_stores_nothing_and_says_why(
    alice_client: Client, alice_case: Case, make_case: Callable[..., InfractionCase]
) -> None:
    auto = make_case(alice_case, timezone.localdate() - dt.timedelta(days=1))
    alice_client.post(reverse("portal:case", args=[auto.pk]), {"text": "Primeira."})
    response = alice_client.post(reverse("portal:case", args=[auto.pk]), {"text": "Segunda."}, follow=True)
    html = response.content.decode()
    # An appeal to the second instance before the first judged is refused with the article that opens it.
    assert "pedido já protocolado e ainda não julgado" in html
    assert "só cabe contra a decisão de primeira instância, depois do julgamento (Lei 5.171/2025" in html
    assert "art. 32)" in html
    assert Appeal.objects.filter(case=auto).count() == 1


def test_the_summary_lists_the_people_linked_to_the_operator(
    alice_client: Client, alice_case: Case, marcos: PortalAccount, votuporanga_licensed: tuple[Case, Permit]
) -> None:
    summary = alice_client.get(reverse("portal:home")).content.decode()
    assert f"{alice_case.person.name} — Condutor principal" in summary
    driver_summary = portal_client(marcos).get(reverse("portal:home")).content.decode()
    assert "Marcos Pereira — Empregado da empresa" in driver_summary


def test_a_driver_of_the_same_operator_never_sees_the_holders_own_documents(
    alice_client: Client, alice_case: Case
) -> None:
    profile = PROFILES["olimpia_sp_escolar"]
    person = make_person(alice_case.operator.municipality, 40, "Davi Auxiliar", as_of=AS_OF, profile=profile)
    driver = make_driver(
        alice_case.operator,
        person,
        as_of=AS_OF,
        profile=profile,
        vehicle=alice_case.vehicle,
        role="auxiliary",
    )
    davi = portal_client(make_account(alice_case, "davi", PortalRole.DRIVER, driver=driver))
    summary = davi.get(reverse("portal:home")).content.decode()
    assert "Davi Auxiliar — Condutor auxiliar" in summary and alice_case.person.name + " —" not in summary
    holder_doc = Document.objects.filter(person=alice_case.person).first()
    own_doc = Document.objects.filter(person=person).first()
    assert holder_doc is not None and own_doc is not None
    assert davi.get(reverse("portal:document-renew", args=[holder_doc.pk])).status_code == 404
    assert davi.get(reverse("portal:document-renew", args=[own_doc.pk])).status_code == 200
    vehicle_doc = Document.objects.filter(vehicle=alice_case.vehicle).first()
    assert vehicle_doc is not None
    assert davi.get(reverse("portal:document-renew", args=[vehicle_doc.pk])).status_code == 200
