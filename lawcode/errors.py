"""Every error the law engine raises.

Each error carries two messages: ``message`` in English (CLI, logs) and ``message_pt`` in Brazilian Portuguese
(shown to users), and, where it applies, the ``file``/``line`` or ``field`` at fault and ``hint`` — what to do.
The engine never lets a bare KeyError/ValueError escape for a problem in law data or facts: it raises one of
these, so a caller can ``except LawcodeError`` and show ``exc.message_pt``.
"""

from __future__ import annotations

import datetime as dt


def _location(file: str | None, line: int | None) -> str:
    if file is None:
        return ""
    return f"{file}:{line}" if line is not None else file


class LawcodeError(Exception):
    """Base of every lawcode error: ``message`` (English), ``message_pt`` (pt-BR), optional location."""

    def __init__(
        self,
        message: str,
        *,
        message_pt: str | None = None,
        file: str | None = None,
        line: int | None = None,
        field: str | None = None,
        hint: str | None = None,
    ) -> None:
        where = _location(file, line)
        self.file = file
        self.line = line
        self.field = field
        self.hint = hint
        self.message = f"{where}: {message}" if where else message
        base_pt = message_pt if message_pt is not None else message
        self.message_pt = f"{where}: {base_pt}" if where else base_pt
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.message


class LawTextError(LawcodeError):
    """A law text cannot be parsed into dispositivos (duplicate id, undeclared amendment marker, …)."""


class RegimeDefinitionError(LawcodeError):
    """A regime folder (regime.yaml, parameters.yaml, catalog.yaml, rules…) is malformed; names file and line."""


class CitationMissingError(RegimeDefinitionError):
    """A parameter value (or other legal datum) has no ``cite``."""


class UnknownDispositivoError(LawcodeError):
    """A citation names an act or a dispositivo that does not exist in the declared texts."""

    def __init__(
        self, ref: str, *, file: str | None = None, line: int | None = None, known_hint: str | None = None
    ) -> None:
        self.ref = ref
        hint = (
            known_hint
            or "check the id against the law text (python -m lawcode coverage) or external_acts.yaml"
        )
        super().__init__(
            f"unknown dispositivo {ref!r}; {hint}",
            message_pt=f"dispositivo desconhecido {ref!r}: confira o id no texto da lei ou em external_acts.yaml",
            file=file,
            line=line,
            hint=hint,
        )


class DispositivoNotInForceError(LawcodeError):
    """The dispositivo exists but no wording of it is in force on the asked date."""

    def __init__(self, act_key: str, dispositivo: str, on: dt.date, validity: str) -> None:
        self.act_key = act_key
        self.dispositivo = dispositivo
        self.on = on
        super().__init__(
            f"{act_key}:{dispositivo} has no wording in force on {on.isoformat()} (valid {validity})",
            message_pt=(
                f"o dispositivo {dispositivo} ({act_key}) não tem redação vigente em "
                f"{on.strftime('%d/%m/%Y')} (vigência: {validity})"
            ),
        )


class MissingParameterError(LawcodeError):
    """A parameter has no value on the asked date (none declared, repealed, or never known, like a UFM)."""

    def __init__(self, regime_id: str, name: str, on: dt.date, *, reason: str | None = None) -> None:
        self.regime_id = regime_id
        self.name = name
        self.on = on
        why = reason or "no value is declared on that date"
        hint = (
            f"add a dated value for '{name}' (with 'from', 'value' and 'cite') to Config.parameters for this "
            f"municipality or to lawcode/regimes/{regime_id}/parameters.yaml"
        )
        super().__init__(
            f"parameter '{name}' of regime {regime_id} has no value on {on.isoformat()}: {why}; {hint}",
            message_pt=(
                f"o parâmetro '{name}' do regime {regime_id} não tem valor em {on.strftime('%d/%m/%Y')}. "
                f"Configure o valor vigente (com a norma que o fixa) nas configurações do município."
            ),
            field=name,
            hint=hint,
        )


class UnknownParameterError(LawcodeError):
    """A rule or a Config names a parameter the regime does not declare."""

    def __init__(
        self, regime_id: str, name: str, *, file: str | None = None, line: int | None = None
    ) -> None:
        self.regime_id = regime_id
        self.name = name
        super().__init__(
            f"regime {regime_id} declares no parameter '{name}'; declare it in parameters.yaml or fix the name",
            message_pt=f"o regime {regime_id} não declara o parâmetro '{name}'",
            file=file,
            line=line,
            field=name,
        )


class UnknownInterpretationError(LawcodeError):
    """An interpretation id or option that the regime does not declare."""


class LawNotInForceError(LawcodeError):
    """The asked date is before the regime's law took effect."""

    def __init__(self, regime_id: str, as_of: dt.date, in_force: dt.date, act_title: str) -> None:
        self.regime_id = regime_id
        self.as_of = as_of
        self.in_force = in_force
        super().__init__(
            f"{act_title} ({regime_id}) is in force only from {in_force.isoformat()}; "
            f"cannot evaluate on {as_of.isoformat()} (ask the 'law_in_force' question instead)",
            message_pt=(
                f"A {act_title} só vigora a partir de {in_force.strftime('%d/%m/%Y')}; "
                f"não se aplica em {as_of.strftime('%d/%m/%Y')}."
            ),
        )


class QuestionNotApplicableError(LawcodeError):
    """The regime implements no rule for the asked question (or the question does not exist)."""


class MissingFactError(LawcodeError):
    """A fact a rule needs was not given; ``field`` is its dotted path (e.g. ``vehicle.manufacture_year``)."""

    def __init__(self, field_path: str, where: str | None = None, *, why: str | None = None) -> None:
        self.field_path = field_path
        self.where = where
        context = f" in {where}" if where else ""
        reason = f" ({why})" if why else ""
        super().__init__(
            f"missing fact '{field_path}'{context}{reason}; provide it",
            message_pt=f"falta a informação '{field_path}'{reason}; informe-a para que a regra possa ser aplicada",
            field=field_path,
        )


class InvalidFactError(LawcodeError):
    """A fact has the wrong type or a value outside its closed list."""

    def __init__(
        self, field_path: str, problem: str, where: str | None = None, *, problem_pt: str | None = None
    ) -> None:
        self.field_path = field_path
        self.problem = problem
        self.problem_pt = problem_pt
        self.where = where
        context = f" in {where}" if where else ""
        super().__init__(
            f"invalid fact '{field_path}'{context}: {problem}",
            # A regime-declared field has a Portuguese label: its message names it instead of the path.
            message_pt=problem_pt or f"informação inválida em '{field_path}': {problem}",
            field=field_path,
        )


class ScenarioError(LawcodeError):
    """A scenario file is malformed: names the file, the line and what to do."""

    def __init__(self, file: str, line: int | None, what: str, *, message_pt: str | None = None) -> None:
        self.what = what
        super().__init__(what, message_pt=message_pt or f"cenário inválido: {what}", file=file, line=line)


class RoundingModeRequiredError(LawcodeError):
    """A month/year deadline was computed without an explicit rounding mode."""


__all__ = [
    "CitationMissingError",
    "DispositivoNotInForceError",
    "InvalidFactError",
    "LawNotInForceError",
    "LawTextError",
    "LawcodeError",
    "MissingFactError",
    "MissingParameterError",
    "QuestionNotApplicableError",
    "RegimeDefinitionError",
    "RoundingModeRequiredError",
    "ScenarioError",
    "UnknownDispositivoError",
    "UnknownInterpretationError",
    "UnknownParameterError",
]
