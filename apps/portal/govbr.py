"""Portal login with a gov.br account (OpenID Connect, authorization code flow with PKCE; mozilla-django-oidc).

gov.br's `sub` is the person's CPF. It signs in the portal account tied to a registered holder, driver or
attendant with that CPF; a registered person without a login gets one (services.portal_account_govbr_create);
a CPF the municipality does not know is refused. Every refusal has a reason, shown to the person in Portuguese
by the callback view. Off unless settings.GOVBR_ENABLED.
"""

from __future__ import annotations

from typing import Any

import jwt
import requests
from django.conf import settings
from django.core.exceptions import PermissionDenied, SuspiciousOperation, ValidationError
from django.http import HttpRequest
from mozilla_django_oidc.auth import OIDCAuthenticationBackend

from apps.accounts.models import User
from apps.accounts.validators import validate_cpf
from apps.portal import services
from apps.portal.selectors import portal_accounts_for_cpf

# Set on the request by the backend when it refuses; read by the callback view to explain why.
REFUSAL_ATTRIBUTE = "govbr_refusal"
# Clock difference tolerated between gov.br and this server when checking the ID token's times.
LEEWAY_SECONDS = 30

REFUSALS: dict[str, str] = {
    "unknown_cpf": (
        "Seu CPF não consta no cadastro de autorizatários, condutores e monitores da prefeitura. O portal é para "
        "quem já está cadastrado: procure a secretaria de transportes para se cadastrar."
    ),
    "suspended": "Sua conta do portal está suspensa. Procure a secretaria de transportes.",
    "several": (
        "Há mais de uma conta do portal ligada ao seu CPF. Entre com o usuário e a senha da conta que deseja usar."
    ),
    "expired": "A resposta do gov.br expirou. Tente entrar de novo.",
    "invalid_token": "A resposta do gov.br não pôde ser confirmada. Tente entrar de novo.",
    "state": (
        "Esta tentativa de entrada não foi iniciada neste navegador ou já foi usada. Clique de novo em "
        "“Entrar com gov.br”."
    ),
    "unavailable": "O gov.br não respondeu. Tente de novo em alguns minutos ou entre com usuário e senha.",
    "cancelled": "A entrada pelo gov.br foi cancelada.",
}


def deny_login(request: HttpRequest, reason: str) -> PermissionDenied:
    """Remember why on the request; PermissionDenied stops Django trying the other backends."""
    setattr(request, REFUSAL_ATTRIBUTE, reason)
    return PermissionDenied(reason)


class GovBrBackend(OIDCAuthenticationBackend):  # type: ignore[misc]  # the package has no type hints
    """Only for the gov.br callback (which passes `nonce`): a password login never reaches the provider."""

    def authenticate(self, request: HttpRequest | None, **kwargs: Any) -> User | None:
        if not settings.GOVBR_ENABLED or request is None or "nonce" not in kwargs:
            return None
        try:
            user: User | None = super().authenticate(request, **kwargs)
        except requests.RequestException as exc:
            raise deny_login(request, "unavailable") from exc
        return user

    def verify_token(self, token: str, **kwargs: Any) -> dict[str, Any]:
        """Signature by a key of gov.br's JWKS, issuer, audience (this client), expiry, and the nonce this browser
        was given (an ID token from another login is refused)."""
        request = self.request
        try:
            key = self.retrieve_matching_jwk(token)
            payload: dict[str, Any] = jwt.decode(
                token,
                key,
                algorithms=[self.OIDC_RP_SIGN_ALGO],
                audience=self.OIDC_RP_CLIENT_ID,
                issuer=settings.GOVBR_OIDC_ISSUER,
                leeway=LEEWAY_SECONDS,
                options={"require": ["iss", "sub", "aud", "exp", "iat"]},
            )
        except jwt.ExpiredSignatureError as exc:
            raise deny_login(request, "expired") from exc
        except (jwt.InvalidTokenError, SuspiciousOperation) as exc:
            raise deny_login(request, "invalid_token") from exc
        if payload.get("nonce") != kwargs.get("nonce"):
            raise deny_login(request, "invalid_token")
        return payload

    def get_or_create_user(self, access_token: str, id_token: str, payload: dict[str, Any]) -> User | None:
        cpf = str(payload["sub"])
        try:
            validate_cpf(cpf)
        except ValidationError as exc:
            raise deny_login(self.request, "invalid_token") from exc
        userinfo = self.get_userinfo(access_token, id_token, payload)
        if str(userinfo.get("sub", "")) != cpf:
            raise deny_login(self.request, "invalid_token")
        return self._portal_user(cpf, userinfo)

    def _portal_user(self, cpf: str, userinfo: dict[str, Any]) -> User:
        accounts = list(portal_accounts_for_cpf(cpf))
        usable = {account.user for account in accounts if account.active and account.user.is_active}
        if len(usable) == 1:
            return usable.pop()
        if len(usable) > 1:
            raise deny_login(self.request, "several")
        if accounts:
            raise deny_login(self.request, "suspended")
        account = services.portal_account_govbr_create(
            cpf=cpf, full_name=str(userinfo.get("name", "")), email=str(userinfo.get("email", ""))
        )
        if account is None:
            raise deny_login(self.request, "unknown_cpf")
        return account.user
