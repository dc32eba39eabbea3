"""What the portal shows about a case: whether a defence or appeal can be filed now and until when (the
engine's deadline, through dueprocess), an application's deadlines (licensing's own timeline) and each permit's
legal status with its reason and article (licensing's standing, the same the public page and platforms read).

The appeal window is due process's (apps.dueprocess.windows, which notifications reads too); it is re-exported
here for the portal's views."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from apps.dueprocess.choices import SanctionState
from apps.dueprocess.models import Sanction
from apps.dueprocess.selectors import sanction_suspension
from apps.dueprocess.windows import AppealWindow as AppealWindow
from apps.dueprocess.windows import appeal_window as appeal_window
from apps.dueprocess.windows import no_appeal_reason as no_appeal_reason
from apps.enforcement.models import InfractionCase
from apps.finance.choices import GuideStatus
from apps.finance.selectors import fine_charge
from apps.licensing.models import Application, Permit
from apps.licensing.presenters import application_timeline
from apps.licensing.standing import Standing, standings
from apps.licensing.timeline import PlacedMark
from apps.registry.models import Driver


def application_deadlines(application: Application, today: dt.date) -> list[PlacedMark]:
    """The application's deadlines (met, due or overdue) as licensing computes them for its own timeline."""
    events = list(application.events.order_by("on", "pk"))
    return [
        mark
        for mark in application_timeline(application, events, today)
        if mark.status in ("met", "due", "overdue")
    ]


def permit_lines(
    permits: Iterable[Permit], today: dt.date, *, driver: Driver | None = None
) -> list[tuple[Permit, Standing]]:
    """Each permit with its legal status today (reason and article). A driver's account sees the status for
    them — their own CNH counts — the same answer the platforms' check gives for their CPF."""
    rows = list(permits)
    return list(zip(rows, standings([(permit, driver) for permit in rows], as_of=today), strict=True))


@dataclass(frozen=True)
class NextStep:
    """One thing the operator has to do (or wait for) on a case, with its date; ``late`` flags a missed one."""

    text: str
    late: bool = False


def case_next_steps(case: InfractionCase, window: AppealWindow | None, as_of: dt.date) -> list[NextStep]:
    """What to do now about a case, from its sanction, its fine guide and the appeal window (in that order of
    urgency): appeal while one can, pay the fine by its due date, keep the vehicle off the road while suspended,
    regularize before a conditional cassation, bring the vehicle to inspection when the suspension ends."""
    sanction = getattr(case, "sanction", None)
    steps = []
    if window is not None:
        steps.append(NextStep(window.summary, window.late))
    if sanction is None:
        if window is None:
            steps.append(NextStep("Aguarde: a prefeitura ainda não decidiu este auto; você será notificado."))
        return steps
    if sanction.state == SanctionState.ANNULLED:
        return [*steps, NextStep("Nada a fazer: a penalidade foi anulada.")]
    steps += _fine_steps(sanction, as_of)
    steps += _suspension_steps(sanction, as_of)
    return steps


def _fine_steps(sanction: Sanction, as_of: dt.date) -> list[NextStep]:
    guide = sanction.guide
    if guide is None:
        waiting = fine_charge(origin_id=sanction.pk).waiting if sanction.has_fine else None
        if waiting is not None:
            return [NextStep(waiting.waiting_message)]
        if sanction.has_fine:
            return [NextStep("A guia da multa ainda não foi emitida; ela aparecerá em Pagamentos.")]
        return []
    if guide.status == GuideStatus.PAID:
        return [NextStep(f"Multa paga (guia {guide.number}).")]
    if guide.status != GuideStatus.OPEN:
        return []
    if guide.due_on < as_of:
        return [NextStep(f"Pague a guia {guide.number}: venceu em {guide.due_on:%d/%m/%Y}.", late=True)]
    return [NextStep(f"Pague a guia {guide.number} até {guide.due_on:%d/%m/%Y}.")]


def _suspension_steps(sanction: Sanction, as_of: dt.date) -> list[NextStep]:
    steps = []
    period = sanction_suspension(sanction)
    end = period.end if period is not None and period.lifted_on is None else None
    if period is not None and end is not None and end >= as_of:
        steps.append(
            NextStep(
                f"Não opere o veículo de {period.start:%d/%m/%Y} a {end:%d/%m/%Y}: a autorização está suspensa."
            )
        )
    if sanction.inspection_required and end and end >= as_of - dt.timedelta(days=30):
        steps.append(NextStep(f"Apresente o veículo à vistoria ao fim da suspensão ({end:%d/%m/%Y})."))
    deadline = sanction.cassation_if_not_regularized_by
    if deadline and sanction.regularized_on is None:
        steps.append(
            NextStep(
                f"Regularize a irregularidade até {deadline:%d/%m/%Y}; sem isso a autorização é cassada.",
                late=deadline < as_of,
            )
        )
    return steps
