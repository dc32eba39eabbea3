"""Portal services: accounts, document renewal, applications and appeals — all through the back office's
services, audited with the portal user as the actor, and nothing stored when refused."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.accounts.choices import UserKind
from apps.accounts.models import User
from apps.audit.models import AuditEvent
from apps.dueprocess.choices import FilingChannel, Instance
from apps.dueprocess.models import Appeal, AppealAttachment
from apps.enforcement.models import InfractionCase
from apps.licensing.casebook import Case
from apps.licensing.choices import ApplicationState
from apps.licensing.models import Permit
from apps.portal.choices import PortalRole, SubmissionState
from apps.portal.models import PortalAccount
from apps.portal.selectors import next_expiring
from apps.portal.services import (
    document_submission_accept,
    document_submission_reject,
    portal_account_create,
    portal_account_set_active,
    portal_appeal_file,
    portal_application_start,
    portal_document_renew,
)
from apps.portal.tests.conftest import AS_OF, PASSWORD, make_account, pdf_upload
from apps.registry.choices import DocumentStatus
from apps.registry.models import Document

pytestmark = pytest.mark.django_db


# --- accounts ---------------------------------------------------------------------------------------------


def test_it_creates_an_operator_login_tied_to_the_operator_and_audits_it(alice: PortalAccount) -> None:
    assert alice.user.kind == UserKind.OPERATOR
    assert alice.user.check_password(PASSWORD)
    event = AuditEvent.objects.get(action="portal.account.create", object_id=str(alice.pk))
    assert event.after is not None and event.after["operator_id"] == alice.operator_id


def test_it_creates_a_driver_login_for_the_operators_own_driver(marcos: PortalAccount) -> None:
    assert marcos.user.kind == UserKind.DRIVER
    assert marcos.role == PortalRole.DRIVER and not marcos.is_holder


def test_it_refuses_a_driver_of_another_operator(alice_case: Case, bob_licensed: tuple[Case, Permit]) -> None:
    with pytest.raises(ValidationError, match="não está ativo neste autorizatário"):
        make_account(alice_case, "intruso", PortalRole.DRIVER, driver=bob_licensed[0].driver)
    assert not User.objects.filter(username="intruso").exists()


def test_it_refuses_a_username_in_use(alice_case: Case, alice: PortalAccount) -> None:
    with pytest.raises(ValidationError, match="já está em uso"):
        make_account(alice_case, "ALICE")


def test_staff_without_the_permission_cannot_invite(alice_case: Case, auditor_olimpia: User) -> None:
    with pytest.raises(ValidationError, match="não pode criar contas"):
        portal_account_create(
            actor=auditor_olimpia,
            operator=alice_case.operator,
            role=PortalRole.OPERATOR,
            username="nova",
            password=PASSWORD,
            full_name="Nova",
        )
    assert not PortalAccount.objects.filter(user__username="nova").exists()


def test_an_analyst_invites_and_suspends(alice_case: Case, analyst_olimpia: User) -> None:
    account = portal_account_create(
        actor=analyst_olimpia,
        operator=alice_case.operator,
        role=PortalRole.OPERATOR,
        username="nova",
        password=PASSWORD,
        full_name="Nova",
    )
    portal_account_set_active(actor=analyst_olimpia, account=account, active=False)
    assert not PortalAccount.objects.active().filter(pk=account.pk).exists()
    assert AuditEvent.objects.filter(action="portal.account.set_active", actor_id=analyst_olimpia.pk).exists()


# --- documents --------------------------------------------------------------------------------------------


def _crlv(case: Case) -> Document:
    return Document.objects.get(vehicle=case.vehicle, kind="crlv")


def test_a_renewed_copy_counts_only_once_the_secretariat_accepts_it_and_then_replaces_the_old_one(
    alice: PortalAccount,
    alice_case: Case,
    analyst_olimpia: User,
    settings: Any,
    tmp_path: Any,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
    old = _crlv(alice_case)
    today = AS_OF + dt.timedelta(days=200)
    with django_capture_on_commit_callbacks(execute=True):  # the file is written once the submission commits
        submission = portal_document_renew(
            account=alice,
            document=old,
            upload=pdf_upload(),
            issue_date=today,
            expiry_date=today + dt.timedelta(days=365),
            as_of=today,
        )
    assert submission.state == SubmissionState.PENDING and submission.document is None
    crlvs = alice_case.vehicle.documents.filter(kind="crlv")
    pending = next_expiring(crlvs, today)
    assert pending is not None and pending.document == old  # the old copy still counts until accepted
    assert AuditEvent.objects.get(action="portal.document.submit").actor_id == alice.user_id
    assert (
        submission.uploaded_by_id == alice.user_id
    )  # the sender, and an unguessable name in the year's folder
    assert submission.file.name.startswith(f"submissions/{old.municipality.ibge_code}/{today:%Y}/")
    assert "documento" not in submission.file.name and submission.file.read().startswith(b"%PDF")
    with pytest.raises(ValidationError, match="já aguarda a validação"):
        portal_document_renew(
            account=alice, document=old, upload=pdf_upload(), issue_date=today, expiry_date=None, as_of=today
        )

    with django_capture_on_commit_callbacks(execute=True):
        new = document_submission_accept(actor=analyst_olimpia, submission=submission, as_of=today)
    old.refresh_from_db()
    assert old.status == DocumentStatus.REPLACED
    assert (new.vehicle_id, new.kind, new.status) == (old.vehicle_id, "crlv", DocumentStatus.VALID)
    assert new.valid_until is not None and old.valid_until is not None and new.valid_until > old.valid_until
    upcoming = next_expiring(crlvs, today)
    assert upcoming is not None and upcoming.document == new  # "what expires next" reads the new copy
    with pytest.raises(ValidationError, match="já foi decidido"):
        document_submission_reject(actor=analyst_olimpia, submission=submission, reason="x", as_of=today)


def test_a_rejected_copy_keeps_the_old_document_and_tells_why(
    alice: PortalAccount, alice_case: Case, analyst_olimpia: User, settings: Any, tmp_path: Any
) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
    old = _crlv(alice_case)
    submission = portal_document_renew(
        account=alice, document=old, upload=pdf_upload(), issue_date=AS_OF, expiry_date=None, as_of=AS_OF
    )
    with pytest.raises(ValidationError, match="Motivo da recusa"):
        document_submission_reject(actor=analyst_olimpia, submission=submission, reason=" ", as_of=AS_OF)
    document_submission_reject(actor=analyst_olimpia, submission=submission, reason="Ilegível.", as_of=AS_OF)
    submission.refresh_from_db()
    old.refresh_from_db()
    assert (submission.state, submission.rejection_reason) == (SubmissionState.REJECTED, "Ilegível.")
    assert old.status == DocumentStatus.VALID


def test_a_renewal_that_is_not_a_real_file_stores_nothing(alice: PortalAccount, alice_case: Case) -> None:
    before = Document.objects.count()
    fake = SimpleUploadedFile("crlv.pdf", b"not a pdf at all", content_type="application/pdf")
    with pytest.raises(ValidationError, match="PDF, JPEG ou PNG"):
        portal_document_renew(
            account=alice,
            document=_crlv(alice_case),
            upload=fake,
            issue_date=AS_OF,
            expiry_date=None,
            as_of=AS_OF,
        )
    assert Document.objects.count() == before


# --- applications -----------------------------------------------------------------------------------------


def test_it_protocols_a_renewal_of_the_holders_permit(
    alice: PortalAccount, alice_case: Case, alice_permit: Permit
) -> None:
    application = portal_application_start(
        account=alice, kind="renewal", as_of=AS_OF, permit=alice_permit, vehicle=alice_case.vehicle
    )
    assert application.state == ApplicationState.SUBMITTED
    assert application.created_by_id == alice.user_id
    assert AuditEvent.objects.filter(action="application.submitted", actor_id=alice.user_id).exists()


def test_it_refuses_an_application_on_another_operators_permit(
    alice: PortalAccount, alice_case: Case, bob_licensed: tuple[Case, Permit]
) -> None:
    with pytest.raises(ValidationError, match="não pertence a este autorizatário"):
        portal_application_start(account=alice, kind="cancellation", as_of=AS_OF, permit=bob_licensed[1])
    assert not alice_case.operator.applications.filter(kind="cancellation").exists()


def test_a_driver_cannot_start_applications(marcos: PortalAccount) -> None:
    with pytest.raises(ValidationError, match="somente o titular"):
        portal_application_start(account=marcos, kind="cancellation", as_of=AS_OF)


def test_kinds_outside_the_portal_are_refused(alice: PortalAccount, alice_case: Case) -> None:
    with pytest.raises(ValidationError, match="não pode ser aberto pelo portal"):
        portal_application_start(account=alice, kind="driver_link", as_of=AS_OF, driver=alice_case.driver)


# --- appeals ----------------------------------------------------------------------------------------------


def test_it_files_a_defence_in_time_with_attachments(
    alice: PortalAccount,
    alice_case: Case,
    make_case: Callable[..., InfractionCase],
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    auto = make_case(alice_case, dt.date(2026, 3, 12))
    with django_capture_on_commit_callbacks(execute=True):  # the file is written once the appeal commits
        appeal = portal_appeal_file(
            account=alice,
            case=auto,
            instance=Instance.FIRST,
            text="Não houve a infração.",
            attachments=[pdf_upload("prova.pdf")],
            as_of=dt.date(2026, 3, 16),
        )
    assert appeal.filed_by_portal and appeal.channel == FilingChannel.PORTAL and not appeal.late
    assert appeal.deadline is not None and appeal.deadline >= dt.date(2026, 3, 16)
    attachment = AppealAttachment.objects.get(appeal=appeal)
    assert attachment.uploaded_by_id == alice.user_id and attachment.file.read().startswith(b"%PDF")
    assert AuditEvent.objects.filter(action="appeal.file", actor_id=alice.user_id).exists()


def test_a_late_defence_is_accepted_and_flagged(
    alice: PortalAccount, alice_case: Case, make_case: Callable[..., InfractionCase]
) -> None:
    auto = make_case(alice_case, dt.date(2026, 3, 12))
    appeal = portal_appeal_file(
        account=alice,
        case=auto,
        instance=Instance.FIRST,
        text="Fora do prazo.",
        attachments=[],
        as_of=dt.date(2026, 5, 4),
    )
    assert appeal.late and appeal.deadline is not None and appeal.deadline < dt.date(2026, 5, 4)


def test_a_broken_attachment_files_nothing(
    alice: PortalAccount, alice_case: Case, make_case: Callable[..., InfractionCase]
) -> None:
    auto = make_case(alice_case, dt.date(2026, 3, 12))
    broken = SimpleUploadedFile("prova.pdf", b"%PDF-1.4 truncated", content_type="application/pdf")
    with pytest.raises(ValidationError, match="incompleto ou corrompido"):
        portal_appeal_file(
            account=alice,
            case=auto,
            instance=Instance.FIRST,
            text="Razões.",
            attachments=[pdf_upload(), broken],
            as_of=dt.date(2026, 3, 16),
        )
    assert not Appeal.objects.filter(case=auto).exists()
    assert not AppealAttachment.objects.exists()


def test_it_refuses_a_defence_against_another_operators_auto(
    alice: PortalAccount, bob_licensed: tuple[Case, Permit], make_case: Callable[..., InfractionCase]
) -> None:
    auto = make_case(bob_licensed[0], dt.date(2026, 3, 12))
    with pytest.raises(ValidationError, match="não encontrado"):
        portal_appeal_file(
            account=alice,
            case=auto,
            instance=Instance.FIRST,
            text="Razões.",
            attachments=[],
            as_of=dt.date(2026, 3, 16),
        )
    assert not Appeal.objects.filter(case=auto).exists()
