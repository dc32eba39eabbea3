"""The defence or appeal open to a filing on a case now, and until when (the engine's deadline).

The portal shows it to the operator and notifications tells it with each notice; it lives in due process, which
owns the appeals and their deadlines, so both read it from below (docs/architecture.md, "Layers")."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import lawcode
from apps.dueprocess import lawbridge
from apps.dueprocess.choices import Instance
from apps.dueprocess.procedure import instance_label, proceeding
from apps.dueprocess.services import FILABLE_FROM, counts_from
from apps.enforcement.choices import CaseState
from apps.enforcement.models import InfractionCase


@dataclass(frozen=True)
class AppealWindow:
    instance: str
    label: str
    deadline: dt.date | None
    reason: str
    late: bool
    decision: Mapping[str, Any] = field(default_factory=dict)  # the engine's deadline, with its articles

    @property
    def summary(self) -> str:
        if self.deadline is None:
            return f"{self.label}: o prazo ainda não corre (sem ciência registrada); você já pode protocolar."
        if self.late:
            return (
                f"{self.label}: o prazo terminou em {self.deadline:%d/%m/%Y}. Você ainda pode protocolar; "
                "o pedido será marcado como fora do prazo e a autoridade decidirá se o conhece."
            )
        return f"{self.label}: prazo até {self.deadline:%d/%m/%Y}."


def appeal_window(case: InfractionCase, as_of: dt.date) -> AppealWindow | None:
    """The instance open to a filing now, or None (nothing to appeal, or already appealed at that instance)."""
    procedure = proceeding(case.regime_id)
    for instance in (Instance.FIRST, Instance.SECOND):
        if not procedure.has(instance) or case.state not in FILABLE_FROM[instance]:
            continue
        if case.appeals.filter(instance=instance).exists():
            return None
        start = counts_from(case, instance)
        deadline = lawbridge.appeal_deadline(case, instance, start, as_of) if start else None
        end = deadline.end if deadline else None
        return AppealWindow(
            instance,
            instance_label(case.regime_id, instance),
            end,
            deadline.message if deadline else "",
            bool(end and as_of > end),
            deadline.decision if deadline else {},
        )
    return None


def no_appeal_reason(case: InfractionCase) -> str:
    """Why no defence or appeal can be filed now, naming the article that gives (or closes) the next instance:
    an appeal to the second instance before the first judged is refused with the article that opens it."""
    procedure = proceeding(case.regime_id)
    specs = list(procedure.instances.values())
    if case.state == CaseState.CANCELLED:
        return "O auto foi cancelado: não há o que contestar."
    if case.state == CaseState.IN_DEFENCE and len(specs) > 1:
        first, second = specs[0], specs[1]
        return (
            f"«{first.label}»: pedido já protocolado e ainda não julgado. «{second.label}» só cabe contra a "
            f"decisão de primeira instância, depois do julgamento ({_cite(case, second.cite)})."
        )
    if case.state in (CaseState.IN_DEFENCE, CaseState.IN_APPEAL):
        return "O pedido já protocolado aguarda julgamento; não cabe outro nesta fase."
    if case.state in (CaseState.FINAL, CaseState.CLOSED) or (
        case.state == CaseState.JUDGED_FIRST and len(specs) == 1
    ):
        last = specs[-1]
        return (
            f"A decisão é definitiva: depois de «{last.label}» a lei não prevê outro recurso "
            f"({_cite(case, last.cite)})."
        )
    return "Não há defesa ou recurso a protocolar nesta fase do auto."


def _cite(case: InfractionCase, cite: str) -> str:
    if not cite:
        return "sem dispositivo declarado"
    return lawcode.get_regime(case.regime_id).resolve_citation(cite, case.drawn_on).render()
