"""Findings, rule results and decisions — with a plain-Portuguese explanation and a replayable dict form.

A rule returns ``RuleResult``; the regime wraps it in a ``Decision`` that also records the parameter values
and interpretations used. ``Decision.to_dict()`` is JSON-safe and deterministic (same facts and date →
identical dict) and ``Decision.from_dict`` rebuilds it, so apps store decisions and replay them.

    result = eligibility(findings, {"valid_until": date(2027, 2, 28)})   # granted unless a finding is not_met
    decision.explain()       # "Resultado: Indeferido\\n…"
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from typing import Any

from lawcode.citations import Citation, render_citations
from lawcode.errors import InvalidFactError
from lawcode.jsonsafe import json_safe


class Status(StrEnum):
    """Status of one finding."""

    MET = "met"
    NOT_MET = "not_met"
    WARNING = "warning"
    NOT_APPLICABLE = "not_applicable"
    INFO = "info"

    @property
    def label_pt(self) -> str:
        return _STATUS_PT[self]


_STATUS_PT = {
    Status.MET: "atendido",
    Status.NOT_MET: "não atendido",
    Status.WARNING: "atenção",
    Status.NOT_APPLICABLE: "não se aplica",
    Status.INFO: "informação",
}

OUTCOME_PT: dict[str, str] = {
    "granted": "Deferido",
    "denied": "Indeferido",
    "penalty": "Penalidade aplicável",
    "no_penalty": "Nenhuma penalidade aplicável",
    "computed": "Calculado",
    "in_force": "Lei em vigor",
    "not_in_force": "Lei ainda não está em vigor",
    "regular": "Regular",
    "irregular": "Irregular",
    "suspended": "Suspenso",
}


@dataclass(frozen=True)
class Finding:
    """One checked point: a code, a status, a pt-BR message and the dispositivos it rests on."""

    code: str
    status: Status
    message: str
    citations: tuple[Citation, ...]
    counterfactual: str | None = None
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "status": self.status.value,
            "message": self.message,
            "citations": [c.to_dict() for c in self.citations],
            "counterfactual": self.counterfactual,
            "data": json_safe(dict(self.data)),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Finding:
        return cls(
            code=data["code"],
            status=Status(data["status"]),
            message=data["message"],
            citations=tuple(Citation.from_dict(c) for c in data["citations"]),
            counterfactual=data.get("counterfactual"),
            data=dict(data.get("data") or {}),
        )


def make_finding(
    code: str,
    status: Status,
    message: str,
    citations: tuple[Citation, ...],
    counterfactual: str | None = None,
    data: Mapping[str, Any] | None = None,
) -> Finding:
    """``Finding(code, status, …)``, the same object built without the frozen dataclass's ``__init__``.

    That ``__init__`` sets each field through ``object.__setattr__``; filling ``__dict__`` at once costs half,
    and a bulk run builds a dozen findings per subject (Context.finding). Finding has no ``__post_init__``.
    """
    finding = object.__new__(Finding)
    object.__setattr__(
        finding,
        "__dict__",
        {
            "code": code,
            "status": status,
            "message": message,
            "citations": citations,
            "counterfactual": counterfactual,
            "data": {} if data is None else data,
        },
    )
    return finding


@dataclass
class RuleResult:
    """What a rule returns; ``outcome`` from the question's vocabulary (see questions.py)."""

    outcome: str
    findings: list[Finding]
    result: dict[str, Any] = field(default_factory=dict)
    explanation: str | None = None


def eligibility(
    findings: Iterable[Finding],
    result: Mapping[str, Any] | None = None,
    explanation: str | None = None,
    *,
    if_granted: Mapping[str, Any] | None = None,
) -> RuleResult:
    """``granted`` when no finding is ``not_met``, else ``denied``.

    ``if_granted`` holds what only a grant gives (a permit's ``valid_until``): a denial never carries it, so no
    screen can show "Indeferido — válido até …".
    """
    found = list(findings)
    denied = False
    for finding in found:  # a loop, not any(<genexpr>): asked once per subject of a bulk run
        if finding.status is Status.NOT_MET:
            denied = True
            break
    merged = dict(result or {}) if denied else {**(result or {}), **(if_granted or {})}
    return RuleResult("denied" if denied else "granted", found, merged, explanation)


@dataclass(frozen=True)
class ParameterUse:
    """A parameter value a decision used: value, unit, the date it took effect and its citation."""

    name: str
    value: Any
    unit: str
    effective_from: dt.date
    citation: Citation
    on: dt.date
    description: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "value": json_safe(self.value),
            "unit": self.unit,
            "effective_from": self.effective_from.isoformat(),
            "on": self.on.isoformat(),
            "citation": self.citation.to_dict(),
            "description": self.description,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ParameterUse:
        return cls(
            name=data["name"],
            value=data["value"],
            unit=data["unit"],
            effective_from=dt.date.fromisoformat(data["effective_from"]),
            citation=Citation.from_dict(data["citation"]),
            on=dt.date.fromisoformat(data["on"]),
            description=data.get("description", ""),
        )


@dataclass(frozen=True)
class InterpretationUse:
    """An interpretation a decision applied: chosen option, its text, and whether it is the default."""

    id: str
    option: str
    is_default: bool
    question: str = ""
    option_text: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "option": self.option,
            "is_default": self.is_default,
            "question": self.question,
            "option_text": self.option_text,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> InterpretationUse:
        return cls(
            data["id"],
            data["option"],
            bool(data["is_default"]),
            data.get("question", ""),
            data.get("option_text", ""),
        )


@dataclass(frozen=True)
class Decision:
    """The engine's answer to one question on one date, with everything needed to explain and replay it."""

    regime: str
    question: str
    as_of: dt.date
    outcome: str
    findings: tuple[Finding, ...]
    result: Mapping[str, Any]
    citations: tuple[Citation, ...]
    parameters: tuple[ParameterUse, ...]
    interpretations: tuple[InterpretationUse, ...]
    inputs: Mapping[str, Any]
    explanation: str | None = None

    @property
    def outcome_pt(self) -> str:
        return OUTCOME_PT.get(self.outcome, self.outcome)

    def finding(self, code: str) -> Finding | None:
        return next((f for f in self.findings if f.code == code), None)

    def cites(self, dispositivo: str) -> bool:
        """True when some citation names ``dispositivo`` (bare id or ``act:id``)."""
        return any(c.dispositivo == dispositivo or c.ref == dispositivo for c in self.citations)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe and deterministic: no timestamps, dates ISO, Decimal as string, stable order."""
        return {
            "regime": self.regime,
            "question": self.question,
            "as_of": self.as_of.isoformat(),
            "outcome": self.outcome,
            "findings": [f.to_dict() for f in self.findings],
            "result": json_safe(dict(self.result)),
            "citations": [c.to_dict() for c in self.citations],
            "parameters": [p.to_dict() for p in self.parameters],
            "interpretations": [i.to_dict() for i in self.interpretations],
            "inputs": json_safe(dict(self.inputs)),
            "explanation": self.explanation,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Decision:
        """Rebuild a stored decision; ``from_dict(d.to_dict()).to_dict() == d.to_dict()``."""
        try:
            return cls(
                regime=data["regime"],
                question=data["question"],
                as_of=dt.date.fromisoformat(data["as_of"]),
                outcome=data["outcome"],
                findings=tuple(Finding.from_dict(f) for f in data["findings"]),
                result=dict(data["result"]),
                citations=tuple(Citation.from_dict(c) for c in data["citations"]),
                parameters=tuple(ParameterUse.from_dict(p) for p in data["parameters"]),
                interpretations=tuple(InterpretationUse.from_dict(i) for i in data["interpretations"]),
                inputs=dict(data["inputs"]),
                explanation=data.get("explanation"),
            )
        except KeyError as exc:
            raise InvalidFactError(f"decision.{exc.args[0]}", "missing in a stored decision") from None

    def explain(self) -> str:
        """Plain Portuguese: outcome, each finding with its citations, parameters, interpretations."""
        return "\n".join(_explanation_lines(self))


def make_decision(
    regime: str,
    question: str,
    as_of: dt.date,
    outcome: str,
    findings: tuple[Finding, ...],
    result: Mapping[str, Any],
    citations: tuple[Citation, ...],
    parameters: tuple[ParameterUse, ...],
    interpretations: tuple[InterpretationUse, ...],
    inputs: Mapping[str, Any],
    explanation: str | None = None,
) -> Decision:
    """``Decision(…)``, the same object built as ``make_finding`` builds a Finding (once per evaluation).

    Decision has no ``__post_init__``: its ``__dict__`` is all there is to it."""
    decision = object.__new__(Decision)
    object.__setattr__(
        decision,
        "__dict__",
        {
            "regime": regime,
            "question": question,
            "as_of": as_of,
            "outcome": outcome,
            "findings": findings,
            "result": result,
            "citations": citations,
            "parameters": parameters,
            "interpretations": interpretations,
            "inputs": inputs,
            "explanation": explanation,
        },
    )
    return decision


def _explanation_lines(decision: Decision) -> list[str]:
    lines = [
        f"Resultado: {decision.outcome_pt}",
        f"Pergunta: {_question_pt(decision.question)} — regime {decision.regime}, "
        f"na data de {decision.as_of.strftime('%d/%m/%Y')}",
    ]
    if decision.explanation:
        lines += ["", decision.explanation]
    if decision.findings:
        lines += ["", "Fundamentação:"]
        for finding in decision.findings:
            lines += _finding_lines(finding)
    if decision.result:
        lines += ["", "Resultado calculado:"]
        lines += [
            f"  - {key}: {_plain(value, key)}" for key, value in json_safe(dict(decision.result)).items()
        ]
    worded = [c for c in decision.citations if c.wording]
    if worded:
        lines += ["", "Texto dos dispositivos citados (redação vigente na data):"]
        lines += [f"  - {c.render()}: “{c.wording}”" for c in worded]
    if decision.parameters:
        labels = _declared_unit_labels(decision.regime)
        lines += ["", "Valores legais utilizados:"]
        lines += [_parameter_line(use, labels) for use in decision.parameters]
    if decision.interpretations:
        lines += ["", "Interpretações aplicadas:"]
        lines += [_interpretation_line(use) for use in decision.interpretations]
    return lines


def _question_pt(question: str) -> str:
    from lawcode.questions import QUESTIONS

    spec = QUESTIONS.get(question)
    return f"{spec.description_pt} ({question})" if spec else question


def _finding_lines(finding: Finding) -> list[str]:
    cites = render_citations(finding.citations)
    lines = [f"  - [{finding.status.label_pt}] {finding.message} ({cites})"]
    if finding.counterfactual:
        lines.append(f"    Contrafactual: {finding.counterfactual}")
    return lines


def _declared_unit_labels(regime_id: str) -> Mapping[str, str]:
    """The regime's fine units by key → label (units.yaml); none when the regime cannot be loaded here (a
    decision replayed from storage outside the registry keeps the unit's key)."""
    from lawcode.errors import LawcodeError
    from lawcode.registry import get_regime

    try:
        return {key: unit.label for key, unit in get_regime(regime_id).vocabulary.units.items()}
    except LawcodeError:
        return {}


def _unit_label_anywhere(unit: str) -> str:
    """The label a regime's units.yaml gives ``unit`` (first declaration wins), for callers that format a value
    without naming its regime; loaded regimes first, then the whole registry once; the key when none declares it."""
    from lawcode.errors import LawcodeError
    from lawcode.registry import all_regimes, loaded_regimes

    for regimes in (loaded_regimes, all_regimes):
        try:
            for regime in regimes():
                if unit in regime.vocabulary.units:
                    return regime.vocabulary.units[unit].label
        except LawcodeError:
            return unit
    return unit


def _parameter_line(use: ParameterUse, labels: Mapping[str, str]) -> str:
    since = use.effective_from.strftime("%d/%m/%Y")
    name = use.description or use.name
    value = format_value_pt(use.value, use.unit, labels)
    return f"  - {name}: {value} (vigente desde {since}; {use.citation.render()})"


def _interpretation_line(use: InterpretationUse) -> str:
    chosen = "opção padrão" if use.is_default else "opção configurada pelo município"
    question = f"{use.question} " if use.question else ""
    return f"  - {use.id}: {question}→ {use.option_text or use.option} ({chosen})"


def _plain(value: Any, key: str = "") -> str:
    """A result value for people: dates dd/mm/aaaa, amounts under keys ending in "brl" as R$ 1.152,60."""
    if isinstance(value, list):
        return "; ".join(_plain(v, key) for v in value) or "—"
    if isinstance(value, dict):
        return ", ".join(f"{k}={_plain(v, str(k))}" for k, v in value.items())
    if isinstance(value, bool):
        return "sim" if value else "não"
    if key.endswith("brl") and isinstance(value, str) and _is_number(value):
        return "R$ " + format_decimal_pt(Decimal(value), places=2)
    if isinstance(value, str) and len(value) == 10 and value[4] == "-" and value[7] == "-":
        try:
            return dt.date.fromisoformat(value).strftime("%d/%m/%Y")
        except ValueError:
            return value
    return "—" if value is None else str(value)


def format_value_pt(value: Any, unit: str, labels: Mapping[str, str] | None = None) -> str:
    """A parameter value as a Brazilian reader writes it: "15 anos", "R$ 38,42", "10 UFESP" (``labels``: the
    regime's declared units, key → label)."""
    if isinstance(value, bool):
        return "sim" if value else "não"
    if isinstance(value, dt.date):
        return value.strftime("%d/%m/%Y")
    if unit == "brl":
        return "R$ " + format_decimal_pt(Decimal(str(value)), places=2)
    if isinstance(value, (Decimal, float)) or (isinstance(value, str) and _is_number(value)):
        value = format_decimal_pt(Decimal(str(value)))
    if unit in _UNIT_WORDS:
        label = _UNIT_WORDS[unit]
    else:
        label = labels.get(unit, unit) if labels is not None else _unit_label_anywhere(unit)
    if isinstance(value, (list, tuple, dict, Mapping)):
        return f"{json_safe(value)} ({label})"
    return f"{value} {label}".strip()


def format_decimal_pt(number: Decimal, places: int | None = None) -> str:
    """Decimal comma and dot thousands: Decimal('1152.6') → '1.152,6' (places=2 → '1.152,60')."""
    if places is not None:
        number = number.quantize(Decimal(1).scaleb(-places))
    sign = "-" if number < 0 else ""
    text = f"{abs(number):f}"
    whole, _, fraction = text.partition(".")
    groups: list[str] = []
    while len(whole) > 3:
        groups.insert(0, whole[-3:])
        whole = whole[:-3]
    groups.insert(0, whole)
    return sign + ".".join(groups) + (f",{fraction}" if fraction else "")


def _is_number(text: str) -> bool:
    try:
        Decimal(text)
    except ArithmeticError:
        return False
    return True


_UNIT_WORDS = {
    "years": "anos",
    "days": "dias",
    "calendar_days": "dias corridos",
    "business_days": "dias úteis",
    "hours": "horas",
    "months": "meses",
    "count": "",
    "percent": "%",
    "boolean": "",
    "date": "",
}
