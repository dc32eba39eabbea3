"""Bulk evaluation and reforms: evaluate many subjects, optionally under a what-if, and report what changes.

    reform = Reform.from_parameters({"max_vehicle_age": 10}, cite="art13_incII", name="idade máxima 10 anos")
    report = evaluate_many("exemplo_sp_escolar", "vehicle_permit", applications, as_of=date(2026, 3, 1),
                           reform=reform)
    report.baseline        # Counter({"granted": 251_234, "denied": 48_766})
    report.reform          # Counter({"granted": 180_022, "denied": 119_978})
    report.changed         # subjects whose outcome differs between the two
    print(report.summary_pt())

Subjects are consumed one at a time and no decision is kept beyond the first ``examples`` changed ones, so
memory stays flat however many subjects there are (a generator of 300,000 vehicles is fine). A subject whose
evaluation raises a LawcodeError (a missing fact, say) is counted under ``erro: <ErrorClass>`` and the sweep
goes on; anything else is a bug and propagates.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from lawcode.citations import render_citations
from lawcode.config import Config
from lawcode.decision import Decision, Finding
from lawcode.errors import LawcodeError
from lawcode.memo import Memo
from lawcode.params import ParameterValue
from lawcode.regime import Regime
from lawcode.registry import get_regime

DEFAULT_EXAMPLES = 5
ERROR_PREFIX = "erro: "


@dataclass(frozen=True)
class Reform:
    """A what-if: parameter values and interpretation choices laid over the baseline configuration.

    Values without an explicit ``effective_from`` take effect on the evaluation date, so they replace the
    value in force on ``as_of`` whatever date the regime's own value started.
    """

    name: str
    parameters: Mapping[str, Any] = field(default_factory=dict)
    cite: str = ""
    interpretations: Mapping[str, str] = field(default_factory=dict)
    effective_from: dt.date | None = None
    note: str | None = None

    @classmethod
    def from_parameters(
        cls,
        values: Mapping[str, Any],
        *,
        cite: str,
        name: str | None = None,
        effective_from: dt.date | None = None,
        note: str | None = None,
    ) -> Reform:
        """``Reform.from_parameters({"max_vehicle_age": 10}, cite="art13_incII")`` — every value is cited."""
        shown = ", ".join(f"{key} = {value}" for key, value in values.items())
        return cls(name or shown, dict(values), cite, {}, effective_from, note)

    def config(self, as_of: dt.date, baseline: Config | None = None) -> Config:
        """The baseline config with this reform on top (same parameter date: the reform wins)."""
        start = self.effective_from or as_of
        values = {
            name: (ParameterValue(start, value, self.cite, "V", self.note, f"reforma {self.name}"),)
            for name, value in self.parameters.items()
        }
        overlay = Config(parameters=values, interpretations=dict(self.interpretations))
        return overlay_config(baseline or Config(), overlay)


def overlay_config(base: Config, overlay: Config) -> Config:
    """``overlay`` on top of ``base``: parameter values appended (later wins on the same date), choices replaced."""
    parameters = {name: tuple(values) for name, values in base.parameters.items()}
    for name, values in overlay.parameters.items():
        parameters[name] = parameters.get(name, ()) + tuple(values)
    return Config(
        parameters=parameters,
        interpretations={**base.interpretations, **overlay.interpretations},
        municipal_holidays=base.municipal_holidays + overlay.municipal_holidays,
        closures=base.closures + overlay.closures,
        acts=base.acts + tuple(act for act in overlay.acts if act not in base.acts),
    )


@dataclass(frozen=True)
class OutcomeChange:
    """One subject whose outcome the reform changes, with both explanations (Portuguese)."""

    index: int
    subject: Any
    baseline: str
    reform: str
    baseline_explanation: str
    reform_explanation: str


@dataclass(frozen=True)
class BulkReport:
    """Counts by outcome for the baseline (and the reform), how many subjects changed, and examples."""

    regime: str
    question: str
    as_of: dt.date
    reform_name: str | None
    subjects: int
    baseline: Counter[str]
    reform: Counter[str] | None
    changed: int
    transitions: Counter[tuple[str, str]]
    examples: tuple[OutcomeChange, ...]

    def summary_pt(self) -> str:
        """A short Portuguese report: counts, changes by transition and the first examples."""
        lines = [
            f"Avaliação em massa — regime {self.regime}, pergunta {self.question}, "
            f"em {self.as_of.strftime('%d/%m/%Y')}: {self.subjects} casos",
            f"  situação atual: {_counts(self.baseline)}",
        ]
        if self.reform is not None:
            lines += [
                f"  com a reforma ({self.reform_name}): {_counts(self.reform)}",
                f"  casos cujo resultado muda: {self.changed}",
            ]
            lines += [
                f"    {before} → {after}: {n}" for (before, after), n in sorted(self.transitions.items())
            ]
        for example in self.examples:
            lines += ["", f"Exemplo nº {example.index}: {example.baseline} → {example.reform}"]
            lines += ["  Hoje:", _indent(example.baseline_explanation), "  Com a reforma:"]
            lines.append(_indent(example.reform_explanation))
        return "\n".join(lines)


def _counts(counter: Counter[str]) -> str:
    return ", ".join(f"{outcome}: {n}" for outcome, n in sorted(counter.items())) or "nenhum"


def _indent(text: str) -> str:
    return "\n".join(f"    {line}" for line in text.splitlines())


# ----------------------------------------------------------------------------------------------------
# Evaluation
# ----------------------------------------------------------------------------------------------------


@dataclass
class _Tally:
    """Running totals of a sweep (the only state kept while subjects stream by)."""

    subjects: int = 0
    baseline: Counter[str] = field(default_factory=Counter)
    reform: Counter[str] = field(default_factory=Counter)
    transitions: Counter[tuple[str, str]] = field(default_factory=Counter)
    examples: list[OutcomeChange] = field(default_factory=list)


def evaluate_many(
    regime_id: str | Regime,
    question: str,
    subjects: Iterable[Any],
    *,
    as_of: dt.date,
    config: Config | None = None,
    reform: Reform | Config | None = None,
    examples: int = DEFAULT_EXAMPLES,
) -> BulkReport:
    """Evaluate every subject (the question's facts class, or dicts) under the baseline and the reform.

    ``regime_id`` names a registered regime (or is a loaded ``Regime``, e.g. one in development).

    ``reform`` is a ``Reform`` or a ``Config`` laid over ``config``. Streaming: subjects are read once, and
    only the first ``examples`` changed subjects are kept (with both explanations).
    """
    comparer = Comparer.start(regime_id, question, as_of=as_of, config=config, reform=reform)
    tally = _Tally()
    for index, subject in enumerate(subjects):
        tally.subjects += 1
        before, after = comparer.compare(subject)
        tally.baseline[outcome_of(before)] += 1
        if after is not None:
            _record_reform(tally, index, subject, before, after, examples)
    return _report(comparer.regime.id, question, as_of, reform, tally)


Result = Decision | LawcodeError


@dataclass
class Comparer:
    """One bulk run: asks the same question of each subject under the baseline and (if any) the reform.

    Every evaluation of the run shares one ``Memo``: a facts object many subjects share (the operator of a
    fleet) is typed and judged once, and the subject asked under the reform is not typed again; a part of a
    rule (``Context.shared``) that read no parameter or interpretation the reform changes is reused under the
    reform, not judged again. Decisions are identical to ``Regime.evaluate`` without a memo. Explanations and
    citations are only rendered when asked for (``explanation_of``), which a run does for the subjects that
    change outcome.
    """

    regime: Regime
    question: str
    as_of: dt.date
    baseline: Config
    reform: Config | None
    memo: Memo = field(default_factory=Memo)

    @classmethod
    def start(
        cls,
        regime_id: str | Regime,
        question: str,
        *,
        as_of: dt.date,
        config: Config | None = None,
        reform: Reform | Config | None = None,
    ) -> Comparer:
        regime = get_regime(regime_id) if isinstance(regime_id, str) else regime_id
        baseline = config or Config()
        return cls(regime, question, as_of, baseline, _reform_config(reform, as_of, baseline))

    def compare(self, subject: Any) -> tuple[Result, Result | None]:
        """The subject's result under the baseline, and under the reform (None without one)."""
        before = self._evaluate(subject, self.baseline)
        after = None if self.reform is None else self._evaluate(subject, self.reform)
        return before, after

    def _evaluate(self, subject: Any, config: Config) -> Result:
        try:
            return self.regime.evaluate(
                self.question, subject, as_of=self.as_of, config=config, memo=self.memo
            )
        except LawcodeError as exc:  # a bad row is counted, not fatal: one missing fact must not stop a sweep
            return exc


def _reform_config(reform: Reform | Config | None, as_of: dt.date, baseline: Config) -> Config | None:
    if reform is None:
        return None
    if isinstance(reform, Reform):
        return reform.config(as_of, baseline)
    return overlay_config(baseline, reform)


def outcome_of(result: Result) -> str:
    """The outcome key ("granted", "denied"…), or ``erro: <ErrorClass>`` when the law could not be applied."""
    return result.outcome if isinstance(result, Decision) else f"{ERROR_PREFIX}{type(result).__name__}"


def explanation_of(result: Result) -> str:
    """The Portuguese explanation (built only when asked: most subjects of a run never need one)."""
    return result.explain() if isinstance(result, Decision) else f"Erro: {result.message_pt}"


@dataclass(frozen=True)
class FindingChange:
    """A finding whose status differs between the two results: what the law checks, and where it says so."""

    code: str
    before: Finding | None
    after: Finding | None

    @property
    def finding(self) -> Finding:
        """The finding to show: the reform's (it says why the outcome changes), else the baseline's."""
        shown = self.after or self.before
        assert shown is not None  # a change has at least one side
        return shown

    @property
    def articles(self) -> str:
        return render_citations(self.finding.citations)


def finding_changes(before: Result, after: Result) -> list[FindingChange]:
    """Findings that appear, disappear or change status between the baseline and the reform (in order)."""
    old = _findings_by_code(before)
    new = _findings_by_code(after)
    changes = []
    for key in dict.fromkeys([*new, *old]):
        was, now = old.get(key), new.get(key)
        if was is None or now is None or was.status != now.status:
            changes.append(FindingChange(key[0], was, now))
    return changes


def _findings_by_code(result: Result) -> dict[tuple[str, int], Finding]:
    """Findings keyed by code and rank among those of the same code (a rule may repeat a code)."""
    if not isinstance(result, Decision):
        return {}
    seen: Counter[str] = Counter()
    keyed = {}
    for finding in result.findings:
        keyed[(finding.code, seen[finding.code])] = finding
        seen[finding.code] += 1
    return keyed


def _record_reform(
    tally: _Tally,
    index: int,
    subject: Any,
    before: Result,
    after: Result,
    keep: int,
) -> None:
    old, new = outcome_of(before), outcome_of(after)
    tally.reform[new] += 1
    if old == new:
        return
    tally.transitions[(old, new)] += 1
    if len(tally.examples) < keep:
        tally.examples.append(
            OutcomeChange(index, subject, old, new, explanation_of(before), explanation_of(after))
        )


def _report(
    regime_id: str, question: str, as_of: dt.date, reform: Reform | Config | None, tally: _Tally
) -> BulkReport:
    name = (
        None if reform is None else reform.name if isinstance(reform, Reform) else "configuração alternativa"
    )
    return BulkReport(
        regime=regime_id,
        question=question,
        as_of=as_of,
        reform_name=name,
        subjects=tally.subjects,
        baseline=tally.baseline,
        reform=tally.reform if reform is not None else None,
        changed=sum(tally.transitions.values()),
        transitions=tally.transitions,
        examples=tuple(tally.examples),
    )
