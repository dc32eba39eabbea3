"""The reports and the autos' export name the article infringed as the law writes it, never its cite key."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from apps.accounts.models import User
from apps.dueprocess.tests.helpers import open_case
from apps.enforcement.exports import CASES
from apps.enforcement.tests.conftest import agent_olimpia, olimpia_licensed  # noqa: F401  (fixture reuse)
from apps.licensing.casebook import Case
from apps.licensing.models import Permit
from apps.reports import selectors as s
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db
ON = dt.date(2026, 3, 12)
CITE_KEY = re.compile(r"\bart\d+_")


def test_the_most_autuated_articles_read_as_the_law_writes_them(
    olimpia: Municipality,
    admin_olimpia: User,
    agent_olimpia: User,  # noqa: F811
    olimpia_licensed: tuple[Case, Permit],  # noqa: F811
) -> None:
    case = open_case(
        olimpia, agent_olimpia, code="OLI-25-IV", plate=str(olimpia_licensed[0].vehicle.plate), on=ON
    )
    assert CITE_KEY.match(case.infraction_cite)  # what the auto stores
    section = s.autos_by_article(admin_olimpia, olimpia, "", s.months_ending(ON, 1, ON))
    assert section is not None
    [category] = section.categories
    assert "art. " in category and not CITE_KEY.search(category)
    column = CASES.headers.index("Dispositivo infringido")
    assert CASES.columns[column].value(case).startswith("Lei ")
