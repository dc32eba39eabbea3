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

from lawcode.blocks.penalties import Fine, FineRange, choose, range_fine
from lawcode.blocks.recidivism import Anchor, CountFrom, Recidivism, RecidivismRule, Scope, recidivism
from lawcode.blocks.suspensions import period_of
from lawcode.context import Context
from lawcode.decision import Finding, RuleResult, Status, format_value_pt
from lawcode.errors import InvalidFactError, LawNotInForceError
from lawcode.facts import InfractionCase, PriorSanction
from lawcode.regime import CatalogEntry, rule

from .common import IN_FORCE, br
from .fines import FINE_UNIT, FINE_UPDATE_CITES, Reindexed, reindexed

ART23_INCISOS = (
    "I",
    "II",
    "III",
    "IV",
    "V",
    "VI",
    "VII",
    "VIII",
    "IX",
    "X",
    "XI",
    "XII",
    "XIII",
    "XIV",
    "XV",
    "XVI",
    "XVII",
    "XVIII",
    "XIX",
    "XX",
    "XXI",
    "XXII",
)
# Art. 22 I–IV: what the judging authority may apply, separately or cumulatively, in any order.
ALLOWED_PENALTIES = ("warning", "fine", "seizure", "suspension")
ART22_CITES = ("art22", "art22_incI", "art22_incII", "art22_incIII", "art22_incIV")
SANCTION_CITES = (
    *ART22_CITES,
    "art23",
    *(f"art23_inc{n}" for n in ART23_INCISOS),
    "art23_par1",
    "art23_par2",
    "art23_par3",
    "art23_par4",
    "art24",
    "art24_par1",
    "art24_par2",
    "art24_par3",
    "art24_par4",
    *FINE_UPDATE_CITES,
)
WINDOW_MONTHS = {"no_window": None, "five_years": 60}
GRADED_FINE = "graded_fine"  # penalties.yaml: amount fixed at judgment within the range the rule gives


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
        return RuleResult("penalty", findings, result)
    exemption = _maintenance_exemption(ctx, facts, entry)
    if exemption is not None:
        result.update(penalties=[], recidivism=False, doubled=False, seizure=False, cassation=False)
        return RuleResult("no_penalty", [*findings, exemption], result)
    findings += _art23(ctx, facts, entry, result)
    findings += _authority_choices(ctx, facts, result)
    return RuleResult("penalty", findings, result)


def _authority_choices(ctx: Context, facts: InfractionCase, result: dict[str, Any]) -> list[Finding]:
    """Art. 22: beyond art. 23's fine, the authority may add a warning, the seizure and a suspension, separately
    or cumulatively and in any order; the choice is a fact of the case (its extra fields)."""
    days = facts.extra.get("authority_suspension_days")
    wanted = [
        kind
        for kind, chosen in (
            ("warning", facts.extra.get("authority_adds_warning")),
            ("seizure", facts.extra.get("authority_adds_seizure") and not result["seizure"]),
            ("suspension", days is not None),
        )
        if chosen
    ]
    if not wanted:
        return []
    chosen = choose(["fine", *wanted], ALLOWED_PENALTIES, cumulative=True)
    added: list[str] = []
    for kind in chosen:
        if kind == "warning":
            result["penalties"].insert(0, {"kind": "warning"})
            added.append("advertência escrita")
        elif kind == "seizure":
            result["penalties"].append({"kind": "seizure"})
            result["seizure"] = True
            added.append("apreensão do veículo")
        elif kind == "suspension" and days is not None:
            added.append(f"suspensão por {days} dias")
            result["penalties"].append(_suspension(facts, int(days), result))
    return [
        ctx.finding(
            "authority_choices",
            Status.INFO,
            "Sanções acrescentadas pela autoridade, cumulativamente: " + ", ".join(added),
            cites=ART22_CITES,
        )
    ]


def _suspension(facts: InfractionCase, days: int, result: dict[str, Any]) -> dict[str, Any]:
    """The suspension runs from the day after the decision becomes final, both ends included (no dates before)."""
    start = end = None
    if facts.decided_final_on is not None:
        period = period_of(facts.decided_final_on + dt.timedelta(days=1), days)
        start, end = period.start, period.end
    result.update(suspension_days=days, suspension_start=start, suspension_end=end)
    return {"kind": "suspension", "days": days, "start": start, "end": end}


def _maintenance_exemption(ctx: Context, facts: InfractionCase, entry: CatalogEntry) -> Finding | None:
    """Art. 23 § 4º: a workshop's report on a vehicle in maintenance exempts the fine of XVI for 30 days."""
    report = facts.extra.get("maintenance_report_on")
    if entry.cite != "art23_incXVI" or report is None:
        return None
    last_day = report + dt.timedelta(days=int(ctx.param_on("maintenance_exemption_days", facts.date)))
    exempt = report <= facts.date <= last_day
    return (
        ctx.finding(
            "maintenance_exemption",
            Status.INFO,
            f"Veículo em manutenção com laudo da oficina de {br(report)}: isento da multa até {br(last_day)}",
            cites=("art23_par4", entry.cite),
        )
        if exempt
        else None
    )


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
    """The fine of the inciso: its minimum on a first infraction (§ 2º); otherwise graded by the judging
    authority within the inciso's range, doubled on a specific recidivism (§ 3º) — the amount it fixed at
    judgment arrives in ``judged["graded_fine"]`` (nominal reais of 2012)."""
    rule_ = recidivism_rule(ctx)
    specific = recidivism(facts.operator.history, entry.code, facts.date, rule_, at=facts.occurred_at)
    doubled = specific.is_recidivism
    first = _is_first(ctx, facts, specific)
    fine_range = _art23_range(ctx, facts, entry, doubled)
    chosen = _graded_fine_chosen(facts, entry, fine_range)
    fine = range_fine(
        fine_range, first_offence=first, first_offence_at_minimum=True, chosen=chosen, multiplier=Decimal(1)
    )
    graded = not fine.fixed_by_law
    valued_on = _valuation_date(ctx, facts)
    amount = None if graded and chosen is None else fine.amount
    valued = reindexed(ctx, amount, valued_on) if amount is not None else None
    item = _fine_item(fine_range, graded, amount, valued, doubled)
    seizure = doubled and bool(entry.extra.get("seizure_on_recidivism"))
    cassation = _cassation_due(ctx, facts, entry, rule_)
    result.update(
        penalties=_art23_penalties(item, seizure, cassation),
        **_fine_fields(ctx, item, fine_range, fine, valued, valued_on),
        recidivism=doubled,
        doubled=doubled,
        seizure=seizure,
        cassation=cassation,
        allowed_penalties=list(ALLOWED_PENALTIES),
        cumulative=True,
    )
    findings = [
        _recidivism_finding(ctx, specific, first),
        _fine_finding(ctx, entry, fine_range, fine.fixed_by_law, doubled, valued, result),
        _art22_finding(ctx),
    ]
    if seizure:
        findings.append(_seizure_finding(ctx, entry))
    if cassation:
        findings.append(_cassation_finding(ctx))
    return findings


def _art23_range(ctx: Context, facts: InfractionCase, entry: CatalogEntry, doubled: bool) -> FineRange:
    """The inciso's range on the infraction's date; both ends doubled on a specific recidivism (§ 3º)."""
    multiplier = (
        Decimal(int(ctx.param_on("recidivism_fine_multiplier", facts.date))) if doubled else Decimal(1)
    )
    return FineRange(
        Decimal(ctx.param_on("fine_min", facts.date)) * multiplier,
        Decimal(ctx.param_on(str(entry.extra["fine_max"]), facts.date)) * multiplier,
        FINE_UNIT,
    )


def _graded_fine_chosen(facts: InfractionCase, entry: CatalogEntry, fine_range: FineRange) -> Decimal | None:
    """The amount the judging authority fixed at judgment, if any; it must lie within the range."""
    chosen = facts.judged.get(GRADED_FINE)
    if chosen is None:
        return None
    if not fine_range.contains(Decimal(chosen)):
        raise InvalidFactError(
            f"judged.{GRADED_FINE}",
            f"the graded fine {chosen} is outside the range {fine_range.minimum}–{fine_range.maximum} of {entry.cite}",
        )
    return Decimal(chosen)


def _fine_item(
    fine_range: FineRange, graded: bool, amount: Decimal | None, valued: Reindexed | None, doubled: bool
) -> dict[str, Any]:
    """The fine as a penalty item; a graded one carries its range."""
    item: dict[str, Any] = {
        "kind": GRADED_FINE if graded else "fine",
        "quantity": amount,
        "unit": FINE_UNIT,
        "brl": valued.brl if valued else None,
        "doubled": doubled,
    }
    if graded:
        item.update(min=fine_range.minimum, max=fine_range.maximum)
    return item


def _art23_penalties(item: dict[str, Any], seizure: bool, cassation: bool) -> list[dict[str, Any]]:
    penalties: list[dict[str, Any]] = [item]
    if seizure:
        penalties.append({"kind": "seizure"})
    if cassation:
        penalties.append({"kind": "cassation", "summary_process": True})
    return penalties


def _fine_fields(
    ctx: Context,
    item: dict[str, Any],
    fine_range: FineRange,
    fine: Fine,
    valued: Reindexed | None,
    valued_on: dt.date,
) -> dict[str, Any]:
    """The result's fine fields: the amount, its re-indexed value and the range's ends in reais."""
    return {
        "penalty_kind": item["kind"],
        "fine_quantity": item["quantity"],
        "fine_unit": FINE_UNIT,
        "fine_brl": item["brl"],
        "valued_on": valued_on,
        "fine_update_factor": valued.factor if valued else None,
        "fine_min_brl": reindexed(ctx, fine_range.minimum, valued_on).brl,
        "fine_max_brl": reindexed(ctx, fine_range.maximum, valued_on).brl,
        "fine_fixed_by_law": fine.fixed_by_law,
        "fine_chosen_at_judgment": not fine.fixed_by_law,
    }


def _seizure_finding(ctx: Context, entry: CatalogEntry) -> Finding:
    return ctx.finding(
        "seizure",
        Status.INFO,
        "Reincidência específica nos incisos XXI ou XXII: a multa em dobro é cumulada com a apreensão do veículo",
        cites=("art23_par3", entry.cite),
    )


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
    valued: Reindexed | None,
    result: dict[str, Any],
) -> Finding:
    low, high = (format_value_pt(result[key], "brl") for key in ("fine_min_brl", "fine_max_brl"))
    nominal = f"{format_value_pt(fine_range.minimum, 'brl')} a {format_value_pt(fine_range.maximum, 'brl')}"
    if fixed:
        how = "o menor valor, por ser a primeira infração"
    elif valued is None:
        how = "a autoridade gradua o valor na faixa, conforme a gravidade, ao julgar"
    else:
        how = "valor graduado pela autoridade no julgamento"
    amount = f"; valor: {format_value_pt(valued.brl, 'brl')} ({valued.describe_pt()})" if valued else ""
    return ctx.finding(
        "fine",
        Status.INFO,
        f"Multa{' em dobro' if doubled else ''} de {nominal} (valores de 2012; atualizados, {low} a {high}): "
        f"{how}{amount}",
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
    nominal = Decimal(ctx.param_on("clandestine_fine", facts.date))
    valued = reindexed(ctx, nominal, _valuation_date(ctx, facts))
    defense_days = int(ctx.param_on("clandestine_defense_days", facts.date))
    result.update(
        penalties=[
            {"kind": "fine", "quantity": nominal, "unit": FINE_UNIT, "brl": valued.brl, "doubled": False},
            {"kind": "seizure", "summary": True},
        ],
        penalty_kind="fine",
        fine_quantity=nominal,
        fine_unit=FINE_UNIT,
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
