"""Every write of enforcement: opening an auto, evidence, notices and editais, the traffic-only mark.

Each service is keyword-only, runs in one transaction, refuses bad input in Portuguese (django ValidationError
naming the field) before anything is stored, and writes a CaseEvent and an audit record in the same
transaction. The law is asked through lawbridge (apps.lawconfig.engine); nothing here re-decides it.
Due process moves the case on with case_move and adds its own timeline lines with case_event_add.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.utils import timezone

import lawcode
from apps.accounts.actors import Actor, actor_name, signed_in
from apps.audit.services import audit_record, audited_change
from apps.enforcement import catalog, hooks, lawbridge
from apps.enforcement.choices import CaseState, EventKind
from apps.enforcement.models import CaseEvent, Evidence, InfractionCase
from apps.enforcement.regime_rules import auto_contents, cite_pt, traffic_only_rule
from apps.enforcement.selectors import lookup_plate
from apps.lawconfig.config import RegimeChoiceError, regime_for
from apps.registry.identifiers import validate_plate
from apps.registry.models import Driver
from apps.registry.uploads import CheckedUpload, check_upload
from apps.tenancy.models import Municipality
from apps.tenancy.numbering import format_number, number_take
from apps.tenancy.querysets import user_can
from apps.web import plausibility
from apps.web.refusals import refuse
from lawcode.procedure import AutoContents
from outorga.localdates import local_date

NO_INFRACTION_PT = "Infração: escolha uma infração do catálogo da lei do município."


@dataclass(frozen=True)
class EvidenceUpload:
    file: UploadedFile
    caption: str = ""


# --- the timeline -------------------------------------------------------------------------------------


def case_event_add(
    *,
    case: InfractionCase,
    kind: str,
    actor: Actor,
    on: dt.date,
    note: str = "",
    state_from: str = "",
    data: dict[str, Any] | None = None,
) -> CaseEvent:
    """One timeline line; must run inside the caller's transaction (services of enforcement and due process)."""
    if kind not in EventKind.values:
        raise ValueError(f"unknown case event kind {kind!r}")
    return CaseEvent.record(
        case=case,
        actor=actor,
        on=on,
        kind=kind,
        state_from=state_from,
        state_to=case.state if state_from else "",
        note=note,
        data=data,
    )


def locked_case(case: InfractionCase) -> InfractionCase:
    row: InfractionCase = (
        InfractionCase.objects.select_for_update().select_related("municipality").get(pk=case.pk)
    )
    return row


@transaction.atomic
def case_move(
    *,
    case: InfractionCase,
    to: str,
    allowed: Iterable[str],
    actor: Actor,
    on: dt.date,
    event: str = "",
    note: str = "",
    data: dict[str, Any] | None = None,
) -> InfractionCase:
    """Move the case to state ``to`` from one of ``allowed`` (due process calls this), with event and audit."""
    row = locked_case(case)
    if row.state not in set(allowed):
        raise refuse(
            "state",
            f"O auto {row.number} está «{row.get_state_display()}»; não é possível passá-lo a "
            f"«{CaseState(to).label}».",
        )
    state_from = row.state
    with audited_change(row, actor=actor, action=f"infractioncase.{to}"):
        row.state = to
        row.save(update_fields=["state", "updated_at"])
        case_event_add(
            case=row,
            kind=event or EventKind.STATE_CHANGED,
            actor=actor,
            on=on,
            note=note,
            state_from=state_from,
            data=data,
        )
    return row


# --- opening an auto ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AutoDetails:
    """What the agent writes on the auto; everything but the infraction, plate and date may be incomplete."""

    infraction_code: str
    plate: str
    occurred_at: dt.datetime
    place: str = ""
    description: str = ""
    circumstances: str = ""
    driver: Driver | None = None
    driver_name: str = ""
    offender_name: str = ""
    offender_document: str = ""
    offender_address: str = ""
    agent_registration: str = ""
    already_punished_as_traffic_only: bool = False
    traffic_only_reference: str = ""


@transaction.atomic
def case_open(
    *,
    municipality: Municipality,
    actor: Actor,
    details: AutoDetails,
    recorded_at: dt.datetime,
    evidence: Sequence[EvidenceUpload] = (),
    regime_id: str | None = None,
) -> InfractionCase:
    """Draw up an auto: plate looked up, catalog infraction required, date not after ``recorded_at``.

    Omissions of the auto's contents are warnings (what the regime's procedure.yaml declares, e.g. Olímpia art. 30
    parágrafo único), never a refusal.
    """
    _check_agent(actor, municipality)
    regime = _regime(municipality, regime_id)
    as_of = local_date(recorded_at)
    entry, plate = _check_details(regime, details, recorded_at, as_of)
    checked = [(item, check_upload(item.file, field="evidence")) for item in evidence]
    found = lookup_plate(municipality, plate, regime)
    _check_driver(details.driver, found.operator)
    case = _create_case(municipality, regime, actor, details, entry, found, as_of)
    for item, upload in checked:
        _store_evidence(case, item, upload, actor)
    _record_warnings(case, as_of)
    refresh_notice_limit(case, as_of)
    _note_opened(case, entry, actor, as_of)
    audit_record(
        actor=actor,
        municipality=municipality,
        action="infractioncase.open",
        obj=case,
        after=case.audit_snapshot(),
    )
    hooks.case_opened(case, actor, as_of)  # immediate effects the law attaches to the auto (due process)
    return case


def _check_details(
    regime: str, details: AutoDetails, recorded_at: dt.datetime, as_of: dt.date
) -> tuple[catalog.Infraction, str]:
    """The auto's infraction (in the catalog on the day) and its normalized plate; refused when unusable."""
    entry = _check_infraction(regime, details.infraction_code, as_of)
    _check_traffic_only_allowed(regime, details.already_punished_as_traffic_only)
    plate = _check_plate(details.plate)
    _check_occurred_at(details.occurred_at, recorded_at)
    law = lawcode.get_regime(regime)
    plausibility.check_date(
        local_date(details.occurred_at),
        field="occurred_at",
        label="Data da infração",
        not_before=law.in_force,
        because=f"anterior à vigência da lei, {law.main_act.cite_as}, em {plausibility.ddmmyyyy(law.in_force)}",
    )
    return entry, plate


def _note_opened(case: InfractionCase, entry: catalog.Infraction, actor: Actor, as_of: dt.date) -> None:
    case_event_add(
        case=case,
        kind=EventKind.OPENED,
        actor=actor,
        on=as_of,
        note=entry.title,
        data={"warnings": case.warnings, "clandestine": case.clandestine},
    )


def _check_agent(actor: Actor, municipality: Municipality) -> None:
    if not user_can(actor, municipality.pk, "enforcement.infractioncase", "file"):
        raise refuse("agent", f"Agente: você não tem o papel de agente de fiscalização em {municipality}.")


def _regime(municipality: Municipality, regime_id: str | None) -> str:
    try:
        return regime_for(municipality, regime_id)
    except RegimeChoiceError as error:
        raise refuse("regime_id", f"Regime: {error.message_pt}") from None


def _check_infraction(regime_id: str, code: str, on: dt.date) -> catalog.Infraction:
    entry = catalog.infraction(regime_id, (code or "").strip(), on) if code else None
    if entry is None:
        raise refuse("infraction_code", NO_INFRACTION_PT)
    return entry


def _check_traffic_only_allowed(regime_id: str, already_punished: bool) -> None:
    if already_punished and traffic_only_rule(regime_id) is None:
        raise refuse("already_punished_as_traffic_only", TRAFFIC_ONLY_NOT_IN_LAW)


TRAFFIC_ONLY_NOT_IN_LAW = "Infração de trânsito: a lei deste município não prevê essa exclusão."


def _check_plate(plate: str) -> str:
    try:
        return validate_plate(plate)
    except ValidationError as error:
        raise refuse("plate", error.messages[0]) from None


def _check_occurred_at(occurred_at: dt.datetime, recorded_at: dt.datetime) -> None:
    if timezone.is_naive(occurred_at):
        raise refuse("occurred_at", "Data e hora da infração: informe data e hora completas.")
    if occurred_at > recorded_at:
        shown = timezone.localtime(recorded_at)
        raise refuse(
            "occurred_at",
            f"Data e hora da infração: não pode ser posterior ao momento da lavratura "
            f"({shown:%d/%m/%Y %H:%M}).",
        )


def _check_driver(driver: Driver | None, operator: Any) -> None:
    if driver is not None and (operator is None or driver.operator_id != operator.pk):
        raise refuse("driver", "Condutor: não é condutor do autorizatário deste veículo.")


def _create_case(
    municipality: Municipality,
    regime: str,
    actor: Actor,
    details: AutoDetails,
    entry: catalog.Infraction,
    found: Any,
    as_of: dt.date,
) -> InfractionCase:
    sequence = number_take(kind="infraction_case", municipality=municipality, year=as_of.year)
    return InfractionCase.objects.create(
        municipality=municipality,
        regime_id=regime,
        year=as_of.year,
        sequence=sequence,
        number=format_number(sequence, as_of.year, prefix="AI-"),
        infraction_code=entry.code,
        infraction_title=entry.title,
        infraction_cite=entry.cite,
        occurred_at=details.occurred_at,
        drawn_on=as_of,
        place=details.place.strip(),
        description=details.description.strip(),
        circumstances=details.circumstances.strip(),
        plate=found.plate,
        vehicle=found.vehicle,
        permit=found.permit,
        operator=found.operator,
        driver=details.driver,
        driver_name=(details.driver_name.strip() or (str(details.driver.person) if details.driver else "")),
        offender_name=details.offender_name.strip(),
        offender_document=details.offender_document.strip(),
        offender_address=details.offender_address.strip(),
        clandestine=found.clandestine,
        agent=signed_in(actor),
        agent_name_at_time=actor_name(actor),
        agent_registration=details.agent_registration.strip(),
        already_punished_as_traffic_only=details.already_punished_as_traffic_only,
        traffic_only_reference=details.traffic_only_reference.strip(),
    )


def _store_evidence(
    case: InfractionCase, item: EvidenceUpload, upload: CheckedUpload, actor: Actor
) -> Evidence:
    row = Evidence(case=case, caption=item.caption.strip()[:300])
    row.upload_keep(upload, stem="evidence", actor=actor)
    row.save()
    return row


# --- warnings (never refusals) -------------------------------------------------------------------------


# What the auto form records for each item an auto may have to contain (lawcode.procedure.AUTO_ITEMS): True
# when the record lacks it. The other items (dispositivo, fine, penalties, appeal deadline) the system prints on
# the auto itself, so they are never omitted.
RECORD_OMITS: dict[str, Callable[[InfractionCase], bool]] = {
    "place_date_time": lambda case: not case.place,
    "driver_vehicle": lambda case: case.driver_id is None and not case.driver_name,
    "officer": lambda case: not case.agent_registration,
    "description": lambda case: not case.description,
    "supporting_documents": lambda case: not case.evidence.exists(),
}
PRINTED_BY_THE_SYSTEM = frozenset({"legal_provision", "fine_value", "penalties", "appeal_deadline"})
GENERIC_LABELS = {
    "place_date_time": "local da infração",
    "description": "descrição da infração",
    "driver_vehicle": "condutor",
    "supporting_documents": "provas (fotos ou documentos)",
}


def auto_omissions(case: InfractionCase) -> list[str]:
    """Which contents the auto record lacks (keys of lawcode's InfractionCase.auto_omissions)."""
    return [key for key, omits in RECORD_OMITS.items() if omits(case)]


def _warnings(case: InfractionCase, omissions: list[str], on: dt.date) -> list[dict[str, str]]:
    """One warning per omission: citing the law where it lists the item, else naming the empty field."""
    contents = auto_contents(case.regime_id)
    out = []
    for key in omissions:
        item = contents.item(key)
        if item is None:
            if key in GENERIC_LABELS:
                out.append({"code": key, "message": f"Campo não preenchido: {GENERIC_LABELS[key]}."})
            continue
        cite = cite_pt(case.regime_id, item.cite, on)
        out.append(
            {
                "code": key,
                "cite": cite,
                "message": f"O auto não traz {item.label} ({cite}).{_omission_effect(case, contents, on)}",
            }
        )
    return out


def _omission_effect(case: InfractionCase, contents: AutoContents, on: dt.date) -> str:
    if contents.omission.cite is None:
        return ""
    rule = cite_pt(case.regime_id, contents.omission.cite, on)
    if contents.omission_voids:
        return f" A omissão anula o auto ({rule})."
    return f" A omissão não anula o auto se ele permitir identificar a infração e o infrator ({rule})."


def _record_warnings(case: InfractionCase, on: dt.date) -> None:
    omissions = auto_omissions(case)
    contents = auto_contents(case.regime_id)
    case.auto_omissions = [key for key in omissions if contents.item(key) is not None]
    case.warnings = _warnings(case, omissions, on)
    case.save(update_fields=["auto_omissions", "warnings", "updated_at"])


def refresh_notice_limit(
    case: InfractionCase, as_of: dt.date, auto_received_on: dt.date | None = None
) -> None:
    """The penalty notice limit where the regime sets one (Patrocínio art. 19 §1); stays empty until computable."""
    answer = lawbridge.notice_limit(case, as_of, auto_received_on)
    if answer is None:
        return
    case.notice_limit, case.notice_limit_decision = answer.value, answer.decision
    case.save(update_fields=["notice_limit", "notice_limit_decision", "updated_at"])


# --- evidence and the traffic-only mark -----------------------------------------------------------------


@transaction.atomic
def evidence_add(
    *, case: InfractionCase, actor: Actor, upload: UploadedFile, caption: str = "", as_of: dt.date
) -> Evidence:
    """Attach a photo or document (PDF/JPEG/PNG by content, ≤ 10 MB) to an open case."""
    row = locked_case(case)
    if not row.is_open:
        raise refuse("evidence", f"Provas: o auto {row.number} está «{row.get_state_display()}».")
    checked = check_upload(upload, field="evidence")
    evidence = _store_evidence(row, EvidenceUpload(upload, caption), checked, actor)
    _record_warnings(row, as_of)
    case_event_add(case=row, kind=EventKind.EVIDENCE_ADDED, actor=actor, on=as_of, note=evidence.caption)
    audit_record(
        actor=actor,
        municipality=row.municipality,
        action="evidence.add",
        obj=evidence,
        after={"case_id": row.pk, "sha256": checked.sha256, "size": checked.size},
    )
    return evidence


@transaction.atomic
def case_mark_traffic_only(
    *, case: InfractionCase, actor: Actor, reference: str, as_of: dt.date
) -> InfractionCase:
    """Record that the fact was already punished only as a traffic infraction, where the law forbids punishing
    it again (the regime's declared traffic-only guard, e.g. Olímpia art. 21 §2)."""
    row = locked_case(case)
    rule_ref = traffic_only_rule(row.regime_id)
    if rule_ref is None:
        raise refuse("already_punished_as_traffic_only", TRAFFIC_ONLY_NOT_IN_LAW)
    if not reference.strip():
        raise refuse(
            "traffic_only_reference",
            "Referência da autuação de trânsito: informe o número do auto de "
            "trânsito ou do processo que já puniu o fato.",
        )
    if row.state in (CaseState.FINAL, CaseState.CLOSED, CaseState.CANCELLED):
        raise refuse("state", f"O auto {row.number} está «{row.get_state_display()}».")
    with audited_change(row, actor=actor, action="infractioncase.traffic_only"):
        row.already_punished_as_traffic_only, row.traffic_only_reference = True, reference.strip()
        row.save(update_fields=["already_punished_as_traffic_only", "traffic_only_reference", "updated_at"])
        rule = cite_pt(row.regime_id, rule_ref, as_of)
        case_event_add(
            case=row,
            kind=EventKind.TRAFFIC_ONLY_MARKED,
            actor=actor,
            on=as_of,
            note=f"{reference.strip()} — sem penalidade municipal ({rule}).",
        )
    return row
