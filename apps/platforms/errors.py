"""Errors the platform API answers with: a stable machine code, a Portuguese message, an HTTP status."""

from __future__ import annotations

from rest_framework import status
from rest_framework.exceptions import APIException, AuthenticationFailed


class PlatformAPIError(APIException):
    def __init__(self, code: str, message: str, http_status: int = status.HTTP_400_BAD_REQUEST) -> None:
        super().__init__(detail={"code": code, "message": message})
        self.status_code = http_status
        self.error_code = code


class PlatformAuthError(PlatformAPIError, AuthenticationFailed):
    """A subclass of DRF's AuthenticationFailed, so the 401 carries the WWW-Authenticate challenge."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message, status.HTTP_401_UNAUTHORIZED)


def wrong_municipality() -> PlatformAPIError:
    return PlatformAPIError(
        "token_wrong_municipality",
        "Este token pertence a outro município; use o token emitido por esta prefeitura.",
        status.HTTP_403_FORBIDDEN,
    )


def not_found(message: str = "Registro não encontrado.") -> PlatformAPIError:
    return PlatformAPIError("not_found", message, status.HTTP_404_NOT_FOUND)
