"""Effects applied from the regime's penalties.yaml: immediate suspension (Olímpia art. 24 sole §) and its
regularization, queued and carried suspensions, operator-level targets, effects that cannot apply recorded on
the case, quantities fixed at judgment within the legal range, apreensão and points.

Where the three regimes declare no such mechanism, a test swaps in a declaration (and a rule that returns the
penalty) for one regime, as a new law would write them; the apps' code is the same for every regime."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from apps.dueprocess.choices import EffectState, Instance, Verdict
from apps.dueprocess.models import Effect, Judgment, Sanction
from apps.dueprocess.services import appeal_file, appeal_judge, case_regularize, seizure_release
from apps.dueprocess.services.effects import permit_notes
from apps.enforcement.choices import CaseState, EventKind
from apps.enforcement.services import AutoDetails, case_mark_traffic_only, case_open
from apps.licensing.casebook import extra_vehicle
from apps.licensing.choices import PermitState
from apps.licensing.models import Permit
from apps.licensing.sweep import lift_suspensions
from apps.licensing.tests.conftest import issue_permit
from apps.public.choices import LookupVia, VerificationStatus
from apps.public.verification import Query, verify
from apps.registry.models import Ban
from lawcode.penalties import PenaltyCatalog, PenaltyKind, load_penalties
from lawcode.registry import get_regime

from .helpers import at, evidence_pdf, final_without_appeal, notify, open_case

pytestmark = pytest.mark.django_db
D = dt.date
OLIMPIA, PATROCINIO, VOTUPORANGA = "olimpia_sp_escolar", "patrocinio_mg_aplicativo", "votuporanga_sp_escolar"


def _plate(licensed: Any) -> str:
    return str(licensed[0].vehicle.plate)


def _not_applied_events(case: Any) -> list[str]:
    return [
        e.note for e in case.events.filter(kind=EventKind.NOTE) if e.note.startswith("Efeito não aplicado")
    ]


def _declare(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any, regime_id: str, extra_yaml: str
) -> PenaltyCatalog:
    """The regime's penalties.yaml plus ``extra_yaml`` entries (replacing same keys), loaded and validated."""
    regime = get_regime(regime_id)
    original = (regime.folder / "penalties.yaml").read_text(encoding="utf-8")
    path = tmp_path / "penalties.yaml"
    path.write_text(original.rstrip("\n") + "\n" + extra_yaml, encoding="utf-8")
    loaded = load_penalties(path, regime.citer, regime.parameters, regime_id)
    kinds = dict(loaded.kinds)
    monkeypatch.setattr(regime, "penalties", dataclasses.replace(loaded, kinds=kinds))
    return regime.penalties  # type: ignore[return-value]


def _override(catalog: PenaltyCatalog, key: str, **changes: Any) -> None:
    kind: PenaltyKind = catalog.kinds[key]
    catalog.kinds[key] = dataclasses.replace(kind, **changes)


def _wrap_rule(
    monkeypatch: pytest.MonkeyPatch, regime_id: str, add: Callable[[Any, dict[str, Any]], None]
) -> None:
    """The regime's sanction rule, with ``add(facts, result)`` appending the penalty a new law would impose."""
    regime = get_regime(regime_id)
    spec = regime.rules["sanction"]

    def function(ctx: Any, facts: Any) -> Any:
        result = spec.function(ctx, facts)
        add(facts, result.result)
        return result

    monkeypatch.setitem(regime.rules, "sanction", dataclasses.replace(spec, function=function))


# --- Olímpia art. 24 sole §: immediate suspension, regularization, conditional cassação --------------------


def test_the_art24_suspension_applies_when_the_auto_is_registered_and_the_public_sees_it(
    olimpia: Any, agent_olimpia: Any, olimpia_licensed: Any
) -> None:
    case = open_case(
        olimpia, agent_olimpia, code="OLI-24-III", plate=_plate(olimpia_licensed), on=D(2026, 3, 12)
    )
    permit = olimpia_licensed[1]
    permit.refresh_from_db()
    assert permit.state == PermitState.SUSPENDED and permit.suspended_until == D(2026, 4, 10)
    row = Effect.objects.get(case=case)
    assert (row.penalty_key, row.state, row.sanction) == ("immediate_suspension", EffectState.APPLIED, None)
    [answer] = verify(
        Query(via=LookupVia.PLATE, value=_plate(olimpia_licensed), municipality=olimpia), as_of=D(2026, 3, 13)
    )
    assert answer.status == "suspended" and answer.suspended_until == D(2026, 4, 10)
    assert any("Suspensão imediata" in note for note in permit_notes(permit, D(2026, 3, 13)))


def test_regularized_in_time_the_engine_is_told_and_nobody_is_revoked_or_banned(
    olimpia: Any, agent_olimpia: Any, judge_olimpia: Any, olimpia_licensed: Any
) -> None:
    case = open_case(
        olimpia, agent_olimpia, code="OLI-24-III", plate=_plate(olimpia_licensed), on=D(2026, 3, 12)
    )
    case_regularize(
        case=case,
        regularized_on=D(2026, 3, 20),
        description="Tacógrafo instalado e aferido",
        evidence=evidence_pdf(),
        actor=judge_olimpia,
        as_of=D(2026, 3, 20),
    )
    sanction = final_without_appeal(case, agent_olimpia, judge_olimpia, D(2026, 4, 13), D(2026, 4, 30))
    assert sanction.decision["inputs"]["facts"]["regularized_by"] == "2026-03-20"
    assert not sanction.cassation and sanction.cassation_if_not_regularized_by is None
    assert sanction.regularized_on == D(2026, 3, 20) and not Ban.objects.exists()
    olimpia_licensed[1].refresh_from_db()
    assert olimpia_licensed[1].state != PermitState.REVOKED
    assert case.events.filter(note__contains="regularizada em 20/03/2026").exists()


def test_not_regularized_the_cassation_is_decided_by_the_facts_at_finality(
    olimpia: Any, agent_olimpia: Any, judge_olimpia: Any, olimpia_licensed: Any
) -> None:
    case = open_case(
        olimpia, agent_olimpia, code="OLI-24-III", plate=_plate(olimpia_licensed), on=D(2026, 3, 12)
    )
    sanction = final_without_appeal(case, agent_olimpia, judge_olimpia, D(2026, 4, 13), D(2026, 4, 30))
    assert sanction.cassation
    olimpia_licensed[1].refresh_from_db()
    assert olimpia_licensed[1].state == PermitState.REVOKED
    assert Ban.objects.get().start == D(2026, 4, 11)


def test_the_immediate_suspension_ends_when_the_appeal_cancels_the_auto(
    olimpia: Any, agent_olimpia: Any, judge_olimpia: Any, olimpia_licensed: Any
) -> None:
    case = open_case(
        olimpia, agent_olimpia, code="OLI-24-III", plate=_plate(olimpia_licensed), on=D(2026, 3, 12)
    )
    notify(case, agent_olimpia, D(2026, 3, 13))
    defence = appeal_file(
        case=case,
        instance=Instance.FIRST,
        filed_on=D(2026, 3, 16),
        text="Tinha tacógrafo.",
        actor=judge_olimpia,
        as_of=D(2026, 3, 16),
    )
    appeal_judge(
        appeal=defence,
        verdict=Verdict.GRANTED,
        reasoning="Tacógrafo comprovado.",
        decided_on=D(2026, 3, 20),
        actor=judge_olimpia,
        as_of=D(2026, 3, 20),
    )
    olimpia_licensed[1].refresh_from_db()
    assert olimpia_licensed[1].state == PermitState.ACTIVE
    assert Effect.objects.get(case=case).state == EffectState.LIFTED


def test_an_immediate_suspension_the_final_decision_does_not_keep_is_lifted(
    olimpia: Any, agent_olimpia: Any, judge_olimpia: Any, olimpia_licensed: Any
) -> None:
    case = open_case(
        olimpia, agent_olimpia, code="OLI-24-III", plate=_plate(olimpia_licensed), on=D(2026, 3, 12)
    )
    case_mark_traffic_only(case=case, actor=agent_olimpia, reference="AIT 77", as_of=D(2026, 3, 13))
    sanction = final_without_appeal(case, agent_olimpia, judge_olimpia, D(2026, 3, 13), D(2026, 3, 24))
    assert sanction.outcome == "no_penalty"
    olimpia_licensed[1].refresh_from_db()
    assert olimpia_licensed[1].state == PermitState.ACTIVE
    assert Effect.objects.get(case=case).state == EffectState.LIFTED


# --- suspensions never dropped: queued, carried, operator-wide -------------------------------------------


def test_a_second_suspension_runs_after_the_one_in_force(
    olimpia: Any, agent_olimpia: Any, judge_olimpia: Any, olimpia_licensed: Any
) -> None:
    open_case(olimpia, agent_olimpia, code="OLI-24-III", plate=_plate(olimpia_licensed), on=D(2026, 3, 12))
    second = open_case(
        olimpia, agent_olimpia, code="OLI-25-IV", plate=_plate(olimpia_licensed), on=D(2026, 3, 12)
    )
    sanction = final_without_appeal(second, agent_olimpia, judge_olimpia, D(2026, 3, 13), D(2026, 3, 24))
    assert (sanction.suspension_start, sanction.suspension_end) == (D(2026, 3, 24), D(2026, 4, 22))
    row = Effect.objects.get(case=second, penalty_key="suspension")
    assert row.state == EffectState.QUEUED and (row.starts_on, row.ends_on) == (
        D(2026, 4, 11),
        D(2026, 5, 10),
    )
    olimpia_licensed[1].refresh_from_db()
    assert olimpia_licensed[1].suspended_until == D(2026, 5, 10)


def test_a_suspension_overlapping_one_already_served_runs_after_it(
    olimpia: Any, agent_olimpia: Any, olimpia_licensed: Any
) -> None:
    """The art. 24 suspension counts from the infraction: an auto recorded after the sweep reactivated the
    permit still owes the overlapping days after the earlier suspension, as it would have the day before."""
    open_case(olimpia, agent_olimpia, code="OLI-24-III", plate=_plate(olimpia_licensed), on=D(2026, 3, 12))
    lift_suspensions(D(2026, 4, 11))  # the first suspension (12/03 to 10/04) is over
    permit = olimpia_licensed[1]
    permit.refresh_from_db()
    assert permit.state == PermitState.ACTIVE
    details = AutoDetails(
        infraction_code="OLI-24-III",
        plate=_plate(olimpia_licensed),
        occurred_at=at(D(2026, 3, 25)),
        place="Av. Central",
        description="Sem tacógrafo outra vez.",
        agent_registration="F-1",
    )
    second = case_open(
        municipality=olimpia, actor=agent_olimpia, details=details, recorded_at=at(D(2026, 4, 12))
    )
    row = Effect.objects.get(case=second)
    assert row.state == EffectState.QUEUED and (row.starts_on, row.ends_on) == (
        D(2026, 4, 11),
        D(2026, 5, 10),
    )
    assert "em sequência à suspensão anterior, até 10/04/2026" in row.note
    permit.refresh_from_db()
    assert permit.state == PermitState.SUSPENDED and permit.suspended_until == D(2026, 5, 10)


def test_a_renewed_permit_keeps_the_suspension_of_the_one_it_replaces(
    olimpia: Any, agent_olimpia: Any, olimpia_licensed: Any
) -> None:
    licensed, first = olimpia_licensed
    case = open_case(
        olimpia, agent_olimpia, code="OLI-24-III", plate=_plate(olimpia_licensed), on=D(2026, 3, 12)
    )
    renewed = issue_permit(licensed, "renewal", permit=first, as_of=D(2026, 3, 20))
    assert renewed.state == PermitState.SUSPENDED and renewed.suspended_until == D(2026, 4, 10)
    assert Effect.objects.get(case=case).permit == renewed
    assert case.events.filter(note__contains=f"levada ao alvará {renewed.number}").exists()


def test_an_operator_level_cassation_reaches_every_permit_of_the_operator(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Any,
    votuporanga: Any,
    agent_votuporanga_: Any,
    judge_votuporanga: Any,
    votuporanga_licensed: Any,
) -> None:
    licensed, first = votuporanga_licensed
    second = issue_permit(licensed, vehicle=extra_vehicle(licensed, 61, as_of=D(2026, 3, 10)))
    catalog = _declare(monkeypatch, tmp_path, VOTUPORANGA, "")
    _override(catalog, "cassation", target="operator")
    case = open_case(
        votuporanga,
        agent_votuporanga_,
        code="VOT-15-II",
        plate=_plate(votuporanga_licensed),
        on=D(2026, 3, 12),
    )
    final_without_appeal(case, agent_votuporanga_, judge_votuporanga, D(2026, 3, 12), D(2026, 4, 30))
    for permit in (first, second):
        permit.refresh_from_db()
        assert permit.state == PermitState.REVOKED
    assert Effect.objects.filter(case=case, penalty_key="cassation", state=EffectState.APPLIED).count() == 2


# --- effects that cannot apply are said on the case --------------------------------------------------------


def test_a_suspension_whose_period_ended_before_the_auto_was_registered_is_recorded_as_not_applied(
    olimpia: Any, agent_olimpia: Any, olimpia_licensed: Any
) -> None:
    details = AutoDetails(
        infraction_code="OLI-24-III",
        plate=_plate(olimpia_licensed),
        occurred_at=at(D(2026, 3, 12)),
        place="Av. Central",
        description="Sem tacógrafo.",
        agent_registration="F-1",
    )
    case = case_open(
        municipality=olimpia, actor=agent_olimpia, details=details, recorded_at=at(D(2026, 4, 20))
    )
    row = Effect.objects.get(case=case)
    assert row.state == EffectState.NOT_APPLIED and "terminou antes" in row.note
    assert any("12/03/2026 a 10/04/2026" in note for note in _not_applied_events(case))
    olimpia_licensed[1].refresh_from_db()
    assert olimpia_licensed[1].state == PermitState.ACTIVE


def test_a_ban_on_an_offender_outside_the_registry_is_recorded_on_the_case(
    olimpia: Any, agent_olimpia: Any, judge_olimpia: Any
) -> None:
    case = open_case(
        olimpia,
        agent_olimpia,
        code="OLI-27",
        plate="ABC1D23",
        on=D(2026, 3, 12),
        offender_name="Sem Cadastro",
        offender_document="52998224725",
    )
    final_without_appeal(case, agent_olimpia, judge_olimpia, D(2026, 3, 13), D(2026, 3, 24))
    assert Effect.objects.get(case=case, penalty_key="ban").state == EffectState.NOT_APPLIED
    assert any("não está no cadastro" in note for note in _not_applied_events(case))


# --- quantities fixed at judgment within a legal range ------------------------------------------------------

JUDGED_SUSPENSION = """  - key: suspension
    label: Suspensão do credenciamento
    mechanism: suspension
    target: permit
    cite: art17
    days: judgment
    range: {min: cure_deadline_days, max: criminal_certificate_max_age_days, cite: art17}
"""


def _judged_suspension(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    _declare(monkeypatch, tmp_path, PATROCINIO, JUDGED_SUSPENSION)

    def add(facts: Any, result: dict[str, Any]) -> None:
        days = int(facts.judged["suspension"]) if "suspension" in facts.judged else None
        start = facts.decided_final_on
        end = start + dt.timedelta(days=days - 1) if days and start else None
        result["penalties"] = [
            *result["penalties"],
            {"kind": "suspension", "days": days, "start": start, "end": end},
        ]

    _wrap_rule(monkeypatch, PATROCINIO, add)


def _patrocinio_defence(patrocinio: Any, agent: Any, judge: Any, licensed: Any, on: dt.date) -> Any:
    case = open_case(patrocinio, agent, code="PAT-3", plate=_plate(licensed), on=on)
    notify(case, agent, on + dt.timedelta(days=1))
    filed = on + dt.timedelta(days=4)
    return appeal_file(
        case=case, instance=Instance.FIRST, filed_on=filed, text="Defesa.", actor=judge, as_of=filed
    )


def test_the_judgment_fixes_the_days_within_the_legal_range(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Any,
    patrocinio: Any,
    agent_patrocinio: Any,
    judge_patrocinio: Any,
    patrocinio_licensed: Any,
) -> None:
    _judged_suspension(monkeypatch, tmp_path)
    defence = _patrocinio_defence(
        patrocinio, agent_patrocinio, judge_patrocinio, patrocinio_licensed, D(2026, 3, 12)
    )
    judge = {
        "appeal": defence,
        "verdict": Verdict.UPHELD,
        "reasoning": "Mantido.",
        "decided_on": D(2026, 3, 30),
        "actor": judge_patrocinio,
        "as_of": D(2026, 3, 30),
    }
    with pytest.raises(ValidationError) as missing:
        appeal_judge(**judge)
    assert "chosen_suspension" in missing.value.message_dict
    assert "entre 15 e 60 dias" in str(missing.value) and "art. 17" in str(missing.value)
    with pytest.raises(ValidationError, match="90 dias está fora da faixa legal"):
        appeal_judge(**judge, chosen={"suspension": "90"})
    with pytest.raises(ValidationError, match="número inteiro"):
        appeal_judge(**judge, chosen={"suspension": "20,5".replace(",", ".")})
    appeal_judge(**judge, chosen={"suspension": "45"})
    assert Judgment.objects.get(appeal=defence).chosen == {"suspension": "45"}
    sanction = Sanction.objects.get(case=defence.case)
    assert sanction.decision["inputs"]["facts"]["judged"] == {"suspension": "45"}
    assert (sanction.suspension_days, sanction.suspension_end) == (45, D(2026, 5, 13))
    patrocinio_licensed[1].refresh_from_db()
    assert patrocinio_licensed[1].suspended_until == D(2026, 5, 13)


def test_a_suspension_with_no_days_is_recorded_and_the_next_case_goes_on(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Any,
    patrocinio: Any,
    agent_patrocinio: Any,
    judge_patrocinio: Any,
    patrocinio_licensed: Any,
) -> None:
    _judged_suspension(monkeypatch, tmp_path)
    case = open_case(
        patrocinio, agent_patrocinio, code="PAT-3", plate=_plate(patrocinio_licensed), on=D(2026, 3, 12)
    )
    final_without_appeal(case, agent_patrocinio, judge_patrocinio, D(2026, 3, 13), D(2026, 4, 30))
    row = Effect.objects.get(case=case, penalty_key="suspension")
    assert row.state == EffectState.NOT_APPLIED and "sem número de dias" in row.note
    assert any("sem número de dias" in note for note in _not_applied_events(case))
    later = open_case(
        patrocinio, agent_patrocinio, code="PAT-3", plate=_plate(patrocinio_licensed), on=D(2026, 5, 4)
    )
    final_without_appeal(later, agent_patrocinio, judge_patrocinio, D(2026, 5, 5), D(2026, 6, 30))
    later.refresh_from_db()
    assert later.state == CaseState.FINAL


def test_the_judgment_form_asks_for_the_days_with_the_range_and_the_article(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Any,
    client: Any,
    patrocinio: Any,
    agent_patrocinio: Any,
    judge_patrocinio: Any,
    patrocinio_licensed: Any,
) -> None:
    _judged_suspension(monkeypatch, tmp_path)
    defence = _patrocinio_defence(
        patrocinio, agent_patrocinio, judge_patrocinio, patrocinio_licensed, D(2026, 3, 12)
    )
    client.force_login(judge_patrocinio)
    url = f"/municipios/{patrocinio.ibge_code}/processos/recursos/{defence.pk}/julgar/"
    page = client.get(url).content.decode()
    assert 'name="chosen_suspension"' in page and "de 15 a 60" in page and "art. 17" in page
    answer = client.post(
        url,
        {"verdict": "upheld", "reasoning": "Mantido.", "decided_on": "2026-03-30", "chosen_suspension": "61"},
    )
    assert answer.status_code == 400 and "fora da faixa legal" in answer.content.decode()


# --- apreensão and points -----------------------------------------------------------------------------------

SEIZURE = """  - key: seizure
    label: Apreensão do veículo
    mechanism: seizure
    target: vehicle
    cite: art21
    release:
      conditions: [Pagar a multa, Apresentar o tacógrafo aferido]
      deadline_days: grave_immediate_suspension_days
      cite: art21
"""


def test_a_seizure_in_flagrante_holds_the_vehicle_until_released(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Any,
    olimpia: Any,
    agent_olimpia: Any,
    judge_olimpia: Any,
    olimpia_licensed: Any,
) -> None:
    _declare(monkeypatch, tmp_path, OLIMPIA, SEIZURE)
    _wrap_rule(monkeypatch, OLIMPIA, lambda facts, result: result["penalties"].append({"kind": "seizure"}))
    case = open_case(
        olimpia, agent_olimpia, code="OLI-24-I", plate=_plate(olimpia_licensed), on=D(2026, 3, 12)
    )
    row = Effect.objects.get(case=case, penalty_key="seizure")
    assert row.state == EffectState.APPLIED and row.vehicle == olimpia_licensed[0].vehicle
    assert row.data["release_deadline"] == "2026-04-11" and "Pagar a multa" in row.note
    permit = Permit.objects.get(pk=olimpia_licensed[1].pk)
    assert any("apreendido em 12/03/2026" in note for note in permit_notes(permit, D(2026, 3, 13)))
    with pytest.raises(ValidationError, match="Condições cumpridas"):
        seizure_release(
            effect=row, released_on=D(2026, 3, 14), note="", actor=judge_olimpia, as_of=D(2026, 3, 14)
        )
    seizure_release(
        effect=row,
        released_on=D(2026, 3, 14),
        note="Multa paga; tacógrafo aferido.",
        actor=judge_olimpia,
        as_of=D(2026, 3, 14),
    )
    assert Effect.objects.get(pk=row.pk).state == EffectState.RELEASED
    assert permit_notes(permit, D(2026, 3, 15)) == []


PRECAUTIONARY = """  - key: precautionary
    label: Suspensão cautelar
    mechanism: precautionary_suspension
    target: permit
    cite: art21_incIII
    days_parameter: grave_immediate_suspension_days
"""


def test_a_precautionary_suspension_in_flagrante_shows_suspended_to_the_public(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any, olimpia: Any, agent_olimpia: Any, olimpia_licensed: Any
) -> None:
    _declare(monkeypatch, tmp_path, OLIMPIA, PRECAUTIONARY)
    _wrap_rule(
        monkeypatch, OLIMPIA, lambda facts, result: result["penalties"].append({"kind": "precautionary"})
    )
    case = open_case(
        olimpia, agent_olimpia, code="OLI-24-I", plate=_plate(olimpia_licensed), on=D(2026, 3, 12)
    )
    row = Effect.objects.get(case=case, penalty_key="precautionary")
    assert (row.state, row.starts_on, row.ends_on, row.days) == (
        EffectState.APPLIED,
        D(2026, 3, 12),
        D(2026, 4, 10),
        30,
    )
    [answer] = verify(
        Query(via=LookupVia.PLATE, value=_plate(olimpia_licensed), municipality=olimpia), as_of=D(2026, 3, 20)
    )
    assert VerificationStatus(answer.status).label == "Suspenso"


POINTS = """  - key: points
    label: Pontos no prontuário do autorizatário
    mechanism: points
    target: operator
    cite: art21
    points: pf_max_auxiliary_drivers
    window: {months: gravissima_lookback_months, threshold: pf_max_permits, cite: art21}
"""


def test_points_count_in_a_rolling_window_and_the_threshold_is_said_on_the_case(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Any,
    olimpia: Any,
    agent_olimpia: Any,
    judge_olimpia: Any,
    olimpia_licensed: Any,
) -> None:
    catalog = _declare(monkeypatch, tmp_path, OLIMPIA, POINTS)
    assert catalog.kinds["points"].points is not None
    _wrap_rule(monkeypatch, OLIMPIA, lambda facts, result: result["penalties"].append({"kind": "points"}))
    regime = get_regime(OLIMPIA)
    each = int(regime.parameters["pf_max_auxiliary_drivers"].value_on(D(2026, 3, 24), OLIMPIA).value)
    limit = int(regime.parameters["pf_max_permits"].value_on(D(2026, 3, 24), OLIMPIA).value)
    months = int(regime.parameters["gravissima_lookback_months"].value_on(D(2026, 3, 24), OLIMPIA).value)
    cases = []
    for day in range(limit // each + 1):
        case = open_case(
            olimpia, agent_olimpia, code="OLI-22-I", plate=_plate(olimpia_licensed), on=D(2026, 3, 2 + day)
        )
        final_without_appeal(case, agent_olimpia, judge_olimpia, D(2026, 3, 13), D(2026, 3, 24))
        cases.append(case)
    row = Effect.objects.filter(case=cases[0], penalty_key="points").get()
    assert row.points == each and row.ends_on == D(
        2026 + (3 + months - 1) // 12, (3 + months - 1) % 12 + 1, 23
    )
    assert cases[-1].events.filter(note__contains=f"limite legal de {limit} atingido").exists()


# --- where the status is shown -------------------------------------------------------------------------------


def test_the_case_page_and_the_permit_page_show_the_immediate_suspension(
    olimpia: Any, agent_olimpia: Any, admin_olimpia_client: Any, olimpia_licensed: Any
) -> None:
    from django.urls import reverse
    from django.utils import timezone

    today = timezone.localdate()
    case = open_case(olimpia, agent_olimpia, code="OLI-24-III", plate=_plate(olimpia_licensed), on=today)
    page = admin_olimpia_client.get(
        reverse("dueprocess:case", args=[olimpia.ibge_code, case.pk])
    ).content.decode()
    assert 'data-testid="effect-applied"' in page and "Suspensão imediata da autorização" in page
    assert 'aria-label="Registrar regularização"' in page
    permit_url = reverse("licensing:permit_detail", args=[olimpia.ibge_code, olimpia_licensed[1].pk])
    permit_page = admin_olimpia_client.get(permit_url).content.decode()
    assert "Suspenso" in permit_page and 'data-testid="permit-notes"' in permit_page
    assert f"auto {case.number}" in permit_page


def test_the_case_page_records_the_regularization_with_its_evidence(
    olimpia: Any,
    agent_olimpia: Any,
    admin_olimpia: Any,
    admin_olimpia_client: Any,
    olimpia_licensed: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    from django.urls import reverse
    from django.utils import timezone

    today = timezone.localdate()
    case = open_case(olimpia, agent_olimpia, code="OLI-24-III", plate=_plate(olimpia_licensed), on=today)
    url = reverse("dueprocess:regularize", args=[olimpia.ibge_code, case.pk])
    refused = admin_olimpia_client.post(
        url, {"regularized_on": today.isoformat(), "description": "Tacógrafo"}
    )
    assert refused.status_code == 400 and "Comprovante da regularização" in refused.content.decode()
    with django_capture_on_commit_callbacks(execute=True):  # the evidence is written once the row commits
        answer = admin_olimpia_client.post(
            url, {"regularized_on": today.isoformat(), "description": "Tacógrafo", "evidence": evidence_pdf()}
        )
    assert answer.status_code == 302
    page = admin_olimpia_client.get(
        reverse("dueprocess:case", args=[olimpia.ibge_code, case.pk])
    ).content.decode()
    assert 'data-testid="regularization"' in page and "comprovante (PDF)" in page
    evidence = reverse("dueprocess:regularization_file", args=[olimpia.ibge_code, case.regularization.pk])
    assert b"".join(admin_olimpia_client.get(evidence).streaming_content).startswith(b"%PDF")
    proof = case.regularization
    assert proof.uploaded_by == admin_olimpia
    assert (
        proof.file.name.startswith(f"dueprocess/{olimpia.ibge_code}/{case.pk}/") and proof.extension == ".pdf"
    )


def test_the_case_page_releases_a_seized_vehicle(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Any,
    olimpia: Any,
    agent_olimpia: Any,
    admin_olimpia_client: Any,
    olimpia_licensed: Any,
) -> None:
    from django.urls import reverse
    from django.utils import timezone

    _declare(monkeypatch, tmp_path, OLIMPIA, SEIZURE)
    _wrap_rule(monkeypatch, OLIMPIA, lambda facts, result: result["penalties"].append({"kind": "seizure"}))
    today = timezone.localdate()
    case = open_case(olimpia, agent_olimpia, code="OLI-24-I", plate=_plate(olimpia_licensed), on=today)
    row = Effect.objects.get(case=case, penalty_key="seizure")
    page = admin_olimpia_client.get(
        reverse("dueprocess:case", args=[olimpia.ibge_code, case.pk])
    ).content.decode()
    assert 'data-testid="seizure-release"' in page
    url = reverse("dueprocess:seizure_release", args=[olimpia.ibge_code, row.pk])
    admin_olimpia_client.post(url, {"released_on": today.isoformat(), "note": "Multa paga."})
    assert Effect.objects.get(pk=row.pk).state == EffectState.RELEASED
