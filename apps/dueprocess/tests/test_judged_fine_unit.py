"""A fine the judging authority grades within the law's range (penalties.yaml ``amount: judgment``) is asked for
in the unit's Portuguese label: São José dos Campos' fines are reais of 2012 updated every 1st January (Lei
8.698/2012, art. 22 § 2º), never the unit's key."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from apps.accounts.models import User
from apps.dueprocess.choices import Instance, Verdict
from apps.dueprocess.services import appeal_file, appeal_judge
from apps.lawconfig.services import parameter_value_set
from apps.licensing.casebook import pf_case
from apps.licensing.tests.conftest import issue_permit
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality

from .helpers import final_without_appeal, notify, open_case

pytestmark = pytest.mark.django_db

REGIME = "sao_jose_dos_campos_sp_taxi"
D = dt.date


@pytest.fixture(autouse=True)
def _media(settings: Any, tmp_path: Any) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def sao_jose(make_municipality: Callable[..., Municipality]) -> Municipality:
    municipality = make_municipality("3549904", "São José dos Campos", "SP", [REGIME])
    values = [("fleet_cap", D(2026, 1, 1), Decimal(440), "art19")]
    values += [("fine_update_percent", D(year, 1, 1), Decimal(5), "art22_par2") for year in range(2013, 2027)]
    for parameter, start, value, cite in values:
        parameter_value_set(
            actor=None,
            municipality=municipality,
            regime_id=REGIME,
            parameter=parameter,
            valid_from=start,
            value=value,
            cite=cite,
            source="Decreto de teste",
        )
    return municipality


def test_the_graded_fine_is_asked_in_reais_of_2012_with_the_article(
    sao_jose: Municipality, make_staff: Callable[..., User]
) -> None:
    agent = make_staff("ana.agente", (sao_jose, Role.ENFORCEMENT_AGENT))
    judge = make_staff("julia.juiza", (sao_jose, Role.JUDGING_AUTHORITY))
    licensed = pf_case(sao_jose, 90, "Benedito Taxista", as_of=D(2026, 2, 1))
    issue_permit(licensed, as_of=D(2026, 2, 1))
    plate = licensed.vehicle.plate
    first = open_case(sao_jose, agent, code="SJC-23-IV", plate=plate, on=D(2026, 2, 10))
    final_without_appeal(first, agent, judge, D(2026, 2, 11), D(2026, 3, 20))
    # A second infraction of another inciso: not the first (art. 23 § 2º), graded within the range of art. 23, X.
    second = open_case(sao_jose, agent, code="SJC-23-X", plate=plate, on=D(2026, 4, 1))
    notify(second, agent, D(2026, 4, 2))
    defence = appeal_file(
        case=second,
        instance=Instance.FIRST,
        filed_on=D(2026, 4, 6),
        text="Defesa.",
        actor=judge,
        as_of=D(2026, 4, 6),
    )
    judge_it: dict[str, Any] = {
        "appeal": defence,
        "verdict": Verdict.UPHELD,
        "reasoning": "Mantido.",
        "decided_on": D(2026, 4, 20),
        "actor": judge,
        "as_of": D(2026, 4, 20),
    }
    with pytest.raises(ValidationError) as missing:
        appeal_judge(**judge_it)
    message = str(missing.value)
    assert "entre 77,24 e 386,21 R$ (valores de 2012, atualizados)" in message, message
    assert "art. 23" in message and "BRL_SJC" not in message
    appeal_judge(**judge_it, chosen={"graded_fine": "200.00"})
