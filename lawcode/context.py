"""The evaluation context a rule receives: the date, the regime, the configuration, and a trace.

Every parameter value, interpretation and fiscal conversion a rule asks for is recorded, and ends up in the
Decision (so an explanation lists exactly the law it used). A rule::

    @rule("vehicle_permit", cites=("art13_incII",))
    def vehicle_permit(ctx: Context, facts: PermitApplication) -> RuleResult:
        max_age = ctx.param("max_vehicle_age")                       # 15 (recorded with its citation)
        year = ctx.require(facts.vehicle.manufacture_year, "vehicle.manufacture_year")
        ok = ctx.as_of.year - year <= max_age
        return eligibility([ctx.finding("vehicle_age", Status.MET if ok else Status.NOT_MET,
                                        "Veículo com até 15 anos de fabricação", cites=("art13_incII",))])
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypeVar, cast

from lawcode.citations import Citation, split_ref
from lawcode.config import Config
from lawcode.decision import Finding, InterpretationUse, ParameterUse, Status, make_finding
from lawcode.errors import (
    MissingFactError,
    MissingParameterError,
    RegimeDefinitionError,
    UnknownParameterError,
)
from lawcode.fiscal import index_factor, missing_yearly_reindexing, round_brl
from lawcode.interpretations import choose
from lawcode.memo import Memo
from lawcode.params import Parameter, ParameterValue
from lawcode.units import FineUnit, Unit

if TYPE_CHECKING:
    from lawcode.calendar import LegalCalendar
    from lawcode.regime import Regime

T = TypeVar("T")
# One object for "no Config": Regime.prepared keeps its tables per Config identity, so every such call reuses them.
_NO_CONFIG = Config()


@dataclass
class _Capture:
    """The parameter and interpretation uses recorded while a shared part was computed (in order)."""

    parameters: list[tuple[tuple[str, dt.date], ParameterUse]] = field(default_factory=list)
    interpretations: list[tuple[str, InterpretationUse]] = field(default_factory=list)


_Kept = tuple[
    Any,  # the part's value
    tuple[tuple[tuple[str, dt.date], ParameterUse], ...],  # the parameter uses it recorded, in order
    tuple[tuple[str, InterpretationUse], ...],  # the interpretation uses it recorded, in order
    "Prepared",  # the tables of the Config it was computed under
    frozenset[str],  # the parameters and interpretations it read
]
"""A shared part as Context.shared keeps it (a plain tuple: one is built for every subject of a bulk run)."""


def _kept_for(variants: list[_Kept], prepared: Prepared) -> _Kept | None:
    """The variant computed under ``prepared``'s Config, else one computed under a Config of the same family
    (Prepared.family) whose differences touch no parameter or interpretation the part read."""
    for kept in variants:
        if kept[3] is prepared:
            return kept
    for kept in variants:
        if kept[4].isdisjoint(prepared.changed_from(kept[3])):
            return kept
    return None


# Entries per lookup table; past it the table starts afresh (a later miss recomputes).
_PREPARED_LIMIT = 50_000


class Prepared:
    """What every evaluation under one regime and one Config shares, looked up once and then reused.

    The merged parameters, the citer and the calendar; and the answers of lookups that depend only on their
    key: a parameter's value and recorded use on a day, an interpretation's chosen option, the citations of a
    finding's references on a day with the interpretations their wording rests on. A bulk run asks the same
    few hundred of these for every subject; a Decision is built from the same objects as before, so it is
    identical to one computed without the tables. ``Regime.prepared`` keeps one per Config.
    """

    def __init__(self, regime: Regime, config: Config) -> None:
        self.regime = regime
        self.config = config
        self.parameters: Mapping[str, Parameter] = regime.parameters_with(config)
        self.citer = regime.citer_for(config)
        self.bindings = regime.amendment_bindings()
        self._calendar: LegalCalendar | None = None
        self.values: dict[tuple[str, dt.date], _Found] = {}
        self.interpretations: dict[str, tuple[str, InterpretationUse]] = {}
        self._cited: dict[
            frozenset[tuple[str, str | None]] | None, tuple[dict[Hashable, _Cited], dict[Hashable, Finding]]
        ] = {}
        # Configs of one family differ at most in parameter values and interpretation choices: the same
        # wordings (citer) and the same calendar. A shared part may be reused across them (Context.shared).
        self.family = regime.family_of(self.citer, config)
        self._changes: dict[int, tuple[Prepared, frozenset[str]]] = {}

    @property
    def calendar(self) -> LegalCalendar:
        if self._calendar is None:
            self._calendar = self.regime.calendar_for(self.config)
        return self._calendar

    def cited(
        self, allowed: frozenset[tuple[str, str | None]] | None
    ) -> tuple[dict[Hashable, _Cited], dict[Hashable, Finding]]:
        """The tables of resolved references and of findings for the rules allowed to cite ``allowed``
        (None: any): a rule that may not cite a reference must not get another rule's finding citing it."""
        tables = self._cited.get(allowed)
        if tables is None:
            tables = self._cited[allowed] = ({}, {})
        return tables

    def changed_from(self, other: Prepared) -> frozenset[str]:
        """The parameters and interpretations whose answers differ between ``other``'s Config and this one."""
        kept = self._changes.get(id(other))
        if kept is not None and kept[0] is other:
            return kept[1]
        mine, theirs = self.config.interpretations, other.config.interpretations
        interpretations = self.regime.interpretations
        parameters = {
            name
            for name in self.parameters.keys() | other.parameters.keys()
            if not _same(self.parameters.get(name), other.parameters.get(name))
        }
        changed = frozenset(
            parameters.union(
                int_id
                for int_id in mine.keys() | theirs.keys()
                if choose(interpretations, int_id, mine)[1:] != choose(interpretations, int_id, theirs)[1:]
            )
        )
        self._changes[id(other)] = (other, changed)  # holding ``other``: its id cannot be reused
        return changed


_Found = tuple[ParameterValue, tuple[str, dt.date], ParameterUse]
"""A parameter's value on a day, its key in a decision's trace (name, effective date) and its recorded use."""

_Cited = tuple[tuple[Citation, ...], tuple[str, ...]]
"""Citations of some references on a day, and the interpretations that date their wordings (in order)."""


def _same(one: Parameter | None, other: Parameter | None) -> bool:
    return one is other or one == other


def _bounded(table: dict[Any, Any]) -> None:
    if len(table) >= _PREPARED_LIMIT:
        table.clear()


class Context:
    """What a rule may ask: ``as_of``, ``regime``, ``config``, ``calendar``, parameters, interpretations."""

    def __init__(
        self,
        regime: Regime,
        as_of: dt.date,
        config: Config | None = None,
        *,
        allowed_cites: Iterable[str] | None = None,
        allowed_pairs: frozenset[tuple[str, str | None]] | None = None,
        memo: Memo | None = None,
    ) -> None:
        self.regime = regime
        self.as_of = as_of
        self.config = _NO_CONFIG if config is None else config
        self.prepared = prepared = regime.prepared(self.config)
        self.parameters: Mapping[str, Parameter] = prepared.parameters
        self.citer = prepared.citer
        self._bindings = prepared.bindings
        if allowed_pairs is None and allowed_cites is not None:
            allowed_pairs = frozenset(split_ref(ref, regime.acts.main) for ref in allowed_cites)
        self.allowed_cites = allowed_pairs
        self._cited, self._findings = prepared.cited(allowed_pairs)
        self.memo = memo
        self._calendar: LegalCalendar | None = None
        self._parameter_uses: dict[tuple[str, dt.date], ParameterUse] = {}
        self._interpretation_uses: dict[str, InterpretationUse] = {}
        self._captures: list[_Capture] = []

    # --- calendar ------------------------------------------------------------------------------------

    @property
    def calendar(self) -> LegalCalendar:
        """The municipality's legal calendar (regime calendar.yaml + configured holidays and closures)."""
        if self._calendar is None:
            self._calendar = self.prepared.calendar
        return self._calendar

    # --- parameters ----------------------------------------------------------------------------------

    def param(self, name: str) -> Any:
        """Value of parameter ``name`` on ``as_of`` (recorded); MissingParameterError if it has none."""
        return self.param_value(name, self.as_of).value

    def param_on(self, name: str, on: dt.date) -> Any:
        """Value of parameter ``name`` on another date (e.g. the infraction date), recorded."""
        return self.param_value(name, on).value

    def param_value(self, name: str, on: dt.date | None = None) -> ParameterValue:
        """The full ParameterValue (value, effective_from, cite) on ``on`` (default ``as_of``), recorded."""
        day = on or self.as_of
        found = self.prepared.values.get((name, day))
        if found is None:
            found = self._value_and_use(name, day)
        value, key, use = found
        for capture in self._captures:
            capture.parameters.append((key, use))
        if key not in self._parameter_uses:
            self._parameter_uses[key] = use
        return value

    def _value_and_use(self, name: str, day: dt.date) -> _Found:
        """The value in force on ``day``, its key in the trace and its recorded use, kept for the Config."""
        parameter = self._parameter(name)
        value = parameter.value_on(day, self.regime.id)  # raises: nothing kept
        found = (value, (name, value.effective_from), self._use(parameter, value, day))
        _bounded(self.prepared.values)
        self.prepared.values[(name, day)] = found
        return found

    def _parameter(self, name: str) -> Parameter:
        try:
            return self.parameters[name]
        except KeyError:
            raise UnknownParameterError(self.regime.id, name) from None

    def _record_parameter(self, parameter: Parameter, value: ParameterValue, day: dt.date) -> None:
        key = (parameter.name, value.effective_from)
        if key in self._parameter_uses and not self._captures:
            return
        use = self._use(parameter, value, day)
        for capture in self._captures:
            capture.parameters.append((key, use))
        self._parameter_uses.setdefault(key, use)

    def _use(self, parameter: Parameter, value: ParameterValue, day: dt.date) -> ParameterUse:
        citation = self.citer.resolve(value.cite, on=max(day, value.effective_from))
        return ParameterUse(
            parameter.name,
            value.value,
            parameter.unit.value,
            value.effective_from,
            citation,
            day,
            parameter.description,
        )

    # --- interpretations -----------------------------------------------------------------------------

    def interpretation(self, int_id: str) -> str:
        """Chosen option key of interpretation ``int_id`` (Config override, else default), recorded."""
        chosen = self.prepared.interpretations.get(int_id)
        if chosen is None:
            interpretation, option, is_default = choose(
                self.regime.interpretations, int_id, self.config.interpretations
            )
            use = InterpretationUse(
                int_id, option, is_default, interpretation.question, interpretation.option_text(option)
            )
            chosen = self.prepared.interpretations[int_id] = (option, use)
        option, use = chosen
        for capture in self._captures:
            capture.interpretations.append((int_id, use))
        self._interpretation_uses.setdefault(int_id, use)
        return option

    # --- shared parts of a bulk run --------------------------------------------------------------------

    def shared(
        self,
        name: str,
        anchors: tuple[Any, ...],
        key: Hashable,
        compute: Callable[[], T],
        *,
        brief: bool = False,
    ) -> T:
        """``compute()``, reused across the evaluations of a bulk run that share ``anchors`` (by identity).

        A rule wraps a part that depends only on some facts objects (an operator's own findings, which every
        vehicle of that operator repeats; the subject's checks that a reform leaves alone) and on ``key``
        (plain values it also reads, e.g. the filing date). Outside a bulk run it simply computes. In one, the
        first computation is kept with the parameters and interpretations it used, and a later hit records
        those same uses, so the Decision is identical. A hit under another Config of the same family (a
        reform's, say) is taken only when none of the parameters or interpretations the part read differ
        between the two: the part must read the Config only through this context (``param``,
        ``interpretation``, ``cites``, ``calendar``), never ``ctx.config`` itself. ``brief``: the anchors are
        the subject itself, so the part is kept only until that subject is asked again (Memo's brief entries).
        """
        memo = self.memo
        if memo is None:
            return compute()
        prepared = self.prepared
        if anchors:
            memo_key: tuple[Any, ...] = (name, self.as_of, key, prepared.family, *map(id, anchors))
        else:
            memo_key = (name, self.as_of, key, prepared.family)
        variants: list[_Kept] | None = memo.get(memo_key)
        if variants is not None:
            # A hit under the same Config (the usual case) is found without a call
            found = variants[0] if variants[0][3] is prepared else _kept_for(variants, prepared)
            if found is not None:
                self._replay(found[1], found[2])
                return cast(T, found[0])
        capture = _Capture()
        self._captures.append(capture)
        try:
            value = compute()
        finally:
            self._captures.pop()
        read = {parameter_key[0] for parameter_key, _ in capture.parameters}
        read.update(int_id for int_id, _ in capture.interpretations)
        kept = (value, tuple(capture.parameters), tuple(capture.interpretations), prepared, frozenset(read))
        if variants is None:
            memo.put(memo_key, (self.regime, *anchors), [kept], brief=brief)
        else:
            variants.append(kept)  # another family member's answer differs: keep both
        return value

    def _replay(
        self,
        parameters: tuple[tuple[tuple[str, dt.date], ParameterUse], ...],
        interpretations: tuple[tuple[str, InterpretationUse], ...],
    ) -> None:
        if not self._captures:  # the usual case: nothing nested is being captured
            uses, chosen = self._parameter_uses, self._interpretation_uses
            for parameter_key, parameter_use in parameters:
                if parameter_key not in uses:
                    uses[parameter_key] = parameter_use
            for int_id, interpretation_use in interpretations:
                if int_id not in chosen:
                    chosen[int_id] = interpretation_use
            return
        for capture in self._captures:
            capture.parameters.extend(parameters)
            capture.interpretations.extend(interpretations)
        for parameter_key, parameter_use in parameters:
            self._parameter_uses.setdefault(parameter_key, parameter_use)
        for int_id, interpretation_use in interpretations:
            self._interpretation_uses.setdefault(int_id, interpretation_use)

    # --- citations and findings ----------------------------------------------------------------------

    def cite(self, ref: str, *, on: dt.date | None = None) -> Citation:
        """Citation of ``ref`` with the wording in force on ``as_of`` (or ``on``); must be in the rule's cites."""
        return self.cites((ref,), on=on)[0]

    def cites(self, refs: Iterable[str], *, on: dt.date | None = None) -> tuple[Citation, ...]:
        """Citations of ``refs`` (see ``cite``), resolved once per Config, references and day."""
        day = on or self.as_of
        refs = refs if type(refs) is tuple else tuple(refs)
        key = (refs, day)
        cited = self._cited.get(key)
        if cited is None:
            cited = self._resolved(refs, day)
            _bounded(self._cited)
            self._cited[key] = cited
        citations, interpretations = cited
        for int_id in interpretations:
            self.interpretation(int_id)
        return citations

    def _resolved(self, refs: tuple[str, ...], day: dt.date) -> _Cited:
        citations = tuple(self._checked_citation(ref, day) for ref in refs)
        notes = tuple(
            int_id for citation in citations for int_id in self._amendment_interpretations(citation)
        )
        return citations, notes

    def _checked_citation(self, ref: str, day: dt.date) -> Citation:
        if self.allowed_cites is not None and split_ref(ref, self.regime.acts.main) not in self.allowed_cites:
            raise RegimeDefinitionError(
                f"rule cites {ref!r} but does not declare it in @rule(cites=...); add it there",
                message_pt=f"a regra cita {ref!r} sem declará-lo em cites=",
            )
        return self.citer.resolve(ref, on=day)

    def _amendment_interpretations(self, citation: Citation) -> list[str]:
        """A citation of an amended or inserted dispositivo rests on the interpretation that dates it."""
        if not self._bindings:
            return []
        act = self.citer.registry.acts[citation.act_key]
        if act.text is None or citation.dispositivo is None:
            return []
        versions = {w.version_key for w in act.text.get(citation.dispositivo).versions}
        return [
            binding.interpretation
            for binding in self._bindings
            if binding.act_key == act.key and binding.amendment_key in versions
        ]

    def finding(
        self,
        code: str,
        status: Status,
        message: str,
        *,
        cites: Iterable[str],
        counterfactual: str | None = None,
        data: Mapping[str, Any] | None = None,
        on: dt.date | None = None,
    ) -> Finding:
        """A Finding whose citations are resolved (and checked) on ``as_of`` (or ``on``).

        Without ``data``, the same finding (code, status, message, references, counterfactual, day) is one
        object per Config: a bulk run says "Tacógrafo em perfeito funcionamento" for most of its vehicles.
        Findings are frozen, and those whose citations rest on an interpretation are not kept (its use must
        be recorded at each evaluation).
        """
        day = on or self.as_of
        plain = not data and type(cites) is tuple and type(status) is Status
        if plain:
            # id(status): a Status member is a singleton, and an Enum's own hash is a Python-level call
            key = (code, id(status), message, cites, counterfactual, day)
            kept = self._findings.get(key)
            if kept is not None:
                return kept
        cited = self._cited.get((cites, day)) if type(cites) is tuple else None
        # The usual case written out (a rule makes a dozen findings per subject): resolved, no interpretation.
        citations = self.cites(cites, on=on) if cited is None or cited[1] else cited[0]
        if not citations:
            raise RegimeDefinitionError(
                f"finding {code!r} cites nothing; every finding cites a dispositivo",
                message_pt=f"a constatação {code!r} não cita nenhum dispositivo",
            )
        finding = make_finding(code, status, message, citations, counterfactual, dict(data) if data else {})
        if plain and not self._cited[(cites, day)][1]:
            _bounded(self._findings)
            self._findings[key] = finding
        return finding

    # --- money and facts -----------------------------------------------------------------------------

    def to_brl(self, quantity: Decimal | int | str, unit: Unit | FineUnit | str, on: dt.date) -> Decimal:
        """``quantity`` of ``unit`` in reais on ``on`` (centavos, ROUND_HALF_UP); the values used are recorded.

        ``unit`` is ``brl`` (face value) or a unit the regime declares in units.yaml (fiscal.py explains how
        each is valued)."""
        key = unit if isinstance(unit, str) else unit.value
        declared = self.regime.vocabulary.fine_unit(key)
        if declared is None:
            return round_brl(Decimal(quantity))
        return round_brl(Decimal(quantity) * self.unit_value(declared, on))

    def to_brl_or_wait(
        self, quantity: Decimal | int | str, unit: Unit | FineUnit | str, on: dt.date, *, may_wait: bool
    ) -> Decimal | None:
        """``to_brl``; or None when ``may_wait`` and the unit itself has no value on ``on`` yet (next year's
        UFESP, a UFM not yet decreed): the asker values the amount once the value is entered. Any other missing
        parameter, or a missing unit value when not ``may_wait``, still raises MissingParameterError."""
        try:
            return self.to_brl(quantity, unit, on)
        except MissingParameterError as exc:
            key = unit if isinstance(unit, str) else unit.value
            declared = self.regime.vocabulary.fine_unit(key)
            if may_wait and declared is not None and exc.name == declared.parameter:
                return None
            raise

    def unit_value(self, unit: FineUnit, on: dt.date) -> Decimal:
        """What one ``unit`` is worth in reais on ``on`` (unrounded for an index), recorded in the trace."""
        if unit.valued_by == "index":
            return self._index_factor(unit, on)
        value = self.param_value(unit.parameter, on)
        if unit.per_calendar_year and value.effective_from.year != on.year:
            raise MissingParameterError(
                self.regime.id,
                unit.parameter,
                on,
                reason=f"the {unit.label} table has no value for {on.year} (each value holds for one calendar "
                f"year); add that year's value to Config.parameters['{unit.parameter}']",
            )
        return Decimal(value.value)

    def _index_factor(self, unit: FineUnit, on: dt.date) -> Decimal:
        """Π (1 + p/100) of the yearly re-indexing percentages dated after the unit's base, up to ``on``; for a
        unit re-indexed every 1st January (``per_calendar_year``), each year's percentage is needed from that
        1st January on, and its absence is a MissingParameterError dated that day (never a stale factor)."""
        assert unit.base is not None  # the loader requires a base for valued_by: index
        parameter = self._parameter(unit.parameter)
        if unit.per_calendar_year:
            january = missing_yearly_reindexing(parameter.values, unit.base, on)
            if january is not None:
                raise MissingParameterError(
                    self.regime.id,
                    unit.parameter,
                    january,
                    reason=f"the {unit.label} are re-indexed every 1st January and the percentage of "
                    f"{january.year} is not configured (a value dated {january.isoformat()}); valuing on "
                    f"{on.isoformat()} without it would use an earlier year's factor",
                )
        factor, used = index_factor(parameter.values, unit.base, on)
        for value in used:
            self._record_parameter(parameter, value, on)
        return factor

    def require(self, value: T | None, field_path: str) -> T:
        """``value`` if given; MissingFactError naming ``field_path`` otherwise."""
        if value is None:
            raise MissingFactError(field_path, f"{self.regime.id} on {self.as_of.isoformat()}")
        return value

    # --- trace ---------------------------------------------------------------------------------------

    def parameter_uses(self) -> tuple[ParameterUse, ...]:
        return tuple(self._parameter_uses.values())

    def interpretation_uses(self) -> tuple[InterpretationUse, ...]:
        return tuple(self._interpretation_uses.values())
