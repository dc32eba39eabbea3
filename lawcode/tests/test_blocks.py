"""The legal building blocks (lawcode.blocks): each bound, mode and edge the laws distinguish."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from lawcode.blocks.chains import ChainStep, chain
from lawcode.blocks.documents import issued_within
from lawcode.blocks.limits import Bound, anniversary, at_least, at_most, completed_years, minimum_years
from lawcode.blocks.penalties import FineRange, Ladder, SanctionChoiceError, choose, range_fine
from lawcode.blocks.points import points_in_window
from lawcode.blocks.quotas import Rounding, per_population, per_students, share, within
from lawcode.blocks.recidivism import Anchor, CountFrom, RecidivismRule, Scope, recidivism
from lawcode.blocks.suspensions import Period, cumulative_days, period_of, schedule_after
from lawcode.blocks.vehicle_age import AgeCounting, vehicle_age
from lawcode.calendar import LegalCalendar
from lawcode.deadlines import DayCounting
from lawcode.facts import PriorSanction

D = dt.date
BIRTH = D(2008, 5, 18)


# --- limits --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bound", "met_from"),
    [
        (Bound.INCLUSIVE, D(2026, 5, 18)),
        (Bound.STRICT, D(2026, 5, 19)),
        (Bound.STRICT_COMPLETED, D(2027, 5, 18)),
    ],
)
def test_minimum_age_is_met_on_the_day_each_bound_says(bound: Bound, met_from: dt.date) -> None:
    assert minimum_years(BIRTH, met_from, 18, bound=bound).ok
    assert not minimum_years(BIRTH, met_from - dt.timedelta(days=1), 18, bound=bound).ok
    assert minimum_years(BIRTH, met_from, 18, bound=bound).met_from == met_from


def test_completed_years_and_29_february() -> None:
    assert completed_years(D(2000, 2, 29), D(2018, 2, 28)) == 17
    assert completed_years(D(2000, 2, 29), D(2018, 3, 1)) == 18
    assert anniversary(D(2000, 2, 29), 18) == D(2018, 3, 1)
    assert anniversary(D(2000, 2, 29), 20) == D(2020, 2, 29)


def test_age_limit_describes_itself_in_portuguese() -> None:
    text = minimum_years(BIRTH, D(2026, 5, 18), 18, bound=Bound.STRICT).describe_pt("idade")
    assert text == "idade: 18 anos completos; exigido mais de 18 anos (atendido a partir de 19/05/2026)"


def test_count_bounds() -> None:
    assert at_most(10, 10, bound=Bound.INCLUSIVE) and not at_most(10, 10, bound=Bound.STRICT)
    assert at_least(4, 4, bound=Bound.INCLUSIVE) and not at_least(4, 4, bound=Bound.STRICT)
    assert at_least(Decimal("4.5"), 4, bound=Bound.STRICT)
    with pytest.raises(ValueError, match="STRICT_COMPLETED"):
        at_most(1, 2, bound=Bound.STRICT_COMPLETED)


# --- documents -----------------------------------------------------------------------------------------


def test_document_window_inclusive_and_strict() -> None:
    issued = D(2026, 1, 1)
    assert issued_within(issued, D(2026, 3, 2), 60, bound=Bound.INCLUSIVE).ok  # 60 days old
    assert not issued_within(issued, D(2026, 3, 3), 60, bound=Bound.INCLUSIVE).ok
    assert not issued_within(issued, D(2026, 3, 2), 60, bound=Bound.STRICT).ok
    window = issued_within(issued, D(2026, 2, 1), 60, bound=Bound.INCLUSIVE)
    assert window.fresh_until == D(2026, 3, 2)
    assert "aceito até 02/03/2026" in window.describe_pt()


def test_a_document_issued_after_the_reference_is_not_within_the_window() -> None:
    assert not issued_within(D(2026, 3, 5), D(2026, 3, 1), 60, bound=Bound.INCLUSIVE).ok


# --- vehicle age ---------------------------------------------------------------------------------------


def test_vehicle_age_modes() -> None:
    difference = vehicle_age(2016, 2026, 10, counting=AgeCounting.YEAR_DIFFERENCE)
    assert (difference.ok, difference.age, difference.last_year, difference.earliest_allowed_year) == (
        True,
        10,
        2026,
        2016,
    )
    counts = vehicle_age(2016, 2026, 10, counting=AgeCounting.MANUFACTURE_YEAR_COUNTS)
    assert (counts.ok, counts.age, counts.last_year, counts.earliest_allowed_year) == (False, 11, 2025, 2017)
    assert vehicle_age(2015, 2026, 10, counting=AgeCounting.YEAR_DIFFERENCE).ok is False


# --- quotas --------------------------------------------------------------------------------------------


def test_quota_per_person() -> None:
    assert within(1, 0).ok
    assert not within(1, 1).ok
    assert within(1, 1).remaining == 0
    with pytest.raises(ValueError):
        within(-1, 0)


def test_quota_per_population_with_extras_rounds_down() -> None:
    cap = per_population(697_054, 1563, extras=2, rounding=Rounding.DOWN)
    assert (cap.base, cap.cap) == (445, 447)  # 697054 / 1563 = 445.97
    assert per_population(1563 * 3, 1563, extras=0, rounding=Rounding.DOWN).cap == 3
    assert per_population(1563 * 3 - 1, 1563, extras=0, rounding=Rounding.DOWN).cap == 2
    assert "697.054 habitantes" in cap.describe_pt()


def test_quota_per_students_and_share() -> None:
    assert per_students(41, 20, rounding=Rounding.UP) == 3
    assert per_students(41, 20, rounding=Rounding.DOWN) == 2
    assert share(25, Decimal(10), rounding=Rounding.DOWN) == 2
    assert share(25, Decimal(10), rounding=Rounding.UP) == 3


# --- recidivism ----------------------------------------------------------------------------------------


def prior(code: str, infraction: dt.date, final: dt.date) -> PriorSanction:
    return PriorSanction(
        infraction_code=code, infraction_date=infraction, final_on=final, penalties=("fine",)
    )


HISTORY = (
    prior("A", D(2024, 1, 10), D(2024, 2, 10)),
    prior("B", D(2025, 3, 1), D(2025, 4, 1)),
    prior("A", D(2025, 9, 1), D(2025, 10, 1)),
)


def rule(scope: Scope, window: int | None, anchor: Anchor, count_from: CountFrom) -> RecidivismRule:
    return RecidivismRule(scope, window, anchor, count_from)


def test_specific_recidivism_without_window_counts_every_same_code_prior() -> None:
    found = recidivism(
        HISTORY, "A", D(2026, 1, 1), rule(Scope.SPECIFIC, None, Anchor.PRIOR_FINAL, CountFrom.LAST)
    )
    assert [p.infraction_date for p in found.priors] == [D(2024, 1, 10), D(2025, 9, 1)]
    generic = recidivism(
        HISTORY, "A", D(2026, 1, 1), rule(Scope.GENERIC, None, Anchor.PRIOR_FINAL, CountFrom.LAST)
    )
    assert generic.count == 3


def test_a_prior_not_final_before_the_new_infraction_does_not_count() -> None:
    found = recidivism(
        HISTORY, "A", D(2025, 10, 1), rule(Scope.SPECIFIC, None, Anchor.PRIOR_FINAL, CountFrom.LAST)
    )
    assert found.count == 1


def test_window_anchor_infraction_or_final_decision() -> None:
    on = D(2026, 9, 15)
    by_infraction = rule(Scope.SPECIFIC, 12, Anchor.PRIOR_INFRACTION, CountFrom.FIRST)
    by_final = rule(Scope.SPECIFIC, 12, Anchor.PRIOR_FINAL, CountFrom.FIRST)
    assert not recidivism(HISTORY, "A", on, by_infraction).is_recidivism  # 01/09/2025 + 12 m < 15/09/2026
    assert recidivism(HISTORY, "A", on, by_final).is_recidivism  # 01/10/2025 + 12 m ≥ 15/09/2026
    assert recidivism(HISTORY, "A", D(2026, 9, 1), by_infraction).is_recidivism  # the last day of the window


def test_window_counted_from_the_first_or_renewed_by_the_last() -> None:
    chained = (
        prior("A", D(2025, 1, 1), D(2025, 1, 2)),
        prior("A", D(2025, 10, 1), D(2025, 10, 2)),
    )
    on = D(2026, 6, 1)
    first = recidivism(chained, "A", on, rule(Scope.SPECIFIC, 12, Anchor.PRIOR_INFRACTION, CountFrom.FIRST))
    last = recidivism(chained, "A", on, rule(Scope.SPECIFIC, 12, Anchor.PRIOR_INFRACTION, CountFrom.LAST))
    assert first.count == 1  # the January 2025 window closed on 01/01/2026
    assert last.count == 2  # October 2025 renewed the series started in January
    gap = (prior("A", D(2023, 1, 1), D(2023, 1, 2)), *chained)
    assert (
        recidivism(gap, "A", on, rule(Scope.SPECIFIC, 12, Anchor.PRIOR_INFRACTION, CountFrom.LAST)).count == 2
    )


def test_same_codes_extend_specific_recidivism() -> None:
    grouped = RecidivismRule(Scope.SPECIFIC, None, Anchor.PRIOR_FINAL, CountFrom.LAST, frozenset({"A", "B"}))
    assert recidivism(HISTORY, "B", D(2026, 1, 1), grouped).count == 3
    assert "reincidência: 3" in recidivism(HISTORY, "B", D(2026, 1, 1), grouped).describe_pt()


# --- penalties -----------------------------------------------------------------------------------------


def test_ladder_next_step_repeats_the_last() -> None:
    ladder = Ladder(("warning", "fine", "suspension", "cassation"))
    assert [ladder.next_after(rank) for rank in (0, 1, 3, 9)] == ["warning", "fine", "cassation", "cassation"]
    with pytest.raises(ValueError):
        ladder.next_after(-1)


def test_sanctions_chosen_out_of_sequence_separately_or_cumulatively() -> None:
    allowed = ("warning", "fine", "seizure", "suspension")
    assert choose(["suspension", "warning"], allowed, cumulative=True) == ("warning", "suspension")
    assert choose(["seizure"], allowed, cumulative=False) == ("seizure",)
    with pytest.raises(SanctionChoiceError, match="not allowed: cassation"):
        choose(["cassation"], allowed, cumulative=True)
    with pytest.raises(SanctionChoiceError, match="cumulative"):
        choose(["fine", "seizure"], allowed, cumulative=False)
    with pytest.raises(SanctionChoiceError, match="no sanction"):
        choose([], allowed, cumulative=True)


RANGE = FineRange(Decimal("77.24"), Decimal("386.21"), "brl")


def test_first_offence_at_the_minimum_even_if_the_authority_chose_more() -> None:
    fine = range_fine(
        RANGE, first_offence=True, first_offence_at_minimum=True, chosen=Decimal(300), multiplier=Decimal(1)
    )
    assert (fine.amount, fine.fixed_by_law) == (Decimal("77.24"), True)


def test_later_offence_takes_the_chosen_amount_doubled_on_recidivism() -> None:
    fine = range_fine(
        RANGE, first_offence=False, first_offence_at_minimum=True, chosen=Decimal(200), multiplier=Decimal(2)
    )
    assert (fine.base, fine.amount, fine.fixed_by_law, fine.doubled) == (
        Decimal(200),
        Decimal(400),
        False,
        True,
    )
    with pytest.raises(ValueError, match="at least 1"):
        range_fine(
            RANGE, first_offence=False, first_offence_at_minimum=True, chosen=None, multiplier=Decimal(0)
        )
    unset = range_fine(
        RANGE, first_offence=False, first_offence_at_minimum=True, chosen=None, multiplier=Decimal(1)
    )
    assert unset.amount == Decimal("77.24")
    with pytest.raises(ValueError, match="outside"):
        range_fine(
            RANGE,
            first_offence=False,
            first_offence_at_minimum=True,
            chosen=Decimal(400),
            multiplier=Decimal(1),
        )


def test_fine_range_scaling_and_text() -> None:
    assert RANGE.scaled(Decimal(2)).maximum == Decimal("772.42")
    assert RANGE.describe_pt() == "de R$ 77,24 a R$ 386,21"
    with pytest.raises(ValueError):
        FineRange(Decimal(2), Decimal(1), "brl")


# --- points and suspensions ----------------------------------------------------------------------------


def test_points_in_a_rolling_window_date_to_date() -> None:
    events = [(D(2025, 3, 15), 7), (D(2025, 3, 16), 5), (D(2026, 3, 15), 4), (D(2026, 3, 16), 9)]
    total = points_in_window(events, D(2026, 3, 15), 12)
    assert (total.total, total.window_start) == (9, D(2025, 3, 16))
    assert total.reached(9, bound=Bound.INCLUSIVE) and not total.reached(9, bound=Bound.STRICT)


def test_suspension_days_accumulate_once_per_day_and_are_served_in_sequence() -> None:
    first = period_of(D(2026, 1, 1), 30)
    assert first == Period(D(2026, 1, 1), D(2026, 1, 30)) and first.days == 30
    overlapping = Period(D(2026, 1, 21), D(2026, 2, 9))
    assert cumulative_days([first, overlapping], since=D(2026, 1, 1), until=D(2026, 12, 31)) == 40
    assert cumulative_days([first], since=D(2026, 1, 11), until=D(2026, 1, 20)) == 10
    assert schedule_after([first], D(2026, 1, 15), 10) == Period(D(2026, 1, 31), D(2026, 2, 9))
    assert schedule_after([first], D(2026, 2, 1), 10).start == D(2026, 2, 1)
    with pytest.raises(ValueError):
        period_of(D(2026, 1, 1), 0)


# --- chains --------------------------------------------------------------------------------------------

SP = LegalCalendar("SP")
STEPS = (ChainStep("defense", "Defesa", 15), ChainStep("judgment", "Julgamento", 30))


def test_chain_counts_each_step_from_the_previous_end_or_the_actual_act() -> None:
    opened = D(2026, 3, 2)
    planned = chain(
        opened, STEPS, acted={}, counting=DayCounting.CALENDAR, calendar=SP, extend_to_business_day=True,
        ceiling_days=90,
    )  # fmt: skip
    assert planned.link("defense").deadline.end == D(2026, 3, 17)
    assert planned.link("judgment").deadline.end == D(2026, 4, 16)
    assert planned.ceiling is not None and planned.ceiling.end == D(2026, 5, 31)  # a Sunday: never extended
    assert not planned.exceeds_ceiling
    acted = chain(
        opened, STEPS, acted={"defense": D(2026, 3, 10)}, counting=DayCounting.CALENDAR, calendar=SP,
        extend_to_business_day=True, ceiling_days=35,
    )  # fmt: skip
    assert acted.link("judgment").deadline.end == D(2026, 4, 9)
    assert acted.exceeds_ceiling and not acted.link("defense").late
    assert "Defesa: até 17/03/2026" in planned.describe_pt()
