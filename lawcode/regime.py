"""A regime: one municipality's law as code, loaded from its folder, and the ``@rule`` registration.

Folder ``lawcode/regimes/<id>/``: regime.yaml, law.txt, parameters.yaml, interpretations.yaml, catalog.yaml,
calendar.yaml, not_computable.yaml, and a Python package whose ``__init__`` imports its rule modules::

    # lawcode/regimes/exemplo_sp_escolar/rules/permit.py
    from lawcode.regime import rule

    @rule("vehicle_permit", cites=("art13_incII", "art13_incIII", "ctb:art136"))
    def vehicle_permit(ctx: Context, facts: PermitApplication) -> RuleResult: ...

Loading validates every citation (parameters, interpretations, catalog, not_computable, each rule's
``cites``) against the law text and external_acts.yaml. ``Regime.evaluate(question, facts, as_of=...)``
runs the rule and wraps its result in a Decision.
"""

from __future__ import annotations

import datetime as dt
import importlib
import inspect
import itertools
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lawcode.acts import Act, ActRegistry
from lawcode.citations import Citation, Citer, split_ref
from lawcode.config import Config, DeclaredAct
from lawcode.context import Context, Prepared
from lawcode.decision import Decision, Finding, ParameterUse, RuleResult, make_decision
from lawcode.documents import apply_age_limit
from lawcode.errors import (
    InvalidFactError,
    LawNotInForceError,
    QuestionNotApplicableError,
    RegimeDefinitionError,
    UnknownParameterError,
)
from lawcode.facts import from_dict, to_dict
from lawcode.interpretations import Interpretation, choose
from lawcode.memo import Memo
from lawcode.params import CONFIDENCE_GRADES, Parameter, ParameterValue, coerce_value
from lawcode.procedure import Procedure
from lawcode.questions import question_spec
from lawcode.regime_files import ActSource, AmendmentBinding
from lawcode.regime_files import CatalogEntry as CatalogEntry  # re-exported: rules import it from here
from lawcode.texts import LawText
from lawcode.vocabulary import Vocabulary

if TYPE_CHECKING:
    from lawcode.blocks.standing import StandingDeclaration
    from lawcode.calendar import LegalCalendar
    from lawcode.penalties import PenaltyCatalog

RuleFunction = Callable[[Context, Any], RuleResult]


@dataclass(frozen=True)
class RuleSpec:
    """A registered rule: the question it answers, the function and every dispositivo it may cite."""

    question: str
    function: RuleFunction
    cites: tuple[str, ...]
    module: str
    file: str
    line: int

    @property
    def name(self) -> str:
        return f"{self.module}.{self.function.__name__}"


_REGISTERED: list[RuleSpec] = []


def rule(question: str, *, cites: tuple[str, ...] | list[str]) -> Callable[[RuleFunction], RuleFunction]:
    """Register ``function`` as the regime's answer to ``question``; ``cites`` lists what it may cite.

    The regime that owns the rule is the package the module lives in (``lawcode.regimes.<id>``). The
    citations are validated when the regime loads; a finding citing anything outside ``cites`` fails.
    """
    question_spec(question)
    if not cites:
        raise RegimeDefinitionError(
            f"@rule({question!r}) must declare the dispositivos it cites (cites=...)",
            message_pt="toda regra declara os dispositivos que cita",
        )

    def register(function: RuleFunction) -> RuleFunction:
        source = inspect.getsourcefile(function) or function.__module__
        line = inspect.getsourcelines(function)[1]
        _REGISTERED.append(RuleSpec(question, function, tuple(cites), function.__module__, source, line))
        return function

    return register


class LazyInputs(Mapping[str, Any]):
    """A decision's inputs ``{"facts": …, "config": …}``, serialised only when first read.

    Bulk sweeps read the outcome of hundreds of thousands of decisions and rarely their inputs; the
    serialisation is deterministic, so computing it late changes nothing but the cost.
    """

    def __init__(self, facts: Any, config: Config) -> None:
        self._facts = facts
        self._config = config
        self._data: dict[str, Any] | None = None

    def _materialised(self) -> dict[str, Any]:
        if self._data is None:
            self._data = {"facts": to_dict(self._facts), "config": self._config.to_dict()}
        return self._data

    def __getitem__(self, key: str) -> Any:
        return self._materialised()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._materialised())

    def __len__(self) -> int:
        return len(self._materialised())

    def __repr__(self) -> str:
        return repr(self._materialised())


@dataclass(eq=False)
class Regime:
    """One municipality's law as code. Build with ``Regime.load(folder, package)`` (or via the registry)."""

    id: str
    name: str
    municipality: str
    uf: str
    ibge: str | None
    kind: str
    prefix: str | None
    folder: Path
    package: str
    acts: ActRegistry
    in_force: dt.date
    published: dt.date | None
    parameters: dict[str, Parameter]
    interpretations: dict[str, Interpretation]
    catalog: dict[str, CatalogEntry]
    not_computable: dict[str, str]
    calendar_data: Any
    rules: dict[str, RuleSpec]
    metadata: Mapping[str, Any]
    procedure: Procedure
    act_sources: tuple[ActSource, ...] = ()
    vocabulary: Vocabulary = field(default_factory=Vocabulary)
    """Declared document kinds, extra fact fields and fine units (documents/facts/units.yaml)."""
    penalties: PenaltyCatalog | None = None  # penalties.yaml (lawcode.penalties); required to answer sanction
    standing: StandingDeclaration | None = (
        None  # standing.yaml (lawcode.blocks.standing); for document_standing
    )
    citer: Citer = field(init=False)
    _calendar: LegalCalendar | None = field(default=None, init=False, repr=False)
    _merged: tuple[Config, dict[str, Parameter]] | None = field(default=None, init=False, repr=False)
    _declared: dict[str, frozenset[tuple[str, str | None]]] = field(
        default_factory=dict, init=False, repr=False
    )
    _citers: dict[tuple[tuple[tuple[str, dt.date], ...], tuple[DeclaredAct, ...]], Citer] = field(
        default_factory=dict, init=False, repr=False
    )
    _merged_by_key: dict[Hashable, dict[str, Parameter]] = field(default_factory=dict, init=False, repr=False)
    _prepared: dict[int, tuple[Config, Prepared]] = field(default_factory=dict, init=False, repr=False)
    _citations_kept: dict[tuple[str, tuple[int, ...]], tuple[list[Any], tuple[Citation, ...]]] = field(
        default_factory=dict, init=False, repr=False
    )
    _families: dict[Hashable, int] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        self.citer = Citer(self.acts)

    # --- loading -------------------------------------------------------------------------------------

    @classmethod
    def load(cls, folder: Path, package: str | None = None) -> Regime:
        """Load and validate the regime in ``folder``; ``package`` is its import name (rules register there)."""
        from lawcode.registry import load_regime

        return load_regime(folder, package)

    # --- questions -----------------------------------------------------------------------------------

    @property
    def main_act(self) -> Act:
        return self.acts.main_act

    @property
    def law_text(self) -> LawText:
        """The parsed text of the regime's own law (dispositivos, wordings)."""
        text = self.main_act.text
        if text is None:
            raise RegimeDefinitionError(f"regime {self.id} has no law text", file=str(self.folder))
        return text

    def questions(self) -> list[str]:
        return sorted(self.rules)

    def evaluate(
        self,
        question: str,
        facts: Any,
        *,
        as_of: dt.date,
        config: Config | None = None,
        memo: Memo | None = None,
    ) -> Decision:
        """Answer ``question`` for ``facts`` on ``as_of`` under this regime.

        ``facts`` is the question's facts class (questions.QUESTIONS) or a dict for ``facts.from_dict``.
        ``memo`` is a bulk run's memory (lawcode.bulk): parts shared by many subjects are computed once.
        Raises QuestionNotApplicableError, LawNotInForceError (before the law took effect, except for
        ``law_in_force``), MissingFactError/InvalidFactError, MissingParameterError.
        """
        if not isinstance(as_of, dt.date) or isinstance(as_of, dt.datetime):
            raise InvalidFactError("as_of", f"must be a date (datetime.date, no time), got {as_of!r}")
        spec = question_spec(question)
        rule_spec = self.rules.get(question)
        if rule_spec is None:
            raise QuestionNotApplicableError(
                f"regime {self.id} does not answer {question!r}; it answers: {', '.join(self.questions())}",
                message_pt=f"o regime {self.id} não trata da pergunta {question!r}",
                field="question",
            )
        if question != "law_in_force" and as_of < self.in_force:
            raise LawNotInForceError(self.id, as_of, self.in_force, self.main_act.title)
        typed = self._typed_facts(spec.facts_class, facts, question, memo)
        ctx = Context(self, as_of, config, allowed_pairs=self._declared_pairs(rule_spec), memo=memo)
        result = rule_spec.function(ctx, typed)
        if question == "sanction" and self.penalties is not None and isinstance(result, RuleResult):
            self.penalties.check_result(result.result, file=rule_spec.file, line=rule_spec.line)
        if question == "document_validity" and isinstance(result, RuleResult):
            result = apply_age_limit(ctx, self.vocabulary.documents, typed, result)
        return self._decision(question, spec.outcomes, rule_spec, ctx, typed, result)

    def _typed_facts(self, facts_class: type, facts: Any, question: str, memo: Memo | None = None) -> Any:
        where = f"{self.id}/{question}"
        if isinstance(facts, facts_class):
            return self.vocabulary.typed_facts(facts, where, memo=memo, subject=True)
        if isinstance(facts, Mapping):
            return self.vocabulary.typed_facts(from_dict(facts_class, facts, where=where), where)
        raise InvalidFactError(
            "facts", f"{question} takes {facts_class.__name__}, got {type(facts).__name__}"
        )

    def _decision(
        self,
        question: str,
        outcomes: tuple[str, ...],
        rule_spec: RuleSpec,
        ctx: Context,
        facts: Any,
        result: RuleResult,
    ) -> Decision:
        if not isinstance(result, RuleResult) or result.outcome not in outcomes:
            shown = getattr(result, "outcome", type(result).__name__)
            raise RegimeDefinitionError(
                f"rule {rule_spec.name} returned outcome {shown!r}; {question} allows {', '.join(outcomes)}",
                message_pt=f"a regra {rule_spec.name} devolveu um resultado inválido",
                file=rule_spec.file,
                line=rule_spec.line,
            )
        parameters = ctx.parameter_uses()
        citations = self._checked_citations(rule_spec, result.findings, parameters)
        return make_decision(
            self.id,
            question,
            ctx.as_of,
            result.outcome,
            tuple(result.findings),
            dict(result.result),
            citations,
            parameters,
            ctx.interpretation_uses(),
            LazyInputs(facts, ctx.config),
            result.explanation,
        )

    def _checked_citations(
        self, rule_spec: RuleSpec, findings: list[Finding], parameters: tuple[ParameterUse, ...]
    ) -> tuple[Citation, ...]:
        """The decision's citations, after checking that every finding cites something the rule declared.

        Every citation of the findings and parameters, once (the first of equal ones), in the law's order.
        The context hands out the same citation tuples and parameter uses for the same references and days, so
        a rule's findings repeat a few combinations of the same objects: each combination is checked and
        sorted once, and kept with those objects (so none of the ids in its key can belong to another object).
        """
        parts: list[Any] = [f.citations for f in findings]
        parts += parameters
        key = (rule_spec.question, tuple(map(id, parts)))
        kept = self._citations_kept.get(key)
        if kept is not None:
            return kept[1]
        allowed = self._declared_pairs(rule_spec)
        for finding in findings:
            self._check_finding_cites(rule_spec, finding, allowed)
        citations = self._decision_citations(findings, parameters)
        if len(self._citations_kept) >= _CITATIONS_KEPT_LIMIT:
            self._citations_kept.clear()
        self._citations_kept[key] = (parts, citations)
        return citations

    def _decision_citations(
        self, findings: list[Finding], parameters: tuple[ParameterUse, ...]
    ) -> tuple[Citation, ...]:
        """Told apart by identity first (most are the citer's very objects), then by value (a Citation's hash
        reads all its fields); stable sort, so equal keys keep the order of the findings."""
        distinct = {id(c): c for f in findings for c in f.citations}
        distinct.update((id(p.citation), p.citation) for p in parameters)
        return tuple(sorted(dict.fromkeys(distinct.values()), key=self.citer.sort_key))

    def _check_finding_cites(
        self, rule_spec: RuleSpec, finding: Finding, allowed: frozenset[tuple[str, str | None]]
    ) -> None:
        if not finding.citations:
            raise RegimeDefinitionError(
                f"rule {rule_spec.name}: finding {finding.code!r} cites nothing",
                message_pt=f"a constatação {finding.code!r} não cita nenhum dispositivo",
                file=rule_spec.file,
                line=rule_spec.line,
            )
        for citation in finding.citations:
            if (citation.act_key, citation.dispositivo) not in allowed:
                raise RegimeDefinitionError(
                    f"rule {rule_spec.name}: finding {finding.code!r} cites {citation.ref!r}, "
                    "which is not in its @rule(cites=...)",
                    message_pt=f"a constatação {finding.code!r} cita {citation.render()} sem declará-lo",
                    file=rule_spec.file,
                    line=rule_spec.line,
                )

    def _declared_pairs(self, rule_spec: RuleSpec) -> frozenset[tuple[str, str | None]]:
        pairs = self._declared.get(rule_spec.question)
        if pairs is None:
            pairs = frozenset(split_ref(ref, self.acts.main) for ref in rule_spec.cites)
            self._declared[rule_spec.question] = pairs
        return pairs

    # --- services for Context ------------------------------------------------------------------------

    def resolve_citation(self, ref: str, on: dt.date) -> Citation:
        return self.citer.resolve(ref, on=on)

    def amendment_bindings(self) -> tuple[AmendmentBinding, ...]:
        return tuple(binding for source in self.act_sources for binding in source.bindings)

    def citer_for(self, config: Config) -> Citer:
        """The citer whose wordings follow the Config's choice for amendments dated by an interpretation, and
        which knows the acts the Config brings (Config.acts: a comunicado entered on a screen)."""
        dates = tuple(sorted(self._amendment_dates(config).items()))
        if not dates and not config.acts:
            return self.citer
        key = (dates, config.acts)
        if key not in self._citers:
            if dates:
                own = [source.build(dict(dates)) for source in self.act_sources]
                base = ActRegistry.with_external(own, self.acts.main)
            else:
                base = self.acts
            self._citers[key] = Citer(base.with_entered(act.to_act() for act in config.acts))
        return self._citers[key]

    def _amendment_dates(self, config: Config) -> dict[str, dt.date]:
        """Amendment key → start date, only where the Config picks a non-default option."""
        out = {}
        for binding in self.amendment_bindings():
            option = config.interpretations.get(binding.interpretation)
            default = self.interpretations[binding.interpretation].default
            if option is not None and option != default:
                out[binding.amendment_key] = binding.dates[option]
        return out

    def prepared(self, config: Config) -> Prepared:
        """What every evaluation under ``config`` shares (lawcode.context.Prepared), kept per Config object.

        Keyed by identity, holding the Config: a bulk run asks again and again with the same one or two
        Configs (law and reform), and the apps keep each municipality's (apps.lawconfig.engine.config_for).
        """
        entry = self._prepared.get(id(config))
        if entry is not None and entry[0] is config:
            return entry[1]
        prepared = Prepared(self, config)
        if len(self._prepared) >= _PREPARED_CACHE_LIMIT:
            self._prepared.clear()
        self._prepared[id(config)] = (config, prepared)
        return prepared

    def family_of(self, citer: Citer, config: Config) -> int:
        """A number shared by the Configs that differ at most in parameter values and interpretation choices
        (the same wordings and the same calendar), unique in the process: ``Context.shared`` reuses a part
        across them when it read nothing they change."""
        key = (id(citer), *map(tuple, (config.municipal_holidays, config.closures, config.early_closings)))
        family = self._families.get(key)
        if family is None:
            family = self._families[key] = next(_FAMILY_NUMBERS)
        return family

    def parameters_with(self, config: Config) -> Mapping[str, Parameter]:
        """Parameters with the Config's values merged in (same date: the Config wins).

        Also validates the Config's interpretation choices, so a misspelt INT-… id or option fails loudly
        instead of being ignored. Memoized per Config content: the apps build an equal Config for every
        question (apps.lawconfig.config.config_for), and the merge is the same each time.
        """
        if config.is_empty():
            return self.parameters
        cached = self._merged  # read once: another thread may replace it between two reads
        if cached is not None and cached[0] is config:
            return cached[1]
        key = _merge_key(config)
        merged = self._merged_by_key.get(key) if key is not None else None
        if merged is None:
            merged = self._merge(config)
            if key is not None:
                if len(self._merged_by_key) >= _MERGED_CACHE_LIMIT:
                    self._merged_by_key.clear()
                self._merged_by_key[key] = merged
        self._merged = (config, merged)  # holding the object: identity cannot be reused
        return merged

    def _merge(self, config: Config) -> dict[str, Parameter]:
        for int_id in config.interpretations:
            choose(self.interpretations, int_id, config.interpretations)
        merged = dict(self.parameters)
        citer = self.citer_for(config)
        for name, values in config.parameters.items():
            if name not in merged:
                raise UnknownParameterError(self.id, name, file="Config.parameters")
            merged[name] = merged[name].with_values(self._checked(merged[name], values, citer))
        return merged

    def _checked(
        self, parameter: Parameter, values: tuple[ParameterValue, ...], citer: Citer
    ) -> list[ParameterValue]:
        out = []
        for value in values:
            citer.validate(value.cite, file=value.source or "Config.parameters")
            if value.confidence not in CONFIDENCE_GRADES:
                raise RegimeDefinitionError(
                    f"{value.source}: confidence {value.confidence!r} must be one of {', '.join(CONFIDENCE_GRADES)}",
                    message_pt="grau de confiança inválido (use V, S, M ou NF)",
                    field=parameter.name,
                )
            coerced = coerce_value(value.value, parameter.unit, file=value.source or "Config.parameters")
            out.append(
                ParameterValue(
                    value.effective_from, coerced, value.cite, value.confidence, value.note, value.source
                )
            )
        return out

    def calendar_for(self, config: Config) -> LegalCalendar:
        """The legal calendar: calendar.yaml plus the Config's holidays and closures."""
        from lawcode.calendar import Closure, LegalCalendar, MunicipalHoliday

        if self._calendar is None:
            self._calendar = LegalCalendar.from_yaml_data(
                self.uf, self.calendar_data, str(self.folder / "calendar.yaml")
            )
        if not (config.closures or config.municipal_holidays or config.early_closings):
            return self._calendar
        early = [Closure(on=c.date, name=c.name, early_closing=True) for c in config.early_closings]
        return self._calendar.extended(
            municipal_holidays=[MunicipalHoliday(name=h.name, on=h.date) for h in config.municipal_holidays],
            closures=[Closure(on=c.date, name=c.name) for c in config.closures] + early,
        )


def registered_rules(package: str) -> list[RuleSpec]:
    """Rules registered by modules of ``package`` (imported first, so its ``@rule``s run)."""
    try:
        importlib.import_module(package)
    except SyntaxError as exc:
        raise RegimeDefinitionError(
            f"syntax error in the rules of {package}: {exc.msg}",
            message_pt=f"erro de sintaxe nas regras de {package}",
            file=exc.filename,
            line=exc.lineno,
        ) from exc
    except ImportError as exc:
        raise RegimeDefinitionError(
            f"cannot import the rules of {package}: {exc}",
            message_pt=f"não foi possível importar as regras de {package}",
        ) from exc
    prefix = package + "."
    return [spec for spec in _REGISTERED if spec.module == package or spec.module.startswith(prefix)]


_MERGED_CACHE_LIMIT = 256
_PREPARED_CACHE_LIMIT = 64
_FAMILY_NUMBERS = itertools.count()
_CITATIONS_KEPT_LIMIT = 10_000


def _merge_key(config: Config) -> Hashable | None:
    """What the merged parameters depend on, hashable; None when a value cannot be hashed (never cached)."""
    key = (
        tuple((name, tuple(values)) for name, values in sorted(config.parameters.items())),
        tuple(sorted(config.interpretations.items())),
        config.acts,
    )
    try:
        hash(key)
    except TypeError:
        return None
    return key
