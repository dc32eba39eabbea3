from __future__ import annotations

import datetime as dt

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from apps.accounts.models import User
from apps.audit.models import AuditEvent
from apps.audit.services import audit_record
from apps.registry.services import person_create
from apps.tenancy.models import Municipality
from apps.web.pagination import PAGE_SIZE

pytestmark = pytest.mark.django_db

URL = "/auditoria/"


def event_ids(response: object) -> set[int]:
    return {event.pk for event in response.context["page"]}  # type: ignore[attr-defined]


def test_it_shows_the_auditor_only_her_municipality(
    auditor_olimpia_client: Client, agent_votuporanga: User
) -> None:
    response = auditor_olimpia_client.get(URL)
    assert response.status_code == 200
    expected = set(AuditEvent.objects.filter(chain="3533908").values_list("pk", flat=True))
    assert event_ids(response) == expected
    assert "Votuporanga" not in response.content.decode()


def test_it_gives_the_outsider_404(outsider_client: Client, olimpia: Municipality) -> None:
    assert outsider_client.get(URL).status_code == 404


def test_it_gives_an_analyst_404(analyst_olimpia_client: Client) -> None:
    assert analyst_olimpia_client.get(URL).status_code == 404


def test_it_ignores_a_municipality_filter_outside_scope(
    auditor_olimpia_client: Client, agent_votuporanga: User
) -> None:
    response = auditor_olimpia_client.get(URL, {"municipality": "3557105"})
    assert event_ids(response) == set()
    assert "Faça uma escolha válida" in response.content.decode()


def test_it_filters_by_action_and_actor(auditor_olimpia_client: Client, admin_olimpia: User) -> None:
    response = auditor_olimpia_client.get(URL, {"action": "membership.grant", "actor": "sistema"})
    events = list(response.context["page"])
    assert {e.action for e in events} == {"membership.grant"}
    assert len(events) == 2  # the auditor's and the administrator's grants
    page = response.content.decode()
    assert (
        '<option value="membership.grant" selected>Concessão — vínculo' in page
    )  # the option reads in Portuguese
    assert ">membership.grant<" not in page


def test_it_finds_the_events_about_a_person_by_cpf_or_name(
    auditor_olimpia_client: Client, olimpia: Municipality
) -> None:
    today = dt.date(2026, 3, 2)
    ana = person_create(actor=None, municipality=olimpia, name="Ana Auditada", cpf="52998224725", as_of=today)
    bruno = person_create(
        actor=None, municipality=olimpia, name="Bruno Outro", cpf="11144477735", as_of=today
    )
    about_ana = set(
        AuditEvent.objects.filter(object_id=str(ana.pk), object_type="registry.person").values_list(
            "pk", flat=True
        )
    )
    assert about_ana
    for query in ("529.982.247-25", "auditada"):
        found = event_ids(auditor_olimpia_client.get(URL, {"person": query}))
        assert found == about_ana, query
    assert str(bruno.pk) not in {e.object_id for e in AuditEvent.objects.filter(pk__in=found)}
    refused = auditor_olimpia_client.get(URL, {"person": "1234"})
    assert "um CPF tem 11 dígitos" in refused.content.decode() and event_ids(refused) == set()


def test_every_action_the_code_writes_reads_in_portuguese() -> None:
    """One registry of labels (apps.audit.labels): an action whose verb it does not know would show as
    "Registro — …"; every literal action name written by a service must have a label of its own."""
    import re
    from pathlib import Path

    from apps.audit.labels import ACTION_LABELS, VERB_LABELS

    written = set()
    for path in Path("apps").rglob("*.py"):
        if "tests" in path.parts or "migrations" in path.parts:
            continue
        written |= set(re.findall(r'action=f?"([a-z_]+(?:\.[a-z_{}]+)+)"', path.read_text()))
    unlabeled = sorted(
        action
        for action in written
        if action not in ACTION_LABELS and "{" not in action and action.rsplit(".", 1)[-1] not in VERB_LABELS
    )
    assert len(written) > 50 and unlabeled == []


def test_it_refuses_an_inverted_date_range(auditor_olimpia_client: Client) -> None:
    response = auditor_olimpia_client.get(URL, {"date_from": "2026-03-02", "date_to": "2026-03-01"})
    assert "A data inicial deve ser anterior" in response.content.decode()
    assert event_ids(response) == set()


def test_it_paginates(auditor_olimpia_client: Client, olimpia: Municipality) -> None:
    with transaction.atomic():
        for number in range(PAGE_SIZE + 5):
            audit_record(actor=None, municipality=olimpia, action=f"test.{number}", obj=olimpia)
    first = auditor_olimpia_client.get(URL, {"municipality": "3533908"})
    second = auditor_olimpia_client.get(URL, {"municipality": "3533908", "pagina": "2"})
    assert len(event_ids(first)) == PAGE_SIZE
    assert event_ids(first).isdisjoint(event_ids(second))
    assert "pagina=2" in first.content.decode()


def test_it_links_the_home_card_to_the_trail(auditor_olimpia_client: Client) -> None:
    html = auditor_olimpia_client.get(reverse("municipality_home", args=["3533908"])).content.decode()
    assert f"{URL}?municipality=3533908" in html


def test_it_shows_one_event_with_its_chain_position(
    auditor_olimpia_client: Client, olimpia: Municipality
) -> None:
    event = AuditEvent.objects.get(chain="3533908", action="municipality.create")
    html = auditor_olimpia_client.get(reverse("audit:event_detail", args=[event.pk])).content.decode()
    assert event.hash in html and "3533908 nº 1" in html and "olimpia_sp_escolar" in html


def test_it_gives_404_for_an_event_of_another_municipality(
    auditor_olimpia_client: Client, agent_votuporanga: User
) -> None:
    event = AuditEvent.objects.filter(chain="3557105").first()
    assert event is not None
    assert auditor_olimpia_client.get(reverse("audit:event_detail", args=[event.pk])).status_code == 404


def test_it_gives_404_on_event_pages_to_the_outsider_and_the_analyst(
    outsider_client: Client, analyst_olimpia_client: Client
) -> None:
    event = AuditEvent.objects.get(chain="3533908", action="municipality.create")
    url = reverse("audit:event_detail", args=[event.pk])
    assert outsider_client.get(url).status_code == 404
    assert analyst_olimpia_client.get(url).status_code == 404


def test_actions_read_in_portuguese() -> None:
    from apps.audit.labels import action_label

    assert action_label("auth.login_failed", "accounts.user") == "Tentativa de entrada recusada"
    assert action_label("registry.driver.unlink", "registry.driver") == "Desvínculo — condutor"
    assert action_label("something.unheard_of", "no.such_model") == "Registro — registro"


def test_a_list_export_names_the_list_it_downloaded(
    analyst_olimpia_client: Client, auditor_olimpia_client: Client, olimpia: Municipality
) -> None:
    drivers = reverse("registry:driver_list", args=[olimpia.ibge_code])
    assert analyst_olimpia_client.get(drivers, {"formato": "csv"}).status_code == 200
    event = AuditEvent.objects.get(object_type="export.condutores")
    html = auditor_olimpia_client.get(reverse("audit:event_detail", args=[event.pk])).content.decode()
    assert "lista Condutores" in html and "registro nº" not in html
