"""Set-up and team screens: who sees them (404 outside the scope), what they do, and the invitee's link."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from apps.accounts.models import User
from apps.accounts.session import AUTH_CONFIRMED_AT_KEY
from apps.tenancy import services
from apps.tenancy.choices import Role
from apps.tenancy.models import Membership, Municipality, StaffInvitation

from .test_setup_services import GOOD_PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def installer_client() -> Client:
    user = services.deployment_admin_create_first(
        username="instalador", email="ti@example.gov.br", password=GOOD_PASSWORD, full_name="Equipe de TI"
    ).user
    client = Client()
    client.force_login(user)
    return client


def invite_url(ibge_code: str) -> str:
    return reverse("tenancy:staff_invite", args=[ibge_code])


def roles_url(ibge_code: str, user: User) -> str:
    return reverse("tenancy:member_roles", args=[ibge_code, user.pk])


# --- the installation's administrator ---------------------------------------------------------------------


def test_the_installer_lands_on_the_municipality_list(installer_client: Client) -> None:
    response = installer_client.get(reverse("home"))
    assert response["Location"] == reverse("tenancy:municipality_list")
    assert "Nenhum município ainda" in installer_client.get(response["Location"]).content.decode()


def test_the_installer_creates_a_municipality_choosing_regimes_by_name(installer_client: Client) -> None:
    form = installer_client.get(reverse("tenancy:municipality_new")).content.decode()
    assert "Transporte escolar de Votuporanga-SP (Lei nº 5.722" in form
    assert ">olimpia_sp_escolar<" not in form  # the id is only an option value, never shown
    response = installer_client.post(
        reverse("tenancy:municipality_new"),
        {"ibge_code": "3533908", "name": "Olímpia", "uf": "SP", "regimes": ["olimpia_sp_escolar"]},
    )
    assert response["Location"] == reverse("lawconfig:overview", args=["3533908"])
    assert Municipality.objects.get(ibge_code="3533908").regimes == ["olimpia_sp_escolar"]
    assert installer_client.get(response["Location"]).status_code == 200


def test_a_wrong_ibge_code_is_shown_on_its_field(installer_client: Client) -> None:
    response = installer_client.post(
        reverse("tenancy:municipality_new"),
        {"ibge_code": "3148103", "name": "Patrocínio", "uf": "SP", "regimes": ["patrocinio_mg_aplicativo"]},
    )
    assert response.status_code == 200
    assert "O código IBGE de um município de SP começa com 35." in response.content.decode()
    assert not Municipality.objects.exists()


@pytest.mark.parametrize("persona", ["admin_olimpia_client", "outsider_client", "analyst_olimpia_client"])
def test_the_set_up_screens_are_404_to_everyone_else(persona: str, request: pytest.FixtureRequest) -> None:
    client: Client = request.getfixturevalue(persona)
    assert client.get(reverse("tenancy:municipality_list")).status_code == 404
    response = client.post(
        reverse("tenancy:municipality_new"),
        {"ibge_code": "3557105", "name": "Votuporanga", "uf": "SP", "regimes": ["votuporanga_sp_escolar"]},
    )
    assert response.status_code == 404
    assert not Municipality.objects.filter(ibge_code="3557105").exists()


# --- team screens -----------------------------------------------------------------------------------------


def test_the_administrator_invites_and_the_mail_carries_the_link(
    admin_olimpia_client: Client, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_olimpia_client.post(
            invite_url("3533908"),
            {"full_name": "Nova Analista", "email": "nova@example.gov.br", "roles": [Role.ANALYST]},
        )
    assert response.status_code == 302
    (message,) = mail.outbox
    assert "http://testserver/convite/" in message.body
    page = admin_olimpia_client.get(reverse("tenancy:team_list", args=["3533908"])).content.decode()
    assert "nova@example.gov.br" in page and "Cancelar convite" in page


@pytest.mark.parametrize(
    ("persona", "ibge_code"),
    [
        ("admin_olimpia_client", "3557105"),
        ("analyst_olimpia_client", "3533908"),
        ("outsider_client", "3533908"),
    ],
)
def test_inviting_is_404_outside_the_administrators_municipality(
    persona: str, ibge_code: str, request: pytest.FixtureRequest, votuporanga: Municipality
) -> None:
    client: Client = request.getfixturevalue(persona)
    data = {"full_name": "X", "email": "x@example.gov.br", "roles": [Role.ANALYST]}
    assert client.get(invite_url(ibge_code)).status_code == 404
    assert client.post(invite_url(ibge_code), data).status_code == 404
    assert not StaffInvitation.objects.exists()


def test_the_team_list_shows_every_role_of_each_person(
    admin_olimpia_client: Client, analyst_olimpia: User, olimpia: Municipality
) -> None:
    services.membership_grant(actor=None, user=analyst_olimpia, municipality=olimpia, role=Role.FINANCE)
    page = admin_olimpia_client.get(reverse("tenancy:team_list", args=["3533908"])).content.decode()
    assert "Analista, Financeiro" in page
    assert roles_url("3533908", analyst_olimpia) in page


def test_the_administrator_adds_and_removes_a_role(
    admin_olimpia_client: Client, analyst_olimpia: User
) -> None:
    url = roles_url("3533908", analyst_olimpia)
    add = reverse("tenancy:member_role_add", args=["3533908", analyst_olimpia.pk])
    assert admin_olimpia_client.post(add, {"role": Role.INSPECTOR})["Location"] == url
    membership = Membership.objects.get(user=analyst_olimpia, role=Role.INSPECTOR)
    remove = reverse("tenancy:member_role_remove", args=["3533908", analyst_olimpia.pk, membership.pk])
    assert admin_olimpia_client.post(remove)["Location"] == url
    assert not Membership.objects.filter(pk=membership.pk).exists()


def test_removing_the_last_administrator_shows_why_not(
    admin_olimpia_client: Client, admin_olimpia: User
) -> None:
    membership = Membership.objects.get(user=admin_olimpia)
    remove = reverse("tenancy:member_role_remove", args=["3533908", admin_olimpia.pk, membership.pk])
    page = admin_olimpia_client.post(remove, follow=True).content.decode()
    assert "último administrador" in page
    assert Membership.objects.filter(pk=membership.pk).exists()


def test_a_deactivated_servidor_is_signed_out_at_the_next_request(
    admin_olimpia_client: Client, analyst_olimpia: User, analyst_olimpia_client: Client
) -> None:
    url = reverse("tenancy:member_set_active", args=["3533908", analyst_olimpia.pk])
    assert analyst_olimpia_client.get(reverse("municipality_home", args=["3533908"])).status_code == 200
    admin_olimpia_client.post(url, {"active": "0"})
    analyst_olimpia.refresh_from_db()
    assert not analyst_olimpia.is_active
    response = analyst_olimpia_client.get(reverse("municipality_home", args=["3533908"]))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    admin_olimpia_client.post(url, {"active": "1"})
    analyst_olimpia.refresh_from_db()
    assert analyst_olimpia.is_active


@pytest.mark.parametrize(
    "persona", ["agent_votuporanga_client", "analyst_olimpia_client", "auditor_olimpia_client"]
)
def test_role_and_account_changes_are_404_to_non_administrators(
    persona: str, request: pytest.FixtureRequest, admin_olimpia: User
) -> None:
    client: Client = request.getfixturevalue(persona)
    membership = Membership.objects.get(user=admin_olimpia)
    assert client.get(roles_url("3533908", admin_olimpia)).status_code == 404
    add = reverse("tenancy:member_role_add", args=["3533908", admin_olimpia.pk])
    assert client.post(add, {"role": Role.FINANCE}).status_code == 404
    remove = reverse("tenancy:member_role_remove", args=["3533908", admin_olimpia.pk, membership.pk])
    assert client.post(remove).status_code == 404
    deactivate = reverse("tenancy:member_set_active", args=["3533908", admin_olimpia.pk])
    assert client.post(deactivate, {"active": "0"}).status_code == 404
    admin_olimpia.refresh_from_db()
    assert admin_olimpia.is_active and Membership.objects.filter(user=admin_olimpia).count() == 1


def test_an_administrator_of_another_municipality_cannot_reach_this_team(
    make_staff: Callable[..., User], votuporanga: Municipality, analyst_olimpia: User
) -> None:
    client = Client()
    client.force_login(make_staff("admin.votu", (votuporanga, Role.ADMINISTRATOR)))
    assert client.get(roles_url("3533908", analyst_olimpia)).status_code == 404
    assert client.get(roles_url("3557105", analyst_olimpia)).status_code == 404  # not in Votuporanga's team
    assert (
        client.post(
            reverse("tenancy:member_set_active", args=["3557105", analyst_olimpia.pk]), {"active": "0"}
        ).status_code
        == 404
    )


# --- the invitee ------------------------------------------------------------------------------------------


@pytest.fixture
def invitation_link(
    admin_olimpia: User, olimpia: Municipality, django_capture_on_commit_callbacks: Any
) -> str:
    with django_capture_on_commit_callbacks(execute=True):
        services.staff_invitation_create(
            actor=admin_olimpia,
            municipality=olimpia,
            email="nova@example.gov.br",
            full_name="Nova Analista",
            roles=[Role.ANALYST],
            base_url="http://testserver/",
        )
    return reverse("tenancy:invitation_accept", args=[token_from_mail_any(str(mail.outbox[-1].body))])


def token_from_mail_any(body: str) -> str:
    return next(line for line in body.splitlines() if "/convite/" in line).rstrip("/").rsplit("/", 1)[-1]


def test_the_invitee_sets_a_password_and_lands_on_the_municipality_home(
    client: Client, invitation_link: str
) -> None:
    page = client.get(invitation_link).content.decode()
    assert "Nova Analista" in page and "Analista" in page
    data = {"username": "nova.analista", "password": GOOD_PASSWORD, "password_confirm": GOOD_PASSWORD}
    response = client.post(invitation_link, data)
    home = reverse("municipality_home", args=["3533908"])
    assert response["Location"] == home
    # Signed in; staff must enrol an authenticator first, and are then sent on to the municipality's home.
    enrol = client.get(home)
    assert enrol["Location"] == f"{reverse('second_factor_enrol')}?next={home.replace('/', '%2F')}"
    assert Client().get(invitation_link).status_code == 404  # used: the link is dead


def test_a_weak_password_is_refused_on_the_page_in_portuguese(client: Client, invitation_link: str) -> None:
    data = {"username": "nova.analista", "password": "1234567890", "password_confirm": "1234567890"}
    page = client.post(invitation_link, data).content.decode()
    assert "inteiramente numérica" in page
    assert not User.objects.filter(username="nova.analista").exists()


def test_mismatched_passwords_are_refused(client: Client, invitation_link: str) -> None:
    data = {"username": "nova.analista", "password": GOOD_PASSWORD, "password_confirm": GOOD_PASSWORD + "x"}
    assert "não são iguais" in client.post(invitation_link, data).content.decode()


def test_an_unknown_link_answers_404_in_portuguese(client: Client, db: None) -> None:
    response = client.get(reverse("tenancy:invitation_accept", args=["nao-existe"]))
    assert response.status_code == 404
    assert "Este convite não pode mais ser usado" in response.content.decode()


def test_only_the_installer_sees_the_installation_menu_entry(
    installer_client: Client, admin_olimpia_client: Client, olimpia: Municipality
) -> None:
    assert (
        'data-menu="deployment"'
        in installer_client.get(reverse("tenancy:municipality_list")).content.decode()
    )
    page = admin_olimpia_client.get(reverse("municipality_home", args=["3533908"])).content.decode()
    assert 'data-menu="deployment"' not in page


def test_an_analyst_sees_the_team_but_no_management(
    analyst_olimpia_client: Client, admin_olimpia: User
) -> None:
    page = analyst_olimpia_client.get(reverse("tenancy:team_list", args=["3533908"])).content.decode()
    assert "Otto Administrador" in page
    assert (
        "Convidar servidor" not in page and "Convites pendentes" not in page and "Papéis e conta" not in page
    )


def test_changing_roles_and_accounts_needs_a_recent_password_and_code(
    admin_olimpia_client: Client, analyst_olimpia: User
) -> None:
    session = admin_olimpia_client.session
    session[AUTH_CONFIRMED_AT_KEY] = time.time() - 16 * 60
    session.save()
    invite = reverse("tenancy:staff_invite", args=["3533908"])
    assert admin_olimpia_client.get(invite)["Location"].startswith(reverse("reauthenticate"))
    data = {"full_name": "Nova Pessoa", "email": "nova@olimpia.sp.gov.br", "roles": ["analyst"]}
    response = admin_olimpia_client.post(invite, data)
    assert response.status_code == 302 and response["Location"].startswith(reverse("reauthenticate"))
    assert not StaffInvitation.objects.exists()
    deactivate = reverse("tenancy:member_set_active", args=["3533908", analyst_olimpia.pk])
    response = admin_olimpia_client.post(deactivate, {"active": "0"})
    assert response["Location"].startswith(reverse("reauthenticate"))
    analyst_olimpia.refresh_from_db()
    assert analyst_olimpia.is_active


def test_creating_a_municipality_needs_a_recent_password_and_code(installer_client: Client) -> None:
    session = installer_client.session
    session[AUTH_CONFIRMED_AT_KEY] = time.time() - 16 * 60
    session.save()
    response = installer_client.get(reverse("tenancy:municipality_new"))
    assert response["Location"].startswith(reverse("reauthenticate"))
    assert not Municipality.objects.exists()
