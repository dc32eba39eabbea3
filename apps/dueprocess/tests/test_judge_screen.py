"""The judging page is safe for due process: nothing is decided by default, the judge sees the auto, its
evidence, the defence with its attachments and what each verdict would do; the case page offers «decisão
definitiva» only once the appeal period has really run out."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from apps.dueprocess.choices import Instance
from apps.dueprocess.models import Judgment
from apps.dueprocess.services import appeal_file, appeal_judge
from apps.enforcement.services import evidence_add

from .helpers import evidence_pdf, notify, open_case

pytestmark = pytest.mark.django_db


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def appeal(olimpia: Any, agent_olimpia: Any, judge_olimpia: Any, olimpia_licensed: Any) -> Any:
    today = timezone.localdate()
    day = today - dt.timedelta(days=6)
    case = open_case(olimpia, agent_olimpia, code="OLI-23-I", plate=olimpia_licensed[0].vehicle.plate, on=day)
    evidence_add(
        case=case,
        actor=agent_olimpia,
        upload=evidence_pdf("foto.pdf"),
        caption="Foto da van sem vistoria",
        as_of=day,
    )
    notify(case, agent_olimpia, day)
    return appeal_file(
        case=case,
        instance=Instance.FIRST,
        filed_on=today - dt.timedelta(days=2),
        text="O veículo estava em manutenção.",
        actor=judge_olimpia,
        as_of=today,
        attachments=[evidence_pdf("laudo.pdf")],
    )


def _page(judge: Any, appeal: Any) -> str:
    url = reverse("dueprocess:judge", args=[appeal.case.municipality.ibge_code, appeal.pk])
    response = _client(judge).get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_it_preselects_no_verdict_and_offers_not_admitted_only_for_a_late_appeal(
    appeal: Any, judge_olimpia: Any
) -> None:
    html = _page(judge_olimpia, appeal)
    radios = re.findall(r'<input[^>]*name="verdict"[^>]*>', html)
    assert [re.search(r'value="(\w+)"', r).group(1) for r in radios] == [  # type: ignore[union-attr]
        "upheld",
        "granted",
        "partially_granted",
    ]
    assert not any("checked" in radio for radio in radios)


def test_it_shows_the_auto_evidence_defence_attachments_and_each_verdicts_penalty(
    appeal: Any, judge_olimpia: Any
) -> None:
    html = _page(judge_olimpia, appeal)
    assert "O veículo estava em manutenção." in html
    assert "Foto da van sem vistoria" in html and "Anexo 1 (PDF" in html
    assert "application/pdf" not in html
    assert "I — Local, data e hora" in html and "Av. Central, 10" in html
    upheld = html.split('data-testid="verdict-upheld"')[1].split('data-testid="verdict-granted"')[0]
    assert (
        "Penalidade: <strong>Multa administrativa municipal de 15 UFESP" in upheld
        and "Cabe novo recurso (Recurso em 2ª instância)" in upheld
    )
    granted = html.split('data-testid="verdict-granted"')[1].split('data-testid="verdict-partially')[0]
    assert "O auto é cancelado" in granted and "Penalidade:" not in granted


def test_a_judgment_without_a_verdict_is_refused_with_a_summary(appeal: Any, judge_olimpia: Any) -> None:
    url = reverse("dueprocess:judge", args=[appeal.case.municipality.ibge_code, appeal.pk])
    today = timezone.localdate().isoformat()
    response = _client(judge_olimpia).post(url, {"reasoning": "Mantido.", "decided_on": today})
    html = response.content.decode()
    assert response.status_code == 400 and not Judgment.objects.exists()
    assert 'data-testid="error-summary"' in html and "Decisão: escolha uma das decisões." in html


def _case_page(user: Any, case: Any) -> str:
    url = reverse("dueprocess:case", args=[case.municipality.ibge_code, case.pk])
    return _client(user).get(url).content.decode()


def test_finality_is_offered_only_after_the_appeal_period_ran_out(
    appeal: Any, olimpia: Any, agent_olimpia: Any, judge_olimpia: Any, olimpia_licensed: Any
) -> None:
    today = timezone.localdate()
    plate = olimpia_licensed[0].vehicle.plate
    running = open_case(olimpia, agent_olimpia, code="OLI-23-I", plate=plate, on=today)
    notify(running, agent_olimpia, today)
    html = _case_page(judge_olimpia, running)
    assert "Prazo de recurso: até" in html and 'data-testid="finalize"' not in html

    # Condemned in the 1st instance, the decision not yet notified: the 2nd-instance period has not begun.
    appeal_judge(
        appeal=appeal,
        verdict="upheld",
        reasoning="Mantido.",
        decided_on=today,
        actor=judge_olimpia,
        as_of=today,
    )
    html = _case_page(judge_olimpia, appeal.case)
    assert "O prazo de recurso ainda não começou" in html and 'data-testid="finalize"' not in html

    old = open_case(olimpia, agent_olimpia, code="OLI-23-I", plate=plate, on=today - dt.timedelta(days=60))
    notify(old, agent_olimpia, today - dt.timedelta(days=60))
    html = _case_page(judge_olimpia, old)
    assert "Prazo de recurso encerrado em" in html and 'data-testid="finalize"' in html
