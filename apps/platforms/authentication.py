"""DRF authentication for platforms: `Authorization: Bearer otp_…`, one credential per platform and town."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.request import Request

from apps.platforms.errors import PlatformAuthError
from apps.platforms.models import PlatformCredential
from apps.platforms.tokens import token_hash, well_formed


class PlatformUser:
    """What request.user is for a platform: authenticated, never staff, bound to its credential."""

    is_authenticated = True
    is_active = True
    is_staff = False
    is_superuser = False
    pk = None

    def __init__(self, credential: PlatformCredential) -> None:
        self.credential = credential

    def __str__(self) -> str:
        return f"plataforma {self.credential.platform.name}"


class PlatformTokenAuthentication(BaseAuthentication):
    keyword = "Bearer"

    def authenticate(self, request: Request) -> tuple[PlatformUser, PlatformCredential] | None:
        token = self._token_from_header(request)
        credential = (
            PlatformCredential.objects.select_related("platform", "municipality")
            .filter(token_hash=token_hash(token))
            .first()
        )
        if credential is None:
            raise PlatformAuthError("token_unknown", "Token não reconhecido.")
        if credential.revoked_at is not None:
            raise PlatformAuthError("token_revoked", "Token revogado pela prefeitura; peça um novo.")
        PlatformCredential.objects.filter(pk=credential.pk).update(last_used_at=timezone.now())
        return PlatformUser(credential), credential

    def _token_from_header(self, request: Request) -> str:
        parts = get_authorization_header(request).split()
        if not parts or parts[0].decode(errors="replace") != self.keyword:
            raise PlatformAuthError(
                "token_missing", "Envie o token no cabeçalho Authorization: Bearer <token>."
            )
        if len(parts) != 2:
            raise PlatformAuthError("token_malformed", "Cabeçalho Authorization malformado.")
        token = parts[1].decode(errors="replace")
        if not well_formed(token):
            raise PlatformAuthError("token_malformed", "Token em formato inválido.")
        return token

    def authenticate_header(self, request: Any) -> str:
        return 'Bearer realm="plataformas"'
