"""A regime: one municipality's law as code, loaded from its folder, and the ``@rule`` registration.

Folder ``lawcode/regimes/<id>/``: regime.yaml, law.txt, parameters.yaml, interpretations.yaml, catalog.yaml,
calendar.yaml, not_computable.yaml, and a Python package whose ``__init__`` imports its rule modules::

    # lawcode/regimes/olimpia_sp_escolar/rules/permit.py
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
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lawcode.acts import Act, ActRegistry, short_act_name
from lawcode.citations import Citation, Citer, split_ref
from lawcode.config import Config
from lawcode.context import Context
from lawcode.decision import Decision, RuleResult
from lawcode.errors import (
    InvalidFactError,
    LawNotInForceError,
    QuestionNotApplicableError,
    RegimeDefinitionError,
    UnknownParameterError,
)
from lawcode.facts import from_dict, to_dict
from lawcode.fiscal import ufesp_parameter
from lawcode.interpretations import Interpretation, choose, load_interpretations
from lawcode.params import Parameter, ParameterValue, coerce_value, load_parameters
from lawcode.questions import question_spec
from lawcode.texts import Amendment, LawText, parse_law_text
from lawcode.yamlsource import YamlList, YamlMap, load_yaml, reject_unknown_keys, require_keys, require_map

if TYPE_CHECKING:
    from lawcode.calendar import LegalCalendar

RuleFunction = Callable[[Context, Any], RuleResult]

_REGIME_KEYS = ("id", "name", "municipality", "uf", "ibge", "ibge_code", "kind", "prefix", "infraction_prefix",
                "main_act", "acts", "note")
_ACT_KEYS = ("key", "file", "title", "cite_as", "published", "in_force", "amendments", "enacted", "publication",
             "vacatio_legis_days", "revokes", "note", "url")
_AMENDMENT_KEYS = ("key", "title", "marker", "published", "in_force", "cite_as", "note")
_CATALOG_CORE_KEYS = ("code", "cite", "severity", "title", "description", "keywords")


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
        raise RegimeDefinitionError(f"@rule({question!r}) must declare the dispositivos it cites (cites=...)",
                                    message_pt="toda regra declara os dispositivos que cita")

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


@dataclass(frozen=True)
class CatalogEntry:
    """One infraction of the catalog. Regime-specific keys (penalty, curable, …) are kept in ``extra``."""

    code: str
    cite: str
    severity: str
    title: str
    description: str
    keywords: tuple[str, ...]
    extra: Mapping[str, Any]
    source: str


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
    citer: Citer = field(init=False)
    _calendar: LegalCalendar | None = field(default=None, init=False, repr=False)
    _merged: tuple[Config, dict[str, Parameter]] | None = field(default=None, init=False, repr=False)
    _declared: dict[str, frozenset[tuple[str, str | None]]] = field(default_factory=dict, init=False, repr=False)

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

    def evaluate(self, question: str, facts: Any, *, as_of: dt.date, config: Config | None = None) -> Decision:
        """Answer ``question`` for ``facts`` on ``as_of`` under this regime.

        ``facts`` is the question's facts class (questions.QUESTIONS) or a dict for ``facts.from_dict``.
        Raises QuestionNotApplicableError, LawNotInForceError (before the law took effect, except for
        ``law_in_force``), MissingFactError/InvalidFactError, MissingParameterError.
        """
        spec = question_spec(question)
        rule_spec = self.rules.get(question)
        if rule_spec is None:
            raise QuestionNotApplicableError(
                f"regime {self.id} does not answer {question!r}; it answers: {', '.join(self.questions())}",
                message_pt=f"o regime {self.id} não trata da pergunta {question!r}", field="question",
            )
        if question != "law_in_force" and as_of < self.in_force:
            raise LawNotInForceError(self.id, as_of, self.in_force, self.main_act.title)
        typed = self._typed_facts(spec.facts_class, facts, question)
        ctx = Context(self, as_of, config, allowed_cites=rule_spec.cites)
        result = rule_spec.function(ctx, typed)
        return self._decision(question, spec.outcomes, rule_spec, ctx, typed, result)

    def _typed_facts(self, facts_class: type, facts: Any, question: str) -> Any:
        if isinstance(facts, facts_class):
            return facts
        if isinstance(facts, Mapping):
            return from_dict(facts_class, facts, where=f"{self.id}/{question}")
        raise InvalidFactError("facts", f"{question} takes {facts_class.__name__}, got {type(facts).__name__}")

    def _decision(self, question: str, outcomes: tuple[str, ...], rule_spec: RuleSpec, ctx: Context,
                  facts: Any, result: RuleResult) -> Decision:
        if not isinstance(result, RuleResult) or result.outcome not in outcomes:
            shown = getattr(result, "outcome", type(result).__name__)
            raise RegimeDefinitionError(
                f"rule {rule_spec.name} returned outcome {shown!r}; {question} allows {', '.join(outcomes)}",
                message_pt=f"a regra {rule_spec.name} devolveu um resultado inválido", file=rule_spec.file,
                line=rule_spec.line,
            )
        self._check_findings_cite(rule_spec, result)
        parameters = ctx.parameter_uses()
        every = [c for f in result.findings for c in f.citations] + [p.citation for p in parameters]
        citations = tuple(sorted(dict.fromkeys(every), key=self.citer.sort_key))
        inputs = LazyInputs(facts, ctx.config)
        return Decision(self.id, question, ctx.as_of, result.outcome, tuple(result.findings), dict(result.result),
                        citations, parameters, ctx.interpretation_uses(), inputs, result.explanation)

    def _check_findings_cite(self, rule_spec: RuleSpec, result: RuleResult) -> None:
        """Every finding cites something, and only what the rule declared (findings built by hand included)."""
        allowed = self._declared_pairs(rule_spec)
        for finding in result.findings:
            if not finding.citations:
                raise RegimeDefinitionError(f"rule {rule_spec.name}: finding {finding.code!r} cites nothing",
                                            message_pt=f"a constatação {finding.code!r} não cita nenhum dispositivo",
                                            file=rule_spec.file, line=rule_spec.line)
            for citation in finding.citations:
                if (citation.act_key, citation.dispositivo) not in allowed:
                    raise RegimeDefinitionError(
                        f"rule {rule_spec.name}: finding {finding.code!r} cites {citation.ref!r}, "
                        "which is not in its @rule(cites=...)",
                        message_pt=f"a constatação {finding.code!r} cita {citation.render()} sem declará-lo",
                        file=rule_spec.file, line=rule_spec.line,
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

    def parameters_with(self, config: Config) -> Mapping[str, Parameter]:
        """Parameters with the Config's values merged in (same date: the Config wins).

        Also validates the Config's interpretation choices, so a misspelt INT-… id or option fails loudly
        instead of being ignored.
        """
        if config.is_empty():
            return self.parameters
        if self._merged is not None and self._merged[0] is config:
            return self._merged[1]
        for int_id in config.interpretations:
            choose(self.interpretations, int_id, config.interpretations)
        merged = dict(self.parameters)
        for name, values in config.parameters.items():
            if name not in merged:
                raise UnknownParameterError(self.id, name, file="Config.parameters")
            merged[name] = merged[name].with_values(self._checked(merged[name], values))
        self._merged = (config, merged)  # holding the object: identity cannot be reused
        return merged

    def _checked(self, parameter: Parameter, values: tuple[ParameterValue, ...]) -> list[ParameterValue]:
        out = []
        for value in values:
            self.citer.validate(value.cite, file=value.source or "Config.parameters")
            coerced = coerce_value(value.value, parameter.unit, file=value.source or "Config.parameters")
            out.append(ParameterValue(value.effective_from, coerced, value.cite, value.confidence, value.note,
                                      value.source))
        return out

    def calendar_for(self, config: Config) -> LegalCalendar:
        """The legal calendar: calendar.yaml plus the Config's holidays and closures."""
        from lawcode.calendar import Closure, LegalCalendar, MunicipalHoliday

        if self._calendar is None:
            self._calendar = LegalCalendar.from_yaml_data(self.uf, self.calendar_data,
                                                          str(self.folder / "calendar.yaml"))
        if not config.closures and not config.municipal_holidays:
            return self._calendar
        return self._calendar.extended(
            municipal_holidays=[MunicipalHoliday(name=h.name, on=h.date) for h in config.municipal_holidays],
            closures=[Closure(on=c.date, name=c.name) for c in config.closures],
        )


# --- folder loading helpers used by lawcode.registry ---------------------------------------------


def registered_rules(package: str) -> list[RuleSpec]:
    """Rules registered by modules of ``package`` (imported first, so its ``@rule``s run)."""
    try:
        importlib.import_module(package)
    except SyntaxError as exc:
        raise RegimeDefinitionError(f"syntax error in the rules of {package}: {exc.msg}",
                                    message_pt=f"erro de sintaxe nas regras de {package}",
                                    file=exc.filename, line=exc.lineno) from exc
    except ImportError as exc:
        raise RegimeDefinitionError(f"cannot import the rules of {package}: {exc}",
                                    message_pt=f"não foi possível importar as regras de {package}") from exc
    prefix = package + "."
    return [spec for spec in _REGISTERED if spec.module == package or spec.module.startswith(prefix)]


def parse_acts(folder: Path, meta: YamlMap, municipality: str) -> tuple[list[Act], dt.date, dt.date | None]:
    """The regime's own acts (texts parsed with their amendments), its in-force and publication dates."""
    acts_node = meta.get("acts")
    if not isinstance(acts_node, YamlList) or not acts_node:
        raise RegimeDefinitionError("regime.yaml needs 'acts' (a list with at least the regime's law)",
                                    message_pt="regime.yaml precisa de 'acts'", file=meta.source,
                                    line=meta.line_of("acts"))
    acts = [_parse_act(folder, require_map(node, meta.source, "act", acts_node.line_at(i)), municipality)
            for i, node in enumerate(acts_node)]
    main_key = str(meta.get("main_act") or acts[0].key)
    main = next((a for a in acts if a.key == main_key), None)
    if main is None or main.in_force is None:
        raise RegimeDefinitionError(f"main_act {main_key!r} is not among 'acts' or has no 'in_force'",
                                    file=meta.source, line=meta.line_of("main_act"))
    return acts, main.in_force, main.published


def _parse_act(folder: Path, node: YamlMap, municipality: str) -> Act:
    reject_unknown_keys(node, _ACT_KEYS, "act")
    require_keys(node, ("key", "file", "title", "in_force"), "act")
    in_force = _date(node, "in_force")
    amendments = _amendments(node)
    path = folder / str(node["file"])
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RegimeDefinitionError(f"cannot read the law text {path}", file=node.source,
                                    line=node.line_of("file")) from exc
    law = parse_law_text(text, source=str(path), in_force=in_force, amendments=amendments)
    title = str(node["title"])
    cite_as = str(node.get("cite_as") or f"{short_act_name(title)} ({short_municipality(municipality)})")
    return Act(key=str(node["key"]), title=title, cite_as=cite_as, published=_optional_date(node, "published"),
               in_force=in_force, text=law, amendments=tuple(amendments), url=node.get("url"))


def short_municipality(name: str) -> str:
    """'Estância Turística de Olímpia' → 'Olímpia' (how citations name the town)."""
    for prefix in ("Estância Turística de ", "Estância Hidromineral de ", "Estância Climática de "):
        if name.startswith(prefix):
            return name[len(prefix):]
    return name


def _amendments(node: YamlMap) -> list[Amendment]:
    items = node.get("amendments") or []
    if not isinstance(items, list):
        raise RegimeDefinitionError("'amendments' must be a list", file=node.source, line=node.line_of("amendments"))
    out = []
    for index, item in enumerate(items):
        entry = require_map(item, node.source, "amendment", getattr(items, "line_at", lambda i: node.line)(index))
        reject_unknown_keys(entry, _AMENDMENT_KEYS, "amendment")
        require_keys(entry, ("key", "marker", "in_force"), "amendment")
        out.append(Amendment(str(entry["key"]), str(entry["marker"]), _date(entry, "in_force"),
                             entry.get("cite_as")))
    return out


def _date(node: YamlMap, key: str) -> dt.date:
    value = node.get(key)
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value
    raise RegimeDefinitionError(f"'{key}' must be a date YYYY-MM-DD, got {value!r}",
                                message_pt=f"'{key}' deve ser uma data AAAA-MM-DD", file=node.source,
                                line=node.line_of(key))


def _optional_date(node: YamlMap, key: str) -> dt.date | None:
    return _date(node, key) if node.get(key) is not None else None


def load_catalog(path: Path, citer: Citer) -> dict[str, CatalogEntry]:
    """catalog.yaml: ``infractions: [{code, cite, severity, title, description, keywords, ...}]``."""
    if not path.exists():
        return {}
    root = require_map(load_yaml(path) or YamlMap(), str(path), "catalog.yaml")
    items = root.get("infractions") or []
    if not isinstance(items, YamlList):
        raise RegimeDefinitionError("catalog.yaml: 'infractions' must be a list", file=str(path),
                                    line=root.line_of("infractions"))
    catalog: dict[str, CatalogEntry] = {}
    for index, item in enumerate(items):
        entry = _catalog_entry(require_map(item, str(path), "infraction", items.line_at(index)), citer)
        if entry.code in catalog:
            raise RegimeDefinitionError(f"duplicate infraction code {entry.code!r}", file=str(path),
                                        line=items.line_at(index))
        catalog[entry.code] = entry
    return catalog


def _catalog_entry(node: YamlMap, citer: Citer) -> CatalogEntry:
    require_keys(node, ("code", "cite", "severity", "title"), "infraction")
    cite = citer.validate(node["cite"], file=node.source, line=node.line_of("cite"))
    keywords = node.get("keywords") or []
    extra = {k: v for k, v in node.items() if k not in _CATALOG_CORE_KEYS}
    return CatalogEntry(str(node["code"]), cite, str(node["severity"]), str(node["title"]),
                        str(node.get("description") or ""), tuple(str(k) for k in keywords), extra,
                        f"{node.source}:{node.line}")


def load_not_computable(path: Path, citer: Citer) -> dict[str, str]:
    """not_computable.yaml: ``not_computable:`` as a list of ``{cite, reason}`` or a mapping id → reason."""
    if not path.exists():
        return {}
    root = require_map(load_yaml(path) or YamlMap(), str(path), "not_computable.yaml")
    items = root.get("not_computable") or {}
    pairs: list[tuple[Any, Any, int]]
    if isinstance(items, YamlMap):
        pairs = [(key, value, items.line_of(key)) for key, value in items.items()]
    elif isinstance(items, YamlList):
        pairs = []
        for index, item in enumerate(items):
            entry = require_map(item, str(path), "not_computable item", items.line_at(index))
            require_keys(entry, ("cite", "reason"), "not_computable item")
            pairs.append((entry["cite"], entry["reason"], entry.line))
    else:
        raise RegimeDefinitionError("'not_computable' must be a list of {cite, reason} or a mapping id: reason",
                                    file=str(path), line=root.line)
    out: dict[str, str] = {}
    for ref, reason, line in pairs:
        citer.validate(ref, file=str(path), line=line)
        if not reason or not str(reason).strip():
            raise RegimeDefinitionError(f"{ref}: give the reason it cannot be computed", file=str(path), line=line)
        out[str(ref)] = str(reason).strip()
    return out


def load_interpretations_for(folder: Path, citer: Citer) -> dict[str, Interpretation]:
    return load_interpretations(folder / "interpretations.yaml", _validator(citer))


def load_parameters_for(folder: Path, citer: Citer) -> dict[str, Parameter]:
    parameters = load_parameters(folder / "parameters.yaml", _validator(citer))
    if "ufesp" in parameters:
        raise RegimeDefinitionError("'ufesp' is the engine's table (data/ufesp.csv); do not redeclare it",
                                    file=str(folder / "parameters.yaml"))
    parameters["ufesp"] = ufesp_parameter()
    return parameters


def _validator(citer: Citer) -> Callable[[object, str | None, int | None], str]:
    def validate(ref: object, file: str | None, line: int | None) -> str:
        return citer.validate(ref, file=file, line=line)

    return validate


def regime_keys() -> tuple[str, ...]:
    return _REGIME_KEYS
