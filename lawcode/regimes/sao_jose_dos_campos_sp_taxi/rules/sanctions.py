"""Penalties for the infractions of art. 23 and for clandestine transport (arts. 22 to 24).

- Art. 22: warning, fine, seizure of the vehicle and suspension, applied separately or cumulatively by the
  gravity of the infraction, regardless of sequence: the decision proposes what the law fixes (art. 23's fine)
  and lists what the judging authority may add.
- Art. 23: each inciso has a fine range; the first infraction takes the minimum (§ 2º; which infraction is the
  "first" is INT-SJC-FIRST-INFRACTION); a specific recidivism doubles it (§ 3º), with seizure for XXI and XXII.
- Art. 24: after a doubled fine, a persisting irregularity opens the summary cassação process (trigger:
  INT-SJC-CASSATION-TRIGGER), against which the offender may appeal within 10 days.
- Art. 24 § 2º: clandestine transport: a fixed fine and the summary seizure of the vehicle, released only after
  the fees, the tow and the fines are paid (§ 4º).
Fines are valued in reais re-indexed yearly (fines.py, art. 22 § 2º).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from lawcode.blocks.penalties import FineRange, range_fine
from lawcode.blocks.recidivism import Anchor, CountFrom, Recidivism, RecidivismRule, Scope, recidivism
from lawcode.context import Context
from lawcode.decision import Finding, RuleResult, Status, format_value_pt
from lawcode.errors import InvalidFactError, LawNotInForceError
from lawcode.facts import InfractionCase, PriorSanction
from lawcode.regime import CatalogEntry, rule

from .common import IN_FORCE, br
from .fines import FINE_UPDATE_CITES, reindexed

ART23_INCISOS = (
    "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV", "XVI", "XVII",
    "XVIII", "XIX", "XX", "XXI", "XXII",
)  # fmt: skip
# Art. 22 I–IV: what the judging authority may apply, separately or cumulatively, in any order.
ALLOWED_PENALTIES = ("warning", "fine", "seizure", "suspension")
ART22_CITES = ("art22", "art22_incI", "art22_incII", "art22_incIII", "art22_incIV")
SANCTION_CITES = (
    *ART22_CITES, "art23", *(f"art23_inc{n}" for n in ART23_INCISOS), "art23_par1", "art23_par2", "art23_par3",
    "art24", "art24_par1", "art24_par2", "art24_par3", "art24_par4", *FINE_UPDATE_CITES,
)  # fmt: skip
WINDOW_MONTHS = {"no_window": None, "five_years": 60}


@rule("sanction", cites=SANCTION_CITES)
def sanction(ctx: Context, facts: InfractionCase) -> RuleResult:
    entry = _catalog_entry(ctx, facts)
    findings = [ctx.finding("infraction", Status.INFO, f"{entry.code}: {entry.title}", cites=(entry.cite,))]
    result: dict[str, Any] = {
        "infraction_code": entry.code,
        "suspension_days": None,
        "suspension_start": None,
        "suspension_end": None,
        "ban_until": None,
        "liable_operator": True,
    }
    if entry.extra.get("penalty") == "clandestine":
        findings += _clandestine(ctx, facts, result)
    else:
        findings += _art23(ctx, facts, entry, result)
    return RuleResult("penalty", findings, result)


def _catalog_entry(ctx: Context, facts: InfractionCase) -> CatalogEntry:
    entry = ctx.regime.catalog.get(facts.code)
    if entry is None:
        raise InvalidFactError(
            "code",
            f"unknown infraction code {facts.code!r}; use one of the catalog: "
            + ", ".join(ctx.regime.catalog),
        )
    if facts.date < IN_FORCE:
        raise LawNotInForceError(ctx.regime.id, facts.date, IN_FORCE, ctx.regime.main_act.title)
    return entry


# --- art. 23 ------------------------------------------------------------------------------------------------


def recidivism_rule(ctx: Context) -> RecidivismRule:
    """Art. 23 § 3º "reincidência específica": the same inciso; window and anchor by interpretation."""
    window = WINDOW_MONTHS[ctx.interpretation("INT-SJC-RECIDIVISM-WINDOW")]
    anchor = Anchor.PRIOR_FINAL
    if window is not None and ctx.interpretation("INT-SJC-RECIDIVISM-ANCHOR") == "prior_infraction_date":
        anchor = Anchor.PRIOR_INFRACTION
    return RecidivismRule(Scope.SPECIFIC, window, anchor, CountFrom.FIRST)


def _art23(ctx: Context, facts: InfractionCase, entry: CatalogEntry, result: dict[str, Any]) -> list[Finding]:
    rule_ = recidivism_rule(ctx)
    specific = recidivism(facts.operator.history, entry.code, facts.date, rule_)
    first = _is_first(ctx, facts, specific)
    fine_range = FineRange(
        Decimal(ctx.param_on("fine_min_brl", facts.date)),
        Decimal(ctx.param_on(str(entry.extra["fine_max"]), facts.date)),
        "brl",
    )
    multiplier = (
        Decimal(int(ctx.param_on("recidivism_fine_multiplier", facts.date)))
        if specific.is_recidivism
        else Decimal(1)
    )
    fine = range_fine(
        fine_range, first_offence=first, first_offence_at_minimum=True, chosen=None, multiplier=multiplier
    )
    nominal = fine.amount
    valued = reindexed(ctx, nominal, _valuation_date(ctx, facts))
    low = reindexed(ctx, fine_range.minimum, valued.valued_on).brl
    high = reindexed(ctx, fine_range.maximum, valued.valued_on).brl
    penalties: list[dict[str, Any]] = [
        {"kind": "fine", "quantity": nominal, "unit": "brl", "brl": valued.brl, "doubled": fine.doubled}
    ]
    seizure = fine.doubled and bool(entry.extra.get("seizure_on_recidivism"))
    if seizure:
        penalties.append({"kind": "seizure"})
    cassation = _cassation_due(ctx, facts, entry, rule_)
    if cassation:
        penalties.append({"kind": "cassation", "summary_process": True})
    result.update(
        penalties=penalties,
        penalty_kind="fine",
        fine_quantity=nominal,
        fine_unit="brl",
        fine_brl=valued.brl,
        valued_on=valued.valued_on,
        fine_update_factor=valued.factor,
        fine_min_brl=low * multiplier,
        fine_max_brl=high * multiplier,
        fine_fixed_by_law=fine.fixed_by_law,
        recidivism=specific.is_recidivism,
        doubled=fine.doubled,
        seizure=seizure,
        cassation=cassation,
        allowed_penalties=list(ALLOWED_PENALTIES),
        cumulative=True,
    )
    findings = [
        _recidivism_finding(ctx, specific, first),
        _fine_finding(ctx, entry, fine_range, fine.fixed_by_law, fine.doubled, valued.describe_pt(), result),
        _art22_finding(ctx),
    ]
    if seizure:
        findings.append(
            ctx.finding(
                "seizure",
                Status.INFO,
                "Reincidência específica nos incisos XXI ou XXII: a multa em dobro é cumulada com a apreensão do "
                "veículo",
                cites=("art23_par3", entry.cite),
            )
        )
    if cassation:
        findings.append(_cassation_finding(ctx))
    return findings


def _is_first(ctx: Context, facts: InfractionCase, specific: Recidivism) -> bool:
    """Art. 23 § 2º: no prior infraction (of any inciso, or of this one: INT-SJC-FIRST-INFRACTION)."""
    if ctx.interpretation("INT-SJC-FIRST-INFRACTION") == "first_of_the_inciso":
        return not specific.is_recidivism
    return not any(p.final_on < facts.date for p in facts.operator.history)


def _recidivism_finding(ctx: Context, specific: Recidivism, first: bool) -> Finding:
    if specific.is_recidivism:
        message = f"Reincidência específica ({specific.describe_pt()}): multa em dobro"
    elif first:
        message = "Primeira infração: multa no menor valor da faixa"
    else:
        message = (
            "Não é a primeira infração nem reincidência específica: multa graduada na faixa pela autoridade"
        )
    return ctx.finding(
        "recidivism",
        Status.INFO,
        message,
        cites=("art23_par3",) if specific.is_recidivism else ("art23_par2",),
        data={"priors": [p.infraction_date for p in specific.priors]},
    )


def _fine_finding(
    ctx: Context,
    entry: CatalogEntry,
    fine_range: FineRange,
    fixed: bool,
    doubled: bool,
    update: str,
    result: dict[str, Any],
) -> Finding:
    amount = format_value_pt(result["fine_brl"], "brl")
    if fixed:
        how = "o menor valor, por ser a primeira infração"
    elif doubled:
        how = "em dobro, a partir do menor valor; a autoridade pode graduar a base na faixa"
    else:
        how = "o menor valor; a autoridade gradua na faixa conforme a gravidade"
    return ctx.finding(
        "fine",
        Status.INFO,
        f"Multa {fine_range.describe_pt()} (valores de 2012): {how}. Valor: {amount} ({update}); faixa atualizada "
        f"{format_value_pt(result['fine_min_brl'], 'brl')} a {format_value_pt(result['fine_max_brl'], 'brl')}",
        cites=(
            entry.cite,
            "art23_par2" if fixed else "art23",
            *(("art23_par3",) if doubled else ()),
            "art22_par2",
        ),
    )


def _art22_finding(ctx: Context) -> Finding:
    return ctx.finding(
        "sanctions_available",
        Status.INFO,
        "Conforme a gravidade, a autoridade pode aplicar, separada ou cumulativamente e independente da sequência, "
        "advertência escrita, multa, apreensão do veículo e suspensão do exercício da atividade",
        cites=ART22_CITES,
    )


def _cassation_due(ctx: Context, facts: InfractionCase, entry: CatalogEntry, rule_: RecidivismRule) -> bool:
    """Art. 24: a prior decision that already doubled the fine (itself a specific recidivism), and the
    irregularity persists (the same inciso, or any: INT-SJC-CASSATION-TRIGGER)."""
    same = ctx.interpretation("INT-SJC-CASSATION-TRIGGER") == "same_irregularity"
    history = facts.operator.history
    return any(
        _was_doubled(history, prior, rule_)
        for prior in history
        if prior.final_on < facts.date and (not same or prior.infraction_code == entry.code)
    )


def _was_doubled(history: tuple[PriorSanction, ...], prior: PriorSanction, rule_: RecidivismRule) -> bool:
    """A prior was a doubled fine when it was a specific recidivism itself, and was fined."""
    fined = "fine" in prior.penalties or not prior.penalties
    return fined and recidivism(history, prior.infraction_code, prior.infraction_date, rule_).is_recidivism


def _cassation_finding(ctx: Context) -> Finding:
    days = int(ctx.param("cassation_appeal_days"))
    return ctx.finding(
        "cassation",
        Status.INFO,
        "Irregularidade persistente após multa em dobro: abre-se processo administrativo de cassação sumária da "
        f"permissão, determinada pelo Poder Executivo nos autos; cabe recurso em até {days} dias",
        cites=("art24", "art24_par1"),
    )


def _valuation_date(ctx: Context, facts: InfractionCase) -> dt.date:
    option = ctx.interpretation("INT-SJC-FINE-VALUATION-DATE")
    if option == "auto_date":
        return ctx.require(facts.auto_date, "auto_date")
    if option == "guide_issue_date":
        return ctx.require(facts.guide_issue_date, "guide_issue_date")
    return facts.date


# --- art. 24 § 2º: clandestine transport ----------------------------------------------------------------------


def _clandestine(ctx: Context, facts: InfractionCase, result: dict[str, Any]) -> list[Finding]:
    nominal = Decimal(ctx.param_on("clandestine_fine_brl", facts.date))
    valued = reindexed(ctx, nominal, _valuation_date(ctx, facts))
    defense_days = int(ctx.param_on("clandestine_defense_days", facts.date))
    result.update(
        penalties=[
            {"kind": "fine", "quantity": nominal, "unit": "brl", "brl": valued.brl, "doubled": False},
            {"kind": "seizure", "summary": True},
        ],
        penalty_kind="fine",
        fine_quantity=nominal,
        fine_unit="brl",
        fine_brl=valued.brl,
        valued_on=valued.valued_on,
        fine_update_factor=valued.factor,
        fine_fixed_by_law=True,
        recidivism=False,
        doubled=False,
        seizure=True,
        cassation=False,
        allowed_penalties=["fine", "seizure"],
        cumulative=True,
    )
    return [
        ctx.finding(
            "clandestine",
            Status.INFO,
            f"Transporte clandestino: multa de {format_value_pt(valued.brl, 'brl')} ({valued.describe_pt()}) e "
            "apreensão sumária do veículo, removido a depositário fiel inscrito na Prefeitura",
            cites=("art24_par2", "art22_par2"),
        ),
        ctx.finding(
            "seizure_release",
            Status.INFO,
            f"Para liberar o veículo: defesa escrita em {defense_days} dias à Secretaria de Transportes e, antes "
            "da retirada, pagamento da estadia ao depositário, do guincho, se houver, e das multas "
            f"(infração em {br(facts.date)})",
            cites=("art24_par3", "art24_par4"),
        ),
    ]
