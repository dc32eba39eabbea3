"""Writes of the portal. Account management is the portal's own (audited here); every other action calls the
back office's service with the portal user as the actor, so the same rules, refusals and audit rows apply.

Each service is keyword-only and runs in one transaction: a refusal (Portuguese ValidationError naming the
field) leaves nothing stored — no half-filed appeal, no orphan attachment.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import PurePath
from typing import Any

from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile, UploadedFile
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.crypto import get_random_string

import lawcode
from apps.accounts.choices import UserKind
from apps.accounts.models import User
from apps.accounts.services import user_create
from apps.audit.services import audit_record, audited_change
from apps.dueprocess.models import Appeal
from apps.dueprocess.services import appeal_file
from apps.enforcement.models import InfractionCase
from apps.jobs.services import MailDraft, mail_queue
from apps.lawconfig.config import citation_text
from apps.licensing.models import Application
from apps.licensing.services import application_create, application_submit
from apps.portal.choices import PORTAL_APPLICATION_KINDS, PortalInvitationVia, PortalRole, SubmissionState
from apps.portal.models import DocumentSubmission, ElectronicNoticeConsent, PortalAccount, PortalInvitation
from apps.registry.choices import OperatorStatus
from apps.registry.models import Attendant, Document, Driver, Operator, Person, TrafficInfraction
from apps.registry.services import document_mark_replaced, document_upload
from apps.registry.services.traffic import traffic_infraction_declare
from apps.registry.uploads import check_upload
from apps.tenancy.models import Municipality
from apps.tenancy.querysets import user_can
from apps.tenancy.services import check_new_password, check_username_free, invitation_link
from apps.tenancy.tokens import INVITATION_VALIDITY, new_token, token_digest
from apps.web.refusals import refuse

ACCOUNT = "portal.portalaccount"
MAX_ATTACHMENTS = 5


# --- accounts (staff) -------------------------------------------------------------------------------------


@transaction.atomic
def portal_account_create(
    *,
    actor: User | None,
    operator: Operator,
    role: str,
    username: str,
    password: str | None,
    full_name: str,
    email: str = "",
    cpf: str = "",
    driver: Driver | None = None,
    attendant: Attendant | None = None,
) -> PortalAccount:
    """Invite someone to the portal: a login (User.kind operator or driver) tied to the operator's records.

    ``actor`` None is the system (demo seeder); a staff actor needs the «change» permission on portal accounts.
    """
    _check_account_new(actor, operator, role, driver, attendant, username)
    account = PortalAccount.objects.create(
        user=_portal_user(actor, role, username, password, full_name, email, cpf),
        municipality=operator.municipality,
        operator=operator,
        role=role,
        driver=driver,
        attendant=attendant,
    )
    audit_record(
        actor=actor,
        municipality=operator.municipality,
        action="portal.account.create",
        obj=account,
        after=account.audit_snapshot(),
    )
    return account


def _check_account_new(
    actor: User | None,
    operator: Operator,
    role: str,
    driver: Driver | None,
    attendant: Attendant | None,
    username: str,
) -> None:
    if actor is not None and not user_can(actor, operator.municipality_id, ACCOUNT, "change"):
        raise refuse("operator", f"Conta do portal: você não pode criar contas em {operator.municipality}.")
    _check_link(operator, role, driver, attendant)
    if User.objects.filter(username__iexact=username.strip()).exists():
        raise refuse("username", f"Usuário: «{username}» já está em uso; escolha outro.")


def _portal_user(
    actor: User | None, role: str, username: str, password: str | None, full_name: str, email: str, cpf: str
) -> User:
    """The login: an operator's for the holder, a driver's for a driver or an attendant."""
    kind = UserKind.OPERATOR if role == PortalRole.OPERATOR else UserKind.DRIVER
    return user_create(
        actor=actor,
        username=username.strip(),
        password=password,
        full_name=full_name.strip(),
        kind=kind,
        email=email.strip(),
        cpf=cpf,
    )


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
    with audited_change(account, actor=actor, action="portal.account.set_active"):
        account.active = active
        account.save(update_fields=["active"])
    return account


# --- invitations and claims -------------------------------------------------------------------------------

PORTAL_INVITATION_UNUSABLE = (
    "Este link não pode mais ser usado: ele já foi usado, expirou ou foi cancelado. Peça um novo à secretaria "
    "ou solicite outro pelo seu CPF na página de entrada do portal."
)
CLAIM_ANSWER = (
    "Pedido recebido. Se o CPF e o e-mail conferirem com o cadastro da prefeitura, você receberá nesse e-mail um "
    "link para criar sua conta, válido por 3 dias. Se nada chegar, confira o spam ou procure a secretaria para "
    "atualizar seu e-mail."
)


def _link_person(operator: Operator, role: str, driver: Driver | None, attendant: Attendant | None) -> Any:
    """Who the login is for: the linked driver/attendant, else the holder (person or company)."""
    if role == PortalRole.DRIVER and driver is not None:
        return driver.person
    if role == PortalRole.ATTENDANT and attendant is not None:
        return attendant.person
    return operator.person or operator.company


def _link_has_account(
    operator: Operator, role: str, driver: Driver | None, attendant: Attendant | None
) -> bool:
    """Whether this operator/role/person already has a login, active or suspended: a suspended one is restored by
    the secretariat, never replaced by a fresh invitation or claim (that would undo the suspension)."""
    return PortalAccount.objects.filter(
        operator=operator, role=role, driver=driver, attendant=attendant
    ).exists()


def _invitation_mail(invitation: PortalInvitation, token: str, base_url: str) -> MailDraft:
    municipality = invitation.municipality
    context = {"invitation": invitation, "link": invitation_link(base_url, "portal:invitation-accept", token)}
    return MailDraft(
        recipient=invitation.email,
        subject=f"Portal do Outorga — Prefeitura de {municipality.name}-{municipality.uf}",
        body=render_to_string("portal/mail/invitation.txt", context),
        municipality_id=municipality.pk,
    )


def _send_portal_invitation(invitation: PortalInvitation, token: str, base_url: str) -> None:
    """Through the outbox (apps.jobs): stored with the invitation, sent once it commits, retried if SMTP fails."""
    mail_queue(
        drafts=[_invitation_mail(invitation, token, base_url)], reason=f"portal.invitation.{invitation.via}"
    )


def _issue_invitation(
    *,
    actor: User | None,
    operator: Operator,
    role: str,
    driver: Driver | None,
    attendant: Attendant | None,
    email: str,
    full_name: str,
    via: str,
    base_url: str,
) -> PortalInvitation:
    """Store a new link for this operator/role/person (cancelling any earlier pending one) and mail it."""
    now = timezone.now()
    _revoke_pending(actor, operator, role, driver, attendant, now)
    token, digest = new_token()
    invitation = PortalInvitation(
        municipality=operator.municipality,
        operator=operator,
        role=role,
        driver=driver,
        attendant=attendant,
        email=email,
        full_name=full_name,
        via=via,
        token_hash=digest,
        expires_at=now + INVITATION_VALIDITY,
        invited_by=actor,
    )
    invitation.full_clean()
    invitation.save()
    audit_record(
        actor=actor,
        municipality=operator.municipality,
        action=f"portal.invitation.{via}",
        obj=invitation,
        after=invitation.audit_snapshot(),
    )
    _send_portal_invitation(invitation, token, base_url)
    return invitation


def _revoke_pending(
    actor: User | None,
    operator: Operator,
    role: str,
    driver: Driver | None,
    attendant: Attendant | None,
    now: dt.datetime,
) -> None:
    """Only the newest link for a person works: the earlier ones still pending are revoked."""
    earlier = PortalInvitation.objects.filter(
        operator=operator, role=role, driver=driver, attendant=attendant
    )
    for pending in earlier.filter(accepted_at__isnull=True, revoked_at__isnull=True, expires_at__gt=now):
        pending.revoked_at = now
        pending.save(update_fields=["revoked_at"])
        audit_record(
            actor=actor,
            municipality=operator.municipality,
            action="portal.invitation.revoke",
            obj=pending,
            after={"revoked_at": now},
        )


@transaction.atomic
def portal_invitation_create(
    *,
    actor: User,
    operator: Operator,
    role: str,
    base_url: str,
    email: str = "",
    full_name: str = "",
    driver: Driver | None = None,
    attendant: Attendant | None = None,
) -> PortalInvitation:
    """The secretariat invites the holder, a driver or an attendant; the e-mail defaults to the one on record."""
    if not user_can(actor, operator.municipality_id, ACCOUNT, "change"):
        raise refuse("operator", f"Conta do portal: você não pode convidar em {operator.municipality}.")
    _check_link(operator, role, driver, attendant)
    if _link_has_account(operator, role, driver, attendant):
        raise refuse(
            "role",
            "Conta do portal: esta pessoa já tem conta para este autorizatário (se estiver suspensa, reative-a).",
        )
    person = _link_person(operator, role, driver, attendant)
    email = email.strip() or getattr(person, "email", "")
    if not email:
        raise refuse("email", "E-mail: o cadastro não tem e-mail; informe o e-mail do convidado.")
    full_name = full_name.strip() or str(person)
    return _issue_invitation(
        actor=actor,
        operator=operator,
        role=role,
        driver=driver,
        attendant=attendant,
        email=email,
        full_name=full_name,
        via=PortalInvitationVia.SECRETARIAT,
        base_url=base_url,
    )


def _claimable_link(person_id: int) -> tuple[Operator, str, Driver | None, Attendant | None] | None:
    """The first link of this person that has no portal account yet: holder first (it sees the most). Person id 0
    (nobody) runs the same queries and finds nothing."""
    links: list[tuple[Operator, str, Driver | None, Attendant | None]] = []
    links += [
        (op, PortalRole.OPERATOR, None, None)
        for op in Operator.objects.filter(person_id=person_id)
        .exclude(status=OperatorStatus.CANCELLED)
        .order_by("pk")
    ]
    links += [
        (d.operator, PortalRole.DRIVER, d, None)
        for d in Driver.objects.filter(person_id=person_id, active=True)
        .select_related("operator")
        .order_by("pk")
    ]
    links += [
        (a.operator, PortalRole.ATTENDANT, None, a)
        for a in Attendant.objects.filter(person_id=person_id, active=True)
        .select_related("operator")
        .order_by("pk")
    ]
    return next((link for link in links if not _link_has_account(*link)), None)


@transaction.atomic
def portal_claim_request(*, municipality: Municipality, cpf: str, email: str, base_url: str) -> None:
    """Someone registered as operator, driver or attendant asks for their portal login by CPF.

    The link goes only to the e-mail on record, and only when the typed e-mail is that same one; whatever the
    outcome the caller shows CLAIM_ANSWER, so the page never tells whether a CPF is registered. Nor does the time
    it takes: the link queries, the token and the mail are done whatever the outcome (the refused mail is thrown
    away). Unmatched requests store nothing (no CPF typed by a stranger ends up in the permanent log).
    """
    person = Person.objects.filter(municipality=municipality, cpf=cpf).first()
    link = _claimable_link(person.pk if person is not None else 0)
    same_email = (
        person is not None and bool(person.email) and person.email.strip().lower() == email.strip().lower()
    )
    if person is None or link is None or not same_email:
        _render_refused_claim_mail(municipality, base_url)
        return
    operator, role, driver, attendant = link
    _issue_invitation(
        actor=None,
        operator=operator,
        role=role,
        driver=driver,
        attendant=attendant,
        email=person.email.strip(),
        full_name=person.name,
        via=PortalInvitationVia.CLAIM,
        base_url=base_url,
    )


def _render_refused_claim_mail(municipality: Municipality, base_url: str) -> None:
    # Same cost as a granted claim's token and mail (an unsaved invitation: its missing links render empty).
    decoy = PortalInvitation(
        municipality=municipality,
        role=PortalRole.OPERATOR,
        via=PortalInvitationVia.CLAIM,
        expires_at=timezone.now() + INVITATION_VALIDITY,
    )
    _invitation_mail(decoy, new_token()[0], base_url)


@transaction.atomic
def portal_account_govbr_create(*, cpf: str, full_name: str, email: str) -> PortalAccount | None:
    """A first gov.br login by someone the municipality registered (operator, driver or attendant) but who has no
    portal login yet: gov.br vouched for the CPF, which is what the e-mailed claim link proves otherwise, so the
    login is created now, without a password (the owner may set one later by "Esqueci minha senha").

    None when no registered person with this CPF has a link without an account: nobody is created from gov.br
    alone. The e-mail on record wins over gov.br's (claims never take a new address either).
    """
    for person in Person.objects.filter(cpf=cpf).order_by("pk"):
        link = _claimable_link(person.pk)
        if link is None:
            continue
        operator, role, driver, attendant = link
        account = portal_account_create(
            actor=None,
            operator=operator,
            role=role,
            username=_govbr_username(),
            password=None,
            full_name=person.name or full_name,
            email=(person.email or email).strip(),
            cpf=cpf,
            driver=driver,
            attendant=attendant,
        )
        audit_record(
            actor=account.user,
            municipality=operator.municipality,
            action="portal.account.govbr_link",
            obj=account,
            after={"via": "govbr", "role": role},
        )
        return account
    return None


def _govbr_username() -> str:
    # Random, not derived from the CPF: usernames show on screens and in the audit trail.
    while True:
        candidate = f"govbr-{get_random_string(10, 'abcdefghijkmnpqrstuvwxyz23456789')}"
        if not User.objects.filter(username=candidate).exists():
            return candidate


@transaction.atomic
def portal_invitation_accept(*, token: str, username: str, password: str) -> PortalAccount:
    """The invitee chooses a username and a password; the portal login is created (recorded as the inviter's doing,
    or the system's for a claim) and the acceptance as the invitee's."""
    invitation = _locked_invitation(token)
    now = timezone.now()
    if invitation is None or not invitation.is_usable(now):
        raise ValidationError(PORTAL_INVITATION_UNUSABLE)
    inviter = invitation.invited_by
    if inviter is not None and not user_can(inviter, invitation.municipality_id, ACCOUNT, "change"):
        raise ValidationError(PORTAL_INVITATION_UNUSABLE)
    links = (invitation.operator, invitation.role, invitation.driver, invitation.attendant)
    if _link_has_account(*links):
        raise ValidationError(PORTAL_INVITATION_UNUSABLE)
    check_username_free(username)
    check_new_password(password, username=username, email=invitation.email, full_name=invitation.full_name)
    _check_still_linked(links)
    account = portal_account_create(
        actor=inviter,
        operator=invitation.operator,
        role=invitation.role,
        username=username,
        password=password,
        full_name=invitation.full_name,
        email=invitation.email,
        driver=invitation.driver,
        attendant=invitation.attendant,
    )
    invitation.accepted_at, invitation.user = now, account.user
    invitation.save(update_fields=["accepted_at", "user"])
    audit_record(
        actor=account.user,
        municipality=invitation.municipality,
        action="portal.invitation.accept",
        obj=invitation,
        after={"user_id": account.user_id, "account_id": account.pk},
    )
    return account


def _locked_invitation(token: str) -> PortalInvitation | None:
    # Lock the invitation row only: its optional operator/driver links are outer joins, which PostgreSQL cannot lock.
    return (
        PortalInvitation.objects.select_for_update(of=("self",))
        .select_related("municipality", "operator", "driver", "attendant", "invited_by")
        .filter(token_hash=token_digest(token))
        .first()
    )


def _check_still_linked(links: tuple[Operator, str, Driver | None, Attendant | None]) -> None:
    try:
        _check_link(*links)
    except ValidationError:
        raise ValidationError(
            "O cadastro mudou desde o convite (o vínculo não está mais ativo). Procure a secretaria."
        ) from None


# --- actions of the portal user ---------------------------------------------------------------------------


def _holder_only(account: PortalAccount, what: str) -> None:
    if not account.is_holder:
        raise refuse("account", f"{what}: somente o titular da autorização pode fazer isto pelo portal.")


@transaction.atomic
def portal_document_renew(
    *,
    account: PortalAccount,
    document: Document,
    upload: UploadedFile,
    issue_date: dt.date,
    expiry_date: dt.date | None,
    as_of: dt.date,
) -> DocumentSubmission:
    """A renewed copy of a document the account can see, sent to the secretariat: it counts (and its validity
    is computed by the law) only once an analyst accepts it (``document_submission_accept``)."""
    _check_renewal(document, issue_date, expiry_date, as_of)
    checked = check_upload(upload)
    submission = DocumentSubmission(
        municipality=document.municipality,
        renews=document,
        issue_date=issue_date,
        expiry_date=expiry_date,
        submitted_on=as_of,
    )
    submission.upload_keep(checked, stem="documento", actor=account.user)
    submission.save()
    audit_record(
        actor=account.user,
        municipality=document.municipality,
        action="portal.document.submit",
        obj=submission,
        after=submission.audit_snapshot(),
    )
    return submission


def _check_renewal(
    document: Document, issue_date: dt.date, expiry_date: dt.date | None, as_of: dt.date
) -> None:
    if (
        document.person is None
        and document.company is None
        and document.vehicle is None
        and document.operator is None
    ):
        raise refuse("document", "Documento: sem titular registrado; procure a secretaria.")
    if issue_date > as_of:
        raise refuse("issue_date", f"Data de emissão: posterior a hoje ({as_of:%d/%m/%Y}).")
    if expiry_date is not None and expiry_date < issue_date:
        raise refuse("expiry_date", "Validade impressa: anterior à data de emissão.")
    if document.portal_submissions.filter(state=SubmissionState.PENDING).exists():
        raise refuse("file", "Arquivo: uma cópia deste documento já aguarda a validação da secretaria.")


@transaction.atomic
def document_submission_accept(*, actor: User, submission: DocumentSubmission, as_of: dt.date) -> Document:
    """The analyst accepts a copy sent in the portal: it becomes the registry's document (the law computes its
    validity, as for a copy brought to the counter) and the copy it renews is marked replaced."""
    submission = _pending_submission(submission)
    old = submission.renews
    owner = old.person or old.company or old.vehicle or old.operator
    if owner is None:  # refused when sent; a document never loses its owner
        raise refuse("document", "Documento: sem titular registrado; procure a secretaria.")
    details = dict(old.details)
    if "presented_on" in details:  # a certificate counts from the day it was presented
        details["presented_on"] = submission.submitted_on.isoformat()
    with submission.file.open("rb") as stored:
        content = stored.read()
    upload = SimpleUploadedFile(
        f"documento{PurePath(submission.file.name).suffix}", content, submission.content_type
    )
    document = document_upload(
        actor=actor,
        owner=owner,
        kind=old.kind,
        upload=upload,
        issue_date=submission.issue_date,
        expiry_date=submission.expiry_date,
        as_of=as_of,
        details=details or None,
        regime_id=_submission_regime(submission),
    )
    document_mark_replaced(actor=actor, document=old)
    _decide(submission, actor, as_of, SubmissionState.ACCEPTED, document=document)
    return document


@transaction.atomic
def document_submission_reject(
    *, actor: User, submission: DocumentSubmission, reason: str, as_of: dt.date
) -> DocumentSubmission:
    """The analyst refuses a copy (illegible, another vehicle's…); the reason is shown to the operator."""
    if not reason.strip():
        raise refuse("reason", "Motivo da recusa: informe o que o autorizatário deve corrigir.")
    submission = _pending_submission(submission)
    return _decide(submission, actor, as_of, SubmissionState.REJECTED, reason=reason.strip())


def _pending_submission(submission: DocumentSubmission) -> DocumentSubmission:
    locked = DocumentSubmission.objects.select_for_update().get(pk=submission.pk)
    if locked.state != SubmissionState.PENDING:
        raise refuse("state", f"Este envio já foi decidido: {locked.get_state_display().lower()}.")
    return locked


def _submission_regime(submission: DocumentSubmission) -> str | None:
    """The regime of the account that sent the copy (the document kind is read in its vocabulary)."""
    account = PortalAccount.objects.filter(user=submission.uploaded_by).select_related("operator").first()
    return account.operator.regime_id if account is not None else None


def _decide(
    submission: DocumentSubmission,
    actor: User,
    as_of: dt.date,
    state: str,
    *,
    document: Document | None = None,
    reason: str = "",
) -> DocumentSubmission:
    verb = "accept" if state == SubmissionState.ACCEPTED else "reject"
    with audited_change(submission, actor=actor, action=f"portal.document.{verb}"):
        submission.state, submission.decided_by, submission.decided_on = state, actor, as_of
        submission.document, submission.rejection_reason = document, reason
        submission.save(update_fields=["state", "decided_by", "decided_on", "document", "rejection_reason"])
    return submission


@transaction.atomic
def portal_traffic_infraction_declare(
    *,
    account: PortalAccount,
    driver: Driver,
    date: dt.date,
    severity: str,
    as_of: dt.date,
    description: str = "",
) -> TrafficInfraction:
    """The applicant declares an infraction on a driver's record (one the account can see); it counts for the
    law only once the analyst confirms the record from a document."""
    if driver.operator_id != account.operator_id:
        raise refuse("driver", "Condutor: não é condutor desta autorização.")
    return traffic_infraction_declare(
        actor=account.user,
        person=driver.person,
        date=date,
        severity=severity,
        as_of=as_of,
        description=description,
    )


@transaction.atomic
def portal_application_start(
    *, account: PortalAccount, kind: str, as_of: dt.date, **targets: Any
) -> Application:
    """Create and protocol an application in the operator's name (licensing's own services, own audit)."""
    _holder_only(account, "Requerimento")
    if kind not in PORTAL_APPLICATION_KINDS:
        raise refuse("kind", "Tipo de requerimento: não pode ser aberto pelo portal; procure a secretaria.")
    application = application_create(
        actor=account.user, operator=account.operator, kind=kind, as_of=as_of, **targets
    )
    return application_submit(application=application, actor=account.user, as_of=as_of)


@transaction.atomic
def portal_appeal_file(
    *,
    account: PortalAccount,
    case: InfractionCase,
    instance: str,
    text: str,
    attachments: Sequence[UploadedFile],
    as_of: dt.date,
) -> Appeal:
    """File a defence or appeal today, with its attachments, through dueprocess.appeal_file(via_portal=True).

    A late filing is accepted and flagged by dueprocess (the authority decides); files are checked before
    anything is stored, and a failure stores none of them.
    """
    _holder_only(account, "Defesa/recurso")
    if case.operator_id != account.operator_id:
        raise refuse("case", "Auto de infração: não encontrado.")
    if len(attachments) > MAX_ATTACHMENTS:
        raise refuse("attachments", f"Anexos: envie no máximo {MAX_ATTACHMENTS} arquivos.")
    return appeal_file(
        case=case,
        instance=instance,
        filed_on=as_of,
        text=text,
        actor=account.user,
        as_of=as_of,
        via_portal=True,
        appellant_name=account.operator.holder_name,
        attachments=attachments,
    )


# --- electronic notice (domicílio eletrônico): the holder's opt-in -------------------------------------------


def electronic_terms(operator: Operator) -> tuple[str, str] | None:
    """The opt-in terms the operator's regime declares and their basis (article or named interpretation), or
    None when the regime does not allow the electronic notice (procedure.yaml ``electronic_notice``)."""
    declared = lawcode.get_regime(operator.regime_id).procedure.electronic_notice
    if declared is None or declared.basis is None or declared.terms_basis is None:
        return None
    on = timezone.localdate()
    basis = declared.terms_basis.render_pt(
        lambda ref: citation_text(operator.municipality, operator.regime_id, ref, on)
    )
    return declared.terms, basis


@transaction.atomic
def portal_electronic_notice_accept(
    *, account: PortalAccount, accepted_at: dt.datetime, ip: str
) -> ElectronicNoticeConsent:
    """The holder accepts the regime's terms to be notified in the portal (audited; one standing opt-in)."""
    _holder_only(account, "Aderir à notificação eletrônica")
    operator = Operator.objects.select_for_update().get(pk=account.operator_id)
    terms = electronic_terms(operator)
    if terms is None:
        raise ValidationError("A lei deste regime não admite a notificação eletrônica.")
    if ElectronicNoticeConsent.objects.standing().filter(operator=operator).exists():
        raise ValidationError("A adesão à notificação eletrônica já está em vigor.")
    consent = ElectronicNoticeConsent.objects.create(
        municipality=account.municipality,
        operator=operator,
        account=account,
        terms=terms[0],
        terms_basis=terms[1][:300],
        accepted_at=accepted_at,
        accepted_ip=ip[:64],
    )
    audit_record(
        actor=account.user,
        municipality=account.municipality,
        action="portal.electronic_notice.accept",
        obj=consent,
        after=consent.audit_snapshot(),
    )
    return consent


@transaction.atomic
def portal_electronic_notice_revoke(
    *, account: PortalAccount, revoked_at: dt.datetime, ip: str
) -> ElectronicNoticeConsent:
    """The holder revokes the opt-in: later notices go by the other channels; those already made available keep
    their course (audited)."""
    _holder_only(account, "Revogar a notificação eletrônica")
    consent = (
        ElectronicNoticeConsent.objects.select_for_update()
        .standing()
        .filter(operator_id=account.operator_id)
        .first()
    )
    if consent is None:
        raise ValidationError("Não há adesão à notificação eletrônica em vigor.")
    with audited_change(consent, actor=account.user, action="portal.electronic_notice.revoke"):
        consent.revoked_at, consent.revoked_ip = revoked_at, ip[:64]
        consent.save(update_fields=["revoked_at", "revoked_ip"])
    return consent


def standing_electronic_consent(operator: Operator) -> ElectronicNoticeConsent | None:
    return ElectronicNoticeConsent.objects.standing().filter(operator=operator).first()


def electronic_consents(operator: Operator) -> list[ElectronicNoticeConsent]:
    """Every opt-in of the operator, newest first (accepted and revoked), for the holder's page."""
    return list(ElectronicNoticeConsent.objects.filter(operator=operator).select_related("account__user"))


def standing_consent(operator: Any) -> dict[str, str] | None:
    """The proof of the operator's standing opt-in, for enforcement (hooks.register_electronic_consent)."""
    consent = (
        ElectronicNoticeConsent.objects.standing()
        .filter(operator=operator)
        .select_related("account__user")
        .first()
    )
    if consent is None:
        return None
    accepted = timezone.localtime(consent.accepted_at)
    return {
        "id": str(consent.pk),
        "accepted_at": accepted.isoformat(),
        "accepted_on": f"{accepted:%d/%m/%Y}",
        "account": consent.account.user.get_username(),
        "ip": consent.accepted_ip,
        "terms_basis": consent.terms_basis,
    }
