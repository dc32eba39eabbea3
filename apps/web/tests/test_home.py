from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from apps.accounts.models import User
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality
from apps.tenancy.services import membership_grant

pytestmark = pytest.mark.django_db


def home(ibge_code: str) -> str:
    return reverse("municipality_home", args=[ibge_code])


def card_values(response: object, key: str) -> dict[str, object]:
    card = next(c for c in response.context["cards"] if c.key == key)  # type: ignore[attr-defined]
    return {item.label: item.value for item in card.items}


def test_it_sends_a_member_from_home_to_her_municipality(analyst_olimpia_client: Client) -> None:
    response = analyst_olimpia_client.get(reverse("home"))
    assert response.status_code == 302
    assert response["Location"] == home("3533908")


def test_it_sends_an_operator_to_the_portal_not_to_the_staff_home(client: Client) -> None:
    operator = User.objects.create_user(username="op.portal", password="x-senha-123", kind="operator")
    client.force_login(operator)
    response = client.get(reverse("home"))
    assert response.status_code == 302
    assert response["Location"] == reverse("portal:home")


def test_it_shows_real_team_counts(
    analyst_olimpia_client: Client, admin_olimpia: User, agent_votuporanga: User
) -> None:
    response = analyst_olimpia_client.get(home("3533908"))
    team = card_values(response, "team")
    assert team["Analista"] == 1 and team["Administrador"] == 1
    assert team["Agente de fiscalização"] == 0  # Votuporanga's agent is not counted here
    assert "Seu papel: Analista" in response.content.decode()


def test_it_names_the_regime_and_its_law_not_the_internal_id(analyst_olimpia_client: Client) -> None:
    regimes = card_values(analyst_olimpia_client.get(home("3533908")), "regimes")
    assert regimes == {
        "Transporte coletivo escolar particular — Olímpia/SP": "Lei nº 5.171, de 24 de setembro de 2025"
    }


def test_it_shows_audit_counts_only_to_who_may_see_the_trail(
    analyst_olimpia_client: Client, auditor_olimpia_client: Client, admin_olimpia: User
) -> None:
    analyst_cards = {c.key for c in analyst_olimpia_client.get(home("3533908")).context["cards"]}
    assert {"team", "regimes"} <= analyst_cards and "audit_today" not in analyst_cards
    audit = card_values(auditor_olimpia_client.get(home("3533908")), "audit_today")
    # Olímpia's chain today: municipality created, auditor's grant, analyst's grant, admin's grant.
    assert audit["Eventos registrados hoje"] == 4
    assert audit["Leituras de dados pessoais hoje"] == 0


def test_it_gives_the_outsider_404_on_a_municipality_home(
    outsider_client: Client, olimpia: Municipality
) -> None:
    assert outsider_client.get(home("3533908")).status_code == 404
    assert outsider_client.get(reverse("municipality_cards", args=["3533908"])).status_code == 404


def test_it_tells_the_outsider_she_has_no_membership(outsider_client: Client, olimpia: Municipality) -> None:
    response = outsider_client.get(reverse("home"))
    assert "Você ainda não tem vínculo com nenhum município" in response.content.decode()
    assert "Olímpia" not in response.content.decode()


def test_it_gives_an_olimpia_analyst_404_on_votuporanga(
    analyst_olimpia_client: Client, votuporanga: Municipality
) -> None:
    assert analyst_olimpia_client.get(home("3557105")).status_code == 404
    assert analyst_olimpia_client.get(reverse("municipality_cards", args=["3557105"])).status_code == 404
    assert (
        analyst_olimpia_client.get(reverse("municipality_switch"), {"municipio": "3557105"}).status_code
        == 404
    )


def test_it_switches_between_municipalities_of_the_user(
    analyst_olimpia: User, analyst_olimpia_client: Client, votuporanga: Municipality
) -> None:
    membership_grant(actor=None, user=analyst_olimpia, municipality=votuporanga, role=Role.ANALYST)
    page = analyst_olimpia_client.get(home("3533908")).content.decode()
    assert '<label for="municipio">Município</label>' in page
    response = analyst_olimpia_client.get(reverse("municipality_switch"), {"municipio": "3557105"})
    assert response["Location"] == home("3557105")
    assert analyst_olimpia_client.get(reverse("home"))["Location"] == home("3557105")  # remembered


def test_it_hides_the_switcher_with_a_single_municipality(analyst_olimpia_client: Client) -> None:
    assert 'id="municipio"' not in analyst_olimpia_client.get(home("3533908")).content.decode()


def test_it_refreshes_the_cards_as_an_htmx_partial(analyst_olimpia_client: Client) -> None:
    page = analyst_olimpia_client.get(home("3533908")).content.decode()
    assert f'hx-get="{reverse("municipality_cards", args=["3533908"])}"' in page
    assert "vendor/htmx.org/dist/htmx.min.js" in page
    partial = analyst_olimpia_client.get(
        reverse("municipality_cards", args=["3533908"]), HTTP_HX_REQUEST="true"
    )
    html = partial.content.decode()
    assert html.lstrip().startswith('<section id="cards"')
    assert "<html" not in html and "Equipe por papel" in html


def test_it_serves_the_design_system_from_the_vendor_path(analyst_olimpia_client: Client) -> None:
    page = analyst_olimpia_client.get(home("3533908")).content.decode()
    assert "/static/vendor/%40govbr-ds/core/dist/core.min.css" in page
    assert "https://" not in page.split("<body>")[0]  # no CDN in the head: the page works offline
