"""The portal's single gate: every portal screen builds its querysets from a PortalScope.

A holder (autorizatário) reaches every record of its operator; a driver or attendant reaches only their own
documents and, for a driver, the vehicle they are assigned to and its permits. Rows outside the scope are simply
not in these querysets, so they answer 404 exactly like rows that do not exist (no probing).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db.models import F, Prefetch, Q, QuerySet
from django.http import Http404

from apps.dueprocess.models import Appeal, Sanction
from apps.enforcement.models import InfractionCase, Notice
from apps.finance.choices import OriginType
from apps.finance.models import PaymentGuide, WaitingGuide
from apps.finance.selectors import waiting_guides
from apps.licensing.choices import PERMIT_IN_FORCE_STATES
from apps.licensing.models import Application, Permit
from apps.portal.choices import PortalRole
from apps.portal.models import DocumentSubmission, PortalAccount, PortalInvitation
from apps.registry.choices import DocumentStatus
from apps.registry.models import Attendant, Document, Driver, Operator, Vehicle
from apps.registry.selectors import decision_reason, operator_documents
from apps.tenancy.tokens import token_digest


def portal_account_of(user: Any) -> PortalAccount | None:
    """The active portal account of a signed-in user, or None (staff, deactivated accounts, anonymous)."""
    if user is None or not user.is_authenticated or not user.is_active:
        return None
    return (
        PortalAccount.objects.active()
        .select_related(
            "municipality", "operator__person", "operator__company", "driver__person", "attendant__person"
        )
        .filter(user_id=user.pk)
        .first()
    )


def portal_accounts_for_cpf(cpf: str) -> QuerySet[PortalAccount]:
    """Portal accounts (active or not) whose person has this CPF: the holder, driver or attendant it is tied to.
    A company holder's account has no CPF of its own and is never matched."""
    return PortalAccount.objects.select_related("user").filter(
        Q(role=PortalRole.OPERATOR, operator__person__cpf=cpf)
        | Q(role=PortalRole.DRIVER, driver__person__cpf=cpf)
        | Q(role=PortalRole.ATTENDANT, attendant__person__cpf=cpf)
    )


def portal_invitation_for_token(token: str) -> PortalInvitation | None:
    """The invitation a link names (any state), or None; the link is the only credential, so no gate."""
    return (
        PortalInvitation.objects.select_related("municipality", "operator__person", "operator__company")
        .filter(token_hash=token_digest(token))
        .first()
    )


@dataclass(frozen=True)
class PortalScope:
    account: PortalAccount

    @property
    def operator(self) -> Operator:
        return self.account.operator

    @property
    def is_holder(self) -> bool:
        return self.account.is_holder

    def _person_id(self) -> int | None:
        link = self.account.driver or self.account.attendant
        return link.person_id if link is not None else None

    def drivers(self) -> QuerySet[Driver]:
        rows = Driver.objects.filter(operator=self.operator, active=True).select_related("person", "vehicle")
        return rows if self.is_holder else rows.filter(pk__in=[self.account.driver_id])

    def attendants(self) -> QuerySet[Attendant]:
        rows = Attendant.objects.filter(operator=self.operator, active=True).select_related("person")
        return rows if self.is_holder else rows.filter(pk__in=[self.account.attendant_id])

    def vehicles(self) -> QuerySet[Vehicle]:
        rows = Vehicle.objects.filter(operator=self.operator).order_by("plate")
        if self.is_holder:
            return rows
        driver = self.account.driver
        return rows.filter(pk=driver.vehicle_id) if driver is not None and driver.vehicle_id else rows.none()

    def permits(self) -> QuerySet[Permit]:
        rows = (
            Permit.objects.filter(operator=self.operator)
            .select_related("vehicle")
            .order_by("-issued_on", "-pk")
        )
        return rows if self.is_holder else rows.filter(vehicle__in=self.vehicles())

    def permits_in_force(self) -> QuerySet[Permit]:
        return self.permits().filter(state__in=PERMIT_IN_FORCE_STATES)

    def documents(self) -> QuerySet[Document]:
        # Dated documents first, soonest to expire on top, on SQLite and PostgreSQL alike.
        soonest_first = (F("valid_until").asc(nulls_last=True), "kind", "pk")
        if self.is_holder:
            return operator_documents(self.operator).order_by(*soonest_first)  # type: ignore[no-any-return]
        owners = Q(person_id=self._person_id()) | Q(vehicle__in=self.vehicles())
        return (
            Document.objects.filter(owners, municipality=self.operator.municipality)
            .select_related("person", "company", "vehicle")
            .order_by(*soonest_first)
        )

    def applications(self) -> QuerySet[Application]:
        rows = Application.objects.filter(operator=self.operator)
        rows = rows.select_related("vehicle", "permit", "fee_guide").order_by("-created_at", "-pk")
        return rows if self.is_holder else rows.none()

    def guides(self) -> QuerySet[PaymentGuide]:
        if not self.is_holder:
            return PaymentGuide.objects.none()
        applications = Application.objects.filter(operator=self.operator).values("pk")
        sanctions = Sanction.objects.filter(operator=self.operator).values("pk")
        mine = Q(origin_type=OriginType.APPLICATION, origin_id__in=applications) | Q(
            origin_type=OriginType.FINE, origin_id__in=sanctions
        )
        return PaymentGuide.objects.filter(mine, municipality=self.operator.municipality).order_by(
            "-issued_on", "-pk"
        )

    def waiting_guides(self) -> QuerySet[WaitingGuide]:
        """The holder's guides (fines, application fees) still waiting for a value the law needs (finance's
        queue)."""
        if not self.is_holder:
            return WaitingGuide.objects.none()
        sanctions = Sanction.objects.filter(operator=self.operator).values("pk")
        applications = self.applications().values("pk")
        return waiting_guides(self.operator.municipality).filter(
            Q(origin_type=OriginType.FINE, origin_id__in=sanctions)
            | Q(origin_type=OriginType.APPLICATION, origin_id__in=applications)
        )

    def cases(self) -> QuerySet[InfractionCase]:
        rows = InfractionCase.objects.filter(operator=self.operator).order_by("-drawn_on", "-pk")
        return rows if self.is_holder else rows.none()

    def notices(self) -> QuerySet[Notice]:
        return Notice.objects.filter(case__in=self.cases()).select_related("case").order_by("-sent_on", "-pk")

    def appeals(self) -> QuerySet[Appeal]:
        return Appeal.objects.filter(case__in=self.cases()).order_by("filed_on", "pk")


def get_in_scope(queryset: QuerySet[Any], **lookup: Any) -> Any:
    """One row of a scope queryset, or 404 (another operator's row looks exactly like a missing one)."""
    row = queryset.filter(**lookup).first()
    if row is None:
        raise Http404("Registro não encontrado.")
    return row


@dataclass(frozen=True)
class DocumentLine:
    document: Document
    reason: str
    days_left: int | None
    submission: DocumentSubmission | None = None  # the latest copy sent in the portal to renew it


def document_lines(documents: QuerySet[Document], as_of: dt.date) -> list[DocumentLine]:
    """Each document still in use (a replaced copy is history) with the law's reason for its validity (the
    engine's findings), the days it has left and the renewed copy sent for it, if any."""
    rows = documents.exclude(status=DocumentStatus.REPLACED).prefetch_related(
        Prefetch("portal_submissions", queryset=DocumentSubmission.objects.order_by("-pk"), to_attr="sent")
    )
    lines = []
    for document in rows:
        left = (document.valid_until - as_of).days if document.valid_until else None
        sent = document.sent[0] if document.sent else None
        lines.append(DocumentLine(document, decision_reason(document.decision), left, sent))
    return lines


def next_expiring(documents: QuerySet[Document], as_of: dt.date) -> DocumentLine | None:
    """The valid document whose validity ends first on or after ``as_of``, with the law's reason."""
    upcoming = documents.filter(status=DocumentStatus.VALID, valid_until__gte=as_of).order_by("valid_until")
    document = upcoming.first()
    if document is None or document.valid_until is None:
        return None
    return DocumentLine(document, decision_reason(document.decision), (document.valid_until - as_of).days)


@dataclass(frozen=True)
class DrivingRecordLine:
    """One driver's record as the portal shows it: the declared infractions and the latest confirmation."""

    driver: Driver
    declared: list[Any]
    confirmation: Any


def driving_record_lines(drivers: QuerySet[Driver]) -> list[DrivingRecordLine]:
    lines = []
    for driver in drivers:
        person = driver.person
        latest = (
            person.traffic_records.select_related("document").order_by("-document__issue_date", "-id").first()
        )
        lines.append(
            DrivingRecordLine(driver, list(person.traffic_infractions.order_by("-date", "-id")), latest)
        )
    return lines
