"""Art. 11-A: temporary substitution of the registered vehicle by a rented one, reported by the platform.

The substitute must be rented ("por outro locado"), licensed and insured ("licenciamento, seguro, entre
outros"), and the platform must report the change "imediatamente". The law sets no maximum duration.
"""

from __future__ import annotations

from lawcode.context import Context
from lawcode.decision import Finding, RuleResult, Status, eligibility
from lawcode.facts import PermitApplication

from .common import br, is_usable


def temporary_substitution(ctx: Context, facts: PermitApplication) -> RuleResult:
    vehicle = facts.vehicle
    ownership = ctx.require(vehicle.ownership, "vehicle.ownership")
    rented = ownership.kind == "rental"
    licensed = is_usable(vehicle.document("crlv"), ctx.as_of)
    insured = is_usable(vehicle.document("app_insurance"), ctx.as_of)
    findings = [
        _finding(
            ctx,
            "substitute_rented",
            rented,
            "Veículo substituto locado.",
            "O art. 11-A admite a substituição apenas por outro veículo locado.",
        ),
        _finding(
            ctx,
            "substitute_licensing",
            licensed,
            "Licenciamento (CRLV) do veículo substituto em dia.",
            "Licenciamento (CRLV) do veículo substituto não comprovado.",
        ),
        _finding(
            ctx,
            "substitute_insurance",
            insured,
            "Seguro do veículo substituto vigente.",
            "Seguro do veículo substituto não comprovado.",
        ),
        _notice_finding(ctx, facts),
    ]
    return eligibility(findings, {"max_days": None, "platform_notified_on": facts.platform_notified_on})


def _finding(ctx: Context, code: str, ok: bool, met: str, not_met: str) -> Finding:
    return ctx.finding(code, Status.MET if ok else Status.NOT_MET, met if ok else not_met, cites=("art11A",))


def _notice_finding(ctx: Context, facts: PermitApplication) -> Finding:
    notified = facts.platform_notified_on
    if notified is None:
        return ctx.finding(
            "platform_notice",
            Status.NOT_MET,
            "A plataforma não comunicou a substituição do veículo aos órgãos competentes.",
            cites=("art11A",),
            counterfactual="seria deferido com a comunicação da plataforma",
        )
    started = facts.filed_on
    if started is not None and notified > started:
        return ctx.finding(
            "platform_notice",
            Status.WARNING,
            f"A plataforma comunicou a substituição em {br(notified)}, depois do início em "
            f"{br(started)}; a lei exige comunicação imediata.",
            cites=("art11A",),
        )
    return ctx.finding(
        "platform_notice",
        Status.MET,
        f"A plataforma comunicou a substituição em {br(notified)}.",
        cites=("art11A",),
    )
