"""Art. 40: the transition periods for providers already in service when the law was published.

- caput: 30 days "para adequações" (physical adaptations of vehicle and operation);
- § 2º: documentary regularization until 31 January of the following year;
- I and § 1º: one year to replace vehicles of 15 years or more that passed the DETRAN inspection;
- § 3º: after those periods, circulation in non-conformity is forbidden.
Which requirements each period defers is INT-OLI-TRANSITION-SCOPE.
"""

from __future__ import annotations

import dataclasses
import datetime as dt

from lawcode.context import Context
from lawcode.deadlines import MonthRounding, count_days, count_years
from lawcode.decision import Finding, Status
from lawcode.errors import RegimeDefinitionError
from lawcode.facts import Operator, Vehicle

from .common import br, day_counting, published_on

TRANSITION_CITES = ("art40", "art40_incI", "art40_par1", "art40_par2", "art40_par3")

# Findings that rest on documents (art. 40 § 2º) and on adaptations of vehicle or operation (art. 40 caput).
DOCUMENTARY = frozenset(
    {
        "course",
        "address_proof",
        "municipal_registration",
        "municipal_tax_clearance",
        "no_gravissima_proof",
        "criminal_record_certificate",
        "criminal_distribution_certificate",
        "detran_fines_clearance",
        "crv",
        "crlv",
        "app_insurance",
        "detran_school_authorization",
        "ownership",
        "cnpj_card",
        "articles_of_association",
        "employment_contract",
    }
)
ADAPTATION = frozenset({"tachograph", "door_identification", "attendant", "registration_municipality"})


def adaptation_end(ctx: Context) -> dt.date:
    counting, extend = day_counting(ctx, plain_days=True)
    days = int(ctx.param("adaptation_period_days"))
    return count_days(
        published_on(ctx), days, counting=counting, calendar=ctx.calendar, extend_to_business_day=extend
    ).end


def documentary_end(ctx: Context) -> dt.date:
    value = ctx.param("documentary_regularization_deadline")
    if not isinstance(value, dt.date):
        raise RegimeDefinitionError(
            "documentary_regularization_deadline must be a date",
            file=str(ctx.regime.folder / "parameters.yaml"),
        )
    return value


def replacement_end(ctx: Context) -> dt.date:
    """Art. 40 I: one year from publication, date to date (Lei 9.784 art. 66 §3)."""
    years = int(ctx.param("old_vehicle_replacement_years"))
    return count_years(
        published_on(ctx),
        years,
        rounding=MonthRounding.LAST_DAY_OF_MONTH,
        calendar=ctx.calendar,
        extend_to_business_day=False,
    ).end


def in_service_at_publication(ctx: Context, since: dt.date | None) -> bool:
    return since is not None and since <= published_on(ctx)


def is_incumbent(ctx: Context, vehicle: Vehicle) -> bool:
    """The vehicle was already in service when the law took effect (art. 40 I: "troca dos veículos")."""
    return in_service_at_publication(ctx, vehicle.registered_in_service_on)


def provider_is_incumbent(ctx: Context, operator: Operator, vehicle: Vehicle | None = None) -> bool:
    """A provider already active when the law took effect: the operator or its vehicle was in service."""
    vehicle_active = vehicle is not None and is_incumbent(ctx, vehicle)
    return vehicle_active or in_service_at_publication(ctx, operator.in_service_since)


def grace_for(ctx: Context, code: str) -> tuple[dt.date, str] | None:
    """(last day, article) of the transition that defers finding ``code``, or None if none does."""
    if code in DOCUMENTARY:
        return documentary_end(ctx), "art40_par2"
    if code in ADAPTATION:
        if ctx.interpretation("INT-OLI-TRANSITION-SCOPE") == "all_requirements":
            return documentary_end(ctx), "art40_par2"
        return adaptation_end(ctx), "art40"
    return None


def with_transition(ctx: Context, finding: Finding) -> tuple[Finding, dt.date | None]:
    """A not-met finding of an incumbent: a warning while its transition runs, not met (§ 3º) after it.

    Returns the finding and, when it became a warning, the last day of the transition (caps the permit).
    """
    grace = grace_for(ctx, finding.code) if finding.status is Status.NOT_MET else None
    if grace is None:
        return finding, None
    end, article = grace
    if ctx.as_of <= end:
        message = f"{finding.message} — prazo de transição para prestadores em atividade até {br(end)}"
        return dataclasses.replace(
            finding,
            status=Status.WARNING,
            message=message,
            citations=finding.citations + ctx.cites((article,)),
        ), end
    message = f"{finding.message} — prazo de transição encerrado em {br(end)}"
    return dataclasses.replace(
        finding, message=message, citations=finding.citations + ctx.cites(("art40_par3",))
    ), None
