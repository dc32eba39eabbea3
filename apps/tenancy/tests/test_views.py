from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from apps.accounts.models import User
from apps.audit.models import AuditEvent
from apps.audit.services import PERSONAL_DATA_READ
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db


def team_url(ibge_code: str) -> str:
    return reverse("tenancy:team_list", args=[ibge_code])


def member_url(ibge_code: str, user: User) -> str:
    return reverse("tenancy:member_detail", args=[ibge_code, user.pk])


def test_it_lists_the_team_of_the_analysts_municipality(
    analyst_olimpia_client: Client, admin_olimpia: User, agent_votuporanga: User
) -> None:
    html = analyst_olimpia_client.get(team_url("3533908")).content.decode()
    assert "Otto Administrador" in html and "Ana Analista" in html
    assert "Vitor Agente" not in html
    assert "Ver (acesso registrado)" not in html  # analysts do not see personal data


def test_it_gives_the_outsider_404_on_a_team_page(outsider_client: Client, olimpia: Municipality) -> None:
    assert outsider_client.get(team_url("3533908")).status_code == 404


def test_it_gives_an_olimpia_analyst_404_on_votuporanga_team(
    analyst_olimpia_client: Client, agent_votuporanga: User
) -> None:
    assert analyst_olimpia_client.get(team_url("3557105")).status_code == 404


def test_it_gives_404_for_an_unknown_municipality(analyst_olimpia_client: Client) -> None:
    assert analyst_olimpia_client.get(team_url("9999999")).status_code == 404


def test_it_shows_personal_data_to_the_administrator_and_audits_the_read(
    admin_olimpia_client: Client, admin_olimpia: User, analyst_olimpia: User
) -> None:
    analyst_olimpia.cpf = "52998224725"
    analyst_olimpia.save()
    response = admin_olimpia_client.get(
        member_url("3533908", analyst_olimpia), HTTP_X_REQUEST_ID="req-abc-12345"
    )
    assert "52998224725" in response.content.decode()
    event = AuditEvent.objects.get(action=PERSONAL_DATA_READ)
    assert (event.actor_id, event.object_type) == (admin_olimpia.pk, "accounts.user")
    assert event.object_id == str(analyst_olimpia.pk)
    assert event.after == {"fields": ["cpf", "email", "phone"]}
    assert event.request_id == "req-abc-12345"
    assert event.municipality is not None and event.municipality.ibge_code == "3533908"


def test_it_hides_personal_data_from_an_analyst(analyst_olimpia_client: Client, admin_olimpia: User) -> None:
    assert analyst_olimpia_client.get(member_url("3533908", admin_olimpia)).status_code == 404
    assert not AuditEvent.objects.filter(action=PERSONAL_DATA_READ).exists()


def test_it_gives_404_for_a_member_of_another_municipality(
    admin_olimpia_client: Client, agent_votuporanga: User
) -> None:
    assert admin_olimpia_client.get(member_url("3533908", agent_votuporanga)).status_code == 404
    assert admin_olimpia_client.get(member_url("3557105", agent_votuporanga)).status_code == 404
    assert not AuditEvent.objects.filter(action=PERSONAL_DATA_READ).exists()


def test_it_gives_the_outsider_404_on_member_pages(outsider_client: Client, admin_olimpia: User) -> None:
    assert outsider_client.get(member_url("3533908", admin_olimpia)).status_code == 404
