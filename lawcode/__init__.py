"""lawcode — municipal transport law as code.

Decides, as of a date and under the wording in force on that date, what a municipality's law requires and
imposes, and says why, article by article. Pure Python: no Django import. Contract: docs/lawcode/design.md.

    import datetime as dt
    import lawcode

    decision = lawcode.evaluate("exemplo_sp_escolar", "vehicle_permit", facts, as_of=dt.date(2026, 3, 1))
    decision.outcome              # "granted" / "denied"
    print(decision.explain())     # Portuguese explanation with citations, parameters and interpretations
    stored = decision.to_dict()   # JSON-safe; lawcode.Decision.from_dict(stored) replays it
"""

from lawcode.citations import Citation
from lawcode.config import Config
from lawcode.decision import Decision, Finding, RuleResult, Status, eligibility
from lawcode.errors import (
    CitationMissingError,
    DispositivoNotInForceError,
    InvalidFactError,
    LawcodeError,
    LawNotInForceError,
    LawTextError,
    MissingFactError,
    MissingParameterError,
    QuestionNotApplicableError,
    RegimeDefinitionError,
    RoundingModeRequiredError,
    ScenarioError,
    UnknownDispositivoError,
    UnknownInterpretationError,
    UnknownParameterError,
)
from lawcode.regime import Regime
from lawcode.registry import all_regimes, evaluate, get_regime, regime_ids
from lawcode.units import Unit

__all__ = [
    "Citation",
    "CitationMissingError",
    "Config",
    "Decision",
    "DispositivoNotInForceError",
    "Finding",
    "InvalidFactError",
    "LawNotInForceError",
    "LawTextError",
    "LawcodeError",
    "MissingFactError",
    "MissingParameterError",
    "QuestionNotApplicableError",
    "Regime",
    "RegimeDefinitionError",
    "RoundingModeRequiredError",
    "RuleResult",
    "ScenarioError",
    "Status",
    "Unit",
    "UnknownDispositivoError",
    "UnknownInterpretationError",
    "UnknownParameterError",
    "all_regimes",
    "eligibility",
    "evaluate",
    "get_regime",
    "regime_ids",
]
