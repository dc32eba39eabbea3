"""Portal accounts (a login tied to one operator's records) and the attachments of appeals filed online."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models

from apps.ops.uploads import StoredUpload
from apps.portal.choices import PortalInvitationVia, PortalRole, SubmissionState
from apps.tenancy.models import Invitation, Municipality
from apps.tenancy.querysets import MunicipalityScopedQuerySet
from outorga.localdates import local_date


class PortalLink(models.Model):
    """Whose records a portal login sees, the same for the account and for the invitation that creates it: the
    operator's holder sees all of them; a driver or attendant only their own (the subclass names the operator)."""

    role = models.CharField("papel", max_length=16, choices=PortalRole.choices)
    driver = models.ForeignKey(
        "registry.Driver",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="condutor",
    )
    attendant = models.ForeignKey(
        "registry.Attendant",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="monitor",
    )

    class Meta:
        abstract = True

    @property
    def is_holder(self) -> bool:
        return self.role == PortalRole.OPERATOR


class PortalAccountQuerySet(MunicipalityScopedQuerySet["PortalAccount"]):
    def active(self) -> PortalAccountQuerySet:
        return self.filter(active=True, user__is_active=True)


class PortalAccount(PortalLink):
    """A login outside the secretariat. Its scope is always one operator (autorizatário): the holder sees all of
    the operator's records; a driver or attendant sees only their own documents and the vehicle they work on."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="portal_account",
        verbose_name="usuário",
    )
    municipality = models.ForeignKey(
        Municipality, on_delete=models.PROTECT, related_name="portal_accounts", verbose_name="município"
    )
    operator = models.ForeignKey(
        "registry.Operator",
        on_delete=models.PROTECT,
        related_name="portal_accounts",
        verbose_name="autorizatário",
    )
    active = models.BooleanField("ativa", default=True)
    created_at = models.DateTimeField("criada em", auto_now_add=True)

    objects = PortalAccountQuerySet.as_manager()

    class Meta:
        verbose_name = "conta do portal"
        verbose_name_plural = "contas do portal"
        ordering = ["municipality__name", "user__username"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(role=PortalRole.OPERATOR, driver__isnull=True, attendant__isnull=True)
                    | models.Q(role=PortalRole.DRIVER, driver__isnull=False, attendant__isnull=True)
                    | models.Q(role=PortalRole.ATTENDANT, driver__isnull=True, attendant__isnull=False)
                ),
                name="portal_account_role_matches_link",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()})"

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "user_id": self.user_id,
            "operator_id": self.operator_id,
            "role": self.role,
            "driver_id": self.driver_id,
            "attendant_id": self.attendant_id,
            "active": self.active,
        }


class PortalInvitationQuerySet(MunicipalityScopedQuerySet["PortalInvitation"]):
    pass


class PortalInvitation(Invitation, PortalLink):
    """A one-time link to create a portal login tied to one operator's records (same link rules as PortalAccount).

    Sent by the secretariat, or asked for by the person themselves by CPF (`via` claim): then it always goes to
    the e-mail on record, never to an address typed in the request.
    """

    municipality = models.ForeignKey(
        Municipality, on_delete=models.PROTECT, related_name="portal_invitations", verbose_name="município"
    )
    operator = models.ForeignKey(
        "registry.Operator",
        on_delete=models.PROTECT,
        related_name="portal_invitations",
        verbose_name="autorizatário",
    )
    via = models.CharField("origem", max_length=16, choices=PortalInvitationVia.choices)

    objects = PortalInvitationQuerySet.as_manager()

    class Meta:
        verbose_name = "convite do portal"
        verbose_name_plural = "convites do portal"
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"Convite do portal para {self.full_name} ({self.get_role_display()})"

    def audit_snapshot(self) -> dict[str, Any]:
        # No e-mail address in the permanent log (LGPD art. 6 III); the row keeps it while it is needed.
        return {
            "operator_id": self.operator_id,
            "role": self.role,
            "driver_id": self.driver_id,
            "attendant_id": self.attendant_id,
            "via": self.via,
            "expires_at": self.expires_at,
            "invited_by": self.invited_by_id,
        }


class DocumentSubmissionQuerySet(MunicipalityScopedQuerySet["DocumentSubmission"]):
    def pending(self) -> DocumentSubmissionQuerySet:
        return self.filter(state=SubmissionState.PENDING)


class DocumentSubmission(StoredUpload):
    """A renewed copy of a registered document, sent in the portal. It is not a document of the registry until
    the secretariat accepts it: then registry.document_upload stores it (the law computes its validity) and the
    copy it renews is marked replaced, so "what expires next" reads the new one."""

    municipality = models.ForeignKey(Municipality, on_delete=models.PROTECT, related_name="+")
    renews = models.ForeignKey(
        "registry.Document",
        on_delete=models.PROTECT,
        related_name="portal_submissions",
        verbose_name="renova",
    )
    issue_date = models.DateField("data de emissão")
    expiry_date = models.DateField("validade impressa", null=True, blank=True)
    state = models.CharField(
        "situação", max_length=16, choices=SubmissionState.choices, default=SubmissionState.PENDING
    )
    # The base's sender, required here: a copy is always sent by a portal account.
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name="enviado por"
    )
    submitted_on = models.DateField("enviado em")
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_on = models.DateField("decidido em", null=True, blank=True)
    rejection_reason = models.CharField("motivo da recusa", max_length=500, blank=True)
    document = models.OneToOneField(
        "registry.Document",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="portal_submission",
        verbose_name="documento registrado",
    )

    objects = DocumentSubmissionQuerySet.as_manager()

    class Meta:
        verbose_name = "documento enviado pelo portal"
        verbose_name_plural = "documentos enviados pelo portal"
        ordering = ["submitted_on", "pk"]

    def __str__(self) -> str:
        return f"Envio {self.pk} ({self.renews.get_kind_display()})"

    def upload_folder(self) -> str:
        return f"submissions/{self.municipality.ibge_code}/{self.issue_date:%Y}"

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "renews_id": self.renews_id,
            "state": self.state,
            "issue_date": self.issue_date,
            "expiry_date": self.expiry_date,
            "sha256": self.sha256,
            "document_id": self.document_id,
            "rejection_reason": self.rejection_reason,
        }


class ElectronicNoticeConsentQuerySet(MunicipalityScopedQuerySet["ElectronicNoticeConsent"]):
    def standing(self) -> ElectronicNoticeConsentQuerySet:
        return self.filter(revoked_at__isnull=True)


class ElectronicNoticeConsent(models.Model):
    """The holder's opt-in to the electronic notice (domicílio eletrônico): the terms the regime declares
    (procedure.yaml ``electronic_notice.terms``) as accepted, by whom, when and from where; revocable. While it
    stands, the secretariat may notify the operator in the portal (apps.enforcement.services.notices)."""

    municipality = models.ForeignKey(Municipality, on_delete=models.PROTECT, related_name="+")
    operator = models.ForeignKey(
        "registry.Operator",
        on_delete=models.PROTECT,
        related_name="electronic_notice_consents",
        verbose_name="autorizatário",
    )
    account = models.ForeignKey(
        PortalAccount, on_delete=models.PROTECT, related_name="+", verbose_name="conta que aderiu"
    )
    terms = models.TextField("termos aceitos")
    terms_basis = models.CharField("fundamento dos termos", max_length=300)
    accepted_at = models.DateTimeField("aceita em")
    accepted_ip = models.CharField("IP da adesão", max_length=64)
    revoked_at = models.DateTimeField("revogada em", null=True, blank=True)
    revoked_ip = models.CharField("IP da revogação", max_length=64, blank=True)

    objects = ElectronicNoticeConsentQuerySet.as_manager()

    class Meta:
        verbose_name = "adesão à notificação eletrônica"
        verbose_name_plural = "adesões à notificação eletrônica"
        ordering = ["-accepted_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["operator"],
                condition=models.Q(revoked_at__isnull=True),
                name="portal_one_standing_electronic_consent",
            )
        ]

    def __str__(self) -> str:
        return f"Adesão de {self.operator} em {local_date(self.accepted_at):%d/%m/%Y}"

    def audit_snapshot(self) -> dict[str, object]:
        return {
            "operator": self.operator_id,
            "account": self.account_id,
            "terms_basis": self.terms_basis,
            "accepted_at": self.accepted_at,
            "accepted_ip": self.accepted_ip,
            "revoked_at": self.revoked_at,
            "revoked_ip": self.revoked_ip,
        }
