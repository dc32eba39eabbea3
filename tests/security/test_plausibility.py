"""Closure days (issue 28, item 5): not before the municipality's law was in force, not past next year."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError

from apps.lawconfig.models import MunicipalClosure
from apps.lawconfig.services import closure_add
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db
TODAY = dt.date(2026, 3, 2)


@pytest.mark.parametrize(
    ("day", "text"),
    [
        (dt.date(1800, 1, 1), "anterior à vigência da lei"),
        (dt.date(9999, 12, 31), "até o fim do ano seguinte"),
        (dt.date(2028, 1, 1), "até o fim do ano seguinte"),
    ],
)
def test_an_implausible_closure_day_is_refused(olimpia: Municipality, day: dt.date, text: str) -> None:
    with pytest.raises(ValidationError) as excinfo:
        closure_add(
            actor=None, municipality=olimpia, date=day, description="Feriado", kind="holiday", as_of=TODAY
        )
    assert text in " ".join(excinfo.value.message_dict["date"])
    assert not MunicipalClosure.objects.exists()


def test_a_closure_next_year_is_accepted(olimpia: Municipality) -> None:
    closure_add(
        actor=None,
        municipality=olimpia,
        date=dt.date(2027, 12, 24),
        description="Ponto facultativo",
        kind="holiday",
        as_of=TODAY,
    )
    assert MunicipalClosure.objects.count() == 1
