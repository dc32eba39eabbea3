"""Context.shared across the Configs of a what-if, the memo's brief entries, and findings kept per Config.

A part computed under the law is reused under the reform only when it read nothing the reform changes; the
reform's decision must record exactly the uses it would have recorded computing the part itself.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from lawcode.bulk import Reform, overlay_config
from lawcode.config import Config, DatedEntry
from lawcode.context import Context
from lawcode.decision import Status
from lawcode.errors import RegimeDefinitionError
from lawcode.memo import Memo
from lawcode.regime import Regime
from lawcode.registry import get_regime

AS_OF = dt.date(2026, 3, 10)
LAW = Config()
AGE_REFORM = Reform.from_parameters({"max_vehicle_age": 10}, cite="art13_incII").config(AS_OF, LAW)
READING_REFORM = overlay_config(
    LAW, Config(interpretations={"INT-OLI-VEHICLE-AGE": "completed_years_from_dec31"})
)


@pytest.fixture(scope="module")
def regime() -> Regime:
    return get_regime("olimpia_sp_escolar")


class Part:
    """A shared part that reads some parameters and interpretations, counting its computations."""

    def __init__(self, parameters: tuple[str, ...], interpretations: tuple[str, ...] = ()) -> None:
        self.parameters, self.interpretations = parameters, interpretations
        self.computed = 0

    def __call__(self, ctx: Context) -> tuple[Any, ...]:
        self.computed += 1
        return (
            *(ctx.param(name) for name in self.parameters),
            *map(ctx.interpretation, self.interpretations),
        )


def ask(
    regime: Regime, config: Config, memo: Memo, part: Part, anchor: object, *, brief: bool = False
) -> Any:
    ctx = Context(regime, AS_OF, config, memo=memo)
    value = ctx.shared("part", (anchor,), None, lambda: part(ctx), brief=brief)
    return value, ctx.parameter_uses(), ctx.interpretation_uses()


def alone(regime: Regime, config: Config, part: Part) -> Any:
    ctx = Context(regime, AS_OF, config)
    return part(ctx), ctx.parameter_uses(), ctx.interpretation_uses()


def test_a_part_that_reads_nothing_the_reform_changes_is_computed_once(regime: Regime) -> None:
    part, anchor, memo = Part(("pf_max_permits", "pf_max_auxiliary_drivers")), object(), Memo()
    law = ask(regime, LAW, memo, part, anchor)
    reform = ask(regime, AGE_REFORM, memo, part, anchor)
    assert part.computed == 1
    assert law == reform == alone(regime, AGE_REFORM, Part(part.parameters))


def test_a_part_that_reads_a_changed_parameter_is_computed_again(regime: Regime) -> None:
    part, anchor, memo = Part(("pf_max_permits", "max_vehicle_age")), object(), Memo()
    law = ask(regime, LAW, memo, part, anchor)
    reform = ask(regime, AGE_REFORM, memo, part, anchor)
    assert part.computed == 2
    assert law[0] == (1, 15) and reform[0] == (1, 10)
    assert reform == alone(regime, AGE_REFORM, Part(part.parameters))
    assert (
        ask(regime, LAW, memo, part, anchor) == law and ask(regime, AGE_REFORM, memo, part, anchor) == reform
    )
    assert part.computed == 2  # both answers kept, each found again under its own Config


def test_a_part_that_reads_a_changed_interpretation_is_computed_again(regime: Regime) -> None:
    part, anchor, memo = Part(("pf_max_permits",), ("INT-OLI-VEHICLE-AGE",)), object(), Memo()
    ask(regime, LAW, memo, part, anchor)
    reform = ask(regime, READING_REFORM, memo, part, anchor)
    assert part.computed == 2
    assert reform == alone(regime, READING_REFORM, Part(part.parameters, part.interpretations))
    unread = Part(("pf_max_permits",))
    ask(regime, LAW, memo, unread, anchor := object())
    ask(regime, READING_REFORM, memo, unread, anchor)
    assert unread.computed == 1


def test_a_config_with_another_calendar_computes_its_own(regime: Regime) -> None:
    """Holidays and closures change deadlines without any parameter: such a Config is of another family."""
    closed = Config(closures=(DatedEntry(dt.date(2026, 3, 11), "ponto facultativo"),))
    part, anchor, memo = Part(("pf_max_permits",)), object(), Memo()
    ask(regime, LAW, memo, part, anchor)
    ask(regime, closed, memo, part, anchor)
    assert part.computed == 2


def test_brief_entries_are_kept_only_for_the_last_subjects(regime: Regime) -> None:
    part, memo = Part(("pf_max_permits",)), Memo(brief_limit=2)
    anchors = [object() for _ in range(3)]
    for anchor in anchors:
        ask(regime, LAW, memo, part, anchor, brief=True)
    ask(regime, AGE_REFORM, memo, part, anchors[2], brief=True)
    assert part.computed == 3  # the last subject's part, asked again under the reform, was kept
    ask(regime, AGE_REFORM, memo, part, anchors[0], brief=True)
    assert part.computed == 4  # the first one's was let go
    assert len(memo) <= 2


def test_a_finding_without_data_is_one_object_per_config(regime: Regime) -> None:
    one, other = Context(regime, AS_OF), Context(regime, AS_OF)
    made = one.finding("tachograph", Status.MET, "Tacógrafo em ordem", cites=("art13_incIV",))
    assert other.finding("tachograph", Status.MET, "Tacógrafo em ordem", cites=("art13_incIV",)) is made
    assert other.finding("tachograph", Status.NOT_MET, "Tacógrafo em ordem", cites=("art13_incIV",)) != made
    with_data = other.finding("age", Status.MET, "ok", cites=("art13_incII",), data={"age": 3})
    assert other.finding("age", Status.MET, "ok", cites=("art13_incII",), data={"age": 3}) is not with_data
    later = Context(regime, AS_OF + dt.timedelta(days=1))
    assert later.finding("tachograph", Status.MET, "Tacógrafo em ordem", cites=("art13_incIV",)) is not made


def test_a_kept_finding_is_not_handed_to_a_rule_that_may_not_cite_it(regime: Regime) -> None:
    Context(regime, AS_OF).finding("tachograph", Status.MET, "Tacógrafo em ordem", cites=("art13_incIV",))
    narrow = Context(regime, AS_OF, allowed_cites=("art13_incII",))
    with pytest.raises(RegimeDefinitionError):
        narrow.finding("tachograph", Status.MET, "Tacógrafo em ordem", cites=("art13_incIV",))
