"""The effects of a final sanction on the permit and the registry, applied through their own services
(licensing.permit_suspend / permit_revoke, registry.ban_record) inside the finality transaction.

An effect that cannot apply (no permit, permit no longer active, period already over, the clandestine offender
not in the registry) is recorded as «não aplicado» with the reason, never silently dropped.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from apps.dueprocess.choices import EffectKind
from apps.dueprocess.models import Sanction
from apps.enforcement.models import InfractionCase
from apps.licensing.choices import PermitState
from apps.licensing.models import Permit
from apps.licensing.services import permit_revoke, permit_suspend
from apps.registry.identifiers import normalize_cnpj, normalize_cpf
from apps.registry.models import Company, Person
from apps.registry.services import ban_record


def effect(kind: str, note: str, **data: Any) -> dict[str, Any]:
    return {"kind": kind, "label": EffectKind(kind).label, "note": note, **data}


def apply(*, sanction: Sanction, case: InfractionCase, actor: Any, as_of: dt.date) -> list[dict[str, Any]]:
    if sanction.outcome != "penalty":
        return []
    done: list[dict[str, Any]] = []
    permit = Permit.objects.filter(pk=case.permit_id).first() if case.permit_id else None
    if sanction.cassation:
        done.append(_revoke(permit, case, actor, as_of))
    elif sanction.suspension_days:
        done.append(_suspend(permit, sanction, case, actor, as_of))
    if sanction.ban_until is not None:
        done.append(_ban(sanction, case, actor, _ban_reason(sanction)))
    return done


def conditional_ban(
    *, sanction: Sanction, case: InfractionCase, actor: Any, answer: dict[str, Any]
) -> dict[str, Any]:
    """Olímpia art. 24 sole § + art. 26: the ban that follows the cassação for not regularizing, with the dates
    and dispositivo the engine gave (its ``if_not_regularized`` answer)."""
    sanction.ban_start = dt.date.fromisoformat(str(answer["ban_start"]))
    sanction.ban_until = dt.date.fromisoformat(str(answer["ban_until"]))
    return _ban(sanction, case, actor, str(answer.get("ban_cite") or "ban"))


def _skipped(note: str) -> dict[str, Any]:
    return effect(EffectKind.SKIPPED, note)


def _suspend(
    permit: Permit | None, sanction: Sanction, case: InfractionCase, actor: Any, as_of: dt.date
) -> dict[str, Any]:
    end = sanction.suspension_end
    if permit is None or end is None:
        return _skipped("Suspensão: o auto não está ligado a um alvará.")
    if end < as_of:
        return _skipped(f"Suspensão: o período terminou em {end:%d/%m/%Y}.")
    if permit.state != PermitState.ACTIVE:
        return _skipped(f"Suspensão: o alvará {permit.number} está {permit.get_state_display().lower()}.")
    inspection = " Reativação condicionada à vistoria." if sanction.inspection_required else ""
    reason = (f"Penalidade do auto {case.number}: suspensão de {sanction.suspension_days} dias, "
              f"de {sanction.suspension_start:%d/%m/%Y} a {end:%d/%m/%Y}.{inspection}")  # fmt: skip
    permit_suspend(permit=permit, actor=actor, as_of=as_of, until=end, reason=reason)
    return effect(EffectKind.SUSPENSION, reason, permit=permit.number, until=end.isoformat())


def _revoke(permit: Permit | None, case: InfractionCase, actor: Any, as_of: dt.date) -> dict[str, Any]:
    if permit is None:
        return _skipped("Cassação: o auto não está ligado a um alvará.")
    if permit.state not in (PermitState.ACTIVE, PermitState.SUSPENDED):
        return _skipped(f"Cassação: o alvará {permit.number} já está {permit.get_state_display().lower()}.")
    reason = f"Cassação pela decisão definitiva do auto {case.number}."
    permit_revoke(permit=permit, actor=actor, as_of=as_of, reason=reason)
    return effect(EffectKind.REVOCATION, reason, permit=permit.number)


def _subject(case: InfractionCase) -> tuple[Person | None, Company | None]:
    """Who is banned: the operator's holder, or the clandestine offender found in the registry by document."""
    if case.operator is not None:
        return case.operator.person, case.operator.company
    document = "".join(ch for ch in case.offender_document if ch.isalnum()).upper()
    if len(document) == 11:
        return Person.objects.filter(
            municipality=case.municipality, cpf=normalize_cpf(document)
        ).first(), None
    if len(document) == 14:
        return None, Company.objects.filter(
            municipality=case.municipality, cnpj=normalize_cnpj(document)
        ).first()
    return None, None


def _ban_reason(sanction: Sanction) -> str:
    """The dispositivo the ban rests on, as the engine cited it (Olímpia: art. 26 cassação, art. 27 clandestine)."""
    for finding in sanction.decision.get("findings", []):
        if finding.get("code") == "penalty_ban":
            refs = [c.get("dispositivo") for c in finding.get("citations", []) if c.get("dispositivo")]
            if refs:
                return str(refs[0])
    return "ban"


def _ban(sanction: Sanction, case: InfractionCase, actor: Any, reason_code: str) -> dict[str, Any]:
    person, company = _subject(case)
    start, until = sanction.ban_start, sanction.ban_until
    if (person is None and company is None) or start is None or until is None:
        return _skipped(
            "Impedimento: o autuado não está no cadastro (registre-o e o impedimento pelo cadastro)."
        )
    sanction.ban = ban_record(
        actor=actor, municipality=case.municipality, reason_code=reason_code, start=start, until=until,
        source=f"Auto de infração {case.number}", decision=sanction.decision, person=person, company=company,
    )  # fmt: skip
    return effect(
        EffectKind.BAN, f"Impedido de {start:%d/%m/%Y} a {until:%d/%m/%Y}.", until=until.isoformat()
    )
