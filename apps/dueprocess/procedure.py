"""The shape of a regime's proceeding, as its folder declares it (``procedure.yaml``, read by lawcode): which
instances exist, what the screens call them, the dispositivo each rests on, who judges it, the name the engine
gives it for deadlines, and whether the fine is chargeable after the first condemnation.

Nothing here knows a municipality: a regime without the declaration does not load (lawcode raises
RegimeDefinitionError naming the file), and a declaration naming an instance or a judging role these apps do
not have fails just as loudly, with the file and line of the declaration.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import lawcode
from apps.dueprocess.choices import Instance
from apps.tenancy.choices import Role
from apps.tenancy.regimes import labels_of
from lawcode.errors import RegimeDefinitionError
from lawcode.labels import Body
from lawcode.procedure import Instance as DeclaredInstance

# Whom the queues, cards and permissions (apps.dueprocess.permissions) route each instance to. A regime
# declaring another judge for an instance fails at first use instead of being judged by the wrong people.
ROUTED_TO = {Instance.FIRST: Role.JUDGING_AUTHORITY, Instance.SECOND: Role.APPEAL_BOARD}


@dataclass(frozen=True)
class InstanceSpec:
    engine_name: (
        str | None
    )  # DeadlineFacts.instance for the engine's appeal_deadline; None: the law sets none
    label: str
    cite: str
    judged_by: Role
    suspensive: bool
    suspensive_cite: str


@dataclass(frozen=True)
class Proceeding:
    instances: dict[str, InstanceSpec]
    fine_due_on_first_condemnation: str | None = None  # the dispositivo that makes it so, if any

    def has(self, instance: str) -> bool:
        return instance in self.instances

    def last_instance(self) -> str:
        return list(self.instances)[-1]


def proceeding(regime_id: str) -> Proceeding:
    """The regime's declared proceeding (lawcode loads each regime once)."""
    declared = lawcode.get_regime(regime_id).procedure.due_process
    fine_due = declared.fine_due_on_first_condemnation
    return Proceeding(
        instances={spec.key: _instance(spec) for spec in declared.instances},
        fine_due_on_first_condemnation=fine_due.cite,
    )


def _instance(spec: DeclaredInstance) -> InstanceSpec:
    if spec.key not in Instance.values:
        raise RegimeDefinitionError(
            f"instance {spec.key!r}: due process stores only {', '.join(Instance.values)}",
            message_pt=f"a instância {spec.key!r} não é suportada pelo processo administrativo",
            file=spec.where,
        )
    routed = ROUTED_TO[Instance(spec.key)]
    if spec.judged_by != routed:
        raise RegimeDefinitionError(
            f"judged_by {spec.judged_by!r}: the {spec.key} instance is judged by the role {routed.value!r} "
            f"({routed.label}); declare it, and name the authority in 'label'",
            message_pt=f"a {spec.key} instância é julgada pelo papel «{routed.label}»",
            file=spec.where,
        )
    return InstanceSpec(
        engine_name=spec.engine_instance.cite,
        label=spec.label,
        cite=spec.cite,
        judged_by=Role(spec.judged_by),
        suspensive=spec.suspensive,
        suspensive_cite=spec.suspensive_cite,
    )


def instance_label(regime_id: str, instance: str) -> str:
    spec = proceeding(regime_id).instances.get(instance)
    return spec.label if spec else Instance(instance).label


def judging_role(regime_id: str, instance: str) -> Role:
    """Who judges the instance, as the regime declares it."""
    spec = proceeding(regime_id).instances.get(instance)
    if spec is None:
        raise RegimeDefinitionError(
            f"regime {regime_id} has no instance {instance!r}",
            message_pt=f"o processo deste município não tem a instância «{Instance(instance).label}»",
            field="instance",
        )
    return spec.judged_by


def cite_pt(regime_id: str, ref: str, on: dt.date) -> str:
    """The dispositivo rendered on the date ("Lei 5.171/2025 (Olímpia), art. 31")."""
    return lawcode.get_regime(regime_id).resolve_citation(ref, on).render()


@dataclass(frozen=True)
class StepText:
    """One instance as the case page tells it: what it is, on which dispositivo, who judges, whether it suspends."""

    label: str
    basis: str
    judge: str
    suspensive: str


def steps_pt(regime_id: str, on: dt.date) -> list[StepText]:
    """The declared instances in Portuguese, each dispositivo rendered with its wording on ``on``."""
    out = []
    for key, spec in proceeding(regime_id).instances.items():
        effect = (
            "suspende os efeitos da penalidade"
            if spec.suspensive
            else "não suspende os efeitos da penalidade"
        )
        out.append(
            StepText(
                spec.label,
                cite_pt(regime_id, spec.cite, on),
                body_pt(regime_id, key, on),
                f"{effect} ({cite_pt(regime_id, spec.suspensive_cite, on)})",
            )
        )
    return out


DECIDES = {
    "single": "decide sozinho",
    "vote": "decide por votação",
    "rapporteur": "decide pelo voto do relator",
}


def body_of(regime_id: str, instance: str) -> Body:
    """Who judges ``instance``, as the regime's labels.yaml declares it (name, kind, members, quorum)."""
    return labels_of(regime_id).body(instance)


def bodies_for(regime_ids: list[str], instance: str) -> str:
    """Who judges ``instance`` in a municipality: each regime's body by its law's name ("—" when none has it)."""
    names: list[str] = []
    for regime_id in regime_ids:
        spec = proceeding(regime_id).instances.get(instance)
        if spec is not None:
            name = body_of(regime_id, instance).name
            if name not in names:
                names.append(name)
    return " / ".join(names) or "nenhum regime do município tem esta instância"


def body_pt(regime_id: str, instance: str, on: dt.date) -> str:
    """The body in Portuguese: "Conselho … (órgão colegiado: 3 do Poder Executivo, 2 dos motoristas; quórum 3;
    decide por votação; art. 18)"."""
    body = body_of(regime_id, instance)
    cite = cite_pt(regime_id, body.cite, on)
    if not body.collegiate:
        return f"{body.name} ({cite})"
    parts = ["órgão colegiado"]
    if body.members:
        parts.append(", ".join(f"{m.count} — {m.origin}" for m in body.members))
    if body.quorum:
        parts.append(f"quórum de {body.quorum}")
    if body.composition_absent:
        parts.append(body.composition_absent.rstrip("."))
    parts.append(DECIDES[body.decision])
    return f"{body.name} ({'; '.join(parts)}; {cite})"


def fine_due_pt(regime_id: str, on: dt.date) -> str:
    """When the fine becomes chargeable, with the dispositivo that says so."""
    ref = proceeding(regime_id).fine_due_on_first_condemnation
    if ref is None:
        return "A multa é cobrada quando a decisão se torna definitiva."
    return f"A multa é cobrada já após a condenação em primeira instância ({cite_pt(regime_id, ref, on)})."
