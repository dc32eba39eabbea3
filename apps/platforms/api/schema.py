"""Tell drf-spectacular how platforms authenticate, so the OpenAPI schema shows the Bearer token scheme."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class PlatformTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    target_class = "apps.platforms.authentication.PlatformTokenAuthentication"
    name = "platformToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "http",
            "scheme": "bearer",
            "bearerFormat": "otp_<8>_<43>",
            "description": "Token da plataforma para UM município (emitido pela prefeitura, mostrado uma vez).",
        }
