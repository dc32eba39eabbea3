"""Every write of licensing: the application workflow and the permits it issues.

Each service is keyword-only, runs in one transaction, locks the row it moves, refuses an illegal move in
Portuguese (django ValidationError naming the field) and writes an ApplicationEvent and an audit record in
the same transaction. The law is asked through lawbridge (apps.lawconfig.engine); nothing here re-decides it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import Q

from apps.accounts.actors import Actor, actor_name, actor_user
from apps.accounts.stepup import sensitive_service
from apps.audit.services import ChainLock, audit_record, audited_change
from apps.lawconfig.config import configs_remembered
from apps.licensing import appfields, hooks, lawbridge
from apps.licensing.choices import (
    DRIVER_KINDS,
    PERMIT_KINDS,
    PERMIT_TARGET_KINDS,
    ApplicationKind,
    ApplicationState,
    EventKind,
    LegalStatus,
    PermitKind,
    PermitState,
)
from apps.licensing.models import (
    Application,
    ApplicationEvent,
    Permit,
    new_qr_token,
)
from apps.registry import lawbridge as registry_lawbridge
from apps.registry.choices import OperatorStatus
from apps.registry.models import Attendant, Company, Driver, Operator, Person, Vehicle
from apps.registry.services import operator_set_status
from apps.tenancy.numbering import format_number, number_take, numbered_insert
from apps.tenancy.regimes import instrument_of
from apps.web.refusals import refuse
from lawcode import Decision

S = ApplicationState
OPEN_BEFORE_DECISION = (
    S.SUBMITTED,
    S.IN_ANALYSIS,
    S.PENDING_DOCUMENTS,
    S.AWAITING_FEE,
    S.AWAITING_INSPECTION,
)


# --- creation ------------------------------------------------------------------------------------------


@transaction.atomic
def application_create(
    *,
    actor: Actor,
    operator: Operator,
    kind: str,
    as_of: dt.date,
    vehicle: Vehicle | None = None,
    driver: Driver | None = None,
    attendant: Attendant | None = None,
    permit: Permit | None = None,
    enrolled_students: int | None = None,
    platform_notified_on: dt.date | None = None,
    extensions: int = 0,
    requested_until: dt.date | None = None,
    reason: str = "",
    carries_children_under_4_or_pcd: bool | None = None,
) -> Application:
    """A draft application of ``kind`` for the operator; its targets must belong to the same operator."""
    answers = _asked_answers(
        operator,
        kind,
        enrolled_students=enrolled_students,
        carries_children_under_4_or_pcd=carries_children_under_4_or_pcd,
        platform_notified_on=platform_notified_on,
        extensions=extensions,
        requested_until=requested_until,
    )
    targets = {"vehicle": vehicle, "driver": driver, "attendant": attendant, "permit": permit}
    _check_application(operator, kind, as_of, answers, targets)
    application = _application_insert(actor, operator, kind, as_of, targets, answers, reason)
    _event(application, EventKind.CREATED, actor=actor, as_of=as_of, state_from="")
    audit_record(
        actor=actor,
        municipality=application.municipality,
        action="application.create",
        obj=application,
        after=application.audit_snapshot(),
    )
    return application


def _asked_answers(operator: Operator, kind: str, **answers: Any) -> dict[str, Any]:
    """The answers the regime's law asks for a known ``kind``; the others blanked."""
    _check_kind(kind)
    return appfields.only_asked(operator.regime_id, kind, answers)


def _check_application(
    operator: Operator, kind: str, as_of: dt.date, answers: dict[str, Any], targets: dict[str, Any]
) -> None:
    if (unknown := appfields.kind_refusal(operator.regime_id, kind)) is not None:
        raise unknown
    _check_dates(as_of, platform_notified_on=answers["platform_notified_on"])
    _check_targets(kind, operator, **targets)
    _check_not_banned(operator, as_of)


def _application_insert(
    actor: Actor,
    operator: Operator,
    kind: str,
    as_of: dt.date,
    targets: dict[str, Any],
    answers: dict[str, Any],
    reason: str,
) -> Application:
    """The draft's row, numbered in the municipality's yearly sequence."""
    sequence = number_take(kind="application", municipality=operator.municipality, year=as_of.year)
    return Application.objects.create(
        municipality=operator.municipality,
        regime_id=operator.regime_id,
        year=as_of.year,
        sequence=sequence,
        number=format_number(sequence, as_of.year),
        kind=kind,
        operator=operator,
        **targets,
        **answers,
        reason=reason.strip(),
        created_by=actor_user(actor),
    )


def _check_kind(kind: str) -> None:
    if kind not in ApplicationKind.values:
        raise refuse("kind", f"Tipo de requerimento: {kind!r} não existe.")


def _check_targets(kind: str, operator: Operator, **targets: Any) -> None:
    needed = _needed_targets(kind)
    labels = {
        "vehicle": "Veículo",
        "driver": "Condutor",
        "attendant": "Monitor",
        "permit": "Autorização de referência",
    }
    for name, value in targets.items():
        if name in needed and value is None:
            raise refuse(
                name, f"{labels[name]}: obrigatório para «{appfields.kind_label(operator.regime_id, kind)}»."
            )
        if value is not None and getattr(value, "operator_id", None) != operator.pk:
            raise refuse(name, f"{labels[name]}: não pertence a este autorizatário.")
    permit = targets.get("permit")
    if permit is not None and permit.state not in (PermitState.ACTIVE, PermitState.SUSPENDED):
        raise refuse(
            "permit",
            f"Autorização de referência: {instrument_of(permit.regime_id).the(permit.number)} está "
            f"{permit.get_state_display().lower()}.",
        )


def _needed_targets(kind: str) -> set[str]:
    needed: set[str] = set()
    if kind in PERMIT_KINDS:
        needed.add("vehicle")
    if kind in PERMIT_TARGET_KINDS or kind == ApplicationKind.EMERGENCY_DRIVER:
        needed.add("permit")
    if kind in DRIVER_KINDS:
        needed.add("driver")
    if kind == ApplicationKind.ATTENDANT_LINK:
        needed.add("attendant")
    return needed


def _check_dates(as_of: dt.date, **dates: dt.date | None) -> None:
    labels = {
        "platform_notified_on": "Data da comunicação da plataforma",
        "performed_on": "Data da vistoria",
        "paid_on": "Data do pagamento",
    }
    for name, value in dates.items():
        if value is not None and value > as_of:
            raise refuse(name, f"{labels[name]}: não pode ser posterior a {as_of:%d/%m/%Y}.")


def _check_not_banned(operator: Operator, as_of: dt.date) -> None:
    facts = registry_lawbridge.operator_facts(operator, as_of=as_of)
    message = lawbridge.ban_refusal(operator.municipality, operator.regime_id, facts, as_of)
    if message is not None:
        raise refuse("operator", message)


# --- the timeline -------------------------------------------------------------------------------------


def _event(
    application: Application,
    kind: str,
    *,
    actor: Actor,
    as_of: dt.date,
    state_from: str,
    note: str = "",
    data: dict[str, Any] | None = None,
) -> ApplicationEvent:
    return ApplicationEvent.record(
        application=application,
        actor=actor,
        on=as_of,
        kind=kind,
        state_from=state_from,
        state_to=application.state,
        note=note,
        data=data,
    )


def _locked(application: Application) -> Application:
    row: Application = (
        Application.objects.select_for_update()
        .select_related("municipality", "operator")
        .get(pk=application.pk)
    )
    return row


def _move(
    application: Application,
    *,
    to: str,
    allowed: Iterable[str],
    event: str,
    actor: Actor,
    as_of: dt.date,
    verb: str,
    note: str = "",
    data: dict[str, Any] | None = None,
    **changes: Any,
) -> Application:
    """Lock, check the state, apply the changes, write the event and the audit record."""
    row = _locked(application)
    if row.state not in set(allowed):
        raise refuse(
            "state",
            f"Não é possível {verb} o requerimento {row.number}: ele está «{row.get_state_display()}».",
        )
    state_from = row.state
    with audited_change(row, actor=actor, action=f"application.{event}"):
        row.state = to
        for name, value in changes.items():
            setattr(row, name, value)
        row.save()
        _event(row, event, actor=actor, as_of=as_of, state_from=state_from, note=note, data=data)
    return row


# --- workflow -----------------------------------------------------------------------------------------


@transaction.atomic
def application_submit(*, application: Application, actor: Actor, as_of: dt.date) -> Application:
    return _move(
        application,
        to=S.SUBMITTED,
        allowed=[S.DRAFT],
        event=EventKind.SUBMITTED,
        actor=actor,
        as_of=as_of,
        verb="protocolar",
        submitted_on=as_of,
    )


@transaction.atomic
def application_start_analysis(*, application: Application, actor: Actor, as_of: dt.date) -> Application:
    """From the protocol, or back from pending documents once they arrived."""
    return _move(
        application,
        to=S.IN_ANALYSIS,
        allowed=[S.SUBMITTED, S.PENDING_DOCUMENTS],
        event=EventKind.ANALYSIS_STARTED,
        actor=actor,
        as_of=as_of,
        verb="iniciar a análise de",
    )


@transaction.atomic
def application_evaluate(*, application: Application, actor: Actor, as_of: dt.date) -> Application:
    """Ask the law and keep its Decision on the application (shown to the analyst, cited by a denial)."""
    row = _locked(application)
    if row.state not in (S.IN_ANALYSIS, S.PENDING_DOCUMENTS):
        raise refuse(
            "state",
            f"Só se avalia um requerimento em análise; o {row.number} está «{row.get_state_display()}».",
        )
    decision = lawbridge.evaluate_application(row, as_of)
    if decision is None:
        raise refuse(
            "kind", f"«{row.get_kind_display()}»: a lei deste regime não exige avaliação; decida direto."
        )
    with audited_change(row, actor=actor, action="application.evaluated"):
        row.last_decision = decision.to_dict()
        row.save(update_fields=["last_decision", "updated_at"])
        refusal = lawbridge.refusal_of(row.last_decision)
        data = {"outcome": decision.outcome, "articles": list(refusal.articles)}
        _event(
            row,
            EventKind.EVALUATED,
            actor=actor,
            as_of=as_of,
            state_from=row.state,
            note=decision.outcome_pt,
            data=data,
        )
    return row


@transaction.atomic
def application_request_documents(
    *, application: Application, actor: Actor, as_of: dt.date, note: str
) -> Application:
    """Pending documents; the cure deadline is the law's (Patrocínio art. 7 parágrafo único), if it gives one."""
    if not note.strip():
        raise refuse("note", "Pendências: descreva os documentos ou correções pedidos.")
    cure = lawbridge.result_date(_decision(application), "cure_until")
    data = {"cure_deadline": cure.isoformat()} if cure else {}
    row = _move(
        application,
        to=S.PENDING_DOCUMENTS,
        allowed=[S.IN_ANALYSIS],
        event=EventKind.DOCUMENTS_REQUESTED,
        actor=actor,
        as_of=as_of,
        verb="pedir documentos para",
        note=note.strip(),
        data=data,
        cure_deadline=cure,
    )
    hooks.cure_opened(row)
    return row


def _decision(application: Application) -> Decision | None:
    return Decision.from_dict(application.last_decision) if application.last_decision else None


@transaction.atomic
def application_require_fee(
    *, application: Application, actor: Actor, as_of: dt.date, fee_kind: str
) -> Application:
    """Issue the fee's payment guide (finance) and wait for its payment. A fee counted in a unit whose value is
    not entered yet (next year's UFM) does not refuse the act: the guide waits in finance's queue (the
    application page says for which value) and application_fee_issue_waiting issues it once it is entered."""
    from apps.finance.models import PaymentGuide

    row = _locked(application)
    issued = _fee_guide(row, actor, as_of, fee_kind)
    if isinstance(issued, PaymentGuide):
        guide: PaymentGuide | None = issued
        data = {
            "guide": issued.number,
            "amount_brl": str(issued.amount_brl),
            "legal_basis": issued.legal_basis,
            "fee_kind": fee_kind,
        }
        note = ""
    else:
        guide = None
        data = {"fee_kind": fee_kind, "waiting_for": issued.missing_value}
        note = (
            f"Guia aguardando o {issued.missing_value}; é emitida automaticamente quando ele for cadastrado."
        )
    return _move(
        row,
        to=S.AWAITING_FEE,
        allowed=[S.IN_ANALYSIS],
        event=EventKind.FEE_REQUIRED,
        actor=actor,
        as_of=as_of,
        verb="exigir a taxa de",
        note=note,
        data=data,
        fee_guide=guide,
    )


def _fee_guide(row: Application, actor: Actor, as_of: dt.date, fee_kind: str) -> Any:
    from apps.finance.choices import OriginType
    from apps.finance.services import fee_guide_issue_or_wait

    holder = row.operator
    return fee_guide_issue_or_wait(
        actor=actor,
        municipality=row.municipality,
        regime_id=row.regime_id,
        fee_kind=fee_kind,
        payer_name=holder.holder_name,
        payer_document=holder.holder_document,
        origin_type=OriginType.APPLICATION,
        origin_id=row.pk,
        fact_date=row.submitted_on or as_of,
        as_of=as_of,
    )


def application_fee_issue_waiting(*, waiting: Any, actor: Actor, as_of: dt.date) -> Any:
    """finance's queue issuer for origin 'application': the unit's value may now be entered; issue the fee's
    guide as the staff asked (the request was authorized when it was queued) and attach it to the application.
    An application no longer awaiting its fee (withdrawn, decided) leaves the queue instead."""
    from apps.finance.choices import OriginType
    from apps.finance.models import PaymentGuide
    from apps.finance.services import guide_wait_withdraw

    found = Application.objects.filter(pk=waiting.origin_id).first()
    if found is None or found.state != S.AWAITING_FEE or found.fee_guide_id is not None:
        guide_wait_withdraw(
            actor=actor,
            origin_type=OriginType.APPLICATION,
            origin_id=waiting.origin_id,
            reason="O requerimento não aguarda mais a taxa",
            as_of=as_of,
        )
        return None
    row = _locked(found)
    required = row.events.filter(kind=EventKind.FEE_REQUIRED).order_by("-pk").first()
    fee_kind = (required.data or {}).get("fee_kind") if required is not None else None
    if not fee_kind:
        return None
    issued = _fee_guide(row, actor, as_of, str(fee_kind))
    if not isinstance(issued, PaymentGuide):
        return None  # still waiting
    with audited_change(row, actor=actor, action="application.fee_guide_issued"):
        row.fee_guide = issued
        row.save(update_fields=["fee_guide"])
        _event(
            row,
            EventKind.FEE_REQUIRED,
            actor=actor,
            as_of=as_of,
            state_from=row.state,
            note="Guia emitida ao ser cadastrado o valor que faltava.",
            data={
                "guide": issued.number,
                "amount_brl": str(issued.amount_brl),
                "legal_basis": issued.legal_basis,
                "fee_kind": fee_kind,
            },
        )
    return issued


@transaction.atomic
def application_fee_paid(*, guide: Any, payment: Any, actor: Actor, as_of: dt.date) -> None:
    """finance's callback when the guide of an application is paid: the workflow moves on."""
    application = _guide_application(guide)
    _check_dates(as_of, paid_on=payment.paid_on)
    deadline = lawbridge.inspection_deadline(application, payment.paid_on, as_of)
    data: dict[str, Any] = {"guide": guide.number, "paid_on": payment.paid_on.isoformat()}
    if deadline is not None:
        data["inspection_deadline"] = deadline.isoformat()
    target = S.AWAITING_INSPECTION if application.kind in PERMIT_KINDS else S.IN_ANALYSIS
    _move(
        application,
        to=target,
        allowed=[S.AWAITING_FEE],
        event=EventKind.FEE_PAID,
        actor=actor,
        as_of=as_of,
        verb="registrar o pagamento da taxa de",
        data=data,
        cure_deadline=None,
    )


def _guide_application(guide: Any) -> Application:
    """The application the guide was issued for, or a refusal (so the payment is not stored either)."""
    try:
        return Application.objects.get(pk=guide.origin_id, municipality_id=guide.municipality_id)
    except Application.DoesNotExist:
        raise refuse(
            "guide",
            f"Guia {guide.number}: nenhum requerimento deste município corresponde a ela; "
            "o pagamento não foi registrado.",
        ) from None


@transaction.atomic
def application_require_inspection(*, application: Application, actor: Actor, as_of: dt.date) -> Application:
    row = _locked(application)
    if row.kind not in PERMIT_KINDS:
        raise refuse("kind", f"«{row.get_kind_display()}» não tem vistoria de veículo.")
    return _move(
        row,
        to=S.AWAITING_INSPECTION,
        allowed=[S.IN_ANALYSIS],
        event=EventKind.INSPECTION_REQUIRED,
        actor=actor,
        as_of=as_of,
        verb="pedir a vistoria de",
        cure_deadline=None,
    )


@transaction.atomic
def application_inspection_passed(
    *,
    application: Application,
    performed_on: dt.date,
    actor: Actor,
    as_of: dt.date,
    inspection_id: int | None = None,
) -> Application:
    """Called by apps.inspections when the vehicle passes: back to analysis, with the inspection date kept."""
    _check_dates(as_of, performed_on=performed_on)
    data = {"performed_on": performed_on.isoformat(), "inspection_id": inspection_id}
    return _move(
        application,
        to=S.IN_ANALYSIS,
        allowed=[S.AWAITING_INSPECTION],
        event=EventKind.INSPECTION_PASSED,
        actor=actor,
        as_of=as_of,
        verb="registrar a vistoria de",
        data=data,
        inspection_passed_on=performed_on,
        cure_deadline=None,
    )


@transaction.atomic
def application_inspection_failed(
    *,
    application: Application,
    cure_deadline: dt.date | None,
    inspection_id: int,
    actor: Actor,
    as_of: dt.date,
) -> Application:
    """Called by apps.inspections when the vehicle fails: the application keeps waiting for the re-inspection
    until ``cure_deadline`` (Patrocínio art. 9 § 3); the daily sweep denies it if the window closes first.
    Without a legal window (``None``) it simply waits for the vehicle."""
    until = cure_deadline.isoformat() if cure_deadline else None
    data = {"inspection_id": inspection_id, "cure_deadline": until}
    note = f"Prazo para sanar até {cure_deadline:%d/%m/%Y}." if cure_deadline else ""
    return _move(
        application,
        to=S.AWAITING_INSPECTION,
        allowed=[S.AWAITING_INSPECTION],
        event=EventKind.INSPECTION_FAILED,
        actor=actor,
        as_of=as_of,
        verb="registrar a vistoria de",
        note=note,
        data=data,
        cure_deadline=cure_deadline,
    )


@transaction.atomic
def application_deny(
    *, application: Application, actor: Actor, as_of: dt.date, note: str = ""
) -> Application:
    """Deny on the law's Decision; the event and the audit record name its articles."""
    row = _locked(application)
    if row.last_decision.get("outcome") != "denied":
        raise refuse(
            "last_decision",
            f"Indeferimento do {row.number}: só com uma avaliação da lei desfavorável; "
            "avalie o requerimento (a última avaliação não indefere).",
        )
    refusal = lawbridge.refusal_of(row.last_decision)
    text = refusal.text() + (f" {note.strip()}" if note.strip() else "")
    return _move(
        row,
        to=S.DENIED,
        allowed=OPEN_BEFORE_DECISION,
        event=EventKind.DENIED,
        actor=actor,
        as_of=as_of,
        verb="indeferir",
        note=text,
        data={"articles": list(refusal.articles)},
        decided_on=as_of,
    )


@transaction.atomic
def application_archive(
    *, application: Application, actor: Actor, as_of: dt.date, reason: str
) -> Application:
    """Archive (withdrawn, or the cure deadline passed: then the fees are forfeited, Patrocínio art. 7)."""
    if not reason.strip():
        raise refuse("reason", "Motivo do arquivamento: informe-o.")
    row = _locked(application)
    forfeited = row.cure_deadline is not None and as_of > row.cure_deadline
    return _move(
        row,
        to=S.ARCHIVED,
        allowed=[S.DRAFT, *OPEN_BEFORE_DECISION],
        event=EventKind.ARCHIVED,
        actor=actor,
        as_of=as_of,
        verb="arquivar",
        note=reason.strip(),
        data={"fees_forfeited": forfeited},
        archived_reason=reason.strip(),
        fees_forfeited=forfeited,
        decided_on=as_of,
    )


# --- approval and its effects -----------------------------------------------------------------------------


@sensitive_service
@transaction.atomic
def application_approve(
    *, application: Application, actor: Actor, as_of: dt.date, note: str = ""
) -> Application:
    """Approve after a fresh look by the law (quotas counted under a lock) and apply the effect of the kind."""
    Operator.objects.select_for_update().get(
        pk=application.operator_id
    )  # serializes quota counts per operator
    row = _locked(application)
    if row.state != S.IN_ANALYSIS:
        raise refuse(
            "state",
            f"Só se defere um requerimento em análise; o {row.number} está «{row.get_state_display()}».",
        )
    if row.kind in PERMIT_KINDS and row.inspection_passed_on is None:
        raise refuse(
            "inspection", f"Deferimento do {row.number}: o veículo ainda não foi aprovado em vistoria."
        )
    decision = _fresh_granted_decision(row, as_of)
    row = _move(
        row,
        to=S.APPROVED,
        allowed=[S.IN_ANALYSIS],
        event=EventKind.APPROVED,
        actor=actor,
        as_of=as_of,
        verb="deferir",
        note=note.strip(),
        decided_on=as_of,
        last_decision=decision.to_dict() if decision else row.last_decision,
    )
    _apply_effect(row, actor=actor, as_of=as_of)
    return row


def _fresh_granted_decision(application: Application, as_of: dt.date) -> Any:
    decision = lawbridge.evaluate_application(application, as_of)
    if decision is not None and decision.outcome != "granted":
        refusal = lawbridge.refusal_of(decision.to_dict())
        raise refuse("last_decision", f"Deferimento recusado pela lei: {refusal.text()}")
    return decision


def _apply_effect(application: Application, *, actor: Actor, as_of: dt.date) -> None:
    kind = application.kind
    if kind == ApplicationKind.OPERATOR_REGISTRATION:
        _set_active(application.operator, actor=actor, as_of=as_of, status="active", registered_on=as_of)
    elif kind in DRIVER_KINDS:
        _set_active(application.driver, actor=actor, as_of=as_of, active=True)
        if kind == ApplicationKind.EMERGENCY_DRIVER:
            permit_issue(application=application, actor=actor, as_of=as_of)
    elif kind == ApplicationKind.ATTENDANT_LINK:
        _set_active(application.attendant, actor=actor, as_of=as_of, active=True)
    elif kind == ApplicationKind.CANCELLATION:
        permit_close(
            permit=application.permit,
            actor=actor,
            as_of=as_of,
            state=PermitState.CANCELLED,
            reason=f"Cancelado a pedido do autorizatário (requerimento {application.number}).",
        )
    else:
        permit_issue(application=application, actor=actor, as_of=as_of)


def _set_active(row: Any, *, actor: Actor, as_of: dt.date, **values: Any) -> None:
    """Activate the registry row the application asked for (operator, driver or attendant link)."""
    with audited_change(row, actor=actor, action=f"{row._meta.model_name}.activate"):
        type(row).objects.filter(pk=row.pk).update(**values)
        row.refresh_from_db()


# --- permits ------------------------------------------------------------------------------------------------


def permit_issue(*, application: Application, actor: Actor, as_of: dt.date) -> Permit:
    """Issue the permit of an approved application: next number, validity from the law, old permit closed."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("permit_issue runs inside application_approve's transaction")
    with configs_remembered():  # the validity and the inspection calendar: one read of the configuration
        kind, valid_until, decision = _validity(application, as_of)
        inspection_due_on = _inspection_due(application, as_of)
    replaced = (
        application.permit
        if application.kind in (ApplicationKind.RENEWAL, ApplicationKind.SUBSTITUTION)
        else None
    )
    vehicle, driver = _permit_vehicle(application), _emergency_driver(application)
    # The state the approval left, for the timeline line, read before the lock; only the state, so the holder
    # and the town the caller loaded with the application are not read again (they cannot have changed).
    application.refresh_from_db(fields=["state"])
    operator, municipality = application.operator, application.municipality  # read before the lock too
    permit = Permit(
        municipality=municipality,
        regime_id=application.regime_id,
        year=as_of.year,
        kind=kind,
        operator=operator,
        vehicle=vehicle,
        driver=driver,
        application=application,
        replaces=replaced,
        issued_on=as_of,
        valid_from=as_of,
        valid_until=valid_until,
        inspection_due_on=inspection_due_on,
        decision=decision,
    )
    # Everything the law says is known: the number is taken by the permit's own insert (one statement on
    # PostgreSQL), so the counter row stays locked only for the rest of this transaction, not for the questions
    # to the law.
    # The chain's lock and head read go in the same query, so after the number only the event's statement and
    # the commit remain.
    locked = ChainLock(municipality)
    numbered_insert(kind="permit", row=permit, lead=locked)
    audit_record(
        actor=actor,
        municipality=permit.municipality,
        action="permit.issue",
        obj=permit,
        after=permit.audit_snapshot(),
        along=_issued_line(application, permit, actor=actor, as_of=as_of),  # one statement with the event
        locked=locked,
    )
    _activate_operator(permit.operator, actor=actor, as_of=as_of)
    if replaced is not None:
        _close_replaced(replaced, permit, application, actor=actor, as_of=as_of)
        hooks.permit_replaced(replaced, permit, actor, as_of)  # due process carries its suspensions over
        permit.refresh_from_db()
    return permit


def _issued_line(
    application: Application, permit: Permit, *, actor: Actor, as_of: dt.date
) -> ApplicationEvent:
    """The application's timeline line of the permit issued (what _event writes), for audit_record to insert."""
    until = permit.valid_until
    return ApplicationEvent(
        application=application,
        on=as_of,
        kind=EventKind.PERMIT_ISSUED,
        actor=actor_user(actor),
        actor_name=actor_name(actor),
        state_from=application.state,
        state_to=application.state,
        data={"permit": permit.number, "valid_until": until.isoformat() if until else None},
    )


def _activate_operator(operator: Operator, *, actor: Actor, as_of: dt.date) -> None:
    """A permit makes its holder an active operator: regimes without a separate registration application
    would otherwise leave the holder "Em cadastro" next to the permit in force."""
    if operator.status == OperatorStatus.PENDING:
        operator_set_status(
            actor=actor,
            operator=operator,
            status=OperatorStatus.ACTIVE,
            registered_on=operator.registered_on or as_of,
        )


def _permit_vehicle(application: Application) -> Vehicle:
    """The application's vehicle, or (emergency driver) the vehicle of the permit the driver stands in for."""
    if application.vehicle is not None:
        return application.vehicle
    if application.permit is None:
        raise refuse(
            "vehicle", f"Veículo: obrigatório para emitir {instrument_of(application.regime_id).the()}."
        )
    return application.permit.vehicle


def _emergency_driver(application: Application) -> Driver | None:
    return application.driver if application.kind == ApplicationKind.EMERGENCY_DRIVER else None


def _inspection_due(application: Application, as_of: dt.date) -> dt.date | None:
    passed = application.inspection_passed_on
    return lawbridge.next_inspection_due(application, passed, as_of) if passed else None


def _validity(application: Application, as_of: dt.date) -> tuple[str, dt.date | None, dict[str, Any]]:
    """(permit kind, valid until, decision JSON): the law's validity, capped by the permit decision's own."""
    if application.kind == ApplicationKind.EMERGENCY_DRIVER:
        if application.requested_until is None or application.requested_until < as_of:
            raise refuse("requested_until", _requested_until_message(application))
        return PermitKind.EMERGENCY, application.requested_until, application.last_decision
    if application.kind == ApplicationKind.TEMPORARY_VEHICLE:
        return _temporary_validity(application, as_of)
    decision = lawbridge.permit_validity(application, as_of, as_of)
    until = lawbridge.result_date(decision, "valid_until", "end")
    cap = lawbridge.result_date(_decision(application), "valid_until")
    if cap is not None and (until is None or cap < until):
        until = cap
    return PermitKind.REGULAR, until, decision.to_dict() if decision else {}


def _requested_until_message(application: Application) -> str:
    """The refusal of a missing or past end date, citing the article the regime declares for the answer."""
    cites = [
        f.cite_text
        for f in appfields.asked(application.regime_id, application.kind)
        if f.field == "requested_until"
    ]
    basis = f" ({'; '.join(cites)}: por prazo determinado)" if cites else ""
    return f"Prazo da autorização especial{basis}: informe uma data a partir de hoje."


def _temporary_validity(
    application: Application, as_of: dt.date
) -> tuple[str, dt.date | None, dict[str, Any]]:
    start = application.inspection_passed_on or as_of
    decision = lawbridge.temporary_validity(application, start, as_of)
    if decision is not None and any(x.status.value == "not_met" for x in decision.findings):
        raise refuse("extensions", f"Veículo provisório: {lawbridge.refusal_of(decision.to_dict()).text()}")
    until = lawbridge.result_date(decision, "valid_until", "end", "until")
    return PermitKind.TEMPORARY, until, decision.to_dict() if decision else {}


def _close_replaced(
    old: Permit, new: Permit, application: Application, *, actor: Actor, as_of: dt.date
) -> None:
    if application.kind == ApplicationKind.SUBSTITUTION:
        state, reason = (
            PermitState.CANCELLED,
            f"Veículo substituído; {instrument_of(new.regime_id).short} novo: {new.number}.",
        )
    else:
        state, reason = (
            PermitState.EXPIRED,
            f"Renovado {instrument_of(new.regime_id).the(new.number, prep='por')}.",
        )
    permit_close(permit=old, actor=actor, as_of=as_of, state=state, reason=reason)


def permit_close(*, permit: Permit | None, actor: Actor, as_of: dt.date, state: str, reason: str) -> Permit:
    if permit is None:
        raise refuse("permit", "Autorização de referência: obrigatória.")
    row = Permit.objects.select_for_update().get(pk=permit.pk)
    if row.state not in (PermitState.ACTIVE, PermitState.SUSPENDED):
        raise refuse(
            "permit",
            f"{instrument_of(row.regime_id).the(row.number, capital=True)} já está {row.get_state_display().lower()}.",
        )
    with audited_change(row, actor=actor, action=f"permit.{state}"):
        row.state, row.closed_on, row.closed_reason = state, as_of, reason
        row.save(update_fields=["state", "closed_on", "closed_reason"])
    return row


@transaction.atomic
def permit_suspend(
    *, permit: Permit, actor: Actor, as_of: dt.date, until: dt.date, reason: str, extend: bool = False
) -> Permit:
    """Suspend until a date (the sweep reactivates it the day after); a sanction decision is the reason.
    ``extend``: a permit already suspended stays suspended until the later of both dates (a suspension queued
    after the running one)."""
    if until < as_of:
        raise refuse("until", "Suspenso até: a data não pode ser anterior à de hoje.")
    if not reason.strip():
        raise refuse("reason", "Motivo da suspensão: informe-o.")
    row = Permit.objects.select_for_update().get(pk=permit.pk)
    extending = extend and row.state == PermitState.SUSPENDED
    if row.state != PermitState.ACTIVE and not extending:
        raise refuse(
            "permit",
            f"Só se suspende {instrument_of(row.regime_id).short} ativo; {row.number} está "
            f"{row.get_state_display().lower()}.",
        )
    with audited_change(row, actor=actor, action="permit.suspend"):
        if extending and row.suspended_until is not None and row.suspended_until > until:
            until = row.suspended_until
        row.state, row.suspended_until, row.closed_reason = PermitState.SUSPENDED, until, reason.strip()
        row.save(update_fields=["state", "suspended_until", "closed_reason"])
    return row


@transaction.atomic
def permit_reactivate(*, permit: Permit, actor: Actor, as_of: dt.date, reason: str) -> Permit:
    """End a suspension before its date (a precautionary suspension lifted when its case is cancelled)."""
    row = Permit.objects.select_for_update().get(pk=permit.pk)
    if row.state != PermitState.SUSPENDED:
        raise refuse(
            "permit", f"{instrument_of(row.regime_id).the(row.number, capital=True)} não está suspenso."
        )
    with audited_change(row, actor=actor, action="permit.reactivate"):
        row.state, row.suspended_until, row.closed_reason = PermitState.ACTIVE, None, reason.strip()
        row.save(update_fields=["state", "suspended_until", "closed_reason"])
    return row


@transaction.atomic
def permit_inspection_done(*, permit: Permit, performed_on: dt.date, actor: Actor) -> Permit:
    """A periodic (or semestral) inspection passed: the next one falls where the regime's calendar puts it,
    and the permit is no longer flagged overdue. A regime without a calendar leaves the date as it was."""
    row = Permit.objects.select_for_update().select_related("municipality", "vehicle").get(pk=permit.pk)
    due = lawbridge.permit_next_inspection_due(row, performed_on)
    if due is None:
        return row
    with audited_change(row, actor=actor, action="permit.inspection_done"):
        row.inspection_due_on, row.inspection_overdue = due, False
        row.save(update_fields=["inspection_due_on", "inspection_overdue"])
    return row


@transaction.atomic
def permit_revoke(*, permit: Permit, actor: Actor, as_of: dt.date, reason: str) -> Permit:
    """Cassação: the permit ends and its verification token changes, so an old printout no longer verifies."""
    if not reason.strip():
        raise refuse("reason", "Motivo da cassação: informe-o.")
    row = permit_close(
        permit=permit, actor=actor, as_of=as_of, state=PermitState.REVOKED, reason=reason.strip()
    )
    row.qr_token = new_qr_token()
    row.save(update_fields=["qr_token"])
    return row


@transaction.atomic
def permit_standing_record(*, permits: Iterable[Permit], actor: Actor, as_of: dt.date) -> int:
    """Record each permit whose document-driven status changed on ``as_of`` (an expired CNH makes it irregular,
    the renewed one makes it regular again): the new status on the row and one audit event per change, in the
    caller's transaction. The platform feed reads these events (apps.platforms.services.changes). Returns the
    count."""
    from apps.licensing.standing import permits_standing

    rows = list(permits)
    changed = 0
    found = permits_standing(rows, as_of=as_of)
    for permit in rows:
        standing = found[permit.pk]
        if standing.status not in (LegalStatus.REGULAR, LegalStatus.IRREGULAR, LegalStatus.SUSPENDED):
            continue  # the permit's own acts speak (expired, revoked…); their services audit them
        if standing.status == LegalStatus.SUSPENDED and not standing.document_driven:
            continue
        after = standing.to_dict() if standing.document_driven else {}
        if after == (permit.standing or {}):
            continue
        before = permit.standing or {"status": LegalStatus.REGULAR}
        Permit.objects.filter(pk=permit.pk).update(standing=after)
        audit_record(
            actor=actor,
            municipality=permit.municipality,
            action="permit.standing",
            obj=permit,
            before=before,
            after=after or {"status": LegalStatus.REGULAR, "since": as_of.isoformat()},
        )
        changed += 1
    return changed


@transaction.atomic
def permit_standing_refresh(*, actor: Actor, owner: Any, as_of: dt.date) -> int:
    """A document or a driver's record changed (registry hook): record the active permits it concerns."""
    permits = Permit.objects.filter(_permits_of(owner), state=PermitState.ACTIVE).select_related(
        "municipality"
    )
    return permit_standing_record(permits=permits.distinct(), actor=actor, as_of=as_of)


def _permits_of(owner: Any) -> Q:
    """The vehicle's permits, the holder's (a person or a company), an emergency driver's authorization."""
    if isinstance(owner, Vehicle):
        return Q(vehicle=owner)
    if isinstance(owner, Operator):
        return Q(operator=owner)
    if isinstance(owner, Company):
        return Q(operator__company=owner)
    if isinstance(owner, Driver):
        return Q(operator=owner.operator_id, operator__person=owner.person_id) | Q(
            kind=PermitKind.EMERGENCY, driver=owner
        )
    if isinstance(owner, Person):
        return Q(operator__person=owner) | Q(kind=PermitKind.EMERGENCY, driver__person=owner)
    raise TypeError(f"no permits hold documents of a {type(owner).__name__}")
