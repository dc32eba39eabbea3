"""What-if fixtures: two Olímpia permits in force, one on a 2012 vehicle and one on a 2022 vehicle."""

from __future__ import annotations

from typing import Any

import pytest

from apps.licensing.casebook import pf_case
from apps.licensing.models import Permit
from apps.licensing.tests.conftest import AS_OF, _media_root, issue_permit  # noqa: F401  (fixture reused)
from apps.tenancy.models import Municipality


@pytest.fixture
def olimpia_fleet(olimpia: Municipality) -> dict[str, Permit]:
    old = pf_case(olimpia, 11, "Ana Antiga", as_of=AS_OF, manufacture_year=2012, model_year=2013)
    new = pf_case(olimpia, 12, "Bruno Novo", as_of=AS_OF, manufacture_year=2022, model_year=2023)
    return {"old": issue_permit(old), "new": issue_permit(new)}


def age_change(**overrides: Any) -> dict[str, Any]:
    """The form's answer for "maximum vehicle age 15 → 10" in Olímpia's regime."""
    data = {
        "change": "parameter|olimpia_sp_escolar|max_vehicle_age|",
        "value": "10",
        "effective_from": "",
        "as_of": AS_OF.isoformat(),
    }
    return {**data, **overrides}
