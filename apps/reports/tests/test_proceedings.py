"""Due-process sections over autos taken through the real services: severity, recidivism, appeals, time."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

import lawcode
from apps.accounts.models import User
from apps.dueprocess.choices import Instance, Verdict
from apps.dueprocess.services import appeal_file, appeal_judge
from apps.dueprocess.tests.helpers import final_without_appeal, notify, open_case
from apps.registry.choices import InfractionSeverity
from apps.reports import proceedings as p
from apps.reports import selectors as s
from apps.reports.stats import median, p90
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db
D = dt.date
OLIMPIA = "olimpia_sp_escolar"


def test_median_and_p90_are_values_of_the_list() -> None:
    assert (median(list(range(1, 11))), p90(list(range(1, 11)))) == (5, 9)
    assert (median([30, 2, 7]), p90([30, 2, 7])) == (7, 30)
    assert (median([]), p90([])) == (0, 0)


@pytest.fixture
def two_finals(
    olimpia: Municipality, agent_olimpia: User, judge_olimpia: User, olimpia_licensed: Any
) -> list[Any]:
    """The same operator fined twice, drawn up on 12/03 and 01/04; each final the day after its appeal
    deadline ran out (24/03 and 14/04: the engine's deadlines)."""
    plate = olimpia_licensed[1].vehicle.plate
    first = open_case(olimpia, agent_olimpia, code="OLI-23-I", plate=plate, on=D(2026, 3, 12))
    one = final_without_appeal(first, agent_olimpia, judge_olimpia, D(2026, 3, 13), D(2026, 3, 24))
    second = open_case(olimpia, agent_olimpia, code="OLI-23-I", plate=plate, on=D(2026, 4, 1))
    two = final_without_appeal(second, agent_olimpia, judge_olimpia, D(2026, 4, 2), D(2026, 4, 20))
    return [one, two]


def test_time_to_final_decision_is_counted_from_the_auto(
    two_finals: list[Any], olimpia: Municipality, admin_olimpia: User
) -> None:
    months = s.months_ending(D(2026, 4, 1), 2, D(2026, 4, 30))
    assert [sanction.decided_final_on for sanction in two_finals] == [D(2026, 3, 24), D(2026, 4, 14)]
    section = p.time_to_final_decision(admin_olimpia, olimpia, "", months)
    assert section is not None
    assert section.series[0].values == (12, 13)  # 12/03 → 24/03 and 01/04 → 14/04
    assert section.series[1].values == (12, 13)
    assert "2 decisões definitivas; mediana de 12 dias, 90% em até 13 dias" in section.notes[0]


def test_recidivism_is_the_engines_answer_under_the_regimes_rule(
    two_finals: list[Any], olimpia: Municipality, admin_olimpia: User
) -> None:
    one, two = two_finals
    assert (one.recidivism, two.recidivism) == (False, True)  # the regime's own rule decided it
    months = s.months_ending(D(2026, 4, 1), 2, D(2026, 4, 30))
    section = p.recidivism(admin_olimpia, olimpia, "", months)
    assert section is not None
    assert section.series[0].values == (1, 1) and section.series[1].values == (0, 1)
    assert section.notes[0].startswith("Taxa de reincidência no período: 50,0% (1 de 2")


def test_autos_are_classed_by_the_severity_of_the_regimes_catalog(
    two_finals: list[Any], olimpia: Municipality, admin_olimpia: User
) -> None:
    months = s.months_ending(D(2026, 4, 1), 2, D(2026, 4, 30))
    section = p.autos_by_severity(admin_olimpia, olimpia, "", months)
    severity = lawcode.get_regime(OLIMPIA).catalog["OLI-23-I"].severity
    assert section is not None
    assert section.categories == (InfractionSeverity(severity).label,)
    assert section.series[0].values == (2,)


def test_appeals_are_counted_by_instance_and_verdict(
    olimpia: Municipality,
    agent_olimpia: User,
    judge_olimpia: User,
    admin_olimpia: User,
    olimpia_licensed: Any,
) -> None:
    plate = olimpia_licensed[1].vehicle.plate
    for day, judged in ((D(2026, 3, 12), True), (D(2026, 3, 14), False)):
        case = open_case(olimpia, agent_olimpia, code="OLI-23-I", plate=plate, on=day)
        notify(case, agent_olimpia, day + dt.timedelta(days=1))
        filed_on = day + dt.timedelta(days=3)
        defence = appeal_file(
            case=case,
            instance=Instance.FIRST,
            filed_on=filed_on,
            text="Não houve a infração.",
            actor=judge_olimpia,
            as_of=filed_on,
        )
        if judged:
            appeal_judge(
                appeal=defence,
                verdict=Verdict.GRANTED,
                reasoning="Provado.",
                decided_on=D(2026, 3, 20),
                actor=judge_olimpia,
                as_of=D(2026, 3, 20),
            )
    months = s.months_ending(D(2026, 3, 1), 1, D(2026, 3, 31))
    section = p.appeals_by_instance(admin_olimpia, olimpia, "", months)
    assert section is not None
    by_label = {series.label: series.values for series in section.series}
    assert by_label[Verdict.GRANTED.label] == (1, 0)  # first instance, second instance
    assert by_label[p.PENDING] == (1, 0)
    assert by_label[Verdict.UPHELD.label] == (0, 0)
    # The auto cancelled on appeal is a final decision, 8 days after it was drawn up.
    decided = p.time_to_final_decision(admin_olimpia, olimpia, "", months)
    assert decided is not None and decided.series[0].values == (8,)
