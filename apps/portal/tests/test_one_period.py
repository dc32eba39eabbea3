"""One suspension, one period: a suspension queued after the one in force is shown with the period it runs in
fact — the same on the staff's case page, the holder's portal and the selector every screen reads (issue 26)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from django.urls import reverse

from apps.accounts.models import User
from apps.dueprocess.choices import Instance, Verdict
from apps.dueprocess.selectors import sanction_suspension
from apps.dueprocess.services import appeal_file, appeal_judge
from apps.dueprocess.tests.helpers import final_without_appeal, notify, open_case
from apps.licensing.casebook import Case
from apps.licensing.models import Permit
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db
D = dt.date
QUEUED = "30 dias, de 11/04/2026 a 10/05/2026 (em sequência à suspensão anterior, que vai até 10/04/2026)"


def _suspension_dd(html: str) -> str:
    found = re.search(r'data-testid="suspension">(.*?)</dd>', html, re.S)
    assert found is not None
    return re.sub(r"\s+", " ", found.group(1)).strip()


def test_a_queued_suspension_shows_the_period_it_runs_everywhere(
    olimpia: Municipality,
    agent_olimpia: User,
    judge_olimpia: User,
    olimpia_licensed: tuple[Case, Permit],
    admin_olimpia_client: Client,
    alice_client: Client,
) -> None:
    plate = str(olimpia_licensed[0].vehicle.plate)
    open_case(olimpia, agent_olimpia, code="OLI-24-III", plate=plate, on=D(2026, 3, 12))  # 12/03 to 10/04
    second = open_case(olimpia, agent_olimpia, code="OLI-25-IV", plate=plate, on=D(2026, 3, 12))
    sanction = final_without_appeal(second, agent_olimpia, judge_olimpia, D(2026, 3, 13), D(2026, 3, 24))
    # The decision's own period (24/03 to 22/04) overlaps the one in force: it runs after it.
    period = sanction_suspension(sanction)
    assert period is not None and period.text == QUEUED

    staff = admin_olimpia_client.get(reverse("dueprocess:case", args=[olimpia.ibge_code, second.pk]))
    assert _suspension_dd(staff.content.decode()).startswith(QUEUED)
    holder = alice_client.get(reverse("portal:case", args=[second.pk])).content.decode()
    assert _suspension_dd(holder) == QUEUED
    for html in (staff.content.decode(), holder):
        # Only the decision's reasons (the engine's finding, folded under «Fundamentação») keep its own dates.
        shown = re.sub(r"<details>.*?</details>", "", html, flags=re.S)
        assert "22/04/2026" not in shown
    olimpia_licensed[1].refresh_from_db()
    assert olimpia_licensed[1].suspended_until == period.end  # what the lookup and the platforms read


def test_the_holder_sees_the_first_instance_verdict_and_reasons_before_any_appeal_is_offered(
    olimpia: Municipality,
    agent_olimpia: User,
    judge_olimpia: User,
    olimpia_licensed: tuple[Case, Permit],
    alice_client: Client,
) -> None:
    plate = str(olimpia_licensed[0].vehicle.plate)
    case = open_case(olimpia, agent_olimpia, code="OLI-25-IV", plate=plate, on=D(2026, 3, 12))
    notify(case, agent_olimpia, D(2026, 3, 13))
    defence = appeal_file(
        case=case,
        instance=Instance.FIRST,
        filed_on=D(2026, 3, 16),
        text="Não houve a infração.",
        actor=judge_olimpia,
        as_of=D(2026, 3, 16),
    )
    appeal_judge(
        appeal=defence,
        verdict=Verdict.UPHELD,
        reasoning="As fotografias do agente mostram a infração.",
        decided_on=D(2026, 3, 20),
        actor=judge_olimpia,
        as_of=D(2026, 3, 20),
    )
    html = alice_client.get(reverse("portal:case", args=[case.pk])).content.decode()
    verdict = html.index("Improcedente — penalidade mantida, em 20/03/2026")
    assert "As fotografias do agente mostram a infração." in html
    assert "Julgamento previsto" not in html
    assert verdict < html.index('data-testid="appeal-window"')
