"""law_in_force: the law took effect on publication (art. 40 caput) and which transitions are running."""

from __future__ import annotations

import datetime as dt

from lawcode.context import Context
from lawcode.decision import Finding, RuleResult, Status
from lawcode.facts import LawInForceFacts
from lawcode.regime import rule

from .common import br
from .transitions import adaptation_end, documentary_end, replacement_end


def transition_finding(ctx: Context, code: str, end: dt.date, what: str, cite: str) -> Finding:
    if ctx.as_of <= end:
        return ctx.finding(code, Status.INFO, f"{what}: em curso até {br(end)}", cites=(cite,))
    return ctx.finding(
        code,
        Status.NOT_APPLICABLE,
        f"{what}: encerrado em {br(end)}; é vedada a circulação em desconformidade",
        cites=(cite, "art40_par3"),
    )


# (finding code, result key, what it is in pt-BR, dispositivo) of each transition of art. 40.
TRANSITIONS = (
    ("adaptation_period", "adaptation_until", "Prazo de 30 dias para adequações", "art40"),
    (
        "documentary_regularization",
        "documentary_regularization_until",
        "Prazo para regularização documental",
        "art40_par2",
    ),
    (
        "old_vehicle_replacement",
        "old_vehicle_replacement_until",
        "Prazo para troca dos veículos com 15 anos ou mais aprovados pelo DETRAN",
        "art40_incI",
    ),
)


def not_yet_in_force(ctx: Context) -> RuleResult:
    in_force = ctx.regime.in_force
    message = f"A Lei 5.171/2025 entra em vigor em {br(in_force)}"
    finding = ctx.finding("in_force", Status.NOT_MET, message, cites=("art40",), on=in_force)
    return RuleResult("not_in_force", [finding], {"in_force": False, "in_force_from": in_force})


@rule("law_in_force", cites=("art40", "art40_incI", "art40_par2", "art40_par3"))
def law_in_force(ctx: Context, facts: LawInForceFacts) -> RuleResult:
    """In force from publication (art. 40 caput); lists the art. 40 transitions and whether each still runs."""
    in_force = ctx.regime.in_force
    if ctx.as_of < in_force:
        return not_yet_in_force(ctx)
    ends = {
        "adaptation_until": adaptation_end(ctx),
        "documentary_regularization_until": documentary_end(ctx),
        "old_vehicle_replacement_until": replacement_end(ctx),
    }
    message = f"Em vigor desde {br(in_force)}, data da publicação"
    findings = [ctx.finding("in_force", Status.MET, message, cites=("art40",))]
    findings += [
        transition_finding(ctx, code, ends[key], what, cite) for code, key, what, cite in TRANSITIONS
    ]
    running = [f.code for f in findings[1:] if f.status is Status.INFO]
    result = {"in_force": True, "in_force_from": in_force, **ends, "transitions_running": running}
    return RuleResult("in_force", findings, result)
