"""Reports fixtures: the due-process ones (agents, judges, finance staff, a licensed vehicle, PIX settings, an
isolated MEDIA_ROOT), reused as they are, and a defence waiting for its judgment."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from apps.accounts.models import User
from apps.dueprocess.choices import Instance
from apps.dueprocess.models import Appeal
from apps.dueprocess.services import appeal_file
from apps.dueprocess.tests.conftest import _pix, finance_olimpia  # noqa: F401  (fixture reuse)
from apps.dueprocess.tests.helpers import notify, open_case
from apps.enforcement.tests.conftest import (  # noqa: F401  (fixture reuse)
    _media_root,
    agent_olimpia,
    judge_olimpia,
    olimpia_licensed,
)
from apps.licensing.tests.conftest import _votuporanga_fleet_cap  # noqa: F401
from apps.tenancy.models import Municipality

D = dt.date


@pytest.fixture
def pending_defence(
    olimpia: Municipality,
    agent_olimpia: User,  # noqa: F811  (the imported fixture, requested by name)
    judge_olimpia: User,  # noqa: F811
    olimpia_licensed: Any,  # noqa: F811
) -> Appeal:
    """A defence filed on 16/03/2026 against an auto of 12/03, waiting for the judging authority."""
    case = open_case(
        olimpia, agent_olimpia, code="OLI-23-I", plate=olimpia_licensed[1].vehicle.plate, on=D(2026, 3, 12)
    )
    notify(case, agent_olimpia, D(2026, 3, 13))
    return appeal_file(
        case=case,
        instance=Instance.FIRST,
        filed_on=D(2026, 3, 16),
        text="Não houve a infração.",
        actor=judge_olimpia,
        as_of=D(2026, 3, 16),
    )
