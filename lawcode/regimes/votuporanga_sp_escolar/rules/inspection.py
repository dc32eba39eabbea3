"""Semestral inspections by the plate's final digit (art. 4º § 4º I–V) and the missed-inspection fine (§ 5º).

The final digit is the plate's last character, a digit in both the old (ABC1234) and the Mercosul (ABC1D23)
formats. The "cycle" on a date is the latest due month that has begun; the inspection of that cycle is done,
due (its month is running) or overdue. Whether an inspection before the due month counts is
INT-VOT-INSPECTION-WINDOW.
"""

from __future__ import annotations

import calendar as stdlib_calendar
import datetime as dt
from typing import Any

from lawcode.context import Context
from lawcode.decision import Finding, RuleResult, Status
from lawcode.errors import InvalidFactError
from lawcode.facts import InspectionFacts
from lawcode.regime import rule

from .common import br

# Decision table of art. 4º § 4º: final digit → (first-semester month, second-semester month, inciso).
CALENDAR: dict[int, tuple[int, int, str]] = {
    1: (2, 8, "art4_par4_incI"),
    2: (2, 8, "art4_par4_incI"),
    3: (3, 9, "art4_par4_incII"),
    4: (3, 9, "art4_par4_incII"),
    5: (4, 10, "art4_par4_incIII"),
    6: (4, 10, "art4_par4_incIII"),
    7: (5, 11, "art4_par4_incIV"),
    8: (5, 11, "art4_par4_incIV"),
    9: (6, 12, "art4_par4_incV"),
    0: (6, 12, "art4_par4_incV"),
}
MONTHS_PT = (
    "janeiro",
    "fevereiro",
    "março",
    "abril",
    "maio",
    "junho",
    "julho",
    "agosto",
    "setembro",
    "outubro",
    "novembro",
    "dezembro",
)
INSPECTION_CITES = (
    "art4_par4",
    "art4_par4_incI",
    "art4_par4_incII",
    "art4_par4_incIII",
    "art4_par4_incIV",
    "art4_par4_incV",
    "art4_par5",
)


def final_digit(plate: str) -> int:
    """The plate's last character as a digit; InvalidFactError for anything else."""
    last = plate.strip()[-1:] if plate.strip() else ""
    if not last.isdigit():
        raise InvalidFactError(
            "plate", f"plate {plate!r} must end in a digit (old ABC1234 or Mercosul ABC1D23)"
        )
    return int(last)


def _month_label(year: int, month: int) -> str:
    return f"{year:04d}-{month:02d}"


def _cycle(on: dt.date, months: tuple[int, int]) -> tuple[int, int]:
    """(year, month) of the latest due month that began on or before ``on``."""
    candidates = [
        (year, month) for year in (on.year - 1, on.year) for month in months if dt.date(year, month, 1) <= on
    ]
    return max(candidates)


def _shift(year: int, month: int, months: int) -> tuple[int, int]:
    index = year * 12 + month - 1 + months
    return index // 12, index % 12 + 1


def _month_end(year: int, month: int) -> dt.date:
    return dt.date(year, month, stdlib_calendar.monthrange(year, month)[1])


@rule("inspection_calendar", cites=INSPECTION_CITES)
def inspection_calendar(ctx: Context, facts: InspectionFacts) -> RuleResult:
    digit = final_digit(ctx.require(facts.plate, "plate"))
    first, second, inciso = CALENDAR[digit]
    year = facts.year or ctx.as_of.year
    months = ", ".join(MONTHS_PT[m - 1] for m in (first, second))
    findings = [
        ctx.finding(
            "inspection_months",
            Status.INFO,
            f"Placa final {digit}: vistorias semestrais em {months} de {year}",
            cites=("art4_par4", inciso),
        )
    ]
    result: dict[str, Any] = {"final_digit": digit, "due_months": [first, second], "year": year}
    findings.append(_status(ctx, facts, (first, second), result))
    return RuleResult("computed", findings, result)


def _counts(ctx: Context, inspected: dt.date, cycle: tuple[int, int]) -> bool:
    """Whether an inspection on ``inspected`` fulfils the cycle's one (INT-VOT-INSPECTION-WINDOW)."""
    if ctx.interpretation("INT-VOT-INSPECTION-WINDOW") == "semester":
        previous_end = _month_end(*_shift(*cycle, -6))
        return previous_end < inspected <= _month_end(*cycle)
    return (inspected.year, inspected.month) == cycle


def _status(ctx: Context, facts: InspectionFacts, months: tuple[int, int], result: dict[str, Any]) -> Finding:
    cycle = _cycle(ctx.as_of, months)
    label = f"{MONTHS_PT[cycle[1] - 1]} de {cycle[0]}"
    cycle_info = {"cycle_month": _month_label(*cycle), "next_due_month": _month_label(*_shift(*cycle, 6))}
    result.update(cycle_info, missed_penalty_ufm=None)
    in_service = facts.extra.get("in_service_from")
    if in_service is not None and _month_end(*cycle) < in_service:
        return _not_in_service(ctx, label, in_service, cycle, result)
    inspected = facts.last_inspection
    if inspected is not None and _counts(ctx, inspected, cycle):
        result["status"] = "ok"
        message = f"Vistoria de {label} feita em {br(inspected)}"
        return ctx.finding("inspection_status", Status.MET, message, cites=("art4_par4",))
    if ctx.as_of <= _month_end(*cycle):
        result["status"] = "due"
        message = f"Vistoria de {label} a fazer até {br(_month_end(*cycle))}"
        return ctx.finding("inspection_status", Status.INFO, message, cites=("art4_par4",))
    return _overdue(ctx, label, result)


def _not_in_service(
    ctx: Context, label: str, in_service: dt.date, cycle: tuple[int, int], result: dict[str, Any]
) -> Finding:
    """§ 4º submits the vehicle «usado na atividade»: a due month that ended before it entered service owes no
    inspection, so neither is it missed (§ 5º)."""
    result["status"] = "not_in_service"
    year, month = _shift(*cycle, 6)
    message = (
        f"Veículo em serviço desde {br(in_service)}, depois do mês da vistoria de {label}: nada devido nesse "
        f"mês; a primeira vistoria semestral é a de {MONTHS_PT[month - 1]} de {year}"
    )
    return ctx.finding("inspection_status", Status.NOT_APPLICABLE, message, cites=("art4_par4",))


def _overdue(ctx: Context, label: str, result: dict[str, Any]) -> Finding:
    """Art. 4º § 5º: missing any of the semestral inspections costs the operator 135 UFM."""
    penalty = int(ctx.param("missed_inspection_fine_ufm"))
    result.update(status="overdue", missed_penalty_ufm=penalty)
    message = f"Vistoria de {label} não feita: penalidade de {penalty} UFM ao transportador"
    counterfactual = f"não haveria penalidade com a vistoria feita em {label}"
    return ctx.finding(
        "inspection_status",
        Status.NOT_MET,
        message,
        cites=("art4_par4", "art4_par5"),
        counterfactual=counterfactual,
    )
