"""Portal logins by invitation (the secretariat) and by claim (the person, with the CPF and the e-mail on record)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.test import Client
from django.test.signals import template_rendered
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from apps.accounts.models import User
from apps.audit.models import AuditEvent
from apps.jobs.models import OutboundMail
from apps.jobs.services import outbox_deliver
from apps.licensing.casebook import Case
from apps.licensing.models import Permit
from apps.portal import services
from apps.portal.choices import PortalInvitationVia, PortalRole
from apps.portal.models import PortalAccount, PortalInvitation
from apps.portal.tests.conftest import make_account
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db

GOOD_PASSWORD = "Portal-do-Autorizatario-7"
BASE_URL = "http://testserver/"
Committed = Callable[..., Any]
# What differs between any two answers of the same page.
PER_REQUEST = r'(csrfmiddlewaretoken" value|nonce)="[^"]+"|Código da requisição: [0-9a-f-]+'


def token_in(body: str) -> str:
    return (
        next(line for line in body.splitlines() if "/portal/convite/" in line).rstrip("/").rsplit("/", 1)[-1]
    )


@pytest.fixture
def committed(django_capture_on_commit_callbacks: Callable[..., Any]) -> Committed:
    """Run a write and its after-commit callbacks, then deliver the outbox (the mail), as a real request would."""

    def run(write: Callable[..., Any], **kwargs: Any) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            result = write(**kwargs)
        outbox_deliver()  # what the worker woken after commit does
        return result

    return run


def claim(committed: Committed, municipality: Municipality, cpf: str, email: str) -> None:
    committed(
        services.portal_claim_request, municipality=municipality, cpf=cpf, email=email, base_url=BASE_URL
    )


# --- the secretariat's invitation -------------------------------------------------------------------------


def test_the_secretariat_invites_the_holder_at_the_email_on_record(
    committed: Committed, analyst_olimpia: User, alice_case: Case
) -> None:
    invitation = committed(
        services.portal_invitation_create,
        actor=analyst_olimpia,
        operator=alice_case.operator,
        role=PortalRole.OPERATOR,
        base_url=BASE_URL,
    )
    (message,) = mail.outbox
    assert message.to == [alice_case.person.email] and invitation.full_name == alice_case.person.name
    assert invitation.via == PortalInvitationVia.SECRETARIAT
    event = AuditEvent.objects.get(action="portal.invitation.secretariat")
    assert event.actor_id == analyst_olimpia.pk and alice_case.person.email not in str(event.after)


def test_the_secretariat_cannot_invite_in_another_municipality(
    agent_votuporanga: User, analyst_olimpia: User, votuporanga_licensed: tuple[Case, Permit]
) -> None:
    with pytest.raises(ValidationError, match="não pode convidar"):
        services.portal_invitation_create(
            actor=analyst_olimpia,
            operator=votuporanga_licensed[0].operator,
            role=PortalRole.OPERATOR,
            base_url=BASE_URL,
        )
    assert not PortalInvitation.objects.exists()


def test_a_driver_invitation_needs_the_driver(analyst_olimpia: User, alice_case: Case) -> None:
    with pytest.raises(ValidationError) as refusal:
        services.portal_invitation_create(
            actor=analyst_olimpia, operator=alice_case.operator, role=PortalRole.DRIVER, base_url=BASE_URL
        )
    assert "driver" in refusal.value.message_dict


def test_someone_with_an_account_is_not_invited_again(analyst_olimpia: User, alice_case: Case) -> None:
    make_account(alice_case, "alice")
    with pytest.raises(ValidationError, match="já tem conta para este autorizatário"):
        services.portal_invitation_create(
            actor=analyst_olimpia, operator=alice_case.operator, role=PortalRole.OPERATOR, base_url=BASE_URL
        )


def test_accepting_creates_the_portal_login_once(
    committed: Committed, analyst_olimpia: User, alice_case: Case
) -> None:
    committed(
        services.portal_invitation_create,
        actor=analyst_olimpia,
        operator=alice_case.operator,
        role=PortalRole.OPERATOR,
        base_url=BASE_URL,
    )
    token = token_in(str(mail.outbox[0].body))
    account = services.portal_invitation_accept(token=token, username="joao.portal", password=GOOD_PASSWORD)
    assert (account.operator, account.role, account.user.kind) == (
        alice_case.operator,
        "operator",
        "operator",
    )
    assert account.user.check_password(GOOD_PASSWORD) and account.user.email == alice_case.person.email
    assert AuditEvent.objects.get(action="portal.invitation.accept").actor_id == account.user_id
    with pytest.raises(ValidationError, match="já foi usado, expirou ou foi cancelado"):
        services.portal_invitation_accept(token=token, username="joao.outra", password=GOOD_PASSWORD)


def test_an_expired_portal_link_is_refused(
    committed: Committed, analyst_olimpia: User, alice_case: Case
) -> None:
    committed(
        services.portal_invitation_create,
        actor=analyst_olimpia,
        operator=alice_case.operator,
        role=PortalRole.OPERATOR,
        base_url=BASE_URL,
    )
    PortalInvitation.objects.update(expires_at=timezone.now() - dt.timedelta(seconds=1))
    with pytest.raises(ValidationError, match="expirou"):
        services.portal_invitation_accept(
            token=token_in(str(mail.outbox[0].body)), username="joao.portal", password=GOOD_PASSWORD
        )
    assert not PortalAccount.objects.exists()


def test_a_weak_portal_password_is_refused(
    committed: Committed, analyst_olimpia: User, alice_case: Case
) -> None:
    committed(
        services.portal_invitation_create,
        actor=analyst_olimpia,
        operator=alice_case.operator,
        role=PortalRole.OPERATOR,
        base_url=BASE_URL,
    )
    with pytest.raises(ValidationError) as refusal:
        services.portal_invitation_accept(
            token=token_in(str(mail.outbox[0].body)), username="joao.portal", password="1234567890"
        )
    assert "password" in refusal.value.message_dict and not PortalAccount.objects.exists()


# --- the claim by CPF -------------------------------------------------------------------------------------


def test_a_registered_holder_claims_a_login_by_cpf(
    committed: Committed, alice_case: Case, olimpia: Municipality
) -> None:
    claim(committed, olimpia, alice_case.person.cpf, alice_case.person.email.upper())
    (message,) = mail.outbox
    assert message.to == [alice_case.person.email]
    invitation = PortalInvitation.objects.get()
    assert (invitation.via, invitation.role, invitation.invited_by) == ("claim", "operator", None)
    account = services.portal_invitation_accept(
        token=token_in(str(message.body)), username="joao.portal", password=GOOD_PASSWORD
    )
    assert account.operator == alice_case.operator and account.is_holder


def test_a_driver_claims_a_driver_login(
    committed: Committed, votuporanga_licensed: tuple[Case, Permit], votuporanga: Municipality
) -> None:
    case = votuporanga_licensed[0]
    claim(committed, votuporanga, case.person.cpf, case.person.email)
    invitation = PortalInvitation.objects.get()
    assert (invitation.role, invitation.driver, invitation.operator) == ("driver", case.driver, case.operator)


@pytest.mark.parametrize(
    "what", ["other email", "unknown cpf", "other municipality", "already has account", "account suspended"]
)
def test_a_claim_that_does_not_match_sends_and_stores_nothing(
    what: str, committed: Committed, alice_case: Case, olimpia: Municipality, votuporanga: Municipality
) -> None:
    person = alice_case.person
    cpf, email, municipality = person.cpf, person.email, olimpia
    if what == "other email":
        email = "outra@exemplo.org.br"
    elif what == "unknown cpf":
        cpf = "52998224725"
    elif what == "other municipality":
        municipality = votuporanga
    elif what == "account suspended":
        # The secretariat suspended the holder's login; claiming must not hand out a fresh one. The driver
        # link (a PF holder drives the car too) has its own login, so nothing is left to claim.
        services.portal_account_set_active(
            actor=None, account=make_account(alice_case, "alice"), active=False
        )
        make_account(alice_case, "alice.condutora", PortalRole.DRIVER, driver=alice_case.driver)
    else:
        # A PF holder also drives the car: with both of the person's links already holding a login, none is left.
        make_account(alice_case, "alice")
        make_account(alice_case, "alice.condutora", PortalRole.DRIVER, driver=alice_case.driver)
    events_before = AuditEvent.objects.count()
    claim(committed, municipality, cpf, email)
    assert mail.outbox == [] and not PortalInvitation.objects.exists()
    assert AuditEvent.objects.count() == events_before


def test_the_claim_page_says_the_same_thing_whether_the_cpf_exists_or_not(
    client: Client,
    alice_case: Case,
    olimpia: Municipality,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    """Same redirect, same page, byte for byte (but the per-request CSRF token, CSP nonce and request id),
    whether the link was granted or not."""
    url = reverse("portal:claim")
    answers = []
    for cpf, email in (
        (alice_case.person.cpf, alice_case.person.email),
        ("52998224725", "x@exemplo.org.br"),
        (alice_case.person.cpf, "outra@exemplo.org.br"),
    ):
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(url, {"municipality": olimpia.pk, "cpf": cpf, "email": email}, follow=True)
        page = re.sub(PER_REQUEST, "", response.content.decode())
        answers.append((response.status_code, response.redirect_chain, page))
    assert answers[0] == answers[1] == answers[2]
    assert (
        answers[0][:2] == (200, [(reverse("portal:login"), 302)]) and services.CLAIM_ANSWER in answers[0][2]
    )
    assert OutboundMail.objects.count() == 1


def test_a_refused_claim_does_the_same_reads_and_renders_the_same_mail(
    alice_case: Case, olimpia: Municipality
) -> None:
    """The time to answer must not tell a registered CPF from an unknown one: the link queries, the token and
    the mail are done in every branch (only the granted one stores them)."""
    measured = []
    for cpf, email in (("52998224725", "x@exemplo.org.br"), (alice_case.person.cpf, "outra@exemplo.org.br")):
        rendered: list[str] = []

        def note(sender: Any, template: Any, rendered: list[str] = rendered, **kwargs: Any) -> None:
            rendered.append(template.name)

        template_rendered.connect(note)
        try:
            with CaptureQueriesContext(connection) as queries:
                services.portal_claim_request(municipality=olimpia, cpf=cpf, email=email, base_url=BASE_URL)
        finally:
            template_rendered.disconnect(note)
        measured.append((len(queries), rendered))
    # A known CPF also asks whether its first link has a login already: one indexed read more, no more.
    assert abs(measured[0][0] - measured[1][0]) <= 1
    assert measured[0][1] == measured[1][1] == ["portal/mail/invitation.txt"]
    assert not OutboundMail.objects.exists() and not PortalInvitation.objects.exists()


def test_the_claim_mail_waits_in_the_outbox_for_the_commit(alice_case: Case, olimpia: Municipality) -> None:
    """Stored with the invitation (so a mail server that is down delays it, never loses it); nothing is sent or
    kept when the transaction rolls back."""
    with pytest.raises(RuntimeError), transaction.atomic():
        claim_request = services.portal_claim_request
        claim_request(
            municipality=olimpia, cpf=alice_case.person.cpf, email=alice_case.person.email, base_url=BASE_URL
        )
        assert OutboundMail.objects.filter(reason="portal.invitation.claim").count() == 1
        raise RuntimeError("rollback")
    assert not OutboundMail.objects.exists() and mail.outbox == []
    services.portal_claim_request(
        municipality=olimpia, cpf=alice_case.person.cpf, email=alice_case.person.email, base_url=BASE_URL
    )
    queued = OutboundMail.objects.get()
    expected = (alice_case.person.email, "portal.invitation.claim", olimpia.pk)
    assert (queued.recipient, queued.reason, queued.municipality_id) == expected
    assert mail.outbox == []
    outbox_deliver()
    (message,) = mail.outbox
    assert message.to == [alice_case.person.email] and "/portal/convite/" in message.body


def test_the_claim_page_accepts_a_formatted_cpf_and_refuses_an_invalid_one(
    client: Client,
    alice_case: Case,
    olimpia: Municipality,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    cpf = alice_case.person.cpf
    formatted = f"{cpf[:3]}.{cpf[3:6]}.{cpf[6:9]}-{cpf[9:]}"
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("portal:claim"),
            {"municipality": olimpia.pk, "cpf": formatted, "email": alice_case.person.email},
        )
    assert OutboundMail.objects.filter(recipient=alice_case.person.email).count() == 1
    page = client.post(
        reverse("portal:claim"), {"municipality": olimpia.pk, "cpf": "123", "email": "a@b.org"}
    ).content.decode()
    assert "CPF inválido" in page


# --- the invitee's page and the secretariat's screen ------------------------------------------------------


def test_the_invitee_creates_the_login_and_lands_on_the_portal(
    client: Client, committed: Committed, analyst_olimpia: User, alice_case: Case
) -> None:
    committed(
        services.portal_invitation_create,
        actor=analyst_olimpia,
        operator=alice_case.operator,
        role=PortalRole.OPERATOR,
        base_url=BASE_URL,
    )
    url = reverse("portal:invitation-accept", args=[token_in(str(mail.outbox[0].body))])
    assert alice_case.operator.holder_name in client.get(url).content.decode()
    data = {"username": "joao.portal", "password": GOOD_PASSWORD, "password_confirm": GOOD_PASSWORD}
    response = client.post(url, data, follow=True)
    assert response.redirect_chain[-1][0] == reverse("portal:home")
    assert client.get(url).status_code == 404


def test_the_secretariat_suspends_and_restores_a_portal_login(
    analyst_olimpia_client: Client, alice_case: Case, agent_votuporanga_client: Client
) -> None:
    account = make_account(alice_case, "alice")
    url = reverse("portal:staff-account-set-active", args=["3533908", account.pk])
    assert agent_votuporanga_client.post(url, {"active": "0"}).status_code == 404
    analyst_olimpia_client.post(url, {"active": "0"})
    account.refresh_from_db()
    assert not account.active
    analyst_olimpia_client.post(url, {"active": "1"})
    account.refresh_from_db()
    assert account.active


def test_the_dpo_sees_the_accounts_but_cannot_invite(
    auditor_olimpia_client: Client, alice_case: Case
) -> None:
    url = reverse("portal:staff-accounts", args=["3533908"])
    assert "Convidar para o portal" not in auditor_olimpia_client.get(url).content.decode()
    assert (
        auditor_olimpia_client.post(url, {"operator": alice_case.operator.pk, "role": "operator"}).status_code
        == 404
    )
    assert not PortalInvitation.objects.exists()


def test_the_operator_page_can_link_to_a_prefilled_invitation(
    analyst_olimpia_client: Client, alice_case: Case
) -> None:
    url = reverse("portal:staff-accounts", args=["3533908"])
    page = analyst_olimpia_client.get(
        url, {"autorizatario": str(alice_case.operator.pk), "papel": "driver"}
    ).content.decode()
    assert f'<option value="{alice_case.operator.pk}" selected>' in page
    assert '<option value="driver" selected>' in page


def test_one_client_may_ask_only_a_few_times(client: Client, olimpia: Municipality) -> None:
    data = {"municipality": olimpia.pk, "cpf": "52998224725", "email": "x@exemplo.org.br"}
    statuses = [client.post(reverse("portal:claim"), data).status_code for _ in range(6)]
    assert statuses == [302] * 5 + [429]
    limited = client.post(reverse("portal:claim"), data)
    assert int(limited["Retry-After"]) > 0 and "Aguarde" in limited.content.decode()


def test_one_cpf_gets_at_most_three_links_an_hour_with_the_same_answer(
    alice_case: Case, olimpia: Municipality, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    data = {"municipality": olimpia.pk, "cpf": alice_case.person.cpf, "email": alice_case.person.email}
    for address in ("10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4"):
        with django_capture_on_commit_callbacks(execute=True):
            response = Client(REMOTE_ADDR=address).post(reverse("portal:claim"), data, follow=True)
        assert services.CLAIM_ANSWER in response.content.decode()
    assert OutboundMail.objects.count() == 3
