"""Nullity by a lost time limit, applied by the system: Patrocínio art. 19 § 1º gives 90 days to send the penalty
notice; when they pass without it, the daily sweep cancels the case with the article and the reason shown on
the case, annuls its sanction and audits it. A notice sent in time keeps the case; a law without the rule
(Olímpia) never voids one."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from apps.audit.models import AuditEvent
from apps.dueprocess.choices import Instance, SanctionState, Verdict
from apps.dueprocess.models import CaseNullity, Sanction
from apps.dueprocess.services import appeal_file, appeal_judge
from apps.dueprocess.services.nullity import void_lapsed_cases
from apps.enforcement.choices import CaseState, NoticePurpose
from apps.enforcement.models import InfractionCase
from apps.licensing.sweep import run_sweep

from .helpers import notify, open_case

pytestmark = pytest.mark.django_db


def _after(event: AuditEvent) -> dict[str, Any]:
    assert isinstance(event.after, dict)
    return event.after


D = dt.date


def _patrocinio_case(patrocinio: Any, agent: Any) -> InfractionCase:
    case = open_case(
        patrocinio,
        agent,
        code="PAT-3",
        plate="PAT1A23",
        on=D(2026, 3, 12),
        offender_name="Motorista Sem Cadastro",
        offender_document="52998224725",
    )
    notify(case, agent, D(2026, 3, 13))  # ciência of the auto: the 90 days start (INT-PAT-ART19-PAR2)
    case.refresh_from_db()
    assert case.notice_limit is not None
    return case


def _condemn(case: InfractionCase, judge: Any) -> None:
    defence = appeal_file(
        case=case,
        instance=Instance.FIRST,
        filed_on=D(2026, 3, 16),
        text="Defesa.",
        actor=judge,
        as_of=D(2026, 3, 16),
    )
    appeal_judge(
        appeal=defence,
        verdict=Verdict.UPHELD,
        reasoning="Mantido.",
        decided_on=D(2026, 3, 30),
        actor=judge,
        as_of=D(2026, 3, 30),
    )


def test_the_case_is_voided_the_day_after_the_limit_without_a_penalty_notice(
    patrocinio: Any, agent_patrocinio: Any, judge_patrocinio: Any
) -> None:
    case = _patrocinio_case(patrocinio, agent_patrocinio)
    _condemn(case, judge_patrocinio)
    limit = InfractionCase.objects.get(pk=case.pk).notice_limit
    assert limit is not None
    assert run_sweep(limit)["cases_voided"] == 0  # the last day still counts
    assert run_sweep(limit + dt.timedelta(days=1))["cases_voided"] == 1
    case.refresh_from_db()
    nullity = CaseNullity.objects.get(case=case)
    assert case.state == CaseState.CANCELLED
    assert nullity.cite == "art19_par1" and "art. 19, § 1º" in nullity.basis and nullity.limit_day == limit
    assert "90 dias" in nullity.reason and nullity.applied_on == limit + dt.timedelta(days=1)
    assert Sanction.objects.get(case=case).state == SanctionState.ANNULLED
    event = case.events.get(state_from=CaseState.FINAL)
    assert "Nulidade por prazo perdido" in event.note and "art. 19, § 1º" in event.note
    audit = AuditEvent.objects.get(action="infractioncase.void", object_id=str(nullity.pk))
    assert _after(audit)["cite"] == "art19_par1"
    assert AuditEvent.objects.filter(action="infractioncase.cancelled", object_id=str(case.pk)).exists()
    assert run_sweep(limit + dt.timedelta(days=2))["cases_voided"] == 0  # idempotent


def test_a_running_case_is_voided_too_when_the_limit_passes(patrocinio: Any, agent_patrocinio: Any) -> None:
    """No penalty can be notified in time any more: the case still in defence is voided as well."""
    case = _patrocinio_case(patrocinio, agent_patrocinio)
    assert case.notice_limit is not None
    assert void_lapsed_cases(case.notice_limit + dt.timedelta(days=1)) == 1
    case.refresh_from_db()
    assert case.state == CaseState.CANCELLED and not Sanction.objects.filter(case=case).exists()


def test_a_penalty_notice_sent_in_time_keeps_the_case(
    patrocinio: Any, agent_patrocinio: Any, judge_patrocinio: Any
) -> None:
    case = _patrocinio_case(patrocinio, agent_patrocinio)
    _condemn(case, judge_patrocinio)
    notify(
        InfractionCase.objects.get(pk=case.pk), agent_patrocinio, D(2026, 4, 2), NoticePurpose.FINAL_DECISION
    )
    limit = InfractionCase.objects.get(pk=case.pk).notice_limit
    assert limit is not None
    assert void_lapsed_cases(limit + dt.timedelta(days=1)) == 0
    case.refresh_from_db()
    assert case.state == CaseState.FINAL and not CaseNullity.objects.exists()


def test_a_law_without_the_rule_never_voids(olimpia: Any, agent_olimpia: Any, olimpia_licensed: Any) -> None:
    _, permit = olimpia_licensed
    case = open_case(olimpia, agent_olimpia, code="OLI-25-I", plate=permit.vehicle.plate, on=D(2026, 3, 12))
    InfractionCase.objects.filter(pk=case.pk).update(
        notice_limit=D(2026, 4, 1)
    )  # even with a limit on record
    assert void_lapsed_cases(D(2027, 1, 1)) == 0
    case.refresh_from_db()
    assert case.state != CaseState.CANCELLED


def test_both_case_pages_show_the_reason_and_the_article(
    patrocinio: Any, agent_patrocinio: Any, judge_patrocinio: Any, client: Client
) -> None:
    case = _patrocinio_case(patrocinio, agent_patrocinio)
    assert case.notice_limit is not None
    void_lapsed_cases(case.notice_limit + dt.timedelta(days=1))
    client.force_login(judge_patrocinio)
    for name in ("enforcement:case_detail", "dueprocess:case"):
        page = client.get(reverse(name, args=[patrocinio.ibge_code, case.pk])).content.decode()
        assert 'data-testid="case-nullity"' in page, name
        assert "Processo arquivado por nulidade" in page and "art. 19, § 1º" in page and "90 dias" in page
