"""Where the apps keep the engine's decisions: one row per model field that stores ``Decision.to_dict()``
(or a mapping of named decisions, as an inspection keeps its cure decision next to its own).

Every source's model has a municipality-scoped queryset, so the replay screen reads it through the same gate
as the page that shows the decision. A new stored decision is one more line here.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.db.models import Model

from apps.replay.compare import is_stored_decision
from apps.tenancy.models import Municipality
from apps.tenancy.querysets import MunicipalityScopedQuerySet


@dataclass(frozen=True)
class Source:
    """A model field holding stored decisions; ``key`` names it in URLs, ``label`` on screen."""

    key: str
    model_label: str
    field: str
    label: str

    @property
    def model(self) -> type[Model]:
        return apps.get_model(self.model_label)

    def scoped(self) -> MunicipalityScopedQuerySet[Any]:
        rows = self.model._default_manager.all()
        if not isinstance(rows, MunicipalityScopedQuerySet):
            raise TypeError(f"{self.model_label} has no municipality-scoped queryset")
        return rows

    def rows(self, municipality: Municipality) -> MunicipalityScopedQuerySet[Any]:
        """The rows of ``municipality`` that hold a decision in the field."""
        rows = self.scoped()
        path = rows.municipality_field
        return rows.filter(**{path: municipality}).exclude(**{self.field: {}}).order_by("pk")


SOURCES: tuple[Source, ...] = (
    Source("requerimento", "licensing.Application", "last_decision", "Requerimento"),
    Source("alvara", "licensing.Permit", "decision", "Autorização"),
    Source("documento", "registry.Document", "decision", "Validade de documento"),
    Source("impedimento", "registry.Ban", "decision", "Impedimento"),
    Source("vistoria", "inspections.Inspection", "decision", "Vistoria"),
    Source("auto", "enforcement.InfractionCase", "notice_limit_decision", "Prazo de notificação do auto"),
    Source("notificacao", "enforcement.Notice", "decision", "Ciência da notificação"),
    Source("sancao", "dueprocess.Sanction", "decision", "Sanção"),
    Source("recurso", "dueprocess.Appeal", "deadline_decision", "Prazo de recurso"),
    Source("julgamento", "dueprocess.Appeal", "judgment_deadline_decision", "Prazo de julgamento do recurso"),
    Source("guia", "finance.PaymentGuide", "conversion", "Conversão de valor da guia"),
)
BY_KEY = {source.key: source for source in SOURCES}


def stored_decisions(value: Any) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """The decisions a field holds: itself, or the named decisions of a mapping (one level)."""
    if is_stored_decision(value):
        yield "", value
    elif isinstance(value, Mapping):
        for name, inner in value.items():
            if is_stored_decision(inner):
                yield str(name), inner
