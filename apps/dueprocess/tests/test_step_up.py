"""Judging asks for a fresh password and code through the staff API too (issue 28, item 1)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client

from apps.accounts.stepup import API_REAUTHENTICATION_MESSAGE
from apps.accounts.testing import make_confirmation_stale
from apps.dueprocess.choices import Instance
from apps.dueprocess.models import Judgment
from apps.dueprocess.services import appeal_file

from .helpers import notify, open_case

pytestmark = pytest.mark.django_db
D = dt.date


@pytest.fixture
def filed(olimpia: Any, agent_olimpia: Any, judge_olimpia: Any, olimpia_licensed: Any) -> Any:
    case = open_case(
        olimpia, agent_olimpia, code="OLI-23-I", plate=olimpia_licensed[0].vehicle.plate, on=D(2026, 3, 12)
    )
    notify(case, agent_olimpia, D(2026, 3, 13))
    return appeal_file(
        case=case,
        instance=Instance.FIRST,
        filed_on=D(2026, 3, 16),
        text="Defesa.",
        actor=judge_olimpia,
        as_of=D(2026, 3, 16),
    )


def test_a_stale_session_cannot_judge_through_the_api(filed: Any, judge_olimpia: Any) -> None:
    judge = Client()
    judge.force_login(judge_olimpia)
    make_confirmation_stale(judge)
    url = f"/api/v1/dueprocess/appeals/{filed.pk}/judge/"
    body = {"verdict": "upheld", "reasoning": "Mantido.", "decided_on": "2026-03-20"}
    refused = judge.post(url, body, content_type="application/json")
    assert refused.status_code == 403
    assert refused.json()["detail"] == API_REAUTHENTICATION_MESSAGE
    assert not Judgment.objects.exists()
