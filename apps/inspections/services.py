"""Every write of inspections: schedule, reschedule and record the result (which may open a re-inspection and
move the application on).

Each service is keyword-only, runs in one transaction, locks the row it changes, refuses bad input in
Portuguese naming the field (django ValidationError) and writes its audit record in the same transaction,
so a refusal leaves nothing behind.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from apps.accounts.actors import Actor, actor_user
from apps.audit.services import audit_record, audited_change
from apps.enforcement.services import AutoDetails, case_open
from apps.inspections import lawbridge
from apps.inspections.choices import KIND_BY_APPLICATION, InspectionKind, InspectionResult, MissedState
from apps.inspections.hooks import inspection_failed, inspection_scheduled
from apps.inspections.models import Inspection, MissedInspection
from apps.lawconfig.config import calendar_for
from apps.licensing.choices import PERMIT_IN_FORCE_STATES
from apps.licensing.models import Application, Permit
from apps.registry.models import Vehicle
from apps.tenancy.choices import Role
from apps.web.refusals import refuse
from outorga.localdates import local_date


@dataclass(frozen=True)
class ItemResult:
    """What the inspector found on one checklist item."""

    ok: bool
    note: str = ""


# --- scheduling -----------------------------------------------------------------------------------------


@transaction.atomic
def inspection_schedule(
    *,
    actor: Actor,
    vehicle: Vehicle,
    scheduled_for: dt.date,
    as_of: dt.date,
    kind: str | None = None,
    application: Application | None = None,
    inspector: Any = None,
) -> Inspection:
    """Schedule an inspection of ``vehicle``; for an application awaiting inspection, within the legal deadline."""
    vehicle = _locked_vehicle(vehicle)
    _check_application(application, vehicle)
    kind = _kind_for(kind, application)
    regime_id = _regime_of(vehicle, application)
    _check_schedulable(vehicle, scheduled_for, inspector, as_of)
    deadline = _legal_deadline(application, regime_id, scheduled_for, as_of)
    row = Inspection.objects.create(
        municipality=vehicle.municipality,
        regime_id=regime_id,
        vehicle=vehicle,
        application=application,
        kind=kind,
        checklist_kind=kind,
        scheduled_for=scheduled_for,
        **_deadline_fields(deadline),
        inspector=inspector,
        created_by=actor_user(actor),
    )
    audit_record(
        actor=actor,
        municipality=row.municipality,
        action="inspection.scheduled",
        obj=row,
        after=row.audit_snapshot(),
    )
    inspection_scheduled(row)
    return row


def _locked_vehicle(vehicle: Vehicle) -> Vehicle:
    return (
        Vehicle.objects.select_for_update(of=("self",))
        .select_related("municipality", "operator")
        .get(pk=vehicle.pk)
    )


def _check_schedulable(vehicle: Vehicle, scheduled_for: dt.date, inspector: Any, as_of: dt.date) -> None:
    _check_schedule_date(scheduled_for, as_of)
    _check_no_pending(vehicle)
    _check_inspector(inspector, vehicle)


def _legal_deadline(
    application: Application | None, regime_id: str, scheduled_for: dt.date, as_of: dt.date
) -> lawbridge.LegalDate | None:
    """The application's legal deadline for the inspection, if any; a later date is refused."""
    deadline = _application_deadline(application, regime_id, as_of)
    if deadline is not None and scheduled_for > deadline.on:
        raise refuse(
            "scheduled_for",
            f"Data agendada: a vistoria deve ser feita até {deadline.on:%d/%m/%Y} ({deadline.basis}).",
        )
    return deadline


def _deadline_fields(deadline: lawbridge.LegalDate | None) -> dict[str, Any]:
    """The legal deadline as the inspection keeps it, with the engine's decision behind it."""
    return {
        "deadline": deadline.on if deadline else None,
        "deadline_basis": deadline.basis if deadline else "",
        "decision": {"scheduling": deadline.decision} if deadline else {},
    }


def _check_application(application: Application | None, vehicle: Vehicle) -> None:
    if application is None:
        return
    if application.municipality_id != vehicle.municipality_id or application.vehicle_id != vehicle.pk:
        raise refuse("application", f"Requerimento {application.number}: não é deste veículo.")
    if application.state != "awaiting_inspection":
        raise refuse(
            "application",
            f"Requerimento {application.number}: só se agenda a vistoria de um requerimento "
            f"«Aguardando vistoria» (está «{application.get_state_display()}»).",
        )


def _kind_for(kind: str | None, application: Application | None) -> str:
    if application is not None:
        derived = KIND_BY_APPLICATION.get(application.kind)
        if derived is None:
            raise refuse("application", f"«{application.get_kind_display()}» não tem vistoria de veículo.")
        return str(derived)
    allowed = [k for k in InspectionKind.values if k != InspectionKind.REINSPECTION]
    if kind not in allowed:
        raise refuse(
            "kind", "Tipo de vistoria: escolha inicial, periódica, semestral ou de veículo provisório."
        )
    return kind


def _regime_of(vehicle: Vehicle, application: Application | None) -> str:
    if application is not None:
        return application.regime_id
    if vehicle.operator is not None:
        return vehicle.operator.regime_id
    regimes = list(vehicle.municipality.regimes or [])
    if len(regimes) != 1:
        raise refuse(
            "vehicle", f"Veículo {vehicle.plate_display}: vincule-o a um autorizatário antes da vistoria."
        )
    return str(regimes[0])


def _check_schedule_date(scheduled_for: dt.date, as_of: dt.date) -> None:
    if scheduled_for < as_of:
        raise refuse("scheduled_for", "Data agendada: não pode ser anterior a hoje.")


def _check_no_pending(vehicle: Vehicle) -> None:
    pending = Inspection.objects.filter(vehicle=vehicle, result=InspectionResult.PENDING).first()
    if pending is not None:
        raise refuse(
            "vehicle",
            f"Veículo {vehicle.plate_display}: já há vistoria agendada para "
            f"{pending.scheduled_for:%d/%m/%Y}; registre-a ou reagende-a.",
        )


def _check_inspector(inspector: Any, vehicle: Vehicle) -> None:
    if inspector is None:
        return
    if not inspector.memberships.filter(
        municipality_id=vehicle.municipality_id, role=Role.INSPECTOR
    ).exists():
        raise refuse("inspector", f"Vistoriador: {inspector} não é vistoriador de {vehicle.municipality}.")


def _application_deadline(
    application: Application | None, regime_id: str, as_of: dt.date
) -> lawbridge.LegalDate | None:
    """Patrocínio art. 8: within days of paying the inspection fee (the guide's payment date)."""
    guide = application.fee_guide if application is not None else None
    payment = getattr(guide, "payment", None) if guide is not None and guide.status == "paid" else None
    if application is None or payment is None:
        return None
    return lawbridge.scheduling_deadline(
        municipality=application.municipality, regime_id=regime_id, fee_paid_on=payment.paid_on, as_of=as_of
    )


@transaction.atomic
def inspection_reschedule(
    *, actor: Actor, inspection: Inspection, scheduled_for: dt.date, as_of: dt.date, inspector: Any = None
) -> Inspection:
    """Move a pending inspection to another day (still within its legal deadline) or another inspector."""
    row = _locked(inspection)
    if row.result != InspectionResult.PENDING:
        raise refuse("result", "Só se reagenda uma vistoria ainda não realizada.")
    _check_schedule_date(scheduled_for, as_of)
    if row.deadline is not None and scheduled_for > row.deadline:
        raise refuse(
            "scheduled_for",
            f"Data agendada: a vistoria deve ser feita até {row.deadline:%d/%m/%Y} ({row.deadline_basis}).",
        )
    _check_inspector(inspector, row.vehicle)
    with audited_change(row, actor=actor, action="inspection.rescheduled"):
        row.scheduled_for = scheduled_for
        row.inspector = inspector if inspector is not None else row.inspector
        row.save(update_fields=["scheduled_for", "inspector", "updated_at"])
    return row


def _locked(inspection: Inspection) -> Inspection:
    related = ("municipality", "vehicle", "previous", "application")
    return Inspection.objects.select_for_update(of=("self",)).select_related(*related).get(pk=inspection.pk)


# --- result -----------------------------------------------------------------------------------------------


@transaction.atomic
def inspection_record_result(
    *,
    actor: Actor,
    inspection: Inspection,
    performed_on: dt.date,
    items: Mapping[str, ItemResult],
    as_of: dt.date,
    notes: str = "",
) -> Inspection:
    """Record every checklist item; any item not in order fails the vehicle.

    Failed: the regime's cure window (if it has one), a re-inspection linked to this one and, for an application
    awaiting inspection, licensing's ``application_inspection_failed`` (the sweep denies it when the window
    closes). Passed, for an application awaiting inspection: ``application_inspection_passed`` moves it back to
    analysis; without an application (periodic, semestral): ``permit_inspection_done`` moves the permits' next
    inspection date.
    """
    row = _locked(inspection)
    if row.result != InspectionResult.PENDING:
        raise refuse("result", f"Esta vistoria já foi registrada ({row.get_result_display().lower()}).")
    _check_performed_on(row, performed_on, as_of)
    with audited_change(row, actor=actor, action=lambda: f"inspection.{row.result}"):
        _fill_result(row, actor, items, performed_on, notes, as_of)
        row.save()
    _after_result(row, actor, as_of)
    return row


def _fill_result(
    row: Inspection,
    actor: Actor,
    items: Mapping[str, ItemResult],
    performed_on: dt.date,
    notes: str,
    as_of: dt.date,
) -> None:
    """The checked items and who performed it when; a failure opens the regime's cure window."""
    row.items = _item_rows(row, items, performed_on)
    row.performed_on, row.notes, row.inspector = (
        performed_on,
        notes.strip(),
        actor_user(actor) or row.inspector,
    )
    row.result = InspectionResult.PASSED if not row.failed_items else InspectionResult.FAILED
    if row.result == InspectionResult.FAILED:
        _open_cure_window(row, as_of)


def _after_result(row: Inspection, actor: Actor, as_of: dt.date) -> None:
    if row.result == InspectionResult.FAILED:
        _schedule_reinspection(row, actor=actor)
        _notify_application_failed(row, actor=actor, as_of=as_of)
        inspection_failed(row)
    elif row.application is None:
        _notify_permits(row, actor=actor)
    else:
        _notify_application(row, actor=actor, as_of=as_of)


def _check_performed_on(row: Inspection, performed_on: dt.date, as_of: dt.date) -> None:
    if performed_on > as_of:
        raise refuse("performed_on", "Data da vistoria: não pode ser no futuro.")
    previous = row.previous
    if previous is not None and previous.performed_on is not None and performed_on < previous.performed_on:
        raise refuse(
            "performed_on",
            f"Data da vistoria: anterior à vistoria reprovada que ela refaz "
            f"({previous.performed_on:%d/%m/%Y}).",
        )


def _item_rows(
    row: Inspection, items: Mapping[str, ItemResult], performed_on: dt.date
) -> list[dict[str, Any]]:
    """Every item of the checklist, in its order, with label and citations of the day; none missing or extra."""
    expected = lawbridge.checklist(row.regime_id).items_for(row.checklist_kind)
    unknown = sorted(set(items) - {item.code for item in expected})
    if unknown:
        raise refuse(
            "items", f"Itens da vistoria: {', '.join(unknown)} não pertence(m) ao roteiro deste regime."
        )
    missing = [item for item in expected if item.code not in items]
    if missing:
        names = "; ".join(f"«{item.label}»" for item in missing)
        raise refuse("items", f"Itens da vistoria: avalie todos os itens do roteiro; falta(m) {names}.")
    return [
        {
            "code": item.code,
            "label": item.label,
            "ok": bool(items[item.code].ok),
            "note": items[item.code].note.strip(),
            "cites": lawbridge.item_citations(row.regime_id, item, performed_on),
        }
        for item in expected
    ]


def _open_cure_window(row: Inspection, as_of: dt.date) -> None:
    cure = lawbridge.cure_deadline(
        municipality=row.municipality,
        regime_id=row.regime_id,
        performed_on=row.performed_on or as_of,
        as_of=as_of,
    )
    if cure is not None:
        row.cure_deadline = cure.on
        row.decision = {**row.decision, "cure": cure.decision, "cure_basis": cure.basis}


def _schedule_reinspection(row: Inspection, *, actor: Actor) -> Inspection:
    """The re-inspection waits for the vehicle: by the cure deadline where the law gives one, otherwise as soon
    as it can be presented — the municipality's next business day after the failure (never the failure's own
    day: the vehicle has to be repaired first), to be rescheduled when the operator calls."""
    performed_on = row.performed_on or row.scheduled_for
    next_day = calendar_for(row.municipality, row.regime_id).next_business_day(performed_on)
    follow_up = Inspection.objects.create(
        municipality=row.municipality,
        regime_id=row.regime_id,
        vehicle=row.vehicle,
        application=row.application,
        kind=InspectionKind.REINSPECTION,
        checklist_kind=row.checklist_kind,
        scheduled_for=max(row.cure_deadline, next_day) if row.cure_deadline else next_day,
        deadline=row.cure_deadline,
        deadline_basis=row.decision.get("cure_basis", ""),
        inspector=row.inspector,
        previous=row,
        created_by=actor_user(actor),
    )
    audit_record(
        actor=actor,
        municipality=row.municipality,
        action="inspection.scheduled",
        obj=follow_up,
        after=follow_up.audit_snapshot(),
    )
    return follow_up


def _notify_application(row: Inspection, *, actor: Actor, as_of: dt.date) -> None:
    application = row.application
    if application is None or application.state != "awaiting_inspection":
        return
    from apps.licensing.services import application_inspection_passed

    application_inspection_passed(
        application=application,
        performed_on=row.performed_on or as_of,
        actor=actor,
        as_of=as_of,
        inspection_id=row.pk,
    )


def _notify_application_failed(row: Inspection, *, actor: Actor, as_of: dt.date) -> None:
    application = row.application
    if application is None or application.state != "awaiting_inspection":
        return
    from apps.licensing.services import application_inspection_failed

    application_inspection_failed(
        application=application,
        cure_deadline=row.cure_deadline,
        inspection_id=row.pk,
        actor=actor,
        as_of=as_of,
    )


def _notify_permits(row: Inspection, *, actor: Actor) -> None:
    """A periodic or semestral inspection passed: every permit in force for the vehicle moves its next date."""
    from apps.licensing.services import permit_inspection_done

    permits = Permit.objects.filter(vehicle=row.vehicle, state__in=PERMIT_IN_FORCE_STATES)
    for permit in permits.order_by("pk"):
        permit_inspection_done(permit=permit, performed_on=row.performed_on or row.scheduled_for, actor=actor)


# --- missed calendar inspections (found by the daily sweep, apps/inspections/sweep.py) ------------------------


def _locked_pending(missed: MissedInspection) -> MissedInspection:
    row = (
        MissedInspection.objects.select_for_update()
        .select_related("municipality", "vehicle")
        .get(pk=missed.pk)
    )
    if row.state != MissedState.PENDING:
        raise refuse(
            "missed", f"Esta vistoria não realizada já foi tratada ({row.get_state_display().lower()})."
        )
    return row


def _missed_description(row: MissedInspection) -> str:
    return (
        f"{row.message}. Fundamento: {row.basis}. Constatada pela rotina diária em {row.found_on:%d/%m/%Y}."
    )


def _day_after_due_month(due_month: str) -> dt.datetime:
    """The infraction happens when the due month ends without the inspection: the first moment after it."""
    year, month = (int(part) for part in due_month.split("-"))
    first = dt.date(year + month // 12, month % 12 + 1, 1)
    return timezone.make_aware(dt.datetime.combine(first, dt.time.min))


@transaction.atomic
def missed_inspection_confirm(
    *, missed: MissedInspection, actor: Actor, recorded_at: dt.datetime, agent_registration: str = ""
) -> MissedInspection:
    """The agent confirms the miss: the auto is drawn up (enforcement's case_open, which checks the agent's role
    and starts the case's deadlines) citing the article, and the row points to it."""
    row = _locked_pending(missed)
    details = AutoDetails(
        infraction_code=row.infraction_code,
        plate=row.vehicle.plate,
        occurred_at=_day_after_due_month(row.due_month),
        description=_missed_description(row),
        agent_registration=agent_registration,
    )
    case = case_open(
        municipality=row.municipality,
        actor=actor,
        details=details,
        recorded_at=recorded_at,
        regime_id=row.regime_id,
    )
    with audited_change(row, actor=actor, action="missedinspection.confirm"):
        row.state, row.case = MissedState.CONFIRMED, case
        row.resolved_on, row.resolved_by = local_date(recorded_at), actor_user(actor)
        row.save(update_fields=["state", "case", "resolved_on", "resolved_by"])
    return row


@transaction.atomic
def missed_inspection_dismiss(
    *, missed: MissedInspection, actor: Actor, as_of: dt.date, reason: str
) -> MissedInspection:
    """The agent finds no infraction (e.g. the inspection was held elsewhere and the proof came late): no auto,
    the reason kept and audited."""
    if not reason.strip():
        raise refuse("reason", "Motivo do descarte: informe por que não há infração.")
    row = _locked_pending(missed)
    with audited_change(row, actor=actor, action="missedinspection.dismiss"):
        row.state, row.dismissal_reason = MissedState.DISMISSED, reason.strip()[:500]
        row.resolved_on, row.resolved_by = as_of, actor_user(actor)
        row.save(update_fields=["state", "dismissal_reason", "resolved_on", "resolved_by"])
    return row
