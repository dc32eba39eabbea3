"""Scenario tests: YAML files that lawyers can read, loaded with a line number for every case and field.

A scenario file holds one regime and several cases (format reference: docs/lawcode/scenarios.md)::

    regime: exemplo_sp_escolar
    cases:
      - name: veiculo_16_anos_indeferido
        as_of: 2026-03-01
        question: vehicle_permit
        facts: {...}
        expect: {outcome: denied, cites: [art13_incII]}

``load_scenario_file(path)`` returns a ``ScenarioFile`` or raises ``ScenarioError`` naming the file, the line
and what to do. ``run_case(case)`` evaluates one case and returns a ``CaseResult`` saying why it passed or
failed — it never raises for a wrong expectation, so one bad case does not hide the others.
"""

from __future__ import annotations

import datetime as dt
import sys
import traceback
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from enum import Enum
from pathlib import Path
from typing import Any

from lawcode.citations import Citation, split_ref
from lawcode.config import Config
from lawcode.decision import Decision, Finding, Status
from lawcode.errors import LawcodeError, RegimeDefinitionError, ScenarioError
from lawcode.facts import from_dict
from lawcode.questions import question_spec
from lawcode.regime import Regime
from lawcode.registry import REGIMES_DIR, get_regime, load_regime
from lawcode.yamlsource import YamlList, YamlMap, load_yaml_text

FILE_KEYS = frozenset({"regime", "cases", "description"})
CASE_KEYS = frozenset({"name", "as_of", "question", "facts", "expect", "config", "description"})
REQUIRED_CASE_KEYS = ("name", "as_of", "question", "facts", "expect")
EXPECT_KEYS = frozenset(
    {
        "outcome",
        "error",
        "cites",
        "decisive_cites",
        "findings",
        "result",
        "interpretations",
        "parameters",
        "explanation_contains",
    }
)
CONFIG_KEYS = frozenset({"parameters", "interpretations", "municipal_holidays", "closures"})


def _error(file: Path | str, line: int | None, what: str, what_pt: str) -> ScenarioError:
    return ScenarioError(str(file), line, what, message_pt=what_pt)


def load_yaml_with_lines(text: str, source_name: str) -> Any:
    """Parse a scenario file's YAML with lawcode's one line-aware loader; errors are ``ScenarioError``."""
    return load_yaml_text(text, source_name, error=_error)


# ----------------------------------------------------------------------------------------------------
# Scenario model
# ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Expectation:
    """What a case expects. Exactly one of ``outcome`` / ``error`` is set; every other key is optional."""

    outcome: str | None
    error: str | None
    cites: tuple[str, ...] = ()
    decisive_cites: tuple[str, ...] = ()
    """Citations each borne by a finding the outcome rests on (decisive_findings), not merely somewhere in the
    decision (met requirements beside a penalty, parameters)."""
    findings: Mapping[str, str] = field(default_factory=dict)
    result: Mapping[str, Any] = field(default_factory=dict)
    interpretations: Mapping[str, str | None] = field(default_factory=dict)
    parameters: Mapping[str, Any] = field(default_factory=dict)
    explanation_contains: tuple[str, ...] = ()
    key_lines: Mapping[str, int] = field(default_factory=dict)

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, 0)


@dataclass(frozen=True)
class ScenarioCase:
    """One case of a scenario file, with the line of the case and of each of its keys."""

    file: Path
    regime: str
    name: str
    line: int
    as_of: dt.date
    question: str
    facts: Mapping[str, Any]
    expect: Expectation
    config: Mapping[str, Any] | None = None
    description: str | None = None
    key_lines: Mapping[str, int] = field(default_factory=dict)

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line)

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line} ({self.name})"


@dataclass(frozen=True)
class ScenarioFile:
    path: Path
    regime: str
    cases: tuple[ScenarioCase, ...]
    description: str | None = None


# ----------------------------------------------------------------------------------------------------
# Loading and validation
# ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Where:
    """Where a key sits, in both languages of the error messages (``the file`` / ``o arquivo``)."""

    en: str
    pt: str


_FILE = _Where("the file", "o arquivo")


def load_scenario_file(path: Path | str) -> ScenarioFile:
    """Load and validate one scenario file; raises ``ScenarioError(file, line, what to do)``."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise _error(
            path, None, f"cannot read the file ({exc.strerror})", "não foi possível ler o arquivo"
        ) from exc
    data = load_yaml_with_lines(text, str(path))
    if not isinstance(data, YamlMap):
        raise _error(
            path,
            1,
            "a scenario file must be a mapping with 'regime' and 'cases'",
            "o arquivo de cenários deve ser um mapeamento com 'regime' e 'cases'",
        )
    _reject_unknown_keys(path, data, FILE_KEYS, _FILE)
    regime = _required_text(path, data, "regime", _FILE)
    cases_node = data.get("cases")
    if not isinstance(cases_node, YamlList) or not cases_node:
        raise _error(
            path,
            data.line_of("cases"),
            "'cases' must be a non-empty list of cases",
            "'cases' deve ser uma lista não vazia de casos",
        )
    cases = tuple(_parse_case(path, regime, case, cases_node.line_at(i)) for i, case in enumerate(cases_node))
    _reject_duplicate_names(path, cases)
    description = data.get("description")
    return ScenarioFile(path, regime, cases, str(description) if description is not None else None)


def _reject_unknown_keys(path: Path, node: YamlMap, allowed: frozenset[str], where: _Where) -> None:
    for key in node:
        if key not in allowed:
            known = ", ".join(sorted(allowed))
            raise _error(
                path,
                node.line_of(key),
                f"unknown key {key!r} in {where.en}; allowed keys: {known}",
                f"chave desconhecida {key!r} em {where.pt}; chaves permitidas: {known}",
            )


def _required_text(path: Path, node: YamlMap, key: str, where: _Where) -> str:
    value = node.get(key)
    if value is None:
        raise _error(
            path,
            node.line,
            f"missing '{key}' in {where.en}; add it",
            f"falta '{key}' em {where.pt}; inclua-o",
        )
    if not isinstance(value, str) or not value.strip():
        raise _error(
            path,
            node.line_of(key),
            f"'{key}' in {where.en} must be a non-empty text",
            f"'{key}' em {where.pt} deve ser um texto não vazio",
        )
    return value.strip()


def _reject_duplicate_names(path: Path, cases: Sequence[ScenarioCase]) -> None:
    seen: dict[str, int] = {}
    for case in cases:
        if case.name in seen:
            first = seen[case.name]
            raise _error(
                path,
                case.line,
                f"duplicate case name {case.name!r} (first on line {first}); rename one",
                f"nome de caso repetido {case.name!r} (o primeiro está na linha {first}); renomeie um deles",
            )
        seen[case.name] = case.line


def _parse_case(path: Path, regime: str, node: Any, line: int) -> ScenarioCase:
    if not isinstance(node, YamlMap):
        raise _error(
            path,
            line,
            "each item of 'cases' must be a mapping (name, as_of, question, facts, expect)",
            "cada item de 'cases' deve ser um mapeamento (name, as_of, question, facts, expect)",
        )
    _reject_unknown_keys(path, node, CASE_KEYS, _Where("a case", "um caso"))
    for key in REQUIRED_CASE_KEYS:
        if key not in node:
            raise _error(
                path, node.line, f"case is missing '{key}'; add it", f"falta '{key}' no caso; inclua-o"
            )
    name = _required_text(path, node, "name", _Where("a case", "um caso"))
    where = _Where(f"case {name!r}", f"caso {name!r}")
    facts = _facts(path, node, where)
    config = node.get("config")
    if config is not None:
        _check_config(path, config, node.line_of("config"), where)
    description = node.get("description")
    return ScenarioCase(
        file=path,
        regime=regime,
        name=name,
        line=node.line,
        as_of=_parse_date(path, node["as_of"], node.line_of("as_of"), where),
        question=_required_text(path, node, "question", where),
        facts=facts,
        expect=_parse_expect(path, node["expect"], node.line_of("expect"), where),
        config=config,
        description=str(description) if description is not None else None,
        key_lines=dict(node.key_lines),
    )


def _facts(path: Path, node: YamlMap, where: _Where) -> YamlMap:
    facts = node["facts"]
    if not isinstance(facts, YamlMap):
        raise _error(
            path,
            node.line_of("facts"),
            f"'facts' of {where.en} must be a mapping",
            f"'facts' do {where.pt} deve ser um mapeamento",
        )
    return facts


def _parse_date(path: Path, value: Any, line: int, where: _Where) -> dt.date:
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value.strip())
        except ValueError:
            pass
    raise _error(
        path,
        line,
        f"'as_of' of {where.en} must be a date written as YYYY-MM-DD, got {value!r}",
        f"'as_of' do {where.pt} deve ser uma data no formato AAAA-MM-DD, veio {value!r}",
    )


def _check_config(path: Path, config: Any, line: int, where: _Where) -> None:
    if not isinstance(config, YamlMap):
        raise _error(
            path,
            line,
            f"'config' of {where.en} must be a mapping",
            f"'config' do {where.pt} deve ser um mapeamento",
        )
    _reject_unknown_keys(
        path, config, CONFIG_KEYS, _Where(f"the config of {where.en}", f"config do {where.pt}")
    )
    for key in ("parameters", "interpretations"):
        if key in config and not isinstance(config[key], YamlMap):
            raise _error(
                path,
                config.line_of(key),
                f"'config.{key}' of {where.en} must be a mapping",
                f"'config.{key}' do {where.pt} deve ser um mapeamento",
            )


def _parse_expect(path: Path, node: Any, line: int, where: _Where) -> Expectation:
    if not isinstance(node, YamlMap):
        raise _error(
            path,
            line,
            f"'expect' of {where.en} must be a mapping",
            f"'expect' do {where.pt} deve ser um mapeamento",
        )
    _reject_unknown_keys(
        path, node, EXPECT_KEYS, _Where(f"'expect' of {where.en}", f"'expect' do {where.pt}")
    )
    if ("outcome" in node) == ("error" in node):
        raise _error(
            path,
            node.line,
            f"'expect' of {where.en} needs exactly one of 'outcome' or 'error'",
            f"'expect' do {where.pt} precisa de exatamente um entre 'outcome' e 'error'",
        )
    _reject_decision_keys_with_error(path, node, where)
    return Expectation(
        outcome=_optional_text(path, node, "outcome", where),
        error=_optional_text(path, node, "error", where),
        cites=_text_list(path, node, "cites", where),
        decisive_cites=_text_list(path, node, "decisive_cites", where),
        findings=_findings(path, node, where),
        result=_mapping(path, node, "result", where),
        interpretations=_interpretations(path, node, where),
        parameters=_mapping(path, node, "parameters", where),
        explanation_contains=_text_list(path, node, "explanation_contains", where),
        key_lines=dict(node.key_lines),
    )


DECISION_ONLY_KEYS = ("cites", "decisive_cites", "findings", "result", "interpretations", "parameters")


def _reject_decision_keys_with_error(path: Path, node: YamlMap, where: _Where) -> None:
    """An expected error leaves no decision, so checks on a decision could never run: reject them."""
    if "error" not in node:
        return
    for key in DECISION_ONLY_KEYS:
        if key in node:
            raise _error(
                path,
                node.line_of(key),
                f"'expect.{key}' of {where.en} cannot be checked with 'error' (no decision)",
                f"'expect.{key}' do {where.pt} não pode ser verificado junto com 'error' (não há decisão)",
            )


def _optional_text(path: Path, node: YamlMap, key: str, where: _Where) -> str | None:
    if key not in node:
        return None
    return _required_text(path, node, key, _Where(f"'expect' of {where.en}", f"'expect' do {where.pt}"))


def _wrong_shape(path: Path, line: int, key: str, where: _Where, shape: tuple[str, str]) -> ScenarioError:
    return _error(
        path,
        line,
        f"'expect.{key}' of {where.en} must be {shape[0]}",
        f"'expect.{key}' do {where.pt} deve ser {shape[1]}",
    )


def _text_list(path: Path, node: YamlMap, key: str, where: _Where) -> tuple[str, ...]:
    value = node.get(key)
    if value is None:
        return ()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise _wrong_shape(path, node.line_of(key), key, where, ("a list of texts", "uma lista de textos"))
    return tuple(value)


def _mapping(path: Path, node: YamlMap, key: str, where: _Where) -> Mapping[str, Any]:
    value = node.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _wrong_shape(path, node.line_of(key), key, where, ("a mapping", "um mapeamento"))
    return value


def _text_mapping(path: Path, node: YamlMap, key: str, where: _Where) -> Mapping[str, str]:
    value = _mapping(path, node, key, where)
    if not all(isinstance(item, str) for item in value.values()):
        raise _wrong_shape(
            path,
            node.line_of(key),
            key,
            where,
            ("a mapping code -> status", "um mapeamento código -> status"),
        )
    return {str(k): v for k, v in value.items()}


def _findings(path: Path, node: YamlMap, where: _Where) -> Mapping[str, str]:
    """Finding code -> status, each status from the closed list of ``decision.Status``."""
    findings = _text_mapping(path, node, "findings", where)
    known = [status.value for status in Status]
    for code, status in findings.items():
        if status not in known:
            line = node["findings"].line_of(code) if isinstance(node["findings"], YamlMap) else node.line
            raise _error(
                path,
                line,
                f"unknown status {status!r} for finding {code!r}; use one of: {', '.join(known)}",
                f"status desconhecido {status!r} no achado {code!r}; use um destes: {', '.join(known)}",
            )
    return findings


def _interpretations(path: Path, node: YamlMap, where: _Where) -> Mapping[str, str | None]:
    """A list of INT ids (each must be used) or a mapping INT id -> option (used with that option)."""
    value = node.get("interpretations")
    if value is None:
        return {}
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return dict.fromkeys(value)
    if isinstance(value, dict) and all(isinstance(item, str) for item in value.values()):
        return {str(k): v for k, v in value.items()}
    shape = (
        "a list of INT ids or a mapping INT id -> option",
        "uma lista de INT ou um mapeamento INT -> opção",
    )
    raise _wrong_shape(path, node.line_of("interpretations"), "interpretations", where, shape)


# ----------------------------------------------------------------------------------------------------
# Comparison of expected and actual values
# ----------------------------------------------------------------------------------------------------


def subset_mismatches(expected: Any, actual: Any, path: str) -> list[str]:
    """Where ``actual`` differs from ``expected``; mappings match when every expected key matches.

    Lists must have the same length and match item by item. Dates compare as ISO text, numbers as Decimal
    (so ``1234.5`` in YAML equals ``Decimal("1234.50")``), enums by their value.
    """
    if isinstance(expected, Mapping):
        if not isinstance(actual, Mapping):
            return [f"{path}: esperado um mapeamento, veio {_show(actual)}"]
        problems: list[str] = []
        for key, value in expected.items():
            if key not in actual:
                problems.append(f"{path}.{key}: ausente (chaves: {', '.join(map(str, actual)) or 'nenhuma'})")
            else:
                problems.extend(subset_mismatches(value, actual[key], f"{path}.{key}"))
        return problems
    if isinstance(expected, list):
        return _sequence_mismatches(expected, actual, path)
    if values_equal(expected, actual):
        return []
    return [f"{path}: esperado {_show(expected)}, veio {_show(actual)}"]


def _sequence_mismatches(expected: list[Any], actual: Any, path: str) -> list[str]:
    if not isinstance(actual, (list, tuple)):
        return [f"{path}: esperada uma lista, veio {_show(actual)}"]
    if len(expected) != len(actual):
        return [f"{path}: esperados {len(expected)} itens, vieram {len(actual)} ({_show(actual)})"]
    problems: list[str] = []
    for index, (want, got) in enumerate(zip(expected, actual, strict=True)):
        problems.extend(subset_mismatches(want, got, f"{path}[{index}]"))
    return problems


def values_equal(expected: Any, actual: Any) -> bool:
    """Scalar equality across YAML and engine types (date vs ISO text, float vs Decimal, enum vs value)."""
    left, right = _canonical(expected), _canonical(actual)
    if left == right and type(left) is type(right):
        return True
    return _as_decimal(left) is not None and _as_decimal(left) == _as_decimal(right)


def _canonical(value: Any) -> Any:
    if isinstance(value, Enum):
        value = value.value
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    if isinstance(value, (tuple, YamlList)):
        return list(value)
    return value


def _as_decimal(value: Any) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, (int, float, Decimal, str)):
        return None
    try:
        return Decimal(str(value))
    except InvalidOperation:
        return None


def _show(value: Any) -> str:
    canonical = _canonical(value)
    if isinstance(canonical, Mapping):
        return "{" + ", ".join(f"{key}: {_show(item)}" for key, item in canonical.items()) + "}"
    if isinstance(canonical, list):
        return "[" + ", ".join(_show(item) for item in canonical) + "]"
    if isinstance(canonical, Decimal):
        return str(canonical)
    return repr(canonical) if isinstance(canonical, str) else str(canonical)


# ----------------------------------------------------------------------------------------------------
# Finding files and regimes
# ----------------------------------------------------------------------------------------------------

SCENARIO_SUFFIXES = (".yaml", ".yml")


def find_scenario_files(paths: Iterable[Path | str]) -> list[Path]:
    """Files given explicitly, plus every ``*.yaml``/``*.yml`` below a folder that sits in a ``scenarios`` folder.

    ``lawcode/regimes`` thus finds each regime's ``scenarios/**`` and not its parameters.yaml. A path that
    does not exist raises ScenarioError: a typo must not turn into "0 cases, nothing to do".
    """
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_file():
            found.append(path)
        elif path.is_dir():
            found.extend(sorted(f for f in path.rglob("*") if _is_scenario_file(f)))
        else:
            raise _error(path, None, "no such file or folder", "arquivo ou pasta inexistente")
    return list(dict.fromkeys(found))


def _is_scenario_file(path: Path) -> bool:
    return path.suffix in SCENARIO_SUFFIXES and path.is_file() and "scenarios" in path.resolve().parent.parts


class RegimeLocator:
    """Finds the regime a scenario file names.

    A file inside the regime's own folder (``<folder>/<regime_id>/scenarios/x.yaml`` next to
    ``<folder>/<regime_id>/regime.yaml``) uses that folder, wherever it is — so a new municipality can be
    developed and tested in its folder before it is copied into ``lawcode/regimes``. Any other file uses the
    registry (``lawcode/regimes/<regime_id>``). Loaded regimes are cached per locator.
    """

    def __init__(self) -> None:
        self._loaded: dict[Path, Regime] = {}

    def regime_for(self, case: ScenarioCase) -> Regime:
        folder = _own_regime_folder(case.file, case.regime)
        if folder is None or folder.parent == REGIMES_DIR.resolve():
            return get_regime(case.regime)
        if folder not in self._loaded:
            self._loaded[folder] = regime_from_folder(folder)
        return self._loaded[folder]


def regime_from_folder(folder: Path | str) -> Regime:
    """Load the regime in ``folder`` wherever it is (in this source tree or out of it) and register its rules."""
    resolved = Path(folder).resolve()
    if not (resolved / "regime.yaml").is_file():
        raise RegimeDefinitionError(
            f"{resolved} is not a regime folder (no regime.yaml)",
            message_pt=f"{resolved} não é a pasta de um regime (falta regime.yaml)",
            file=str(resolved),
        )
    return load_regime(resolved, _importable_package(resolved))


def _own_regime_folder(file: Path, regime_id: str) -> Path | None:
    for parent in file.resolve().parents:
        if parent.name == regime_id and (parent / "regime.yaml").is_file():
            return parent
    return None


def _importable_package(folder: Path) -> str:
    """Import name of a regime folder: inside this source tree its dotted path, else a top-level package."""
    source_root = Path(__file__).resolve().parent.parent
    if folder.is_relative_to(source_root):
        return ".".join(folder.relative_to(source_root).parts)
    loaded = sys.modules.get(folder.name)
    if loaded is not None and Path(str(loaded.__file__)).resolve().parent != folder:
        raise RegimeDefinitionError(
            f"{folder}: a different package named {folder.name!r} is already imported from {loaded.__file__}",
            message_pt=f"já existe outro pacote chamado {folder.name!r}; renomeie a pasta (e o id) do regime",
            file=str(folder),
        )
    if str(folder.parent) not in sys.path:
        # An out-of-tree regime is imported as a top-level package named after its folder.
        sys.path.insert(0, str(folder.parent))
    return folder.name


# ----------------------------------------------------------------------------------------------------
# Running a case
# ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CaseResult:
    """The outcome of one case: ``failures`` is empty when it passed; each failure names the line."""

    case: ScenarioCase
    failures: tuple[str, ...]
    decision: Decision | None = None
    error: BaseException | None = None

    @property
    def passed(self) -> bool:
        return not self.failures


def evaluate_case(case: ScenarioCase, regime: Regime) -> Decision:
    """Build the facts and the config of ``case`` and evaluate it under ``regime``; raises LawcodeError."""
    spec = question_spec(case.question)
    facts: Any = from_dict(spec.facts_class, dict(case.facts), where=f"{case.file}:{case.line_of('facts')}")
    config = Config.from_dict(case.config, where=f"{case.file}:{case.line_of('config')} config")
    return regime.evaluate(case.question, facts, as_of=case.as_of, config=config)


def try_case(
    case: ScenarioCase, locator: RegimeLocator | None = None
) -> tuple[Decision | None, Exception | None]:
    """``(decision, None)`` or ``(None, error)``; the error is a LawcodeError or, for a bug, anything else."""
    try:
        return evaluate_case(case, (locator or RegimeLocator()).regime_for(case)), None
    except Exception as exc:  # a bug in one rule must fail its case, not abort the whole run
        return None, exc


def run_case(case: ScenarioCase, locator: RegimeLocator | None = None) -> CaseResult:
    """Evaluate ``case`` and compare with its ``expect``; never raises for a failing case."""
    try:
        regime = (locator or RegimeLocator()).regime_for(case)
        decision = evaluate_case(case, regime)
    except Exception as exc:  # a bug in one rule must fail its case, not abort the whole run
        return CaseResult(case, tuple(_error_failures(case, exc)), None, exc)
    return CaseResult(case, tuple(_decision_failures(case, decision, regime)), decision)


# ----------------------------------------------------------------------------------------------------
# Comparing a case's outcome with its expectation
# ----------------------------------------------------------------------------------------------------


def _at(case: ScenarioCase, key: str) -> str:
    return f"linha {case.expect.line_of(key) or case.line_of('expect')}"


def describe_error(error: BaseException) -> str:
    """``Class: message`` in Portuguese; for a bug (not a LawcodeError) also where it was raised."""
    if isinstance(error, LawcodeError):
        return f"{type(error).__name__}: {error.message_pt}"
    frames = traceback.extract_tb(error.__traceback__)
    where = f" em {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
    return f"erro inesperado (bug) {type(error).__name__}: {error}{where}"


def _error_failures(case: ScenarioCase, error: Exception) -> list[str]:
    expected = case.expect.error
    if expected is None:
        return [
            f"{_at(case, 'outcome')}: esperado outcome {case.expect.outcome!r}, veio {describe_error(error)}"
        ]
    names = [cls.__name__ for cls in type(error).__mro__]
    if not isinstance(error, LawcodeError) or expected not in names:
        return [f"{_at(case, 'error')}: esperado erro {expected}, veio {describe_error(error)}"]
    text = f"{error.message_pt}\n{error.message}"
    return _missing_texts(case, text, "mensagem do erro")


def _decision_failures(case: ScenarioCase, decision: Decision, regime: Regime) -> list[str]:
    expect = case.expect
    if expect.error is not None:
        return [f"{_at(case, 'error')}: esperado erro {expect.error}, veio a decisão {decision.outcome!r}"]
    failures: list[str] = []
    if decision.outcome != expect.outcome:
        failures.append(
            f"{_at(case, 'outcome')}: esperado outcome {expect.outcome!r}, veio {decision.outcome!r}"
        )
    failures += _cite_failures(case, decision, regime)
    failures += _decisive_cite_failures(case, decision, regime)
    failures += _finding_failures(case, decision)
    failures += [
        f"{_at(case, 'result')}: {problem}"
        for problem in subset_mismatches(expect.result, decision.result, "result")
    ]
    failures += _interpretation_failures(case, decision)
    failures += _parameter_failures(case, decision)
    failures += _missing_texts(case, decision.explain(), "explicação")
    return failures


def _cite_failures(case: ScenarioCase, decision: Decision, regime: Regime) -> list[str]:
    cited = {(c.act_key, c.dispositivo) for c in decision.citations}
    failures: list[str] = []
    for ref in case.expect.cites:
        try:
            regime.citer.validate(ref)
        except LawcodeError as exc:
            failures.append(f"{_at(case, 'cites')}: a citação esperada {ref!r} não existe ({exc.message_pt})")
            continue
        if split_ref(ref, regime.acts.main) not in cited:
            shown = ", ".join(_short_ref(c, regime) for c in decision.citations) or "nenhuma"
            failures.append(f"{_at(case, 'cites')}: esperada a citação {ref!r}; citadas: {shown}")
    return failures


def decisive_findings(decision: Decision) -> tuple[Finding, ...]:
    """The findings the outcome rests on: the unmet ones when there are any (a denial, a missed inspection);
    for a grant, the requirements met; otherwise what the decision states (info and warnings: the infraction
    and its penalties, a computed date), or the met ones when it states nothing else. Context beside them (a
    requirement met next to a penalty, a check that does not apply) and the parameters' citations are not."""

    def having(*statuses: Status) -> tuple[Finding, ...]:
        return tuple(f for f in decision.findings if f.status in statuses)

    if unmet := having(Status.NOT_MET):
        return unmet
    if decision.outcome == "granted":  # lawcode.decision.eligibility: granted when nothing is unmet
        return having(Status.MET)
    return having(Status.INFO, Status.WARNING) or having(Status.MET)


def _decisive_cite_failures(case: ScenarioCase, decision: Decision, regime: Regime) -> list[str]:
    decisive = decisive_findings(decision)
    cited = {(c.act_key, c.dispositivo) for f in decisive for c in f.citations}
    failures: list[str] = []
    for ref in case.expect.decisive_cites:
        try:
            regime.citer.validate(ref)
        except LawcodeError as exc:
            failures.append(
                f"{_at(case, 'decisive_cites')}: a citação esperada {ref!r} não existe ({exc.message_pt})"
            )
            continue
        if split_ref(ref, regime.acts.main) not in cited:
            shown = (
                "; ".join(
                    f"{f.code}: {', '.join(_short_ref(c, regime) for c in f.citations)}" for f in decisive
                )
                or "nenhuma constatação decisiva"
            )
            failures.append(
                f"{_at(case, 'decisive_cites')}: esperada a citação {ref!r} numa constatação decisiva; "
                f"decisivas: {shown}"
            )
    return failures


def _short_ref(citation: Citation, regime: Regime) -> str:
    """``art2_incI`` for the regime's own law, ``ctb:art138_incIV`` for another act — as scenarios write them."""
    own = citation.act_key == regime.acts.main and citation.dispositivo is not None
    return str(citation.dispositivo) if own else citation.ref


def _finding_failures(case: ScenarioCase, decision: Decision) -> list[str]:
    failures: list[str] = []
    for code, status in case.expect.findings.items():
        statuses = [f.status.value for f in decision.findings if f.code == code]
        if not statuses:
            shown = ", ".join(f"{f.code}={f.status.value}" for f in decision.findings) or "nenhum"
            failures.append(f"{_at(case, 'findings')}: achado {code!r} ausente; achados: {shown}")
        elif status not in statuses:
            failures.append(
                f"{_at(case, 'findings')}: achado {code!r}: esperado {status!r}, veio {'/'.join(statuses)!r}"
            )
    return failures


def _interpretation_failures(case: ScenarioCase, decision: Decision) -> list[str]:
    used = {use.id: use.option for use in decision.interpretations}
    shown = ", ".join(f"{key}={value}" for key, value in used.items()) or "nenhuma"
    failures: list[str] = []
    for int_id, option in case.expect.interpretations.items():
        if int_id not in used:
            failures.append(
                f"{_at(case, 'interpretations')}: interpretação {int_id} não foi usada; usadas: {shown}"
            )
        elif option is not None and used[int_id] != option:
            failures.append(
                f"{_at(case, 'interpretations')}: {int_id}: esperada a opção {option!r}, veio {used[int_id]!r}"
            )
    return failures


def _parameter_failures(case: ScenarioCase, decision: Decision) -> list[str]:
    failures: list[str] = []
    for name, wanted in case.expect.parameters.items():
        values = [use.value for use in decision.parameters if use.name == name]
        if not values:
            shown = ", ".join(sorted({use.name for use in decision.parameters})) or "nenhum"
            failures.append(f"{_at(case, 'parameters')}: parâmetro {name!r} não foi usado; usados: {shown}")
        elif all(subset_mismatches(wanted, value, name) for value in values):
            got = " / ".join(_show(value) for value in values)
            failures.append(
                f"{_at(case, 'parameters')}: parâmetro {name!r}: esperado {_show(wanted)}, veio {got}"
            )
    return failures


def _missing_texts(case: ScenarioCase, text: str, what: str) -> list[str]:
    return [
        f"{_at(case, 'explanation_contains')}: a {what} não contém {wanted!r}"
        for wanted in case.expect.explanation_contains
        if wanted not in text
    ]
