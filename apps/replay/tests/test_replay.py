"""As-of replay: a stored decision re-evaluated on its own date with today's code and configuration."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from apps.accounts.models import User
from apps.lawconfig.services import parameter_value_set
from apps.licensing import services
from apps.licensing.casebook import Case, pf_case, pj_case
from apps.licensing.models import Application
from apps.licensing.tests.conftest import AS_OF, issue_permit, to_analysis
from apps.registry.models import TrafficRecordConfirmation
from apps.replay.compare import Replay
from apps.replay.selectors import replay_row
from apps.replay.sources import BY_KEY, SOURCES
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db
VOTUPORANGA = "3557105"


def _evaluated(case: Case) -> Application:
    return services.application_evaluate(application=to_analysis(case), actor=None, as_of=AS_OF)


@pytest.fixture
def votuporanga_fleet(votuporanga: Municipality) -> Case:
    """A school vehicle already in service in Votuporanga, then the case under analysis."""
    issue_permit(pf_case(votuporanga, 9, "Vera Frota", as_of=AS_OF))
    return pj_case(votuporanga, 2, "Transportes Escolares Vila Ltda", "Marcos Pereira", as_of=AS_OF)


def _lower_fleet_cap(municipality: Municipality) -> None:
    """The administrator corrects the decree's cap from the same date: every decision since then is affected
    (one school vehicle already holds a permit, so a cap of one leaves no room)."""
    parameter_value_set(
        actor=None,
        municipality=municipality,
        regime_id="votuporanga_sp_escolar",
        parameter="fleet_cap",
        valid_from=dt.date(2018, 3, 20),
        value=Decimal(1),
        cite="art4A",
        source="Decreto corrigido",
    )


def _replay(application: Application) -> Replay:
    [item] = replay_row(BY_KEY["requerimento"], application, application.municipality)
    return item.replay


def test_every_source_is_a_scoped_model_field() -> None:
    for source in SOURCES:
        assert source.scoped().municipality_field, source  # refuses a model without the gate
        source.model._meta.get_field(source.field)


def test_an_unchanged_decision_replays_identically(olimpia_pf: Case) -> None:
    application = _evaluated(olimpia_pf)
    replay = _replay(application)
    assert replay.error == "" and replay.differences == ()
    assert replay.replayed == application.last_decision  # same facts, same date, same code: identical dict
    assert "mesma decisão" in replay.verdict_pt


def test_a_changed_parameter_makes_the_decision_differ(
    votuporanga_fleet: Case, votuporanga: Municipality
) -> None:
    application = _evaluated(votuporanga_fleet)
    assert application.last_decision["outcome"] == "granted"
    _lower_fleet_cap(votuporanga)
    replay = _replay(application)
    by_what = {d.what: d for d in replay.differences}
    assert (by_what["Resultado"].before, by_what["Resultado"].after) == ("Deferido", "Indeferido")
    cap = next(d for d in replay.differences if (d.kind, d.code) == ("parameter", "fleet_cap"))
    assert (cap.before, cap.after) == ("60", "1") and "4º-A" in cap.cites
    denied = [d for d in replay.differences if d.kind == "finding" and "[não atendido]" in d.after]
    assert denied and all(d.cites for d in denied)
    assert application.last_decision["outcome"] == "granted"  # replay never writes


def test_a_decision_without_its_facts_says_it_cannot_be_replayed(olimpia_pf: Case) -> None:
    application = _evaluated(olimpia_pf)
    stored = dict(application.last_decision) | {"inputs": {}}
    Application.objects.filter(pk=application.pk).update(last_decision=stored)
    application.refresh_from_db()
    assert "não guarda os fatos" in _replay(application).error


def test_the_command_counts_what_would_differ_and_why(
    votuporanga_fleet: Case, votuporanga: Municipality
) -> None:
    _evaluated(votuporanga_fleet)
    before = StringIO()
    call_command("decisions_replay", municipality=VOTUPORANGA, stdout=before)
    assert "0 would now differ (0 with another outcome)" in before.getvalue()
    _lower_fleet_cap(votuporanga)
    after = StringIO()
    call_command("decisions_replay", municipality=VOTUPORANGA, details=True, stdout=after)
    text = after.getvalue()
    # The earlier grant keeps its outcome (it was the only vehicle); the second would now be denied.
    assert (
        "2 would now differ (1 with another outcome)" in text and "Resultado: Deferido -> Indeferido" in text
    )
    assert "art. 4º-A" in text  # why: the finding and the value, with the article


def test_the_command_refuses_an_unknown_municipality() -> None:
    with pytest.raises(Exception, match="No municipality"):
        call_command("decisions_replay", municipality="0000000")


def test_the_screen_for_the_analyst_and_the_auditor_linked_from_the_decision(
    votuporanga_fleet: Case,
    votuporanga: Municipality,
    analyst_votuporanga: User,
    make_staff: Callable[..., User],
    analyst_olimpia_client: Client,
) -> None:
    application = _evaluated(votuporanga_fleet)
    _lower_fleet_cap(votuporanga)
    url = reverse("replay:decision", args=[VOTUPORANGA, "requerimento", application.pk])
    analyst = Client()
    analyst.force_login(analyst_votuporanga)
    detail = analyst.get(reverse("licensing:application_detail", args=[VOTUPORANGA, application.pk]))
    assert url in detail.content.decode()
    auditor = Client()
    auditor.force_login(make_staff("ana.auditora", (votuporanga, Role.AUDITOR_DPO)))
    for client in (analyst, auditor):
        page = client.get(url)
        assert page.status_code == 200
        text = page.content.decode()
        assert "Hoje a decisão seria diferente" in text and "Indeferido" in text and "art. 4º-A" in text
    assert analyst_olimpia_client.get(url).status_code == 404  # another municipality: absent
    assert analyst.get(url.replace("requerimento", "inexistente")).status_code == 404


def test_a_document_validity_is_replayed_from_the_operator_page(
    analyst_olimpia_client: Client, olimpia_pf: Case
) -> None:
    document = olimpia_pf.vehicle.documents.exclude(decision={}).filter(decision__has_key="inputs").first()
    assert document is not None
    url = reverse("replay:decision", args=["3533908", "documento", document.pk])
    operator_page = reverse("registry:operator_detail", args=["3533908", olimpia_pf.operator.pk])
    assert url in analyst_olimpia_client.get(operator_page).content.decode()
    page = analyst_olimpia_client.get(url).content.decode()
    assert "mesma decisão" in page


def test_a_zero_infractions_count_stored_before_the_record_was_collected_replays_as_unknown(
    olimpia_pf: Case,
) -> None:
    """Decisions stored before the apps collected the driver's CTB record hold a count of zero nobody
    confirmed: the replay says the record is unknown and shows the finding it changes, in Portuguese."""
    application = _evaluated(olimpia_pf)
    assert _replay(application).differences == ()  # the record confirmed: its zero is a fact
    TrafficRecordConfirmation.objects.filter(person=olimpia_pf.person).delete()  # as before it was collected
    replay = _replay(application)
    fact, *others = replay.differences
    assert (fact.kind, fact.what) == ("fact", "Prontuário de trânsito (infrações do CTB) de João da Silva")
    assert fact.before == "0 infrações — contadas quando o prontuário ainda não era coletado"
    assert fact.after == f"desconhecido — nenhum prontuário confirmado até {AS_OF:%d/%m/%Y}"
    gravissima = next(d for d in others if d.code == "no_gravissima")
    assert "[atendido]" in gravissima.before and "[não atendido]" in gravissima.after
    assert "art. 9º" in gravissima.cites
