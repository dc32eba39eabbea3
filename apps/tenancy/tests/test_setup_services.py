"""Set-up services: the installation's administrator, municipality creation, staff invitations, roles, accounts."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from apps.accounts.models import User
from apps.audit.models import AuditEvent
from apps.tenancy import services
from apps.tenancy.choices import Role
from apps.tenancy.models import DeploymentAdministrator, Membership, Municipality, StaffInvitation
from apps.tenancy.tokens import INVITATION_VALIDITY, token_digest

pytestmark = pytest.mark.django_db

GOOD_PASSWORD = "Transporte-Escolar-2026"
BASE_URL = "https://outorga.example.gov.br/"


@pytest.fixture
def installer() -> User:
    return services.deployment_admin_create_first(
        username="instalador", email="ti@example.gov.br", password=GOOD_PASSWORD, full_name="Equipe de TI"
    ).user


Invite = Callable[..., tuple[StaffInvitation, str]]


@pytest.fixture
def invite(django_capture_on_commit_callbacks: Callable[..., Any]) -> Invite:
    """Invite, commit, and return the invitation with the token read back from the mail, as the invitee would."""

    def make(
        actor: User,
        municipality: Municipality,
        roles: list[str] | None = None,
        email: str = "nova@example.gov.br",
    ) -> tuple[StaffInvitation, str]:
        with django_capture_on_commit_callbacks(execute=True):
            invitation = services.staff_invitation_create(
                actor=actor,
                municipality=municipality,
                email=email,
                full_name="Nova Analista",
                roles=roles or [Role.ANALYST],
                base_url=BASE_URL,
            )
        return invitation, token_from_mail(str(mail.outbox[-1].body))

    return make


def token_from_mail(body: str) -> str:
    link = next(line for line in body.splitlines() if line.startswith(BASE_URL.rstrip("/")))
    return link.rstrip("/").rsplit("/", 1)[-1]


# --- the installation's administrator ---------------------------------------------------------------------


def test_the_first_administrator_is_not_a_superuser_and_is_audited(installer: User) -> None:
    assert DeploymentAdministrator.objects.filter(user=installer).exists()
    assert not installer.is_superuser and installer.check_password(GOOD_PASSWORD)
    event = AuditEvent.objects.get(action="deployment_admin.create")
    assert event.after == {"user_id": installer.pk, "username": "instalador"}
    assert GOOD_PASSWORD not in str(AuditEvent.objects.values_list("after", flat=True))


def test_creating_the_first_administrator_again_changes_nothing(installer: User) -> None:
    again = services.deployment_admin_create_first(
        username="outro", email="outro@example.gov.br", password=GOOD_PASSWORD, full_name=""
    )
    assert (again.user, again.created) == (installer, False)
    assert not User.objects.filter(username="outro").exists()


@pytest.mark.parametrize("password", ["1234567890", "password1", "instalador1", "Curta-7"])
def test_the_first_administrator_password_goes_through_djangos_validators(db: None, password: str) -> None:
    with pytest.raises(ValidationError) as refusal:
        services.deployment_admin_create_first(
            username="instalador", email="ti@example.gov.br", password=password, full_name=""
        )
    assert "password" in refusal.value.message_dict
    assert not User.objects.exists()


def test_the_first_administrator_needs_an_email(db: None) -> None:
    with pytest.raises(ValidationError) as refusal:
        services.deployment_admin_create_first(username="x", email="", password=GOOD_PASSWORD, full_name="")
    assert "email" in refusal.value.message_dict


# --- municipality creation --------------------------------------------------------------------------------


def test_the_installer_creates_a_municipality_and_becomes_its_administrator(installer: User) -> None:
    municipality = services.municipality_setup(
        actor=installer, ibge_code="3533908", name="Olímpia", uf="SP", regimes=["olimpia_sp_escolar"]
    )
    assert Membership.objects.filter(
        user=installer, municipality=municipality, role=Role.ADMINISTRATOR
    ).exists()
    actions = list(
        AuditEvent.objects.filter(chain="3533908").order_by("seq").values_list("action", "actor_id")
    )
    assert actions == [("municipality.create", installer.pk), ("membership.grant", installer.pk)]


def test_only_the_installer_creates_municipalities(admin_olimpia: User) -> None:
    with pytest.raises(PermissionDenied):
        services.municipality_setup(
            actor=admin_olimpia, ibge_code="3557105", name="Votuporanga", uf="SP", regimes=[]
        )


def test_an_ibge_code_of_another_state_is_refused(installer: User) -> None:
    with pytest.raises(ValidationError) as refusal:
        services.municipality_setup(
            actor=installer,
            ibge_code="3148103",
            name="Patrocínio",
            uf="SP",
            regimes=["patrocinio_mg_aplicativo"],
        )
    assert "começa com 35" in refusal.value.message_dict["ibge_code"][0]
    assert not Municipality.objects.exists()


def test_a_municipality_needs_a_regime(installer: User) -> None:
    with pytest.raises(ValidationError) as refusal:
        services.municipality_setup(actor=installer, ibge_code="3533908", name="Olímpia", uf="SP", regimes=[])
    assert "regimes" in refusal.value.message_dict


# --- staff invitations ------------------------------------------------------------------------------------


def test_an_invitation_mails_a_one_time_link_after_commit(
    admin_olimpia: User, olimpia: Municipality, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        invitation = services.staff_invitation_create(
            actor=admin_olimpia,
            municipality=olimpia,
            email="nova@example.gov.br",
            full_name="Nova Analista",
            roles=[Role.ANALYST, Role.FINANCE],
            base_url=BASE_URL,
        )
    assert mail.outbox == [] and len(callbacks) == 1  # nothing sent before the commit
    callbacks[0]()
    (message,) = mail.outbox
    assert message.to == ["nova@example.gov.br"]
    token = token_from_mail(str(message.body))
    assert invitation.token_hash == token_digest(token) and token not in invitation.token_hash
    assert "Analista, Financeiro" in message.body
    event = AuditEvent.objects.get(action="staff_invitation.create")
    assert event.after["roles"] == ["analyst", "finance"]  # type: ignore[index]
    assert "nova@example.gov.br" not in str(event.after)


def test_a_rolled_back_invitation_sends_no_mail(admin_olimpia: User, olimpia: Municipality) -> None:
    with pytest.raises(ValidationError):
        services.staff_invitation_create(
            actor=admin_olimpia,
            municipality=olimpia,
            email="not-an-email",
            full_name="X",
            roles=[Role.ANALYST],
            base_url=BASE_URL,
        )
    assert mail.outbox == [] and not StaffInvitation.objects.exists()


def test_only_an_administrator_of_the_municipality_invites(
    admin_olimpia: User, analyst_olimpia: User, votuporanga: Municipality, olimpia: Municipality
) -> None:
    for actor, municipality in ((admin_olimpia, votuporanga), (analyst_olimpia, olimpia)):
        with pytest.raises(PermissionDenied):
            services.staff_invitation_create(
                actor=actor,
                municipality=municipality,
                email="a@example.gov.br",
                full_name="A",
                roles=[Role.ANALYST],
                base_url=BASE_URL,
            )


def test_accepting_creates_the_account_with_the_invited_roles(
    admin_olimpia: User,
    olimpia: Municipality,
    invite: Invite,
) -> None:
    invitation, token = invite(admin_olimpia, olimpia, [Role.ANALYST, Role.INSPECTOR])
    user = services.staff_invitation_accept(token=token, username="nova.analista", password=GOOD_PASSWORD)
    assert user.check_password(GOOD_PASSWORD) and user.email == "nova@example.gov.br"
    assert set(Membership.objects.filter(user=user).values_list("role", flat=True)) == {
        "analyst",
        "inspector",
    }
    invitation.refresh_from_db()
    assert invitation.accepted_at is not None and invitation.user == user
    accept = AuditEvent.objects.get(action="staff_invitation.accept")
    assert accept.actor_id == user.pk
    grants = AuditEvent.objects.filter(action="membership.grant", after__user_id=user.pk)
    assert {event.actor_id for event in grants} == {admin_olimpia.pk}


def test_an_invitation_works_only_once(
    admin_olimpia: User,
    olimpia: Municipality,
    invite: Invite,
) -> None:
    _, token = invite(admin_olimpia, olimpia)
    services.staff_invitation_accept(token=token, username="nova.analista", password=GOOD_PASSWORD)
    with pytest.raises(ValidationError, match="já foi aceito, expirou ou foi cancelado"):
        services.staff_invitation_accept(token=token, username="outra.conta", password=GOOD_PASSWORD)
    assert not User.objects.filter(username="outra.conta").exists()


def test_an_invitation_expires_after_its_validity(
    admin_olimpia: User,
    olimpia: Municipality,
    invite: Invite,
) -> None:
    invitation, token = invite(admin_olimpia, olimpia)
    assert invitation.expires_at - invitation.created_at == pytest.approx(
        INVITATION_VALIDITY, abs=dt.timedelta(seconds=5)
    )
    StaffInvitation.objects.update(expires_at=timezone.now() - dt.timedelta(seconds=1))
    with pytest.raises(ValidationError, match="expirou"):
        services.staff_invitation_accept(token=token, username="nova.analista", password=GOOD_PASSWORD)
    assert not User.objects.filter(username="nova.analista").exists()


def test_an_unknown_token_is_refused(db: None) -> None:
    with pytest.raises(ValidationError):
        services.staff_invitation_accept(token="inventado", username="x.y", password=GOOD_PASSWORD)


def test_inviting_the_same_email_again_cancels_the_earlier_link(
    admin_olimpia: User,
    olimpia: Municipality,
    invite: Invite,
) -> None:
    first, first_token = invite(admin_olimpia, olimpia)
    _, second_token = invite(admin_olimpia, olimpia, email="NOVA@example.gov.br")
    with pytest.raises(ValidationError):
        services.staff_invitation_accept(token=first_token, username="nova.a", password=GOOD_PASSWORD)
    assert services.staff_invitation_accept(token=second_token, username="nova.b", password=GOOD_PASSWORD)
    first.refresh_from_db()
    assert first.revoked_at is not None


def test_a_revoked_invitation_is_refused(
    admin_olimpia: User,
    olimpia: Municipality,
    invite: Invite,
) -> None:
    invitation, token = invite(admin_olimpia, olimpia)
    services.staff_invitation_revoke(actor=admin_olimpia, invitation=invitation)
    with pytest.raises(ValidationError):
        services.staff_invitation_accept(token=token, username="nova.analista", password=GOOD_PASSWORD)
    assert AuditEvent.objects.filter(action="staff_invitation.revoke").count() == 1


def test_an_invitation_dies_with_the_inviters_administrator_role(
    admin_olimpia: User,
    olimpia: Municipality,
    make_staff: Callable[..., User],
    invite: Invite,
) -> None:
    make_staff("segunda.admin", (olimpia, Role.ADMINISTRATOR))
    _, token = invite(admin_olimpia, olimpia)
    Membership.objects.filter(user=admin_olimpia).delete()
    with pytest.raises(ValidationError):
        services.staff_invitation_accept(token=token, username="nova.analista", password=GOOD_PASSWORD)


@pytest.mark.parametrize("password", ["1234567890", "password1", "nova.analista1", "Curta-7"])
def test_the_invitees_password_goes_through_djangos_validators(
    admin_olimpia: User,
    olimpia: Municipality,
    invite: Invite,
    password: str,
) -> None:
    invitation, token = invite(admin_olimpia, olimpia)
    with pytest.raises(ValidationError) as refusal:
        services.staff_invitation_accept(token=token, username="nova.analista", password=password)
    assert "password" in refusal.value.message_dict
    invitation.refresh_from_db()
    assert invitation.accepted_at is None  # still usable with a better password


def test_a_taken_username_is_refused_and_the_link_survives(
    admin_olimpia: User,
    olimpia: Municipality,
    invite: Invite,
) -> None:
    _, token = invite(admin_olimpia, olimpia)
    with pytest.raises(ValidationError) as refusal:
        services.staff_invitation_accept(token=token, username="OTTO.ADMIN", password=GOOD_PASSWORD)
    assert "já está em uso" in refusal.value.message_dict["username"][0]
    assert services.staff_invitation_accept(token=token, username="nova.analista", password=GOOD_PASSWORD)


# --- roles and accounts -----------------------------------------------------------------------------------


def test_an_administrator_assigns_and_removes_roles(
    admin_olimpia: User, analyst_olimpia: User, olimpia: Municipality
) -> None:
    membership = services.team_role_assign(
        actor=admin_olimpia, municipality=olimpia, user=analyst_olimpia, role=Role.FINANCE
    )
    services.team_role_remove(actor=admin_olimpia, membership=membership)
    assert list(Membership.objects.filter(user=analyst_olimpia).values_list("role", flat=True)) == ["analyst"]
    assert AuditEvent.objects.filter(action="membership.revoke", actor_id=admin_olimpia.pk).count() == 1


def test_roles_go_only_to_members_of_the_team(
    admin_olimpia: User, agent_votuporanga: User, olimpia: Municipality
) -> None:
    with pytest.raises(ValidationError, match="envie um convite"):
        services.team_role_assign(
            actor=admin_olimpia, municipality=olimpia, user=agent_votuporanga, role=Role.ANALYST
        )


def test_an_analyst_cannot_assign_roles(
    analyst_olimpia: User, admin_olimpia: User, olimpia: Municipality
) -> None:
    with pytest.raises(PermissionDenied):
        services.team_role_assign(
            actor=analyst_olimpia, municipality=olimpia, user=analyst_olimpia, role=Role.ADMINISTRATOR
        )


def test_the_last_administrator_keeps_the_role(admin_olimpia: User, olimpia: Municipality) -> None:
    membership = Membership.objects.get(user=admin_olimpia, role=Role.ADMINISTRATOR)
    with pytest.raises(ValidationError, match="último administrador"):
        services.team_role_remove(actor=admin_olimpia, membership=membership)
    assert Membership.objects.filter(pk=membership.pk).exists()


def test_deactivating_an_account_blocks_its_login_and_is_audited(
    admin_olimpia: User, analyst_olimpia: User, olimpia: Municipality
) -> None:
    services.staff_account_set_active(
        actor=admin_olimpia, municipality=olimpia, user=analyst_olimpia, active=False
    )
    analyst_olimpia.refresh_from_db()
    assert not analyst_olimpia.is_active
    services.staff_account_set_active(
        actor=admin_olimpia, municipality=olimpia, user=analyst_olimpia, active=True
    )
    events = AuditEvent.objects.filter(object_id=str(analyst_olimpia.pk), action__startswith="user.")
    assert [(e.action, e.after) for e in events.exclude(action="user.create").order_by("seq")] == [
        ("user.deactivate", {"is_active": False}),
        ("user.reactivate", {"is_active": True}),
    ]


def test_an_account_working_elsewhere_is_not_deactivated_from_here(
    admin_olimpia: User, make_staff: Callable[..., User], olimpia: Municipality, votuporanga: Municipality
) -> None:
    shared = make_staff("dupla", (olimpia, Role.ANALYST), (votuporanga, Role.ANALYST))
    with pytest.raises(ValidationError, match="outro município"):
        services.staff_account_set_active(
            actor=admin_olimpia, municipality=olimpia, user=shared, active=False
        )
    shared.refresh_from_db()
    assert shared.is_active


def test_an_administrator_cannot_deactivate_themselves_or_the_installer(
    admin_olimpia: User, installer: User, olimpia: Municipality
) -> None:
    services.membership_grant(actor=None, user=installer, municipality=olimpia, role=Role.ADMINISTRATOR)
    for target in (admin_olimpia, installer):
        with pytest.raises(ValidationError):
            services.staff_account_set_active(
                actor=admin_olimpia, municipality=olimpia, user=target, active=False
            )
