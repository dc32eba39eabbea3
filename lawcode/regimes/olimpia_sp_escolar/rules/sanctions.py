"""Sanctions (arts. 21 to 28) computed from the infraction and the operator's history of final decisions,
and the fine's value in reais (art. 30 VII, art. 33)."""

from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal
from typing import Any

from lawcode.context import Context
from lawcode.decision import Finding, RuleResult, Status
from lawcode.errors import InvalidFactError, LawNotInForceError
from lawcode.facts import FineFacts, InfractionCase, PriorSanction
from lawcode.regime import CatalogEntry, rule

from .common import br, money, months_later, period_end, years_period_end
from .penalty_table import (
    CLANDESTINE_CODE,
    LEVE_WINDOW_MONTHS,
    SEVERITY_TABLE,
    SPECIAL_INCISOS,
    Recidivism,
    Special,
    SpecialRule,
)

SEVERITY_PT = {"leve": "leve", "media": "média", "grave": "grave", "gravissima": "gravíssima"}


@dataclasses.dataclass
class Penalties:
    """What the law imposes for one infraction; filled step by step by the table and the special incisos."""

    warning: bool = False
    fine_quantity: Decimal | None = None
    doubled: bool = False
    suspension_days: int | None = None
    suspension_start: dt.date | None = None
    suspension_end: dt.date | None = None
    immediate: bool = False  # art. 24 sole §: applied when the auto is drawn up (penalties.yaml)
    inspection_required: bool = False
    cassation: bool = False
    cassation_on: dt.date | None = None
    cassation_if_not_regularized_by: dt.date | None = None
    conditional_ban_years: int | None = None  # art. 26 ban that follows the art. 24 sole § cassação
    ban_years: int | None = None
    ban_start: dt.date | None = None
    ban_until: dt.date | None = None
    recidivism: bool = False
    cites: dict[str, list[str]] = dataclasses.field(default_factory=dict)

    def cite(self, kind: str, *refs: str) -> None:
        """Record the dispositivos behind one kind of penalty (warning, fine, suspension, cassation, ban…)."""
        self.cites.setdefault(kind, []).extend(refs)

    def cites_for(self, kind: str) -> tuple[str, ...]:
        return tuple(dict.fromkeys(self.cites.get(kind, [])))


def catalog_entry(ctx: Context, code: str) -> CatalogEntry:
    entry = ctx.regime.catalog.get(code)
    if entry is None:
        raise InvalidFactError(
            "code",
            f"unknown infraction code {code!r}; see catalog.yaml ({', '.join(sorted(ctx.regime.catalog))})",
        )
    return entry


def prior_severity(ctx: Context, prior: PriorSanction, index: int) -> str:
    if prior.severity:
        return prior.severity
    entry = ctx.regime.catalog.get(prior.infraction_code)
    if entry is None:
        raise InvalidFactError(
            f"operator.history[{index}].severity",
            f"give the severity or a known infraction code (got {prior.infraction_code!r})",
        )
    return entry.severity


def window_months(ctx: Context, recidivism: Recidivism, on: dt.date) -> int | None:
    if recidivism.window_months_param is None:
        return LEVE_WINDOW_MONTHS[ctx.interpretation("INT-OLI-LEVE-RECIDIVISM-WINDOW")]
    return int(ctx.param_on(recidivism.window_months_param, on))


def find_recidivism(
    ctx: Context, case: InfractionCase, severity: str, recidivism: Recidivism
) -> PriorSanction | None:
    """The latest prior final decision that makes this a repeat offence, by the three interpretations."""
    history = case.operator.history
    if not history:
        return None
    same_class = ctx.interpretation("INT-OLI-RECIDIVISM-SCOPE") == "same_severity"
    from_final = ctx.interpretation("INT-OLI-RECIDIVISM-ANCHOR") == "prior_final_decision"
    months = window_months(ctx, recidivism, case.date)
    for index, prior in sorted(enumerate(history), key=lambda p: p[1].final_on, reverse=True):
        if same_class and prior_severity(ctx, prior, index) != severity:
            continue
        anchor = prior.final_on if from_final else prior.infraction_date
        in_window = months is None or case.date <= months_later(anchor, months)
        if prior.infraction_date < case.date and anchor <= case.date and in_window:
            return prior
    return None


def apply_table(
    ctx: Context, case: InfractionCase, severity: str, penalties: Penalties
) -> PriorSanction | None:
    table = SEVERITY_TABLE[severity]
    penalties.warning = table.warning
    if table.warning:
        penalties.cite("warning", table.cite)
    if table.fine_param:
        penalties.fine_quantity = Decimal(ctx.param_on(table.fine_param, case.date))
        penalties.cite("fine", table.cite)
    if table.suspension_days_param:
        penalties.suspension_days = int(ctx.param_on(table.suspension_days_param, case.date))
        penalties.cite("suspension", table.cite)
    prior = find_recidivism(ctx, case, severity, table.recidivism)
    if prior is not None:
        apply_recidivism(ctx, case, table.recidivism, penalties)
    return prior


def apply_recidivism(
    ctx: Context, case: InfractionCase, recidivism: Recidivism, penalties: Penalties
) -> None:
    penalties.recidivism = True
    if recidivism.fine_param:
        penalties.warning = False
        penalties.fine_quantity = Decimal(ctx.param_on(recidivism.fine_param, case.date))
        penalties.cite("fine", recidivism.cite)
    if recidivism.multiplier_param and penalties.fine_quantity is not None:
        penalties.fine_quantity *= Decimal(ctx.param_on(recidivism.multiplier_param, case.date))
        penalties.doubled = True
        penalties.cite("fine", recidivism.cite)
    if recidivism.suspension_days_param:
        penalties.suspension_days = int(ctx.param_on(recidivism.suspension_days_param, case.date))
        penalties.cite("suspension", recidivism.cite)
    if recidivism.cassation:
        penalties.cite("cassation", recidivism.cite)
        penalties.cassation, penalties.cassation_on, penalties.suspension_days = (
            True,
            case.decided_final_on,
            None,
        )


def apply_special(ctx: Context, case: InfractionCase, special: SpecialRule, penalties: Penalties) -> None:
    if special.kind is Special.DIRECT_CASSATION:
        penalties.cite("cassation", special.cite)
        penalties.cassation, penalties.cassation_on, penalties.suspension_days = (
            True,
            case.decided_final_on,
            None,
        )
        return
    if penalties.cassation or special.suspension_days_param is None:
        return
    penalties.suspension_days = int(ctx.param_on(special.suspension_days_param, case.date))
    penalties.cite("suspension", special.cite)
    if special.kind is Special.SUSPENSION_WITH_INSPECTION:
        penalties.inspection_required = True
        penalties.cite("inspection", special.cite)
        return
    penalties.cite("cassation", special.cite)
    penalties.immediate = True
    start = case.date  # "de forma imediata"
    penalties.suspension_start, penalties.suspension_end = start, period_end(start, penalties.suspension_days)
    immediate_cassation(ctx, case, penalties)


def immediate_cassation(ctx: Context, case: InfractionCase, penalties: Penalties) -> None:
    """Art. 24 sole §: cassação when the irregularity is not regularized by the end of the suspension."""
    end = penalties.suspension_end
    if end is None or (case.regularized_by is not None and case.regularized_by <= end):
        return
    if ctx.as_of <= end:
        penalties.cassation_if_not_regularized_by = end
        penalties.conditional_ban_years = int(ctx.param_on("cassation_ban_years", case.date))
        penalties.cite("cassation", "art26")
        return
    penalties.cassation, penalties.cassation_on = True, end + dt.timedelta(days=1)


def finish_dates(ctx: Context, case: InfractionCase, penalties: Penalties) -> None:
    """Suspensions start when the decision becomes final (unless immediate); cassação bans for 2 years."""
    if penalties.suspension_days and penalties.suspension_start is None and case.decided_final_on:
        penalties.suspension_start = case.decided_final_on
        penalties.suspension_end = period_end(case.decided_final_on, penalties.suspension_days)
    if penalties.cassation:
        penalties.cite("ban", "art26")
        penalties.ban_years = int(ctx.param_on("cassation_ban_years", case.date))
        set_ban(penalties, penalties.cassation_on)


def if_not_regularized(penalties: Penalties) -> dict[str, Any] | None:
    """Art. 24 sole § + art. 26: what follows if the irregularity is still there when the suspension ends —
    cassação the next day and the ban from that day (None when nothing is pending)."""
    deadline = penalties.cassation_if_not_regularized_by
    years = penalties.conditional_ban_years
    if deadline is None or years is None:
        return None
    cassation_on = deadline + dt.timedelta(days=1)
    return {
        "cassation": True,
        "deadline": deadline,
        "cassation_on": cassation_on,
        "cassation_cite": "art24_parun",
        "ban_years": years,
        "ban_start": cassation_on,
        "ban_until": years_period_end(cassation_on, years),
        "ban_cite": "art26",
    }


def set_ban(penalties: Penalties, start: dt.date | None) -> None:
    if start is not None and penalties.ban_years is not None:
        penalties.ban_start, penalties.ban_until = start, years_period_end(start, penalties.ban_years)


def clandestine(ctx: Context, case: InfractionCase) -> Penalties:
    """Art. 27: 75 UFESP and a 2-year ban from the final decision."""
    penalties = Penalties()
    penalties.cite("fine", "art27", "art1")
    penalties.cite("ban", "art27")
    penalties.fine_quantity = Decimal(ctx.param_on("clandestine_fine", case.date))
    penalties.ban_years = int(ctx.param_on("clandestine_ban_years", case.date))
    set_ban(penalties, case.decided_final_on)
    return penalties


def value_pending(ctx: Context, valued_on: dt.date) -> Finding:
    """The fine stands; its amount in reais waits for the UFESP of its valuation date to be published."""
    return ctx.finding(
        "fine_value_pending",
        Status.INFO,
        f"Valor em reais a apurar: ainda não há valor da UFESP de {valued_on.year}; a multa será convertida "
        "quando ele for publicado e cadastrado",
        cites=("art30_incVII",),
    )


def valuation_date(ctx: Context, case: InfractionCase) -> dt.date:
    """The date whose UFESP values the fine (INT-OLI-FINE-VALUATION-DATE)."""
    option = ctx.interpretation("INT-OLI-FINE-VALUATION-DATE")
    if option == "auto_date":
        return ctx.require(case.auto_date, "auto_date")
    if option == "guide_date":
        return ctx.require(case.guide_issue_date, "guide_issue_date")
    return case.date


def liable_operator(case: InfractionCase) -> str | None:
    holder = case.operator.company if case.operator.kind == "PJ" else case.operator.person
    return holder.name if holder is not None else None


def penalty_findings(ctx: Context, penalties: Penalties, brl: Decimal | None) -> list[Finding]:
    """One finding per penalty, citing its inciso of art. 21 and the dispositivos that impose it."""
    out = []
    if penalties.warning:
        out.append(info(ctx, penalties, "warning", "art21_incI", "Advertência"))
    if penalties.fine_quantity is not None:
        doubled = " (em dobro, por reincidência)" if penalties.doubled else ""
        amount = f" = {money(brl)}" if brl is not None else ""
        text = f"Multa de {penalties.fine_quantity} UFESP{doubled}{amount}"
        out.append(info(ctx, penalties, "fine", "art21_incII", text))
    if penalties.suspension_days:
        start, end = penalties.suspension_start, penalties.suspension_end
        when = f" de {br(start)} a {br(end)}" if start and end else " a partir da decisão definitiva"
        text = f"Suspensão de {penalties.suspension_days} dias{when}"
        out.append(info(ctx, penalties, "suspension", "art21_incIII", text))
    return out + cassation_findings(ctx, penalties)


def info(ctx: Context, penalties: Penalties, kind: str, art21_inciso: str | None, text: str) -> Finding:
    cites = ((art21_inciso,) if art21_inciso else ()) + penalties.cites_for(kind)
    return ctx.finding(f"penalty_{kind}", Status.INFO, text, cites=cites)


def cassation_findings(ctx: Context, penalties: Penalties) -> list[Finding]:
    out = []
    pending = penalties.cassation_if_not_regularized_by
    conditional = if_not_regularized(penalties)
    if pending and conditional:
        text = (
            f"Cassação do alvará se a irregularidade não for sanada até {br(pending)}, com impedimento de "
            f"{conditional['ban_years']} anos, de {br(conditional['ban_start'])} a {br(conditional['ban_until'])}"
        )
        out.append(
            dataclasses.replace(info(ctx, penalties, "cassation", "art21_incIV", text), status=Status.WARNING)
        )
    if penalties.cassation:
        out.append(info(ctx, penalties, "cassation", "art21_incIV", "Cassação do alvará"))
    if penalties.inspection_required:
        out.append(info(ctx, penalties, "inspection", None, "Vistoria do veículo ao fim da suspensão"))
    if penalties.ban_years:
        start, until = penalties.ban_start, penalties.ban_until
        span = f"de {br(start)} a {br(until)}" if start and until else "a partir da decisão definitiva"
        text = f"Impedimento de atuar por {penalties.ban_years} anos, {span}"
        out.append(info(ctx, penalties, "ban", None, text))
    return out


def auto_finding(ctx: Context, case: InfractionCase) -> Finding:
    """Art. 30: omissions in the auto warn but never void it (sole paragraph)."""
    contents = {item.item: item.cite for item in ctx.regime.procedure.auto.items}  # procedure.yaml, art. 30
    unknown = [item for item in case.auto_omissions if item not in contents]
    if unknown:
        raise InvalidFactError("auto_omissions", f"unknown item(s) {unknown}; use: {', '.join(contents)}")
    if not case.auto_omissions:
        return ctx.finding(
            "auto_contents", Status.MET, "Auto de infração com os elementos do art. 30", cites=("art30",)
        )
    incisos = tuple(contents[item] for item in case.auto_omissions)
    return ctx.finding(
        "auto_contents",
        Status.WARNING,
        "O auto omite elementos do art. 30; a omissão não anula o "
        "processo se houver elementos para determinar a infração e o infrator",
        cites=(*incisos, "art30_parun"),
    )


def penalty_list(penalties: Penalties, brl: Decimal | None) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if penalties.warning:
        out.append({"kind": "warning"})
    if penalties.fine_quantity is not None:
        out.append(
            {
                "kind": "fine",
                "quantity": penalties.fine_quantity,
                "unit": "ufesp",
                "brl": brl,
                "doubled": penalties.doubled,
            }
        )
    if penalties.suspension_days:
        out.append(
            {
                "kind": "immediate_suspension" if penalties.immediate else "suspension",
                "days": penalties.suspension_days,
                "start": penalties.suspension_start,
                "end": penalties.suspension_end,
            }
        )
    if penalties.inspection_required:
        out.append({"kind": "inspection_required"})
    if penalties.cassation:
        out.append({"kind": "cassation", "start": penalties.cassation_on})
    if penalties.ban_years:
        out.append({"kind": "ban", "start": penalties.ban_start, "end": penalties.ban_until})
    return out


def penalty_result(
    case: InfractionCase, penalties: Penalties, brl: Decimal | None, valued_on: dt.date | None
) -> dict[str, Any]:
    return {
        "penalties": penalty_list(penalties, brl),
        "warning": penalties.warning,
        "fine_quantity": penalties.fine_quantity,
        "fine_unit": "ufesp" if penalties.fine_quantity else None,
        "fine_brl": brl,
        "fine_valuation_date": valued_on,
        "doubled": penalties.doubled,
        "suspension_days": penalties.suspension_days,
        "suspension_start": penalties.suspension_start,
        "suspension_end": penalties.suspension_end,
        "inspection_required": penalties.inspection_required,
        "cassation": penalties.cassation,
        "cassation_if_not_regularized_by": penalties.cassation_if_not_regularized_by,
        "if_not_regularized": if_not_regularized(penalties),
        "ban_start": penalties.ban_start,
        "ban_until": penalties.ban_until,
        "recidivism": penalties.recidivism,
        "liable_operator": liable_operator(case),
        "committed_by": case.committed_by,
    }


# Infractions that consist in breaching a requirement the law sets elsewhere: the sanction cites that requirement
# too, so the decision shows which duty was broken (art. 24 IX: the attendant art. 13 VI requires for children up
# to 3 years old).
BREACHED_REQUIREMENT: dict[str, tuple[str, ...]] = {
    "art24_incIX": ("art13_incVI",),
}


def context_findings(ctx: Context, case: InfractionCase, entry: CatalogEntry) -> list[Finding]:
    severity = SEVERITY_PT.get(entry.severity, "com penalidade própria")
    findings = [
        ctx.finding(
            "infraction",
            Status.INFO,
            f"{entry.title} — infração {severity}, apurada após contraditório e ampla defesa",
            cites=(entry.cite, *BREACHED_REQUIREMENT.get(entry.cite, ()), "art21"),
        ),
        auto_finding(ctx, case),
    ]
    if case.committed_by:
        findings.append(
            ctx.finding(
                "joint_liability",
                Status.INFO,
                f"O autorizatário {liable_operator(case)} "
                f"responde solidariamente pelo ato de {case.committed_by}",
                cites=("art28",),
            )
        )
    return findings


def penalties_for(ctx: Context, case: InfractionCase, entry: CatalogEntry) -> tuple[Penalties, list[Finding]]:
    if case.code == CLANDESTINE_CODE:
        return clandestine(ctx, case), []
    penalties = Penalties()
    prior = apply_table(ctx, case, entry.severity, penalties)
    special = SPECIAL_INCISOS.get(case.code)
    if special is not None:
        apply_special(ctx, case, special, penalties)
    finish_dates(ctx, case, penalties)
    if prior is None:
        return penalties, []
    return penalties, [
        ctx.finding(
            "recidivism",
            Status.INFO,
            f"Reincidência: {prior.infraction_code} cometida em "
            f"{br(prior.infraction_date)}, decisão definitiva em {br(prior.final_on)}",
            cites=(SEVERITY_TABLE[entry.severity].recidivism.cite,),
        )
    ]


SANCTION_CITES = (
    "art13_incVI",
    "art1",
    "art21",
    "art21_incI",
    "art21_incII",
    "art21_incIII",
    "art21_incIV",
    "art21_par2",
    "art22",
    "art22_incI",
    "art22_incII",
    "art22_incIII",
    "art22_incIV",
    "art22_parun",
    "art23",
    "art23_incI",
    "art23_incII",
    "art23_incIII",
    "art23_incIV",
    "art23_incV",
    "art23_incVI",
    "art23_parun",
    "art24",
    "art24_incI",
    "art24_incII",
    "art24_incIII",
    "art24_incIV",
    "art24_incV",
    "art24_incVI",
    "art24_incVII",
    "art24_incVIII",
    "art24_incIX",
    "art24_incX",
    "art24_parun",
    "art25",
    "art25_incI",
    "art25_incII",
    "art25_incIII",
    "art25_incIV",
    "art25_incV",
    "art25_par1",
    "art25_par2",
    "art25_par3",
    "art26",
    "art27",
    "art28",
    "art30",
    "art30_incI",
    "art30_incII",
    "art30_incIII",
    "art30_incIV",
    "art30_incV",
    "art30_incVI",
    "art30_incVII",
    "art30_incVIII",
    "art30_parun",
)


@rule("sanction", cites=SANCTION_CITES)
def sanction(ctx: Context, case: InfractionCase) -> RuleResult:
    """The penalties for one infraction, after the art. 21 § 2º guard against double punishment."""
    entry = catalog_entry(ctx, case.code)
    if case.date < ctx.regime.in_force:
        raise LawNotInForceError(ctx.regime.id, case.date, ctx.regime.in_force, ctx.regime.main_act.title)
    findings = context_findings(ctx, case, entry)
    if case.already_punished_as_traffic_only:
        findings.append(
            ctx.finding(
                "double_punishment_guard",
                Status.NOT_APPLICABLE,
                "O mesmo fato já foi punido "
                "exclusivamente como infração de trânsito: sem penalidade municipal",
                cites=("art21_par2",),
            )
        )
        return RuleResult("no_penalty", findings, {"penalties": [], "liable_operator": liable_operator(case)})
    penalties, extra = penalties_for(ctx, case, entry)
    valued_on = valuation_date(ctx, case) if penalties.fine_quantity is not None else None
    brl = (
        ctx.to_brl_or_wait(penalties.fine_quantity, "ufesp", valued_on, may_wait=case.fine_value_may_wait)
        if penalties.fine_quantity is not None and valued_on
        else None
    )
    findings += extra + penalty_findings(ctx, penalties, brl)
    if penalties.fine_quantity is not None and valued_on and brl is None:
        findings.append(value_pending(ctx, valued_on))
    return RuleResult("penalty", findings, penalty_result(case, penalties, brl, valued_on))


@rule("fine_amount", cites=("art30_incVII", "art33"))
def fine_amount(ctx: Context, fine: FineFacts) -> RuleResult:
    """A fine in UFESP converted to reais on the date INT-OLI-FINE-VALUATION-DATE picks."""
    if fine.unit != "ufesp":
        raise InvalidFactError("unit", "Lei 5.171/2025 fixes its fines in UFESP (art. 30 VII)")
    option = ctx.interpretation("INT-OLI-FINE-VALUATION-DATE")
    valued_on = {"auto_date": fine.auto_date, "guide_date": fine.guide_issue_date}.get(
        option, fine.infraction_date
    )
    day = ctx.require(valued_on, "auto_date" if option == "auto_date" else "guide_issue_date")
    brl = ctx.to_brl(fine.quantity, "ufesp", day)
    finding = ctx.finding(
        "fine", Status.INFO, f"{fine.quantity} UFESP em {br(day)} = {money(brl)}", cites=("art30_incVII",)
    )
    return RuleResult(
        "computed", [finding], {"quantity": fine.quantity, "unit": "ufesp", "brl": brl, "valuation_date": day}
    )
