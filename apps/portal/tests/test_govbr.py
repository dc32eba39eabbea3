"""Portal login with gov.br, against a real OpenID Connect provider over HTTP on 127.0.0.1 (govbr_provider).

Every test walks the real flow: Outorga redirects to the provider with state, nonce and a PKCE challenge, the
person logs in there, the provider redirects back with a code, and Outorga exchanges it over HTTP, checks the
RS256 ID token against the provider's JWKS and links the CPF (`sub`) to the portal account.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import requests
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from django_otp.plugins.otp_totp.models import TOTPDevice

from apps.accounts.choices import UserKind
from apps.accounts.models import User
from apps.accounts.session import AUTH_CONFIRMED_AT_KEY
from apps.audit.models import AuditEvent
from apps.licensing.casebook import Case
from apps.portal import services
from apps.portal.govbr import REFUSALS
from apps.portal.models import PortalAccount
from apps.portal.tests.govbr_provider import LocalGovBr

pytestmark = pytest.mark.django_db

UNKNOWN_CPF = "52998224725"  # a valid CPF nobody registered in the fixtures


@pytest.fixture(scope="module")
def govbr() -> Iterator[LocalGovBr]:
    provider = LocalGovBr().start()
    yield provider
    provider.stop()


@pytest.fixture(autouse=True)
def _govbr_settings(govbr: LocalGovBr, settings: Any) -> Iterator[None]:
    for name, value in govbr.settings().items():
        setattr(settings, name, value)
    yield
    govbr.id_token_lifetime, govbr.nonce_override, govbr.issuer_override = 300, None, None
    govbr.sub_override = None


def start(client: Client) -> dict[str, str]:
    """Click «Entrar com gov.br»: the authorization request Outorga sends the browser to."""
    response = client.get(reverse("portal:govbr-login"))
    assert response.status_code == 302
    return {key: values[0] for key, values in parse_qs(urlsplit(response["Location"]).query).items()}


def log_in_at_provider(govbr: LocalGovBr, params: dict[str, str], cpf: str, password: str) -> str:
    """What the person does on gov.br's page; returns the callback URL gov.br sends the browser back to."""
    answer = requests.post(
        f"{govbr.issuer}/authorize",
        data=params | {"cpf": cpf, "senha": password},
        allow_redirects=False,
        timeout=5,
    )
    assert answer.status_code == 302, answer.text
    callback = urlsplit(answer.headers["Location"])
    assert callback.path == reverse("portal:govbr-callback")
    return f"{callback.path}?{callback.query}"


def govbr_login(client: Client, govbr: LocalGovBr, cpf: str, password: str = "senha-gov-br") -> Any:
    return client.get(log_in_at_provider(govbr, start(client), cpf, password))


def shown(response: Any) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


def signed_in_user(client: Client) -> User | None:
    response = client.get(reverse("portal:home"))
    return response.wsgi_request.user if response.status_code == 200 else None


def cpf_of(case: Case) -> str:
    assert case.operator.person is not None
    return case.operator.person.cpf


def test_the_authorization_request_is_gov_br_s_code_flow_with_pkce(govbr: LocalGovBr) -> None:
    params = start(Client())
    assert params["response_type"] == "code"
    assert set(params["scope"].split()) == {"openid", "email", "profile", "govbr_confiabilidades"}
    assert params["code_challenge_method"] == "S256" and len(params["code_challenge"]) == 43
    assert len(params["state"]) >= 32 and len(params["nonce"]) >= 32
    assert params["redirect_uri"] == "http://testserver/portal/entrar/govbr/retorno/"


def test_a_holder_with_a_portal_account_signs_in_with_gov_br(
    govbr: LocalGovBr, alice: PortalAccount, alice_case: Case
) -> None:
    govbr.add_account(cpf_of(alice_case), "Alice da Silva")
    client = Client()
    response = govbr_login(client, govbr, cpf_of(alice_case))
    assert response.status_code == 302 and response["Location"] == reverse("portal:home")
    assert signed_in_user(client) == alice.user
    assert client.session[AUTH_CONFIRMED_AT_KEY]
    # The token request carried the PKCE verifier and the client secret; the provider checked both.
    assert govbr.token_requests[-1]["code_verifier"]
    login = AuditEvent.objects.filter(action="auth.login", object_id=str(alice.user.pk)).latest("pk")
    assert login.after["path"] == reverse("portal:govbr-callback")


def test_a_registered_driver_without_a_login_gets_one_tied_to_the_record(
    govbr: LocalGovBr, votuporanga_licensed: Any
) -> None:
    """A person the municipality knows: gov.br vouched for the CPF, so the portal login is created (no password)."""
    case, _permit = votuporanga_licensed
    driver = case.operator.drivers.select_related("person").first()
    assert driver is not None
    govbr.add_account(driver.person.cpf, driver.person.name, email="outro@exemplo.org")
    client = Client()
    govbr_login(client, govbr, driver.person.cpf)
    user = signed_in_user(client)
    assert user is not None and user.username.startswith("govbr-") and not user.has_usable_password()
    assert user.kind == UserKind.DRIVER and user.cpf == driver.person.cpf
    account = PortalAccount.objects.get(user=user)
    assert (account.operator, account.driver) == (case.operator, driver)
    assert AuditEvent.objects.filter(action="portal.account.govbr_link", object_id=str(account.pk)).exists()
    # The next gov.br login finds the same account instead of creating another.
    again = Client()
    govbr_login(again, govbr, driver.person.cpf)
    assert signed_in_user(again) == user
    assert PortalAccount.objects.filter(driver=driver).count() == 1


def test_an_unknown_cpf_is_refused_and_nobody_is_created(govbr: LocalGovBr, alice: PortalAccount) -> None:
    govbr.add_account(UNKNOWN_CPF, "Pessoa Desconhecida")
    users_before = User.objects.count()
    client = Client()
    response = govbr_login(client, govbr, UNKNOWN_CPF)
    assert response["Location"] == reverse("portal:login")
    assert shown(response) == [REFUSALS["unknown_cpf"]]
    assert signed_in_user(client) is None
    assert User.objects.count() == users_before
    assert AuditEvent.objects.filter(action="auth.login_failed").exists()


def test_the_refusal_is_shown_in_portuguese_on_the_login_page(govbr: LocalGovBr) -> None:
    govbr.add_account(UNKNOWN_CPF, "Pessoa Desconhecida")
    client = Client()
    response = client.get(log_in_at_provider(govbr, start(client), UNKNOWN_CPF, "senha-gov-br"), follow=True)
    assert response.request["PATH_INFO"] == reverse("portal:login")
    assert "Seu CPF não consta no cadastro" in response.content.decode()


def test_a_state_this_browser_never_started_is_refused(
    govbr: LocalGovBr, alice: PortalAccount, alice_case: Case
) -> None:
    """Login CSRF: a callback URL made in the attacker's browser, opened in the victim's, logs nobody in."""
    govbr.add_account(cpf_of(alice_case), "Alice da Silva")
    attacker = Client()
    callback = log_in_at_provider(govbr, start(attacker), cpf_of(alice_case), "senha-gov-br")
    victim = Client()
    start(victim)  # the victim has a gov.br login of their own pending: a different state
    response = victim.get(callback)
    assert shown(response) == [REFUSALS["state"]]
    assert signed_in_user(victim) is None


def test_a_replayed_callback_is_refused(govbr: LocalGovBr, alice: PortalAccount, alice_case: Case) -> None:
    govbr.add_account(cpf_of(alice_case), "Alice da Silva")
    client = Client()
    callback = log_in_at_provider(govbr, start(client), cpf_of(alice_case), "senha-gov-br")
    assert client.get(callback)["Location"] == reverse("portal:home")
    client.post(reverse("logout"))
    assert REFUSALS["state"] in shown(client.get(callback))
    assert signed_in_user(client) is None


def test_an_id_token_with_another_login_s_nonce_is_refused(
    govbr: LocalGovBr, alice: PortalAccount, alice_case: Case
) -> None:
    govbr.add_account(cpf_of(alice_case), "Alice da Silva")
    govbr.nonce_override = "nonce-de-outra-entrada"
    client = Client()
    response = govbr_login(client, govbr, cpf_of(alice_case))
    assert shown(response) == [REFUSALS["invalid_token"]]
    assert signed_in_user(client) is None


def test_an_expired_id_token_is_refused(govbr: LocalGovBr, alice: PortalAccount, alice_case: Case) -> None:
    govbr.add_account(cpf_of(alice_case), "Alice da Silva")
    govbr.id_token_lifetime = -120  # expired two minutes ago, beyond the clock leeway
    client = Client()
    response = govbr_login(client, govbr, cpf_of(alice_case))
    assert shown(response) == [REFUSALS["expired"]]
    assert signed_in_user(client) is None


def test_an_id_token_from_another_issuer_is_refused(
    govbr: LocalGovBr, alice: PortalAccount, alice_case: Case
) -> None:
    govbr.add_account(cpf_of(alice_case), "Alice da Silva")
    govbr.issuer_override = "https://sso.falso.example"
    client = Client()
    assert shown(govbr_login(client, govbr, cpf_of(alice_case))) == [REFUSALS["invalid_token"]]
    assert signed_in_user(client) is None


def test_a_suspended_portal_account_is_not_signed_in_nor_replaced(
    govbr: LocalGovBr, alice: PortalAccount, alice_case: Case
) -> None:
    services.portal_account_set_active(actor=None, account=alice, active=False)
    govbr.add_account(cpf_of(alice_case), "Alice da Silva")
    client = Client()
    assert shown(govbr_login(client, govbr, cpf_of(alice_case))) == [REFUSALS["suspended"]]
    assert PortalAccount.objects.filter(operator=alice_case.operator).count() == 1


def test_a_portal_user_with_an_authenticator_still_types_the_code(
    govbr: LocalGovBr, alice: PortalAccount, alice_case: Case
) -> None:
    TOTPDevice.objects.create(user=alice.user, name="Aplicativo autenticador", confirmed=True)
    govbr.add_account(cpf_of(alice_case), "Alice da Silva")
    client = Client()
    response = govbr_login(client, govbr, cpf_of(alice_case))
    assert response["Location"].startswith(reverse("second_factor_verify"))
    assert client.get(reverse("portal:home"))["Location"].startswith(reverse("second_factor_verify"))


def test_the_provider_saying_no_is_explained(govbr: LocalGovBr) -> None:
    client = Client()
    params = start(client)
    response = client.get(
        reverse("portal:govbr-callback"), {"error": "access_denied", "state": params["state"]}
    )
    assert shown(response) == [REFUSALS["cancelled"]]


def test_off_when_not_configured(settings: Any) -> None:
    settings.GOVBR_ENABLED = False
    client = Client()
    assert "Entrar com" not in client.get(reverse("portal:login")).content.decode().replace(
        "Entrar no portal", ""
    )
    assert client.get(reverse("portal:govbr-login")).status_code == 404
    assert client.get(reverse("portal:govbr-callback"), {"code": "x", "state": "y"}).status_code == 404


def test_the_button_shows_when_configured() -> None:
    page = Client().get(reverse("portal:login")).content.decode()
    assert 'data-testid="govbr-login"' in page and reverse("portal:govbr-login") in page


def test_a_password_login_never_reaches_the_provider(
    govbr: LocalGovBr, alice: PortalAccount, alice_case: Case
) -> None:
    """The gov.br backend only acts on the callback: a password POST with code/state in the URL is not an
    authorization code exchange."""
    before = len(govbr.token_requests)
    client = Client()
    client.post(
        f"{reverse('portal:login')}?code=abc&state=def", {"username": "ninguem", "password": "x" * 12}
    )
    assert len(govbr.token_requests) == before
