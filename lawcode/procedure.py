"""What a regime declares about its proceeding and enforcement (``procedure.yaml``), typed and validated.

The apps run one generic proceeding and one generic auto de infração; everything that differs between laws
is declared here by the regime folder, each item citing the dispositivo that says so::

    procedure = get_regime(regime_id).procedure
    procedure.due_process.instances          # the appeal instances, in order (key "first", "second", …)
    procedure.due_process.instance("first").engine_instance   # DeadlineFacts.instance for appeal_deadline
    procedure.auto.items                     # what the auto must contain (empty when the law lists nothing)
    procedure.clandestine.infraction         # catalog code suggested for transport without authorization
    procedure.traffic_only_guard.present     # the law forbids punishing again a fact punished as traffic only
    procedure.complaint_basis                # dispositivos a public complaint invokes
    procedure.nullity.rules                  # time limits whose loss voids the case (empty when the law has none)
    procedure.procedure_for("CODE")          # the special procedure an infraction follows (None: the ordinary one)
    procedure.due_process.effects_after      # the instance after which effects apply (None: at finality)
    procedure.electronic_notice              # domicílio eletrônico: acts it may carry, opt-in terms, ciência lapse

Nothing has a default: every section must be written, and a provision the law does not contain is written
``{absent: "<why, in Portuguese>"}`` — so a missing line is a loud ``RegimeDefinitionError`` (file:line),
never a silent fallback. The format is documented in docs/lawcode/design.md ("procedure.yaml").
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lawcode.blocks.chains import Chain, ChainStep, chain
from lawcode.calendar import LegalCalendar, format_date_pt
from lawcode.deadlines import DayCounting, Deadline, count_days
from lawcode.errors import RegimeDefinitionError
from lawcode.yamlsource import YamlList, YamlMap, load_yaml, reject_unknown_keys, require_keys, require_map

PROCEDURE_FILE = "procedure.yaml"

# The n-th instance is named by its ordinal, so the apps can store an appeal's instance without knowing the law.
INSTANCE_KEYS = ("first", "second", "third")

# What an auto de infração may be required to contain (the keys of facts.InfractionCase.auto_omissions) and
# the generic Portuguese name of each; a regime labels each item it requires with its law's own words.
AUTO_ITEMS: dict[str, str] = {
    "place_date_time": "local, data e hora da infração",
    "driver_vehicle": "dados do condutor e do veículo",
    "officer": "identificação do servidor responsável",
    "description": "descrição da infração",
    "legal_provision": "dispositivo legal infringido",
    "supporting_documents": "documentos que embasam o auto",
    "fine_value": "valor da multa",
    "penalties": "penalidades cabíveis",
    "appeal_deadline": "prazo para recurso",
}

# Time limits whose loss can void a case, by the act that must happen in time and where the apps find its last
# day: ``penalty_notice`` — the penalty notice sent by the end of the engine's ``notice_limit`` (e.g. Patrocínio
# art. 19 § 1º). A regime names the ones its law attaches nullity to (``nullity.rules``).
NULLITY_LIMITS: dict[str, str] = {
    "penalty_notice": "notificação da penalidade (pergunta notice_limit)",
    "autuacao_notice": "notificação da autuação (NAI), em dias contados da infração",
}
# The limits whose length the rule itself declares (``days`` and ``counting``), counted from the infraction:
# the NAI is one act, the penalty notice another, each with its own limit and its own nullity.
NULLITY_DAYS_LIMITS = frozenset({"autuacao_notice"})

# The steps a per-infraction procedure may chain, in the order the law runs them, with their generic names.
STEP_KINDS: dict[str, str] = {
    "defence": "defesa escrita",
    "allegations": "alegações finais",
    "judgment": "julgamento",
    "appeal": "recurso",
    "appeal_judgment": "julgamento do recurso",
}
COUNTINGS = {counting.value: counting for counting in DayCounting}

# The acts a notice carries (the apps' notice purposes), with their generic Portuguese names: a regime lists the
# ones its law lets go by the electronic channel (``electronic_notice.acts``).
NOTICE_ACTS: dict[str, str] = {
    "infraction": "notificação da autuação",
    "first_decision": "notificação da decisão de 1ª instância",
    "second_decision": "notificação da decisão de 2ª instância",
    "final_decision": "notificação da penalidade",
    "payment": "notificação para pagamento da multa",
}

_TOP_KEYS = (
    "due_process",
    "auto",
    "clandestine",
    "traffic_only_guard",
    "complaint_basis",
    "nullity",
    "procedures",
    "electronic_notice",
    "note",
)
_OPTIONAL_TOP = ("note", "procedures")
_INSTANCE_KEYS = (
    "key",
    "label",
    "cite",
    "judged_by",
    "engine_instance",
    "suspensive",
    "suspensive_cite",
    "note",
)
_ROLE = re.compile(r"^[a-z][a-z0-9_]*$")

Validate = Callable[[object, str | None, int | None], str]
Render = Callable[[str], str]


@dataclass(frozen=True)
class Provision:
    """A provision the law may or may not contain: the dispositivo that states it, or why there is none."""

    cite: str | None
    absent_reason: str | None
    where: str

    @property
    def present(self) -> bool:
        return self.cite is not None


@dataclass(frozen=True)
class Instance:
    """One appeal instance: its key (ordinal), label, the dispositivo that opens it and who judges it."""

    key: str
    label: str
    cite: str
    judged_by: str
    """A staff role key of the apps (e.g. ``judging_authority``, ``appeal_board``); the apps check it exists."""
    engine_instance: Provision
    """``cite`` holds the name the regime's ``appeal_deadline`` / ``judgment_deadline`` rules take as
    ``DeadlineFacts.instance``; absent when the law sets no deadline for this instance."""
    suspensive: bool
    """Whether filing this appeal holds the penalty's effects until it is judged."""
    suspensive_cite: str
    where: str


@dataclass(frozen=True)
class DueProcess:
    instances: tuple[Instance, ...]
    fine_due_on_first_condemnation: Provision
    """Present when the fine is chargeable once the first instance condemns (before the decision is final)."""

    def has(self, key: str) -> bool:
        return any(instance.key == key for instance in self.instances)

    def instance(self, key: str) -> Instance:
        for instance in self.instances:
            if instance.key == key:
                return instance
        known = ", ".join(i.key for i in self.instances)
        raise RegimeDefinitionError(
            f"the proceeding has no instance {key!r}; it has: {known}",
            message_pt=f"o processo deste regime não tem a instância {key!r}",
            field="instance",
        )

    @property
    def last(self) -> Instance:
        return self.instances[-1]

    @property
    def effects_after(self) -> Instance | None:
        """The instance whose condemnation makes the penalty's effects apply before finality, because the
        appeal to the next instance has no suspensive effect (``suspensive: false``); None when every appeal
        suspends them and they wait for the decision to be final."""
        for previous, following in zip(self.instances, self.instances[1:], strict=False):
            if not following.suspensive:
                return previous
        return None

    def effects_explanation_pt(self, render: Render = str) -> str:
        """Why the effects apply when they do, with the dispositivo (for the case's timeline and the screens);
        ``render`` turns a citation key into its Portuguese form (``Regime.resolve_citation(...).render()``)."""
        after = self.effects_after
        if after is None:
            return (
                "Os efeitos da penalidade aguardam a decisão definitiva: os recursos têm efeito suspensivo."
            )
        following = self.instances[self.instances.index(after) + 1]
        return (
            f"Os efeitos da penalidade se aplicam após a decisão da instância «{after.label}»: "
            f"«{following.label}» não tem efeito suspensivo ({render(following.suspensive_cite)})."
        )


@dataclass(frozen=True)
class AutoItem:
    item: str
    cite: str
    label: str


@dataclass(frozen=True)
class AutoContents:
    """What the law says an auto de infração must contain, and what an omission does."""

    listed: Provision
    """Present (citing the article that lists the contents) when the law lists them; absent otherwise."""
    items: tuple[AutoItem, ...]
    omission: Provision
    """The dispositivo on the effect of an omission, or why the law says nothing about it."""
    omission_voids: bool | None
    """Whether an omission voids the auto (None when the law is silent)."""

    def item(self, key: str) -> AutoItem | None:
        return next((item for item in self.items if item.item == key), None)


@dataclass(frozen=True)
class Clandestine:
    """Transport without any authorization: the dispositivo that qualifies it and the catalog entry to suggest."""

    provision: Provision
    infraction: str | None


@dataclass(frozen=True)
class NullityRule:
    """A time limit whose loss voids the case: the act that had to happen by it, the dispositivo, and the reason
    the case shows (in Portuguese) when the system applies it."""

    limit: str
    """A key of NULLITY_LIMITS."""
    cite: str
    reason: str
    where: str
    days: int | None = None
    """For the limits in NULLITY_DAYS_LIMITS: how many days after the infraction the act may happen."""
    counting: DayCounting | None = None
    extend_to_business_day: bool = False

    def last_day(self, infraction_on: dt.date, calendar: LegalCalendar) -> Deadline:
        """The last day the act may happen, counted from the infraction (limits in NULLITY_DAYS_LIMITS)."""
        if self.days is None or self.counting is None:
            raise RegimeDefinitionError(
                f"nullity limit {self.limit!r} takes its last day from the engine, not from declared days",
                message_pt=f"o prazo {self.limit!r} não é contado em dias declarados",
                file=self.where,
            )
        return count_days(
            infraction_on,
            self.days,
            counting=self.counting,
            calendar=calendar,
            extend_to_business_day=self.extend_to_business_day,
        )

    def lost(
        self, infraction_on: dt.date, acted_on: dt.date | None, as_of: dt.date, calendar: LegalCalendar
    ) -> bool:
        """True when the act did not happen by its last day and that day is over on ``as_of``."""
        end = self.last_day(infraction_on, calendar).end
        if acted_on is not None:
            return acted_on > end
        return as_of > end


@dataclass(frozen=True)
class Nullity:
    """The law's nullity by lost time limit: its rules, or why it has none (``provision`` absent)."""

    provision: Provision
    rules: tuple[NullityRule, ...]

    def rule(self, limit: str) -> NullityRule | None:
        return next((rule for rule in self.rules if rule.limit == limit), None)


@dataclass(frozen=True)
class ProcedureStep:
    """One step of a special procedure: its kind (STEP_KINDS), its label, its days, the instance it belongs to
    and the dispositivo."""

    kind: str
    label: str
    days: int
    instance: str
    cite: str


@dataclass(frozen=True)
class Ceiling:
    """The whole proceeding must end within ``days`` calendar days of the auto (never extended)."""

    days: int
    cite: str


@dataclass(frozen=True)
class SpecialProcedure:
    """A procedure some infractions follow instead of the ordinary one (e.g. clandestine transport: written
    defence 15 days, final allegations 10, judgment 20, appeal 10, appeal judged in 20, all within 90)."""

    key: str
    label: str
    cite: str
    infractions: tuple[str, ...]
    steps: tuple[ProcedureStep, ...]
    counting: DayCounting
    extend_to_business_day: bool
    ceiling: Ceiling | None
    where: str

    def step(self, kind: str) -> ProcedureStep | None:
        return next((step for step in self.steps if step.kind == kind), None)

    def filing_step(self, instance: str) -> ProcedureStep | None:
        """The step in which the party files in ``instance`` (defence or appeal): its days are the deadline."""
        return next(
            (s for s in self.steps if s.instance == instance and s.kind in ("defence", "appeal")), None
        )

    def judgment_step(self, instance: str) -> ProcedureStep | None:
        return next(
            (s for s in self.steps if s.instance == instance and s.kind in ("judgment", "appeal_judgment")),
            None,
        )

    def deadline(self, step: ProcedureStep, start: dt.date, calendar: LegalCalendar) -> Deadline:
        """``step``'s deadline counted from ``start`` (ciência, filing), as this procedure counts days."""
        return count_days(
            start,
            step.days,
            counting=self.counting,
            calendar=calendar,
            extend_to_business_day=self.extend_to_business_day,
        )

    def ceiling_deadline(self, opened_on: dt.date, calendar: LegalCalendar) -> Deadline | None:
        """The last day of the whole proceeding, counted from the auto (None when the law sets no ceiling)."""
        if self.ceiling is None:
            return None
        return count_days(
            opened_on,
            self.ceiling.days,
            counting=DayCounting.CALENDAR,
            calendar=calendar,
            extend_to_business_day=False,
        )

    def chain(
        self, opened_on: dt.date, calendar: LegalCalendar, acted: Mapping[str, dt.date] | None = None
    ) -> Chain:
        """Every step counted one after the other from ``opened_on`` (lawcode.blocks.chains), with the ceiling."""
        return chain(
            opened_on,
            [ChainStep(step.kind, step.label, step.days) for step in self.steps],
            acted=acted or {},
            counting=self.counting,
            calendar=calendar,
            extend_to_business_day=self.extend_to_business_day,
            ceiling_days=self.ceiling.days if self.ceiling else None,
        )

    def describe_pt(self, render: Render = str) -> str:
        """The procedure in one line, each step with its days and dispositivo (``render``: as in
        DueProcess.effects_explanation_pt)."""
        unit = self.counting.label_pt
        parts = [f"{step.label}: {step.days} {unit} ({render(step.cite)})" for step in self.steps]
        if self.ceiling is not None:
            parts.append(f"conclusão em até {self.ceiling.days} dias ({render(self.ceiling.cite)})")
        return f"{self.label} ({render(self.cite)}): " + "; ".join(parts)

    def ceiling_pt(self, opened_on: dt.date, calendar: LegalCalendar, render: Render = str) -> str | None:
        end = self.ceiling_deadline(opened_on, calendar)
        if end is None or self.ceiling is None:
            return None
        return f"Processo a concluir até {format_date_pt(end.end)} ({render(self.ceiling.cite)})"


@dataclass(frozen=True)
class Basis:
    """Where a declaration comes from: a dispositivo (``cite``) or a named interpretation the municipality may
    change (``interpretation``, with its ``default`` option)."""

    cite: str | None
    interpretation: str | None
    default: str | None = None

    def option(self, chosen: Mapping[str, str]) -> str | None:
        """The interpretation's option the municipality chose (its default when it chose none)."""
        if self.interpretation is None:
            return None
        return chosen.get(self.interpretation, self.default)

    def render_pt(self, render: Render = str) -> str:
        if self.cite is not None:
            return render(self.cite)
        return f"interpretação {self.interpretation}"


@dataclass(frozen=True)
class ElectronicLapse:
    """Ciência by lapse: an electronic notice not opened is taken as known ``days`` after it was made available
    (counted as ``counting`` says); by a dispositivo or by a named interpretation whose options map to days
    (``None``: that option gives no ciência by lapse)."""

    basis: Basis
    days: int | None
    days_by_option: Mapping[str, int | None]
    counting: DayCounting

    def days_for(self, chosen: Mapping[str, str]) -> int | None:
        option = self.basis.option(chosen)
        if option is None:
            return self.days
        return self.days_by_option.get(option)

    def ciencia_on(
        self, made_available_on: dt.date, chosen: Mapping[str, str], calendar: LegalCalendar
    ) -> dt.date | None:
        """The day of ciência by lapse of a notice made available on ``made_available_on`` (None: no lapse)."""
        days = self.days_for(chosen)
        if days is None:
            return None
        return count_days(
            made_available_on, days, counting=self.counting, calendar=calendar, extend_to_business_day=False
        ).end


@dataclass(frozen=True)
class ElectronicNotice:
    """The electronic notice (domicílio eletrônico): whether the law allows it and for which acts, the terms the
    holder accepts when opting in, and the ciência by lapse of a notice not opened."""

    provision: Provision
    """Present (the dispositivo or ``interpretation``) when the channel is allowed; absent with the reason."""
    basis: Basis | None
    valid_options: tuple[str, ...]
    """When ``basis`` is an interpretation: the options under which the channel is allowed."""
    acts: tuple[str, ...]
    terms: str
    terms_basis: Basis | None
    lapse: ElectronicLapse | None
    lapse_absent: str | None

    @property
    def interpretations(self) -> frozenset[str]:
        """The named interpretations this declaration reads (the apps apply them when a notice is sent or its
        lapse runs; no rule does, so no scenario decision can record them)."""
        bases = (self.basis, self.terms_basis, self.lapse.basis if self.lapse else None)
        return frozenset(b.interpretation for b in bases if b is not None and b.interpretation)

    def allows(self, act: str, chosen: Mapping[str, str]) -> bool:
        """Whether a notice of ``act`` may go by the electronic channel under the municipality's choices."""
        if self.basis is None or act not in self.acts:
            return False
        option = self.basis.option(chosen)
        return option is None or option in self.valid_options

    def refusal_pt(self, act: str, chosen: Mapping[str, str], render: Render = str) -> str:
        """Why a notice of ``act`` may not go by the electronic channel (Portuguese, with the dispositivo)."""
        if self.basis is None:
            return f"A lei não prevê a notificação por meio eletrônico: {self.provision.absent_reason}"
        option = self.basis.option(chosen)
        if option is not None and option not in self.valid_options:
            return (
                f"A notificação por meio eletrônico depende da {self.basis.render_pt(render)}, e o município "
                f"adotou outra opção ({option})."
            )
        allowed = ", ".join(NOTICE_ACTS[a] for a in self.acts)
        return (
            f"O meio eletrônico não vale para a {NOTICE_ACTS.get(act, act)} ({self.basis.render_pt(render)}); "
            f"vale para: {allowed}."
        )


@dataclass(frozen=True)
class Procedure:
    due_process: DueProcess
    auto: AutoContents
    clandestine: Clandestine
    traffic_only_guard: Provision
    """The dispositivo forbidding a municipal penalty for a fact punished only as a traffic infraction."""
    complaint_basis: tuple[str, ...]
    nullity: Nullity
    source: str
    procedures: tuple[SpecialProcedure, ...] = ()
    """Procedures some infractions follow instead of the ordinary one (``procedures``; empty when none)."""
    electronic_notice: ElectronicNotice | None = None
    """The electronic notice declaration (required at load; None only for procedures built in code)."""

    def procedure_for(self, infraction: str) -> SpecialProcedure | None:
        """The special procedure infraction ``infraction`` follows, or None (the ordinary due process)."""
        return next((p for p in self.procedures if infraction in p.infractions), None)


def load_procedure(
    folder: Path,
    validate: Validate,
    catalog: Mapping[str, Any],
    interpretations: Mapping[str, Any] | None = None,
) -> Procedure:
    """The folder's procedure.yaml, every citation validated and the clandestine infraction in the catalog;
    ``interpretations`` (id → lawcode.interpretations.Interpretation): those electronic_notice may name."""
    path = folder / PROCEDURE_FILE
    if not path.is_file():
        raise RegimeDefinitionError(
            f"{PROCEDURE_FILE} is missing: declare the due process, the auto's contents, clandestine transport, "
            "the traffic-only guard and the complaint basis (docs/lawcode/design.md)",
            message_pt=f"falta {PROCEDURE_FILE}: o regime deve declarar seu processo e sua fiscalização",
            file=str(path),
        )
    root = require_map(load_yaml(path), str(path), PROCEDURE_FILE)
    _refuse_todos(root)
    reject_unknown_keys(root, _TOP_KEYS, PROCEDURE_FILE)
    require_keys(root, tuple(k for k in _TOP_KEYS if k not in _OPTIONAL_TOP), PROCEDURE_FILE)
    reader = _Reader(validate, interpretations or {})
    due_process = reader.due_process(_map(root, "due_process"))
    return Procedure(
        due_process=due_process,
        auto=reader.auto(_map(root, "auto")),
        clandestine=reader.clandestine(_map(root, "clandestine"), catalog),
        traffic_only_guard=reader.provision(_map(root, "traffic_only_guard"), "traffic_only_guard"),
        complaint_basis=reader.complaint_basis(_map(root, "complaint_basis")),
        nullity=reader.nullity(_map(root, "nullity")),
        source=str(path),
        procedures=reader.procedures(root, catalog, due_process),
        electronic_notice=reader.electronic_notice(root),
    )


class _Reader:
    def __init__(self, validate: Validate, interpretations: Mapping[str, Any]) -> None:
        self.validate = validate
        self.interpretations = interpretations

    def basis(self, node: YamlMap, what: str) -> Basis:
        """``cite: <dispositivo>`` or ``interpretation: INT-…`` (exactly one)."""
        has_cite, has_int = node.get("cite") is not None, node.get("interpretation") is not None
        if has_cite == has_int:
            raise RegimeDefinitionError(
                f"{what}: give either 'cite' (the dispositivo) or 'interpretation' (a named interpretation)",
                message_pt=f"{what}: informe 'cite' (o dispositivo) ou 'interpretation' (a interpretação nomeada)",
                file=node.source,
                line=node.line,
            )
        if has_cite:
            return Basis(self.cite(node, "cite"), None)
        int_id = str(node["interpretation"])
        known = self.interpretations.get(int_id)
        if known is None:
            raise RegimeDefinitionError(
                f"{what}: interpretation {int_id!r} is not in interpretations.yaml",
                message_pt=f"{what}: a interpretação {int_id} não está em interpretations.yaml",
                file=node.source,
                line=node.line_of("interpretation"),
            )
        return Basis(None, int_id, str(known.default))

    def _options(self, node: YamlMap, key: str, basis: Basis, what: str) -> tuple[str, ...]:
        values = node.get(key)
        options = tuple(str(v) for v in values) if isinstance(values, (YamlList, list, dict, YamlMap)) else ()
        declared = tuple(self.interpretations[basis.interpretation].options) if basis.interpretation else ()
        unknown = [o for o in options if o not in declared]
        if not options or unknown:
            raise RegimeDefinitionError(
                f"{what}.{key}: list options of {basis.interpretation} ({', '.join(declared)}); unknown: {unknown}",
                message_pt=f"{what}.{key}: liste opções da interpretação {basis.interpretation} "
                f"({', '.join(declared)})",
                file=node.source,
                line=node.line_of(key),
            )
        return options

    def electronic_notice(self, root: YamlMap) -> ElectronicNotice:
        """``electronic_notice``: ``{absent: "<why>"}``, or the acts, the basis, the opt-in terms and the lapse."""
        if "electronic_notice" not in root:
            raise RegimeDefinitionError(
                f"{PROCEDURE_FILE}: declare 'electronic_notice' (the acts the electronic channel may carry, the "
                'opt-in terms and the ciência by lapse), or {absent: "<why>"} when the law does not allow it',
                message_pt=f"{PROCEDURE_FILE}: falta 'electronic_notice' — declare para quais atos vale a "
                "notificação eletrônica, os termos de adesão e a ciência por decurso de prazo, ou "
                '{absent: "<motivo>"} quando a lei não a admite',
                file=root.source,
                line=root.line,
            )
        node = _map(root, "electronic_notice")
        what = "electronic_notice"
        if node.get("absent") is not None:
            reject_unknown_keys(node, ("absent", "note"), what)
            return ElectronicNotice(
                Provision(None, _text(node, "absent"), f"{node.source}:{node.line}"),
                None,
                (),
                (),
                "",
                None,
                None,
                None,
            )
        reject_unknown_keys(
            node, ("acts", "cite", "interpretation", "valid_options", "terms", "lapse", "note"), what
        )
        require_keys(node, ("acts", "terms", "lapse"), what)
        basis = self.basis(node, what)
        valid = self._options(node, "valid_options", basis, what) if basis.interpretation else ()
        acts = node["acts"]
        if not isinstance(acts, YamlList) or not acts or any(str(a) not in NOTICE_ACTS for a in acts):
            raise RegimeDefinitionError(
                f"{what}.acts must list acts among {', '.join(NOTICE_ACTS)}",
                message_pt=f"{what}.acts: liste os atos entre {', '.join(NOTICE_ACTS)}",
                file=node.source,
                line=node.line_of("acts"),
            )
        terms = _map(node, "terms")
        reject_unknown_keys(terms, ("text", "cite", "interpretation", "note"), f"{what}.terms")
        terms_text = _text(terms, "text")
        terms_basis = self.basis(terms, f"{what}.terms")
        lapse_node = _map(node, "lapse")
        lapse, lapse_absent = self.lapse(lapse_node, f"{what}.lapse")
        cite = basis.cite or (
            self.interpretations[basis.interpretation].basis[0]
            if basis.interpretation and self.interpretations[basis.interpretation].basis
            else None
        )
        return ElectronicNotice(
            Provision(cite or str(basis.interpretation), None, f"{node.source}:{node.line}"),
            basis,
            valid,
            tuple(str(a) for a in acts),
            terms_text,
            terms_basis,
            lapse,
            lapse_absent,
        )

    def lapse(self, node: YamlMap, what: str) -> tuple[ElectronicLapse | None, str | None]:
        if node.get("absent") is not None:
            reject_unknown_keys(node, ("absent", "note"), what)
            return None, _text(node, "absent")
        reject_unknown_keys(
            node, ("cite", "interpretation", "days", "days_by_option", "counting", "note"), what
        )
        require_keys(node, ("counting",), what)
        basis = self.basis(node, what)
        counting = _counting(node, "counting")
        if basis.cite is not None:
            return ElectronicLapse(basis, _positive_days(node, "days"), {}, counting), None
        by_option = node.get("days_by_option")
        declared = self.interpretations[str(basis.interpretation)].options
        if not isinstance(by_option, YamlMap) or set(by_option) != set(declared):
            raise RegimeDefinitionError(
                f"{what}.days_by_option must give the days (or null) for each option of {basis.interpretation}: "
                f"{', '.join(declared)}",
                message_pt=f"{what}.days_by_option: informe os dias (ou null) de cada opção da interpretação "
                f"{basis.interpretation}: {', '.join(declared)}",
                file=node.source,
                line=node.line_of("days_by_option") if "days_by_option" in node else node.line,
            )
        days: dict[str, int | None] = {}
        for option in declared:
            value = by_option[option]
            if value is not None:
                value = _positive_days(by_option, option)
            days[option] = value
        return ElectronicLapse(basis, None, days, counting), None

    def cite(self, node: YamlMap, key: str) -> str:
        return self.validate(node.get(key), node.source, node.line_of(key))

    def provision(self, node: YamlMap, what: str, *, extra: tuple[str, ...] = ()) -> Provision:
        """``{cite: …}`` or ``{absent: "<reason>"}`` (exactly one of them)."""
        reject_unknown_keys(node, ("cite", "absent", "note", *extra), what)
        return self.either(node, what)

    def either(self, node: YamlMap, what: str) -> Provision:
        where = f"{node.source}:{node.line}"
        has_cite, has_absent = node.get("cite") is not None, node.get("absent") is not None
        if has_cite == has_absent:
            raise RegimeDefinitionError(
                f"{what}: give either 'cite' (the dispositivo) or 'absent' (why the law has none), not both "
                "and not neither",
                message_pt=f"{what}: informe 'cite' ou 'absent' (com o motivo)",
                file=node.source,
                line=node.line,
            )
        if has_absent:
            return Provision(None, _text(node, "absent"), where)
        return Provision(self.cite(node, "cite"), None, where)

    def due_process(self, node: YamlMap) -> DueProcess:
        reject_unknown_keys(node, ("instances", "fine_due_on_first_condemnation", "note"), "due_process")
        require_keys(node, ("instances", "fine_due_on_first_condemnation"), "due_process")
        items = node["instances"]
        if not isinstance(items, YamlList) or not items:
            raise RegimeDefinitionError(
                "due_process.instances must list at least one instance",
                message_pt="due_process.instances: declare ao menos uma instância",
                file=node.source,
                line=node.line_of("instances"),
            )
        if len(items) > len(INSTANCE_KEYS):
            raise RegimeDefinitionError(
                f"at most {len(INSTANCE_KEYS)} instances are supported", file=node.source, line=items.line
            )
        instances = tuple(
            self.instance(require_map(item, node.source, "instance", items.line_at(i)), INSTANCE_KEYS[i])
            for i, item in enumerate(items)
        )
        fine_due = self.provision(
            _map(node, "fine_due_on_first_condemnation"), "due_process.fine_due_on_first_condemnation"
        )
        if not instances[0].suspensive:
            raise RegimeDefinitionError(
                "the first instance's defence cannot be 'suspensive: false': effects before any judgment are "
                "declared on the penalty itself (penalties.yaml 'applies: at_auto', or a precautionary "
                "suspension)",
                message_pt="a primeira instância não pode ser sem efeito suspensivo: efeitos antes de qualquer "
                "julgamento são declarados na penalidade (penalties.yaml, 'applies: at_auto' ou suspensão "
                "cautelar)",
                file=node.source,
                line=items.line_at(0),
            )
        return DueProcess(instances, fine_due)

    def instance(self, node: YamlMap, expected_key: str) -> Instance:
        reject_unknown_keys(node, _INSTANCE_KEYS, "instance")
        require_keys(node, tuple(k for k in _INSTANCE_KEYS if k != "note"), "instance")
        key = str(node["key"])
        if key != expected_key:
            raise RegimeDefinitionError(
                f"instance key {key!r}: instances are keyed by their order ({', '.join(INSTANCE_KEYS)}); "
                f"this one is {expected_key!r}",
                message_pt=f"a instância nesta posição tem a chave {expected_key!r}",
                file=node.source,
                line=node.line_of("key"),
            )
        role = str(node["judged_by"])
        if not _ROLE.match(role):
            raise RegimeDefinitionError(
                f"judged_by {role!r} must be a role key such as judging_authority",
                file=node.source,
                line=node.line_of("judged_by"),
            )
        if not isinstance(node["suspensive"], bool):
            raise RegimeDefinitionError(
                "'suspensive' must be true or false", file=node.source, line=node.line_of("suspensive")
            )
        return Instance(
            key=key,
            label=_text(node, "label"),
            cite=self.cite(node, "cite"),
            judged_by=role,
            engine_instance=self.engine_instance(node),
            suspensive=node["suspensive"],
            suspensive_cite=self.cite(node, "suspensive_cite"),
            where=f"{node.source}:{node.line}",
        )

    def engine_instance(self, node: YamlMap) -> Provision:
        """``engine_instance: first`` (a name the regime's deadline rules take) or ``{absent: "<reason>"}``."""
        value = node["engine_instance"]
        where = f"{node.source}:{node.line_of('engine_instance')}"
        if isinstance(value, YamlMap):
            reject_unknown_keys(value, ("absent",), "engine_instance")
            require_keys(value, ("absent",), "engine_instance")
            return Provision(None, _text(value, "absent"), where)
        if not isinstance(value, str) or not value.strip():
            raise RegimeDefinitionError(
                "'engine_instance' must be the instance name of the regime's appeal_deadline rule, "
                'or {absent: "<reason>"}',
                file=node.source,
                line=node.line_of("engine_instance"),
            )
        return Provision(value.strip(), None, where)

    def auto(self, node: YamlMap) -> AutoContents:
        reject_unknown_keys(node, ("cite", "absent", "items", "omission", "note"), "auto")
        require_keys(node, ("omission",), "auto")
        listed = self.either(node, "auto")
        items = self.auto_items(node) if listed.present else ()
        if not listed.present and node.get("items"):
            raise RegimeDefinitionError(
                "auto: 'items' needs the 'cite' of the article that lists them",
                file=node.source,
                line=node.line_of("items"),
            )
        omission_node = _map(node, "omission")
        omission = self.provision(omission_node, "auto.omission", extra=("voids",))
        voids = omission_node.get("voids")
        if omission.present != isinstance(voids, bool):
            raise RegimeDefinitionError(
                "auto.omission: with 'cite' say 'voids: true|false'; with 'absent' leave 'voids' out",
                file=omission_node.source,
                line=omission_node.line,
            )
        return AutoContents(listed, items, omission, voids if isinstance(voids, bool) else None)

    def auto_items(self, node: YamlMap) -> tuple[AutoItem, ...]:
        items = node.get("items")
        if not isinstance(items, YamlList) or not items:
            raise RegimeDefinitionError(
                "auto: list the contents under 'items' ({item, cite, label})",
                file=node.source,
                line=node.line,
            )
        out: list[AutoItem] = []
        for index, raw in enumerate(items):
            entry = require_map(raw, node.source, "auto item", items.line_at(index))
            reject_unknown_keys(entry, ("item", "cite", "label"), "auto item")
            require_keys(entry, ("item", "cite", "label"), "auto item")
            key = str(entry["item"])
            if key not in AUTO_ITEMS or any(seen.item == key for seen in out):
                raise RegimeDefinitionError(
                    f"auto item {key!r} is unknown or repeated; use one of: {', '.join(AUTO_ITEMS)}",
                    message_pt=f"item do auto {key!r} desconhecido ou repetido",
                    file=entry.source,
                    line=entry.line_of("item"),
                )
            out.append(AutoItem(key, self.cite(entry, "cite"), _text(entry, "label")))
        return tuple(out)

    def clandestine(self, node: YamlMap, catalog: Mapping[str, Any]) -> Clandestine:
        provision = self.provision(node, "clandestine", extra=("infraction",))
        code = node.get("infraction")
        if provision.present and code is None:
            raise RegimeDefinitionError(
                "clandestine: name the catalog 'infraction' suggested for transport without authorization",
                file=node.source,
                line=node.line,
            )
        if code is not None and str(code) not in catalog:
            raise RegimeDefinitionError(
                f"clandestine.infraction {code!r} is not in catalog.yaml",
                message_pt=f"a infração {code!r} não está no catálogo",
                file=node.source,
                line=node.line_of("infraction"),
            )
        return Clandestine(provision, None if code is None else str(code))

    def complaint_basis(self, node: YamlMap) -> tuple[str, ...]:
        reject_unknown_keys(node, ("cites", "note"), "complaint_basis")
        require_keys(node, ("cites",), "complaint_basis")
        cites = node["cites"]
        if not isinstance(cites, YamlList) or not cites:
            raise RegimeDefinitionError(
                "complaint_basis.cites must list the dispositivos a public complaint invokes",
                file=node.source,
                line=node.line_of("cites"),
            )
        return tuple(self.validate(ref, node.source, cites.line_at(i)) for i, ref in enumerate(cites))

    def nullity(self, node: YamlMap) -> Nullity:
        """``{rules: [{limit, cite, reason}, …]}`` or ``{absent: "<why no lost limit voids a case>"}``."""
        reject_unknown_keys(node, ("rules", "absent", "note"), "nullity")
        where = f"{node.source}:{node.line}"
        rules, absent = node.get("rules"), node.get("absent")
        if (rules is None) == (absent is None):
            raise RegimeDefinitionError(
                "nullity: give either 'rules' (the time limits whose loss voids the case) or 'absent' (why the "
                "law has none), not both and not neither",
                message_pt="nullity: informe 'rules' ou 'absent' (com o motivo)",
                file=node.source,
                line=node.line,
            )
        if absent is not None:
            return Nullity(Provision(None, _text(node, "absent"), where), ())
        if not isinstance(rules, YamlList) or not rules:
            raise RegimeDefinitionError(
                "nullity.rules must list at least one {limit, cite, reason}",
                file=node.source,
                line=node.line_of("rules"),
            )
        parsed = tuple(
            self.nullity_rule(require_map(raw, node.source, "nullity rule", rules.line_at(i)))
            for i, raw in enumerate(rules)
        )
        if len({rule.limit for rule in parsed}) != len(parsed):
            raise RegimeDefinitionError(
                "nullity.rules: a limit is repeated", file=node.source, line=node.line
            )
        return Nullity(Provision(parsed[0].cite, None, where), parsed)

    def nullity_rule(self, node: YamlMap) -> NullityRule:
        counted = ("days", "counting", "extend_to_business_day")
        reject_unknown_keys(node, ("limit", "cite", "reason", "note", *counted), "nullity rule")
        require_keys(node, ("limit", "cite", "reason"), "nullity rule")
        limit = str(node["limit"])
        if limit not in NULLITY_LIMITS:
            raise RegimeDefinitionError(
                f"nullity limit {limit!r} is unknown; use one of: {', '.join(NULLITY_LIMITS)}",
                message_pt=f"prazo de nulidade {limit!r} desconhecido; use um destes: {', '.join(NULLITY_LIMITS)}",
                file=node.source,
                line=node.line_of("limit"),
            )
        base = NullityRule(
            limit, self.cite(node, "cite"), _text(node, "reason"), f"{node.source}:{node.line}"
        )
        if limit not in NULLITY_DAYS_LIMITS:
            given = [key for key in counted if key in node]
            if given:
                raise RegimeDefinitionError(
                    f"nullity limit {limit!r} takes its last day from the engine; remove {', '.join(given)}",
                    message_pt=f"o prazo {limit!r} vem da pergunta do motor: retire {', '.join(given)}",
                    file=node.source,
                    line=node.line_of(given[0]),
                )
            return base
        require_keys(node, counted, f"nullity rule ({limit})")
        days = _positive_days(node, "days")
        counting = _counting(node, "counting")
        extend = _flag(node, "extend_to_business_day")
        return NullityRule(
            base.limit,
            base.cite,
            base.reason,
            base.where,
            days=days,
            counting=counting,
            extend_to_business_day=extend,
        )

    def procedures(
        self, root: YamlMap, catalog: Mapping[str, Any], due_process: DueProcess
    ) -> tuple[SpecialProcedure, ...]:
        """``procedures: [{key, label, cite, infractions, counting, extend_to_business_day, steps, ceiling}]``:
        the procedures some infractions follow instead of the ordinary one (optional; absent = none)."""
        if "procedures" not in root:
            return ()
        items = root["procedures"]
        if not isinstance(items, YamlList) or not items:
            raise RegimeDefinitionError(
                "procedures must list at least one procedure (or be left out)",
                message_pt="procedures: liste ao menos um procedimento (ou omita a seção)",
                file=root.source,
                line=root.line_of("procedures"),
            )
        out: list[SpecialProcedure] = []
        claimed: dict[str, str] = {}
        for index, raw in enumerate(items):
            node = require_map(raw, root.source, "procedure", items.line_at(index))
            procedure = self.special(node, catalog, due_process)
            if any(seen.key == procedure.key for seen in out):
                raise RegimeDefinitionError(
                    f"procedure {procedure.key!r} is declared twice",
                    message_pt=f"o procedimento {procedure.key!r} foi declarado duas vezes",
                    file=node.source,
                    line=node.line_of("key"),
                )
            for code in procedure.infractions:
                if code in claimed:
                    raise RegimeDefinitionError(
                        f"infraction {code!r} follows two procedures ({claimed[code]}, {procedure.key})",
                        message_pt=f"a infração {code!r} segue dois procedimentos "
                        f"({claimed[code]} e {procedure.key})",
                        file=node.source,
                        line=node.line_of("infractions"),
                    )
                claimed[code] = procedure.key
            out.append(procedure)
        return tuple(out)

    def special(self, node: YamlMap, catalog: Mapping[str, Any], due_process: DueProcess) -> SpecialProcedure:
        keys = ("key", "label", "cite", "infractions", "counting", "extend_to_business_day", "steps")
        reject_unknown_keys(node, (*keys, "ceiling", "note"), "procedure")
        require_keys(node, keys, "procedure")
        key = str(node["key"])
        if not _ROLE.match(key):
            raise RegimeDefinitionError(
                f"procedure key {key!r} must be lower case letters, digits and _",
                message_pt=f"chave de procedimento inválida {key!r}",
                file=node.source,
                line=node.line_of("key"),
            )
        codes = node["infractions"]
        if not isinstance(codes, YamlList) or not codes:
            raise RegimeDefinitionError(
                f"procedure {key}: list the catalog infractions that follow it",
                message_pt=f"procedimento {key}: liste as infrações do catálogo que o seguem",
                file=node.source,
                line=node.line_of("infractions"),
            )
        for i, code in enumerate(codes):
            if str(code) not in catalog:
                raise RegimeDefinitionError(
                    f"procedure {key}: infraction {code!r} is not in catalog.yaml",
                    message_pt=f"procedimento {key}: a infração {code!r} não está no catálogo",
                    file=node.source,
                    line=codes.line_at(i),
                )
        return SpecialProcedure(
            key=key,
            label=_text(node, "label"),
            cite=self.cite(node, "cite"),
            infractions=tuple(str(code) for code in codes),
            steps=self.steps(node, key, due_process),
            counting=_counting(node, "counting"),
            extend_to_business_day=_flag(node, "extend_to_business_day"),
            ceiling=self.ceiling(node) if "ceiling" in node else None,
            where=f"{node.source}:{node.line}",
        )

    def steps(self, node: YamlMap, key: str, due_process: DueProcess) -> tuple[ProcedureStep, ...]:
        items = node["steps"]
        if not isinstance(items, YamlList) or not items:
            raise RegimeDefinitionError(
                f"procedure {key}: list its steps ({{kind, label, days, instance, cite}})",
                message_pt=f"procedimento {key}: liste suas etapas",
                file=node.source,
                line=node.line_of("steps"),
            )
        order = list(STEP_KINDS)
        out: list[ProcedureStep] = []
        for index, raw in enumerate(items):
            entry = require_map(raw, node.source, "step", items.line_at(index))
            reject_unknown_keys(entry, ("kind", "label", "days", "instance", "cite", "note"), "step")
            require_keys(entry, ("kind", "label", "days", "instance", "cite"), "step")
            kind = str(entry["kind"])
            if kind not in STEP_KINDS:
                raise RegimeDefinitionError(
                    f"procedure {key}: step kind {kind!r} is unknown; use one of: {', '.join(STEP_KINDS)}",
                    message_pt=f"procedimento {key}: etapa {kind!r} desconhecida; use uma destas: "
                    + ", ".join(f"{k} ({v})" for k, v in STEP_KINDS.items()),
                    file=entry.source,
                    line=entry.line_of("kind"),
                )
            if out and order.index(kind) <= order.index(out[-1].kind):
                raise RegimeDefinitionError(
                    f"procedure {key}: step {kind!r} is repeated or out of order ({', '.join(STEP_KINDS)})",
                    message_pt=f"procedimento {key}: a etapa {kind!r} está repetida ou fora de ordem",
                    file=entry.source,
                    line=entry.line_of("kind"),
                )
            instance = str(entry["instance"])
            if not due_process.has(instance):
                raise RegimeDefinitionError(
                    f"procedure {key}: step {kind!r} belongs to instance {instance!r}, which due_process does "
                    "not declare",
                    message_pt=f"procedimento {key}: a etapa {kind!r} pertence à instância {instance!r}, "
                    "que o processo não declara",
                    file=entry.source,
                    line=entry.line_of("instance"),
                )
            out.append(
                ProcedureStep(
                    kind,
                    _text(entry, "label"),
                    _positive_days(entry, "days"),
                    instance,
                    self.cite(entry, "cite"),
                )
            )
        return tuple(out)

    def ceiling(self, node: YamlMap) -> Ceiling:
        raw = _map(node, "ceiling")
        reject_unknown_keys(raw, ("days", "cite", "note"), "ceiling")
        require_keys(raw, ("days", "cite"), "ceiling")
        return Ceiling(_positive_days(raw, "days"), self.cite(raw, "cite"))


def _refuse_todos(root: YamlMap) -> None:
    """A skeleton (python -m lawcode new-regime) marks each section ``todo``: name them all, with their lines."""
    todos = [(key, node) for key, node in root.items() if isinstance(node, YamlMap) and "todo" in node]
    if todos:
        where = "; ".join(f"{key} (linha {node.line_of('todo')})" for key, node in todos)
        raise RegimeDefinitionError(
            f"{PROCEDURE_FILE} is still a skeleton: write {where} (docs/lawcode/design.md, procedure.yaml)",
            message_pt=f"{PROCEDURE_FILE} ainda é um esqueleto: escreva {where}",
            file=root.source,
            line=todos[0][1].line_of("todo"),
        )


def _positive_days(node: YamlMap, key: str) -> int:
    value = node.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise RegimeDefinitionError(
            f"'{key}' must be a positive whole number of days, got {value!r}",
            message_pt=f"'{key}' deve ser um número inteiro positivo de dias (recebido: {value!r})",
            file=node.source,
            line=node.line_of(key),
        )
    return value


def _counting(node: YamlMap, key: str) -> DayCounting:
    value = str(node.get(key))
    if value not in COUNTINGS:
        raise RegimeDefinitionError(
            f"'{key}' must be one of {', '.join(COUNTINGS)}, got {value!r}",
            message_pt=f"'{key}' deve ser calendar_days (dias corridos) ou business_days (dias úteis)",
            file=node.source,
            line=node.line_of(key),
        )
    return COUNTINGS[value]


def _flag(node: YamlMap, key: str) -> bool:
    value = node.get(key)
    if not isinstance(value, bool):
        raise RegimeDefinitionError(
            f"'{key}' must be true or false",
            message_pt=f"'{key}' deve ser true ou false",
            file=node.source,
            line=node.line_of(key),
        )
    return value


def _map(node: YamlMap, key: str) -> YamlMap:
    return require_map(node.get(key), node.source, key, node.line_of(key))


def _text(node: YamlMap, key: str) -> str:
    value = node.get(key)
    if not isinstance(value, str) or not value.strip():
        raise RegimeDefinitionError(
            f"'{key}' must be a non-empty text (in Portuguese)",
            message_pt=f"'{key}' deve ser um texto não vazio",
            file=node.source,
            line=node.line_of(key),
        )
    return value.strip()
