"""@rule registration: declared citations are validated, conflicts and bad outcomes are errors."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest

import lawcode.regime as regime_module
from lawcode.context import Context
from lawcode.decision import Finding, RuleResult, Status
from lawcode.errors import QuestionNotApplicableError, RegimeDefinitionError, UnknownDispositivoError
from lawcode.facts import DeadlineFacts
from lawcode.regime import rule
from lawcode.registry import load_regime
from lawcode.tests.conftest import DEMO_FOLDER

PACKAGE = __name__


@pytest.fixture(autouse=True)
def isolated_registrations() -> Iterator[None]:
    saved = list(regime_module._REGISTERED)
    yield
    regime_module._REGISTERED[:] = saved


def computed(ctx: Context, facts: DeadlineFacts) -> RuleResult:
    return RuleResult("computed", [ctx.finding("x", Status.INFO, "ok", cites=("art3",))])


def test_two_rules_for_one_question_are_a_conflict() -> None:
    rule("appeal_deadline", cites=("art3",))(computed)
    rule("appeal_deadline", cites=("art3",))(computed)
    with pytest.raises(RegimeDefinitionError) as error:
        load_regime(DEMO_FOLDER, PACKAGE)
    assert "two rules answer 'appeal_deadline'" in error.value.message


def test_declared_citations_are_validated_at_load() -> None:
    rule("appeal_deadline", cites=("art3", "art4"))(computed)
    with pytest.raises(UnknownDispositivoError) as error:
        load_regime(DEMO_FOLDER, PACKAGE)
    assert error.value.file == __file__


def test_rule_needs_citations_and_a_known_question() -> None:
    with pytest.raises(RegimeDefinitionError):
        rule("appeal_deadline", cites=())
    with pytest.raises(QuestionNotApplicableError):
        rule("appeal_deadlines", cites=("art3",))


def test_outcome_outside_the_question_vocabulary_fails() -> None:
    def wrong(ctx: Context, facts: DeadlineFacts) -> RuleResult:
        return RuleResult("granted", [])

    rule("appeal_deadline", cites=("art3",))(wrong)
    regime = load_regime(DEMO_FOLDER, PACKAGE)
    with pytest.raises(RegimeDefinitionError) as error:
        regime.evaluate("appeal_deadline", {"start": "2026-03-02"}, as_of=dt.date(2026, 3, 2))
    assert "'granted'" in error.value.message


def test_rules_package_that_cannot_be_imported_is_a_regime_error() -> None:
    with pytest.raises(RegimeDefinitionError) as error:
        load_regime(DEMO_FOLDER, "lawcode.tests.fixtures.core.no_such_rules")
    assert "cannot import the rules" in error.value.message


def test_hand_built_findings_must_cite_declared_dispositivos() -> None:
    def sneaky(ctx: Context, facts: DeadlineFacts) -> RuleResult:
        citation = ctx.regime.resolve_citation("art1", ctx.as_of)
        return RuleResult("computed", [Finding("x", Status.INFO, "ok", (citation,))])

    def silent(ctx: Context, facts: DeadlineFacts) -> RuleResult:
        return RuleResult("computed", [Finding("x", Status.INFO, "ok", ())])

    rule("appeal_deadline", cites=("art3",))(sneaky)
    rule("payment_deadline", cites=("art3",))(silent)
    regime = load_regime(DEMO_FOLDER, PACKAGE)
    with pytest.raises(RegimeDefinitionError) as error:
        regime.evaluate("appeal_deadline", {"start": "2026-03-02"}, as_of=dt.date(2026, 3, 2))
    assert "'demo-100-2020:art1'" in error.value.message
    with pytest.raises(RegimeDefinitionError) as error:
        regime.evaluate("payment_deadline", {"start": "2026-03-02"}, as_of=dt.date(2026, 3, 2))
    assert "cites nothing" in error.value.message
