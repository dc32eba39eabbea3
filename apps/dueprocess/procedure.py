"""How each regime's proceeding is shaped: which instances exist, the name the engine gives each one, the
dispositivos the screens point to, and when a fine becomes chargeable. Deadlines themselves come from the
engine (lawbridge); this only names the steps, like apps.enforcement.regime_rules.

- Olímpia (Lei 5.171/2025): first instance within 10 days of ciência of the auto (art. 31), judged within 30
  days of filing (art. 31 §2); second instance within 10 days of ciência of the decision (art. 32). Upheld in
  either instance, the fine is due (art. 33), so it is charged after the first condemnation and refunded if the
  second instance grants the appeal (art. 35).
- Votuporanga (Lei 5.722/2015): appeal to the Secretary within 15 days (art. 17), then to the JARI (art. 18).
- Patrocínio (Lei 5.832/2025): one defence against the auto (art. 19); no second instance in the law.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import lawcode
from apps.dueprocess.choices import Instance


@dataclass(frozen=True)
class InstanceSpec:
    engine_name: str | None  # DeadlineFacts.instance for the engine's appeal_deadline
    label: str
    cite: str


@dataclass(frozen=True)
class Proceeding:
    instances: dict[str, InstanceSpec]
    fine_due_on_first_condemnation: str | None = None  # the dispositivo that makes it so, if any

    def has(self, instance: str) -> bool:
        return instance in self.instances

    def last_instance(self) -> str:
        return Instance.SECOND if Instance.SECOND in self.instances else Instance.FIRST


PROCEEDINGS: dict[str, Proceeding] = {
    "olimpia_sp_escolar": Proceeding(
        instances={
            Instance.FIRST: InstanceSpec("first", "Recurso em 1ª instância", "art31"),
            Instance.SECOND: InstanceSpec("second", "Recurso em 2ª instância", "art32"),
        },
        fine_due_on_first_condemnation="art33",
    ),
    "votuporanga_sp_escolar": Proceeding(
        instances={
            Instance.FIRST: InstanceSpec("secretary", "Recurso ao Secretário", "art17"),
            Instance.SECOND: InstanceSpec("jari", "Recurso à JARI", "art18"),
        }
    ),
    "patrocinio_mg_aplicativo": Proceeding(
        instances={Instance.FIRST: InstanceSpec(None, "Defesa contra o auto", "art19")}
    ),
}
DEFAULT = Proceeding(instances={Instance.FIRST: InstanceSpec("first", "Defesa", "")})


def proceeding(regime_id: str) -> Proceeding:
    return PROCEEDINGS.get(regime_id, DEFAULT)


def instance_label(regime_id: str, instance: str) -> str:
    spec = proceeding(regime_id).instances.get(instance)
    return spec.label if spec else Instance(instance).label


def cite_pt(regime_id: str, ref: str, on: dt.date) -> str:
    """The dispositivo rendered on the date ("Lei 5.171/2025 (Olímpia), art. 31"); empty when none is named."""
    if not ref:
        return ""
    return lawcode.get_regime(regime_id).resolve_citation(ref, on).render()
