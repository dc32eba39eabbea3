"""Penalty kinds a regime declares (``penalties.yaml``) and the effect mechanism each one uses.

The sanction rule names its penalties by key (``result["penalties"][i]["kind"]``); this file says, for each key,
its Portuguese label, the dispositivos that create it, what it acts on (permit, operator, driver, vehicle) and
which *mechanism* the apps use to apply it. The mechanisms are the engine's (``MECHANISMS``); a regime picks one
per penalty and sets its options. The apps never know a regime's penalties: they read this declaration::

    penalties:
      - key: suspension                 # what the sanction rule writes in penalties[].kind
        label: Suspensão do alvará
        mechanism: suspension
        target: permit                  # or operator: every permit of the operator
        cite: art21_incIII
        days: decision                  # decision (the rule gives days/start/end) | judgment (chosen in a range)

Loading validates every citation, every parameter a range names, each mechanism's options and targets; an
unknown mechanism, target or option is a ``RegimeDefinitionError`` with file and line. A regime that answers
the ``sanction`` question must declare its penalties (no default), and every penalty its rule returns must be
declared (checked on each evaluation). Pure Python, no Django.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from lawcode.citations import Citer
from lawcode.errors import RegimeDefinitionError
from lawcode.params import Parameter
from lawcode.yamlsource import YamlList, YamlMap, load_yaml, reject_unknown_keys, require_keys, require_map

PENALTIES_FILE = "penalties.yaml"

AT_FINALITY = "at_finality"
AT_AUTO = "at_auto"
FROM_DECISION = "decision"
AT_JUDGMENT = "judgment"
FOR_PROCEEDING = "proceeding"
"""``days: proceeding`` on a precautionary suspension: it lasts while the proceeding runs ("enquanto durar o
processo") and ends when the case is final or cancelled, not after a number of days."""
DAY_UNITS = frozenset({"days", "calendar_days", "business_days"})


@dataclass(frozen=True)
class Mechanism:
    """How the apps apply a penalty: what it may act on, when, and which options it takes."""

    label: str
    targets: tuple[str, ...]
    options: tuple[str, ...] = ()
    applies: tuple[str, ...] = (AT_FINALITY,)


# The engine's open set of effect mechanisms. Adding one is an engine change (and the apps' effects module
# learns to apply it); a regime only chooses among them.
MECHANISMS: dict[str, Mechanism] = {
    "warning": Mechanism("advertência registrada", ("operator", "driver")),
    "fine": Mechanism("multa (guia de pagamento)", ("operator", "driver"), ("amount", "range")),
    "suspension": Mechanism(
        "suspensão por prazo",
        ("permit", "operator"),
        ("days", "range", "regularization"),
        (AT_FINALITY, AT_AUTO),
    ),
    "precautionary_suspension": Mechanism(
        "suspensão cautelar em flagrante", ("permit", "operator"), ("days", "days_parameter"), (AT_AUTO,)
    ),
    "inspection_hold": Mechanism("suspensão mantida até nova vistoria", ("permit",)),
    "seizure": Mechanism("apreensão do veículo", ("vehicle",), ("release",), (AT_AUTO, AT_FINALITY)),
    "cassation": Mechanism("cassação", ("permit", "operator")),
    "ban": Mechanism("impedimento de atuar", ("operator", "driver")),
    "points": Mechanism("pontos com janela móvel", ("operator", "driver"), ("points", "window")),
}
TARGETS_PT = {
    "permit": "o alvará do auto",
    "operator": "todos os alvarás do autorizatário",
    "driver": "o condutor",
    "vehicle": "o veículo",
}
_ROOT_KEYS = ("penalties", "note")
_ENTRY_KEYS = ("key", "label", "mechanism", "target", "cite", "applies", "note")
_KEY = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class ChoiceRange:
    """A quantity the judging authority chooses at judgment, between two dated, cited parameters."""

    minimum: str
    maximum: str
    cite: str

    def bounds(
        self, parameters: Mapping[str, Parameter], on: dt.date, regime_id: str
    ) -> tuple[Decimal, Decimal]:
        low = parameters[self.minimum].value_on(on, regime_id).value
        high = parameters[self.maximum].value_on(on, regime_id).value
        return Decimal(str(low)), Decimal(str(high))


@dataclass(frozen=True)
class Release:
    """Apreensão: what the owner must do to get the vehicle back, and the parameter giving the deadline."""

    conditions: tuple[str, ...]
    deadline_days: str | None
    cite: str


@dataclass(frozen=True)
class Regularization:
    """A suspension that becomes another penalty (``then``) unless the irregularity is regularized in time."""

    then: str
    cite: str


@dataclass(frozen=True)
class Points:
    points: str | None  # parameter; None: the rule gives ``points`` in the penalty item
    window_months: str
    threshold: str | None
    cite: str


@dataclass(frozen=True)
class PenaltyKind:
    """One penalty a regime's sanction rule may impose."""

    key: str
    label: str
    mechanism: str
    target: str
    cites: tuple[str, ...]
    applies: str
    chosen_at_judgment: bool = False
    range: ChoiceRange | None = None
    days_parameter: str | None = None
    for_proceeding: bool = False
    """A precautionary suspension lasting while the proceeding runs (``days: proceeding``)."""
    release: Release | None = None
    regularization: Regularization | None = None
    points: Points | None = None
    source: str = ""

    @property
    def immediate(self) -> bool:
        """Applied when the auto is registered, before the decision is final."""
        return self.applies == AT_AUTO


@dataclass(frozen=True)
class PenaltyCatalog:
    regime_id: str
    kinds: dict[str, PenaltyKind]
    source: str
    parameters: Mapping[str, Parameter] = field(default_factory=dict, repr=False)

    def get(self, key: str) -> PenaltyKind:
        kind = self.kinds.get(key)
        if kind is None:
            raise RegimeDefinitionError(
                f"{self.source}: the sanction names penalty {key!r}, which {PENALTIES_FILE} does not declare; "
                f"declared: {', '.join(self.kinds)}",
                message_pt=f"penalidade {key!r} não declarada em {PENALTIES_FILE}",
                file=self.source,
                field="penalties",
            )
        return kind

    def label(self, key: str) -> str:
        return self.get(key).label

    def check_result(
        self, result: Mapping[str, Any], *, file: str | None = None, line: int | None = None
    ) -> None:
        """Every penalty a sanction result names must be declared (a typo in a rule fails loudly)."""
        for item in result.get("penalties") or ():
            key = str(item.get("kind")) if isinstance(item, Mapping) else repr(item)
            if key not in self.kinds:
                raise RegimeDefinitionError(
                    f"the sanction rule returned penalty {key!r}, not declared in {self.source}; "
                    f"declared: {', '.join(self.kinds)}",
                    message_pt=f"a regra de penalidades devolveu {key!r}, não declarada em {PENALTIES_FILE}",
                    file=file,
                    line=line,
                    field="penalties",
                )

    def judgment_range(
        self, key: str, on: dt.date, parameters: Mapping[str, Parameter] | None = None
    ) -> tuple[Decimal, Decimal]:
        """The legal range of a quantity chosen at judgment, as the parameters stand on ``on`` (pass
        ``regime.parameters_with(config)`` so a municipality's own values count)."""
        kind = self.get(key)
        if kind.range is None:
            raise RegimeDefinitionError(
                f"penalty {key!r} is not chosen at judgment", file=kind.source, field="penalties"
            )
        return kind.range.bounds(parameters or self.parameters, on, self.regime_id)


def load_penalties(
    path: Path, citer: Citer, parameters: Mapping[str, Parameter], regime_id: str
) -> PenaltyCatalog:
    """Read and validate ``path``: citations, mechanisms, targets, options and the parameters they name."""
    if not path.is_file():
        raise RegimeDefinitionError(
            f"regime {regime_id} answers 'sanction' but has no {PENALTIES_FILE}; declare its penalty kinds "
            "(see docs/lawcode/design.md, Penalties)",
            message_pt=f"o regime {regime_id} aplica penalidades mas não tem {PENALTIES_FILE}",
            file=str(path),
        )
    root = require_map(load_yaml(path), str(path), PENALTIES_FILE)
    reject_unknown_keys(root, _ROOT_KEYS, PENALTIES_FILE)
    require_keys(root, ("penalties",), PENALTIES_FILE)
    nodes = root["penalties"]
    if not isinstance(nodes, YamlList) or not nodes:
        raise RegimeDefinitionError(
            "'penalties' must be a non-empty list",
            message_pt="'penalties' deve ser uma lista não vazia",
            file=root.source,
            line=root.line_of("penalties"),
        )
    reader = _Reader(citer, parameters)
    kinds: dict[str, PenaltyKind] = {}
    for index, node in enumerate(nodes):
        kind = reader.entry(require_map(node, root.source, "penalty", nodes.line_at(index)))
        if kind.key in kinds:
            raise RegimeDefinitionError(
                f"duplicate penalty key {kind.key!r}",
                message_pt=f"penalidade repetida {kind.key!r}",
                file=root.source,
                line=nodes.line_at(index),
            )
        kinds[kind.key] = kind
    _check_references(kinds)
    return PenaltyCatalog(regime_id, kinds, str(path), parameters)


def _check_references(kinds: dict[str, PenaltyKind]) -> None:
    for kind in kinds.values():
        then = kind.regularization.then if kind.regularization else None
        if then is not None and (then not in kinds or kinds[then].mechanism != "cassation"):
            raise RegimeDefinitionError(
                f"{kind.key}: regularization.then must name a declared cassation penalty, got {then!r}",
                message_pt=f"{kind.key}: regularization.then deve ser uma cassação declarada",
                file=kind.source.rsplit(":", 1)[0],
                line=int(kind.source.rsplit(":", 1)[1]),
            )


class _Reader:
    def __init__(self, citer: Citer, parameters: Mapping[str, Parameter]) -> None:
        self.citer = citer
        self.parameters = parameters

    def fail(self, node: YamlMap, key: str, message: str, message_pt: str) -> RegimeDefinitionError:
        return RegimeDefinitionError(message, message_pt=message_pt, file=node.source, line=node.line_of(key))

    def entry(self, node: YamlMap) -> PenaltyKind:
        require_keys(node, ("key", "label", "mechanism", "target", "cite"), "penalty")
        name = str(node["mechanism"])
        mechanism = MECHANISMS.get(name)
        if mechanism is None:
            raise self.fail(
                node,
                "mechanism",
                f"unknown mechanism {name!r}; the engine knows: {', '.join(MECHANISMS)}",
                f"mecanismo de efeito desconhecido {name!r}",
            )
        reject_unknown_keys(node, (*_ENTRY_KEYS, *mechanism.options), f"penalty ({name})")
        key = str(node["key"])
        if not _KEY.match(key):
            raise self.fail(
                node,
                "key",
                f"penalty key {key!r} must be lower case letters, digits and _",
                f"chave de penalidade inválida {key!r}",
            )
        label = str(node["label"]).strip()
        if not label:
            raise self.fail(node, "label", "penalty label is empty", "a penalidade precisa de um rótulo")
        target = str(node["target"])
        if target not in mechanism.targets:
            raise self.fail(
                node,
                "target",
                f"{name} acts on {', '.join(mechanism.targets)}, not {target!r}",
                f"alvo {target!r} inválido para {mechanism.label}",
            )
        applies = str(node.get("applies") or mechanism.applies[0])
        if applies not in mechanism.applies:
            raise self.fail(
                node,
                "applies",
                f"{name} applies {', '.join(mechanism.applies)}, not {applies!r}",
                f"momento {applies!r} inválido para {mechanism.label}",
            )
        return PenaltyKind(
            key=key,
            label=label,
            mechanism=name,
            target=target,
            cites=self.cites(node, "cite"),
            applies=applies,
            source=f"{node.source}:{node.line}",
            **self.options(node, name),
        )

    def cites(self, node: YamlMap, key: str) -> tuple[str, ...]:
        raw = node[key]
        refs = list(raw) if isinstance(raw, list) else [raw]
        if not refs:
            raise self.fail(node, key, "cite is empty", "toda penalidade cita ao menos um dispositivo")
        return tuple(self.citer.validate(ref, file=node.source, line=node.line_of(key)) for ref in refs)

    def parameter(self, node: YamlMap, key: str, units: frozenset[str] | None = None) -> str:
        name = str(node[key])
        parameter = self.parameters.get(name)
        if parameter is None:
            raise self.fail(
                node,
                key,
                f"{key}: unknown parameter {name!r} (declare it in parameters.yaml)",
                f"{key}: parâmetro desconhecido {name!r}",
            )
        if units is not None and str(parameter.unit) not in units:
            raise self.fail(
                node,
                key,
                f"{key}: parameter {name!r} is in {parameter.unit}, expected one of "
                f"{', '.join(sorted(units))}",
                f"{key}: unidade do parâmetro {name!r} inválida",
            )
        return name

    def options(self, node: YamlMap, mechanism: str) -> dict[str, Any]:
        readers = {
            "suspension": self._suspension,
            "fine": self._fine,
            "seizure": self._seizure,
            "precautionary_suspension": self._precautionary_suspension,
            "points": self._points,
        }
        reader = readers.get(mechanism)
        return reader(node) if reader is not None else {}

    def _mode(self, node: YamlMap, key: str) -> bool:
        mode = str(node.get(key) or FROM_DECISION)
        if mode not in (FROM_DECISION, AT_JUDGMENT):
            raise self.fail(
                node,
                key,
                f"{key}: use {FROM_DECISION} or {AT_JUDGMENT}, not {mode!r}",
                f"{key}: valor inválido {mode!r}",
            )
        chosen = mode == AT_JUDGMENT
        if chosen != ("range" in node):
            raise self.fail(
                node,
                key,
                f"{key}: {AT_JUDGMENT} needs a range (min, max, cite) and only it takes one",
                f"{key}: escolha no julgamento exige a faixa legal (range)",
            )
        return chosen

    def _range(self, node: YamlMap, units: frozenset[str] | None) -> ChoiceRange | None:
        if "range" not in node:
            return None
        raw = require_map(node["range"], node.source, "range", node.line_of("range"))
        reject_unknown_keys(raw, ("min", "max", "cite"), "range")
        require_keys(raw, ("min", "max", "cite"), "range")
        cite = self.cites(raw, "cite")[0]
        return ChoiceRange(self.parameter(raw, "min", units), self.parameter(raw, "max", units), cite)

    def _suspension(self, node: YamlMap) -> dict[str, Any]:
        chosen = self._mode(node, "days")
        out: dict[str, Any] = {"chosen_at_judgment": chosen, "range": self._range(node, DAY_UNITS)}
        if "regularization" in node:
            raw = require_map(
                node["regularization"], node.source, "regularization", node.line_of("regularization")
            )
            reject_unknown_keys(raw, ("then", "cite"), "regularization")
            require_keys(raw, ("then", "cite"), "regularization")
            out["regularization"] = Regularization(str(raw["then"]), self.cites(raw, "cite")[0])
        return out

    def _fine(self, node: YamlMap) -> dict[str, Any]:
        chosen = self._mode(node, "amount")
        return {"chosen_at_judgment": chosen, "range": self._range(node, None)}

    def _precautionary_suspension(self, node: YamlMap) -> dict[str, Any]:
        mode = str(node.get("days") or FROM_DECISION)
        if mode not in (FROM_DECISION, FOR_PROCEEDING):
            raise self.fail(
                node,
                "days",
                "a precautionary suspension takes its days from the decision or days_parameter, or lasts "
                f"while the proceeding runs (days: {FOR_PROCEEDING})",
                "suspensão cautelar: dias da decisão, de days_parameter ou enquanto durar o processo "
                f"(days: {FOR_PROCEEDING})",
            )
        if mode == FOR_PROCEEDING:
            if "days_parameter" in node:
                raise self.fail(
                    node,
                    "days_parameter",
                    f"days: {FOR_PROCEEDING} lasts while the proceeding runs: it takes no days_parameter",
                    "suspensão cautelar enquanto durar o processo não tem número de dias (days_parameter)",
                )
            return {"for_proceeding": True}
        if "days_parameter" in node:
            return {"days_parameter": self.parameter(node, "days_parameter", DAY_UNITS)}
        return {}

    def _seizure(self, node: YamlMap) -> dict[str, Any]:
        if "release" not in node:
            raise self.fail(
                node,
                "key",
                "a seizure declares its release (conditions, cite, deadline_days?)",
                "apreensão: declare as condições de liberação (release)",
            )
        raw = require_map(node["release"], node.source, "release", node.line_of("release"))
        reject_unknown_keys(raw, ("conditions", "deadline_days", "cite"), "release")
        require_keys(raw, ("conditions", "cite"), "release")
        conditions = raw["conditions"]
        if not isinstance(conditions, list) or not conditions or not all(str(c).strip() for c in conditions):
            raise self.fail(
                raw,
                "conditions",
                "release.conditions must be a non-empty list of texts",
                "release.conditions: liste as condições de liberação",
            )
        deadline = self.parameter(raw, "deadline_days", DAY_UNITS) if "deadline_days" in raw else None
        return {
            "release": Release(
                tuple(str(c).strip() for c in conditions), deadline, self.cites(raw, "cite")[0]
            )
        }

    def _points(self, node: YamlMap) -> dict[str, Any]:
        if "window" not in node:
            raise self.fail(
                node,
                "key",
                "points declare their window (months, cite, points?, threshold?)",
                "pontos: declare a janela (window)",
            )
        raw = require_map(node["window"], node.source, "window", node.line_of("window"))
        reject_unknown_keys(raw, ("months", "threshold", "cite"), "window")
        require_keys(raw, ("months", "cite"), "window")
        points = self.parameter(node, "points", frozenset({"count"})) if "points" in node else None
        threshold = self.parameter(raw, "threshold", frozenset({"count"})) if "threshold" in raw else None
        months = self.parameter(raw, "months", frozenset({"months"}))
        return {"points": Points(points, months, threshold, self.cites(raw, "cite")[0])}
