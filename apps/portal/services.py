"""Writes of the portal. Account management is the portal's own (audited here); every other action calls the
back office's service with the portal user as the actor, so the same rules, refusals and audit rows apply.

Each service is keyword-only and runs in one transaction: a refusal (Portuguese ValidationError naming the
field) leaves nothing stored — no half-filed appeal, no orphan attachment.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction

from apps.accounts.choices import UserKind
from apps.accounts.models import User
from apps.accounts.services import user_create
from apps.audit.services import audit_record
from apps.dueprocess.models import Appeal
from apps.dueprocess.services import appeal_file
from apps.enforcement.models import InfractionCase
from apps.licensing.models import Application
from apps.licensing.services import application_create, application_submit
from apps.portal.choices import PORTAL_APPLICATION_KINDS, PortalRole
from apps.portal.models import AppealAttachment, PortalAccount
from apps.registry.models import Attendant, Document, Driver, Operator
from apps.registry.services import document_upload
from apps.registry.uploads import CheckedUpload, check_upload
from apps.tenancy.querysets import user_can

ACCOUNT = "portal.portalaccount"
MAX_ATTACHMENTS = 5


def refuse(field: str, message: str) -> ValidationError:
    return ValidationError({field: message})


# --- accounts (staff) -------------------------------------------------------------------------------------


@transaction.atomic
def portal_account_create(
    *, actor: User | None, operator: Operator, role: str, username: str, password: str, full_name: str,
    email: str = "", driver: Driver | None = None, attendant: Attendant | None = None,
) -> PortalAccount:  # fmt: skip
    """Invite someone to the portal: a login (User.kind operator or driver) tied to the operator's records.

    ``actor`` None is the system (demo seeder); a staff actor needs the «change» permission on portal accounts.
    """
    if actor is not None and not user_can(actor, operator.municipality_id, ACCOUNT, "change"):
        raise refuse("operator", f"Conta do portal: você não pode criar contas em {operator.municipality}.")
    _check_link(operator, role, driver, attendant)
    if User.objects.filter(username__iexact=username.strip()).exists():
        raise refuse("username", f"Usuário: «{username}» já está em uso; escolha outro.")
    kind = UserKind.OPERATOR if role == PortalRole.OPERATOR else UserKind.DRIVER
    user = user_create(actor=actor, username=username.strip(), password=password, full_name=full_name.strip(),
                       kind=kind, email=email.strip())  # fmt: skip
    account = PortalAccount.objects.create(user=user, municipality=operator.municipality, operator=operator,
                                           role=role, driver=driver, attendant=attendant)  # fmt: skip
    audit_record(actor=actor, municipality=operator.municipality, action="portal.account.create", obj=account,
                 after=account.audit_snapshot())  # fmt: skip
    return account


def _check_link(operator: Operator, role: str, driver: Driver | None, attendant: Attendant | None) -> None:
    if role not in PortalRole.values:
        raise refuse("role", f"Papel: {role!r} não existe.")
    link = {PortalRole.DRIVER: driver, PortalRole.ATTENDANT: attendant}.get(PortalRole(role))
    other = attendant if role == PortalRole.DRIVER else driver
    if role != PortalRole.OPERATOR and link is None:
        raise refuse(role, f"{PortalRole(role).label}: escolha a pessoa vinculada ao autorizatário.")
    if other is not None or (role == PortalRole.OPERATOR and (driver or attendant)):
        raise refuse("role", "Papel: a conta liga-se a uma única pessoa, conforme o papel escolhido.")
    if link is not None and (link.operator_id != operator.pk or not link.active):
        raise refuse(role, f"{PortalRole(role).label}: não está ativo neste autorizatário.")


@transaction.atomic
def portal_account_set_active(*, actor: User | None, account: PortalAccount, active: bool) -> PortalAccount:
    """Suspend or restore a portal login (the user row stays: audit events point to it)."""
    if actor is not None and not user_can(actor, account.municipality_id, ACCOUNT, "change"):
        raise refuse("account", f"Conta do portal: você não pode alterar contas em {account.municipality}.")
    before = account.audit_snapshot()
    account.active = active
    account.save(update_fields=["active"])
    audit_record(actor=actor, municipality=account.municipality, action="portal.account.set_active", obj=account,
                 before=before, after=account.audit_snapshot())  # fmt: skip
    return account


# --- actions of the portal user ---------------------------------------------------------------------------


def _holder_only(account: PortalAccount, what: str) -> None:
    if not account.is_holder:
        raise refuse("account", f"{what}: somente o titular da autorização pode fazer isto pelo portal.")


@transaction.atomic
def portal_document_renew(
    *, account: PortalAccount, document: Document, upload: UploadedFile, issue_date: dt.date,
    expiry_date: dt.date | None, as_of: dt.date,
) -> Document:  # fmt: skip
    """A renewed copy of a document the account can see: same owner and kind, through registry.document_upload.

    The facts the clerk had read off the previous copy (insurance coverage…) carry over; the analyst checks the
    new file. A certificate's presentation date is today's.
    """
    owner = document.person or document.company or document.vehicle or document.operator
    if owner is None:
        raise refuse("document", "Documento: sem titular registrado; procure a secretaria.")
    details = dict(document.details)
    if "presented_on" in details:
        details["presented_on"] = as_of.isoformat()
    return document_upload(
        actor=account.user, owner=owner, kind=document.kind, upload=upload, issue_date=issue_date,
        expiry_date=expiry_date, as_of=as_of, details=details or None, regime_id=account.operator.regime_id,
    )  # fmt: skip


@transaction.atomic
def portal_application_start(
    *, account: PortalAccount, kind: str, as_of: dt.date, **targets: Any
) -> Application:
    """Create and protocol an application in the operator's name (licensing's own services, own audit)."""
    _holder_only(account, "Requerimento")
    if kind not in PORTAL_APPLICATION_KINDS:
        raise refuse("kind", "Tipo de requerimento: não pode ser aberto pelo portal; procure a secretaria.")
    application = application_create(actor=account.user, operator=account.operator, kind=kind, as_of=as_of,
                                     **targets)  # fmt: skip
    return application_submit(application=application, actor=account.user, as_of=as_of)


@transaction.atomic
def portal_appeal_file(
    *, account: PortalAccount, case: InfractionCase, instance: str, text: str,
    attachments: Sequence[UploadedFile], as_of: dt.date,
) -> Appeal:  # fmt: skip
    """File a defence or appeal today, with its attachments, through dueprocess.appeal_file(via_portal=True).

    A late filing is accepted and flagged by dueprocess (the authority decides); files are checked before
    anything is stored, and a failure stores none of them.
    """
    _holder_only(account, "Defesa/recurso")
    if case.operator_id != account.operator_id:
        raise refuse("case", "Auto de infração: não encontrado.")
    checked = _checked_attachments(attachments)
    appeal = appeal_file(case=case, instance=instance, filed_on=as_of, text=text, actor=account.user,
                         as_of=as_of, via_portal=True, appellant_name=account.operator.holder_name)  # fmt: skip
    _store_attachments(appeal, account, list(zip(attachments, checked, strict=True)))
    return appeal


def _checked_attachments(attachments: Sequence[UploadedFile]) -> list[CheckedUpload]:
    if len(attachments) > MAX_ATTACHMENTS:
        raise refuse("attachments", f"Anexos: envie no máximo {MAX_ATTACHMENTS} arquivos.")
    return [check_upload(upload, "attachments") for upload in attachments]


def _store_attachments(
    appeal: Appeal, account: PortalAccount, files: list[tuple[UploadedFile, CheckedUpload]]
) -> None:
    saved: list[AppealAttachment] = []
    try:
        for upload, checked in files:
            row = AppealAttachment(municipality=account.municipality, appeal=appeal,
                                   content_type=checked.content_type, size_bytes=checked.size,
                                   sha256=checked.sha256, uploaded_by=account.user)  # fmt: skip
            row.file.save(f"anexo{checked.extension}", upload, save=False)
            saved.append(row)
            row.save()
            audit_record(actor=account.user, municipality=account.municipality, action="portal.appeal.attach",
                         obj=row, after=row.audit_snapshot())  # fmt: skip
    except Exception:
        for row in saved:
            row.file.delete(save=False)
        raise
