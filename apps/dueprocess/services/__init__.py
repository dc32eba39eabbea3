"""Appeals and judgments: appeal_file (staff paper filings and, later, the operator portal) and appeal_judge.

Each service is keyword-only, runs in one transaction, refuses bad input with a Portuguese ValidationError
naming the field before anything is stored, moves the case through enforcement's case_move (timeline event and
audit) and writes its own audit record. Deadlines come from the engine (lawbridge); a late appeal is flagged
with its deadline and filing day, never refused — the authority decides (verdict «não conhecido»).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.files.uploadedfile import UploadedFile
from django.db import IntegrityError, transaction

from apps.accounts.actors import Actor, actor_name, actor_user, signed_in
from apps.accounts.stepup import sensitive_service
from apps.audit.services import audit_record, audited_change
from apps.dueprocess import lawbridge
from apps.dueprocess.choices import CONDEMNING, EffectState, FilingChannel, Instance, Verdict
from apps.dueprocess.events import judgment_recorded
from apps.dueprocess.models import Appeal, AppealAttachment, Effect, Judgment, Regularization, Sanction
from apps.dueprocess.permissions import JUDGE_FIRST, JUDGE_SECOND
from apps.dueprocess.procedure import body_of, instance_label, judging_role, proceeding
from apps.dueprocess.services import effects, finality
from apps.dueprocess.verdicts import verdict_label
from apps.dueprocess.votes import judgment_votes
from apps.enforcement.choices import CaseState, EventKind, NoticePurpose
from apps.enforcement.models import InfractionCase
from apps.enforcement.services import case_event_add, case_move, locked_case
from apps.enforcement.timeline import infraction_ciencia
from apps.lawconfig.config import citation_text, config_for
from apps.registry.uploads import CheckedUpload, check_upload
from apps.tenancy.choices import Role
from apps.tenancy.querysets import user_can
from apps.web.refusals import refuse
from lawcode.decision import format_decimal_pt
from lawcode.penalties import PenaltyKind
from lawcode.registry import get_regime

APPEAL = "dueprocess.appeal"
FILABLE_FROM = {
    Instance.FIRST: (CaseState.DRAFTED, CaseState.NOTIFIED),
    Instance.SECOND: (CaseState.JUDGED_FIRST,),
}
MOVES_TO = {Instance.FIRST: CaseState.IN_DEFENCE, Instance.SECOND: CaseState.IN_APPEAL}
JUDGING_ACTION = {Instance.FIRST: JUDGE_FIRST, Instance.SECOND: JUDGE_SECOND}


# --- filing -----------------------------------------------------------------------------------------------


@transaction.atomic
def appeal_file(
    *,
    case: InfractionCase,
    instance: str,
    filed_on: dt.date,
    text: str,
    actor: Actor,
    as_of: dt.date,
    via_portal: bool = False,
    appellant_name: str = "",
    attachments: Sequence[UploadedFile] = (),
) -> Appeal:
    """Register a defence or an appeal. The operator portal calls it with ``via_portal=True`` (its own login
    identifies the operator); staff filings need the protocol role."""
    row = locked_case(case)
    if not via_portal and not user_can(actor, row.municipality.pk, APPEAL, "change"):
        raise refuse("appeal", f"Recurso: você não pode protocolar recursos em {row.municipality}.")
    _check_filing(row, instance, filed_on, text, as_of)
    checked = [check_upload(upload, field="attachments") for upload in attachments]
    appeal = _build_appeal(row, instance, filed_on, text, actor, via_portal, appellant_name, as_of)
    _save_once_per_instance(appeal, row, instance)
    for info in checked:
        _store_attachment(appeal, info, actor)
    _move_filed(row, appeal, instance, actor, filed_on)
    audit_record(
        actor=actor,
        municipality=row.municipality,
        action="appeal.file",
        obj=appeal,
        after={**appeal.audit_snapshot(), "attachments": [info.sha256 for info in checked]},
    )
    return appeal


def _save_once_per_instance(appeal: Appeal, case: InfractionCase, instance: str) -> None:
    """The unique constraint is the last word against a second filing racing this one."""
    try:
        with transaction.atomic():
            appeal.save()
    except IntegrityError:
        raise refuse("instance", _twice_message(case, instance)) from None


def _move_filed(case: InfractionCase, appeal: Appeal, instance: str, actor: Actor, filed_on: dt.date) -> None:
    case_move(
        case=case,
        to=MOVES_TO[Instance(instance)],
        allowed=FILABLE_FROM[Instance(instance)],
        actor=actor,
        on=filed_on,
        event=EventKind.APPEAL_FILED,
        note=_filing_note(appeal),
        data={"appeal_id": appeal.pk, "late": appeal.late},
    )


def _store_attachment(appeal: Appeal, info: CheckedUpload, actor: Actor) -> AppealAttachment:
    row = AppealAttachment(appeal=appeal, extension=info.extension)
    row.upload_keep(info, stem="anexo", actor=actor)
    row.save()
    return row


def _twice_message(case: InfractionCase, instance: str) -> str:
    first = Appeal.objects.filter(case=case, instance=instance).first()
    when = f" em {first.filed_on:%d/%m/%Y}" if first else ""
    return (
        f"{instance_label(case.regime_id, instance)}: já protocolado{when} para o auto {case.number}; "
        "não se recorre duas vezes na mesma instância."
    )


def _check_filing(case: InfractionCase, instance: str, filed_on: dt.date, text: str, as_of: dt.date) -> None:
    if instance not in Instance.values or not proceeding(case.regime_id).has(instance):
        raise refuse("instance", "Instância: a lei deste município não prevê recurso em 2ª instância.")
    if Appeal.objects.filter(case=case, instance=instance).exists():
        raise refuse("instance", _twice_message(case, instance))
    if case.state not in FILABLE_FROM[Instance(instance)]:
        raise refuse(
            "instance",
            f"{instance_label(case.regime_id, instance)}: o auto {case.number} está "
            f"«{case.get_state_display()}».",
        )
    if filed_on > as_of:
        raise refuse("filed_on", f"Data do protocolo: não pode ser posterior a {as_of:%d/%m/%Y}.")
    if filed_on < case.drawn_on:
        raise refuse(
            "filed_on", f"Data do protocolo: anterior à lavratura do auto ({case.drawn_on:%d/%m/%Y})."
        )
    if not text.strip():
        raise refuse("text", "Razões do recurso: campo obrigatório.")


def decision_ciencia(case: InfractionCase, since: dt.date) -> dt.date | None:
    """Ciência of the first-instance decision: the earliest notice of it reached on or after the judgment."""
    notices = case.notices.filter(purpose=NoticePurpose.FIRST_DECISION, ciencia_on__gte=since)
    first = notices.order_by("ciencia_on").first()
    return first.ciencia_on if first else None


def counts_from(case: InfractionCase, instance: str) -> dt.date | None:
    """The ciência the appeal deadline counts from: of the auto (1ª) or of the first decision (2ª)."""
    if instance == Instance.FIRST:
        return infraction_ciencia(case)
    judgment = Judgment.objects.filter(appeal__case=case, appeal__instance=Instance.FIRST).first()
    return decision_ciencia(case, judgment.decided_on) if judgment else None


def _build_appeal(
    case: InfractionCase,
    instance: str,
    filed_on: dt.date,
    text: str,
    actor: Actor,
    via_portal: bool,
    appellant_name: str,
    as_of: dt.date,
) -> Appeal:
    start = counts_from(case, instance)
    deadline = lawbridge.appeal_deadline(case, instance, start, as_of) if start else None
    judging = lawbridge.judgment_deadline(case, instance, filed_on, as_of)
    staff = None if via_portal else actor_user(actor)
    return Appeal(
        case=case,
        instance=instance,
        filed_on=filed_on,
        text=text.strip(),
        filed_by_staff=staff,
        filed_by_portal=via_portal,
        channel=FilingChannel.PORTAL if via_portal else FilingChannel.PAPER,
        appellant_name=(appellant_name.strip() or _appellant(case))[:200],
        counts_from=start,
        deadline=deadline.end if deadline else None,
        deadline_decision=deadline.decision if deadline else {},
        late=bool(deadline and filed_on > deadline.end),
        judgment_deadline=judging.end if judging else None,
        judgment_deadline_decision=judging.decision if judging else {},
    )


def _appellant(case: InfractionCase) -> str:
    if case.operator is not None:
        return case.operator.holder_name
    return case.offender_name or case.driver_name or "Autuado"


def _filing_note(appeal: Appeal) -> str:
    label = instance_label(appeal.case.regime_id, appeal.instance)
    if appeal.late and appeal.deadline:
        return (
            f"{label} protocolado em {appeal.filed_on:%d/%m/%Y}, FORA DO PRAZO (prazo até "
            f"{appeal.deadline:%d/%m/%Y}); a autoridade decidirá se o conhece."
        )
    if appeal.deadline is None:
        return f"{label} protocolado em {appeal.filed_on:%d/%m/%Y} (prazo não calculável: sem ciência registrada)."
    return f"{label} protocolado em {appeal.filed_on:%d/%m/%Y}, no prazo (até {appeal.deadline:%d/%m/%Y})."


# --- judging ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Choice:
    """A quantity the law lets the judging authority fix within a range (penalties.yaml ``days: judgment`` or
    ``amount: judgment``), with the range as the law stands on the infraction date."""

    key: str
    label: str
    unit: str
    minimum: Decimal
    maximum: Decimal
    article: str
    whole: bool

    @property
    def field(self) -> str:
        return f"chosen_{self.key}"

    def describe(self) -> str:
        return f"{self.label}: {self.unit}, de {format_decimal_pt(self.minimum)} a {format_decimal_pt(self.maximum)}"


def judgment_choices(case: InfractionCase, as_of: dt.date) -> list[Choice]:
    """What the judgment form must ask: the chosen-at-judgment penalties the law imposes on this case."""
    penalties = effects.catalog(case.regime_id)
    if not any(kind.chosen_at_judgment for kind in penalties.kinds.values()):
        return []
    decision = lawbridge.sanction(case, None, as_of)
    if decision.outcome != "penalty":
        return []
    regime = get_regime(case.regime_id)
    parameters = regime.parameters_with(config_for(case.municipality, case.regime_id))
    on = lawbridge.infraction_date(case)
    out = []
    for item, kind in effects.declared_items(case.regime_id, decision.to_dict()["result"]["penalties"]):
        if not kind.chosen_at_judgment or kind.range is None:
            continue
        low, high = penalties.judgment_range(kind.key, on, parameters)
        low = Decimal(str(item["min"])) if item.get("min") is not None else low
        high = Decimal(str(item["max"])) if item.get("max") is not None else high
        whole = kind.mechanism != "fine"
        unit_key = str(item.get("unit") or parameters[kind.range.minimum].unit.value)
        unit = "dias" if whole else regime.vocabulary.unit_label(unit_key)  # "UFESP", "R$", a declared label
        out.append(Choice(kind.key, kind.label, unit, low, high, _cite(case, kind.range.cite, on), whole))
    return out


def _check_choices(choices: list[Choice], chosen: Mapping[str, Any]) -> dict[str, str]:
    """Each chosen quantity present, a number (whole days), inside the legal range; stored as text."""
    stored = {}
    for choice in choices:
        raw = chosen.get(choice.key)
        bounds = (
            f"entre {format_decimal_pt(choice.minimum)} e {format_decimal_pt(choice.maximum)} {choice.unit}"
        )
        if raw in (None, ""):
            raise refuse(choice.field, f"{choice.label}: informe o valor, {bounds} ({choice.article}).")
        try:
            value = Decimal(str(raw))
        except InvalidOperation:
            raise refuse(
                choice.field, f"{choice.label}: informe um número, {bounds} ({choice.article})."
            ) from None
        if choice.whole and value != value.to_integral_value():
            raise refuse(
                choice.field, f"{choice.label}: informe um número inteiro de dias ({choice.article})."
            )
        if not choice.minimum <= value <= choice.maximum:
            raise refuse(
                choice.field,
                f"{choice.label}: {format_decimal_pt(value)} {choice.unit} está fora da "
                f"faixa legal — informe um valor {bounds} ({choice.article}).",
            )
        stored[choice.key] = str(int(value) if choice.whole else value)
    return stored


@sensitive_service
@transaction.atomic
def appeal_judge(
    *,
    appeal: Appeal,
    verdict: str,
    reasoning: str,
    decided_on: dt.date,
    actor: Actor,
    as_of: dt.date,
    chosen: Mapping[str, Any] | None = None,
    votes: Sequence[Mapping[str, Any]] = (),
) -> Judgment:
    """Judge an appeal: only the judging authority (1ª) or the appeal board (2ª) may. A condemnation fixes
    the quantities the law leaves to the authority (``chosen``: penalty key → days or quantity), each checked
    against its legal range. A collegiate body (labels.yaml) records each member's vote (apps.dueprocess.votes),
    whose majority must be the verdict."""
    row = Appeal.objects.select_for_update().select_related("case__municipality").get(pk=appeal.pk)
    case = locked_case(row.case)
    instance = Instance(row.instance)
    role = judging_role(case.regime_id, instance)
    if not user_can(actor, case.municipality.pk, APPEAL, JUDGING_ACTION[instance]):
        judge = body_of(case.regime_id, instance).name
        raise refuse("judgment", f"Julgamento: só {judge} (papel «{role.label}») julga este recurso.")
    _check_judgment(row, verdict, reasoning, decided_on, as_of)
    fixed = _check_choices(judgment_choices(case, as_of), chosen or {}) if verdict in CONDEMNING else {}
    recorded = judgment_votes(case.regime_id, instance, verdict, votes, decided_on)
    judgment = _judgment_create(row, verdict, reasoning, decided_on, actor, role, fixed)
    if recorded:
        judgment.votes = recorded
        judgment.save(update_fields=["votes"])
    audit_record(
        actor=actor,
        municipality=case.municipality,
        action="appeal.judge",
        obj=judgment,
        after=judgment.audit_snapshot(),
    )
    _after_judgment(case, row, judgment, actor, as_of)
    judgment_recorded(judgment, as_of)
    return judgment


def _judgment_create(
    appeal: Appeal,
    verdict: str,
    reasoning: str,
    decided_on: dt.date,
    actor: Actor,
    role: Role,
    fixed: dict[str, str],
) -> Judgment:
    return Judgment.objects.create(
        appeal=appeal,
        decided_on=decided_on,
        verdict=verdict,
        reasoning=reasoning.strip(),
        decided_by=signed_in(actor),
        decided_by_name=actor_name(actor),
        role=role,
        chosen=fixed,
    )


def _check_judgment(
    appeal: Appeal, verdict: str, reasoning: str, decided_on: dt.date, as_of: dt.date
) -> None:
    if Judgment.objects.filter(appeal=appeal).exists():
        raise refuse("judgment", "Julgamento: este recurso já foi julgado.")
    if verdict not in Verdict.values:
        raise refuse("verdict", "Decisão: escolha uma das decisões da lista.")
    if verdict == Verdict.NOT_ADMITTED and not appeal.late:
        raise refuse(
            "verdict", "Decisão: só um recurso protocolado fora do prazo pode deixar de ser conhecido."
        )
    if not reasoning.strip():
        raise refuse("reasoning", "Fundamentação: campo obrigatório.")
    if decided_on > as_of:
        raise refuse("decided_on", f"Data do julgamento: não pode ser posterior a {as_of:%d/%m/%Y}.")
    if decided_on < appeal.filed_on:
        raise refuse("decided_on", f"Data do julgamento: anterior ao protocolo ({appeal.filed_on:%d/%m/%Y}).")


def _after_judgment(
    case: InfractionCase, appeal: Appeal, judgment: Judgment, actor: Actor, as_of: dt.date
) -> None:
    note = f"{instance_label(case.regime_id, appeal.instance)}: {verdict_label(case.regime_id, judgment.verdict)}"
    if judgment.verdict not in CONDEMNING:
        _judged_annulled(case, appeal, judgment, actor, as_of, note)
    elif appeal.instance == proceeding(case.regime_id).last_instance():
        _judged_final(case, appeal, judgment, actor, as_of, note)
    else:
        _judged_first(case, judgment, actor, as_of, note)


def _judged_annulled(
    case: InfractionCase, appeal: Appeal, judgment: Judgment, actor: Actor, as_of: dt.date, note: str
) -> None:
    case = case_move(
        case=case,
        to=CaseState.CANCELLED,
        allowed=(MOVES_TO[Instance(appeal.instance)],),
        actor=actor,
        on=judgment.decided_on,
        event=EventKind.JUDGED,
        note=note,
        data={"judgment_id": judgment.pk},
    )
    finality.sanction_annul(case=case, actor=actor, as_of=as_of, reason=note)


def _judged_final(
    case: InfractionCase, appeal: Appeal, judgment: Judgment, actor: Actor, as_of: dt.date, note: str
) -> None:
    """Condemned in the last instance: the decision is final on the day it was judged."""
    on = judgment.decided_on
    case_move(
        case=case,
        to=CaseState.FINAL,
        allowed=(MOVES_TO[Instance(appeal.instance)],),
        actor=actor,
        on=on,
        event=EventKind.JUDGED,
        note=note,
        data={"judgment_id": judgment.pk},
    )
    finality.case_finalize(
        case=case, final_on=on, reason=finality.FinalityReason.LAST_INSTANCE, actor=actor, as_of=as_of
    )


def _judged_first(case: InfractionCase, judgment: Judgment, actor: Actor, as_of: dt.date, note: str) -> None:
    """Condemned in the first of two instances: the case waits for an appeal."""
    on = judgment.decided_on
    case = case_move(
        case=case,
        to=CaseState.JUDGED_FIRST,
        allowed=(CaseState.IN_DEFENCE,),
        actor=actor,
        on=on,
        event=EventKind.JUDGED,
        note=note,
        data={"judgment_id": judgment.pk},
    )
    finality.sanction_condemn_first(case=case, condemned_on=on, actor=actor, as_of=as_of)


# --- regularization (a suspension that becomes cassação unless regularized: Olímpia art. 24 sole §) ---------


def regularization_terms(case: InfractionCase) -> tuple[PenaltyKind, dt.date] | None:
    """The case's penalty that ends in cassação unless regularized, and the last day to regularize (the end of
    its suspension); None when the case has none."""
    sanction = Sanction.objects.filter(case=case).first()
    for kind in effects.catalog(case.regime_id).kinds.values():
        if kind.regularization is None:
            continue
        row = Effect.objects.filter(case=case, penalty_key=kind.key, ends_on__isnull=False).first()
        limit = row.ends_on if row else (sanction.cassation_if_not_regularized_by if sanction else None)
        if limit is not None:
            return kind, limit
    return None


@transaction.atomic
def case_regularize(
    *,
    case: InfractionCase,
    regularized_on: dt.date,
    description: str,
    evidence: UploadedFile | None,
    actor: Actor,
    as_of: dt.date,
) -> Regularization:
    """Record that the irregularity was regularized, with the evidence: the date reaches the engine as
    ``regularized_by`` and, if in time, the conditional cassação does not happen (nor the ban after it)."""
    row = locked_case(case)
    if not user_can(actor, row.municipality.pk, "dueprocess.sanction", "change"):
        raise refuse("regularized_on", "Regularização: você não pode registrá-la neste município.")
    kind, limit = _regularizable(row)
    _check_regularization(row, kind, limit, regularized_on, description, evidence, as_of)
    assert evidence is not None
    info = check_upload(evidence, field="evidence")
    regularization = _regularization_save(row, regularized_on, description, info, actor)
    Sanction.objects.filter(case=row).update(regularized_on=regularized_on)
    _note_regularized(row, regularization, kind, limit, actor)
    audit_record(
        actor=actor,
        municipality=row.municipality,
        action="case.regularize",
        obj=regularization,
        after=regularization.audit_snapshot(),
    )
    return regularization


def _regularizable(case: InfractionCase) -> tuple[PenaltyKind, dt.date]:
    terms = regularization_terms(case)
    if terms is None:
        raise refuse(
            "regularized_on",
            "Regularização: a penalidade deste auto não prevê cassação por falta de regularização.",
        )
    return terms


def _regularization_save(
    case: InfractionCase, regularized_on: dt.date, description: str, info: CheckedUpload, actor: Actor
) -> Regularization:
    """The regularization row; its evidence reaches the file store only once the transaction commits."""
    regularization = Regularization(
        case=case, regularized_on=regularized_on, description=description.strip(), extension=info.extension
    )
    regularization.upload_keep(info, stem="regularizacao", actor=actor)
    regularization.save()
    return regularization


def _note_regularized(
    case: InfractionCase, regularization: Regularization, kind: PenaltyKind, limit: dt.date, actor: Actor
) -> None:
    """The case's timeline says the cassação will not happen, citing the article that spares it."""
    on = regularization.regularized_on
    cite = _cite(case, kind.regularization.cite if kind.regularization else kind.cites[0], on)
    case_event_add(
        case=case,
        kind=EventKind.NOTE,
        actor=actor,
        on=on,
        note=f"Irregularidade regularizada em {on:%d/%m/%Y}, dentro do prazo (até "
        f"{limit:%d/%m/%Y}): não haverá cassação ({cite}).",
        data={"regularization_id": regularization.pk},
    )


def _cite(case: InfractionCase, ref: str, on: dt.date) -> str:
    return citation_text(case.municipality, case.regime_id, ref, on)


def _check_regularization(
    case: InfractionCase,
    kind: PenaltyKind,
    limit: dt.date,
    regularized_on: dt.date,
    description: str,
    evidence: UploadedFile | None,
    as_of: dt.date,
) -> None:
    if Regularization.objects.filter(case=case).exists():
        raise refuse("regularized_on", f"Regularização: já registrada para o auto {case.number}.")
    sanction = Sanction.objects.filter(case=case).first()
    if sanction is not None and sanction.conditional_cassation_on is not None:
        raise refuse(
            "regularized_on",
            "Regularização: a autorização já foi cassada por falta de regularização em "
            f"{sanction.conditional_cassation_on:%d/%m/%Y}.",
        )
    if regularized_on > as_of:
        raise refuse("regularized_on", f"Data da regularização: não pode ser posterior a {as_of:%d/%m/%Y}.")
    if regularized_on < lawbridge.infraction_date(case):
        raise refuse("regularized_on", "Data da regularização: anterior à infração.")
    if regularized_on > limit:
        article = _cite(case, kind.regularization.cite if kind.regularization else kind.cites[0], limit)
        raise refuse(
            "regularized_on",
            f"Data da regularização: o prazo para sanar terminou em "
            f"{limit:%d/%m/%Y}, fim da suspensão ({article}).",
        )
    if not description.strip():
        raise refuse("description", "O que foi regularizado: campo obrigatório.")
    if evidence is None:
        raise refuse(
            "evidence", "Comprovante da regularização: anexe o documento ou a foto (PDF, JPEG ou PNG)."
        )


# --- apreensão -------------------------------------------------------------------------------------------------


@transaction.atomic
def seizure_release(
    *, effect: Effect, released_on: dt.date, note: str, actor: Actor, as_of: dt.date
) -> Effect:
    """The owner met the release conditions the regime declares: the vehicle is released (audited, on the case)."""
    row: Effect = Effect.objects.select_for_update().select_related("case__municipality").get(pk=effect.pk)
    if not user_can(actor, row.case.municipality.pk, "dueprocess.sanction", "change"):
        raise refuse("released_on", "Liberação do veículo: você não pode registrá-la neste município.")
    if row.mechanism != "seizure" or row.state != EffectState.APPLIED:
        raise refuse("released_on", "Liberação do veículo: não há apreensão em vigor neste registro.")
    if released_on > as_of:
        raise refuse("released_on", f"Data da liberação: não pode ser posterior a {as_of:%d/%m/%Y}.")
    if row.starts_on is not None and released_on < row.starts_on:
        raise refuse("released_on", f"Data da liberação: anterior à apreensão ({row.starts_on:%d/%m/%Y}).")
    if not note.strip():
        conditions = "; ".join(row.data.get("conditions") or [])
        raise refuse("note", f"Condições cumpridas: informe como foram atendidas ({conditions}).")
    with audited_change(row, actor=actor, action="effect.release", municipality=row.case.municipality):
        row.state, row.ended_on = EffectState.RELEASED, released_on
        row.note = f"{row.note} Liberado em {released_on:%d/%m/%Y}: {note.strip()}"
        row.save(update_fields=["state", "ended_on", "note"])
        case_event_add(
            case=row.case,
            kind=EventKind.NOTE,
            actor=actor,
            on=released_on,
            note=f"Veículo liberado em {released_on:%d/%m/%Y}: {note.strip()}",
            data={"effect_id": row.pk},
        )
    return row
