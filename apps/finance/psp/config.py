"""Per-municipality PSP settings read from the environment, keyed by the municipality's IBGE code.

    OUTORGA_PIX_PSP_<IBGE>_URL            base URL of the API Pix (e.g. https://pix.banco.example/api/v2)
    OUTORGA_PIX_PSP_<IBGE>_TOKEN_URL      OAuth2 token endpoint (client credentials)
    OUTORGA_PIX_PSP_<IBGE>_CLIENT_ID      OAuth2 client id
    OUTORGA_PIX_PSP_<IBGE>_CLIENT_SECRET  OAuth2 client secret
    OUTORGA_PIX_PSP_<IBGE>_CERT           client certificate (PEM) for mTLS — optional
    OUTORGA_PIX_PSP_<IBGE>_KEY            its private key (PEM) — optional, with CERT
    OUTORGA_PIX_PSP_<IBGE>_CA             CA bundle (PEM) that signs the PSP's server certificate — optional
    OUTORGA_PIX_PSP_<IBGE>_TIMEOUT        seconds per call (default 15)
    OUTORGA_PIX_WEBHOOK_<IBGE>_SECRET     HMAC-SHA256 secret of the webhook (header X-Pix-Signature) — optional
    OUTORGA_PIX_WEBHOOK_<IBGE>_CLIENT_CERT_SHA256
                                          fingerprint of the PSP's client certificate the TLS proxy verified
                                          (mTLS; headers X-SSL-Client-Verify / X-SSL-Client-Fingerprint) — optional

Settings are read when used (not at import), so a deployment adds a municipality by changing its environment
and restarting nothing but the processes; tests set them with monkeypatch.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from django.core.exceptions import ImproperlyConfigured

PREFIX = "OUTORGA_PIX_PSP_"
WEBHOOK_PREFIX = "OUTORGA_PIX_WEBHOOK_"


@dataclass(frozen=True)
class PspConfig:
    base_url: str
    token_url: str
    client_id: str
    client_secret: str
    cert: str = ""
    key: str = ""
    ca: str = ""
    timeout: float = 15.0


@dataclass(frozen=True)
class WebhookAuth:
    secret: str = ""
    client_cert_sha256: str = ""

    @property
    def configured(self) -> bool:
        return bool(self.secret or self.client_cert_sha256)


def _env(name: str) -> str:
    return os.environ.get(name, "").strip()


def psp_config(ibge_code: str) -> PspConfig | None:
    """The PSP of the municipality, or None when it has none (the guide keeps the static BR Code)."""
    prefix = f"{PREFIX}{ibge_code}_"
    base_url = _env(prefix + "URL")
    if not base_url:
        return None
    missing = [name for name in ("TOKEN_URL", "CLIENT_ID", "CLIENT_SECRET") if not _env(prefix + name)]
    if missing:
        raise ImproperlyConfigured(
            f"{prefix}URL is set but {', '.join(prefix + name for name in missing)} is not (docs/pix.md)."
        )
    if bool(_env(prefix + "CERT")) != bool(_env(prefix + "KEY")):
        raise ImproperlyConfigured(f"{prefix}CERT and {prefix}KEY go together (mTLS, docs/pix.md).")
    return PspConfig(
        base_url=base_url.rstrip("/"),
        token_url=_env(prefix + "TOKEN_URL"),
        client_id=_env(prefix + "CLIENT_ID"),
        client_secret=_env(prefix + "CLIENT_SECRET"),
        cert=_env(prefix + "CERT"),
        key=_env(prefix + "KEY"),
        ca=_env(prefix + "CA"),
        timeout=float(_env(prefix + "TIMEOUT") or 15),
    )


def webhook_auth(ibge_code: str) -> WebhookAuth:
    prefix = f"{WEBHOOK_PREFIX}{ibge_code}_"
    return WebhookAuth(
        secret=_env(prefix + "SECRET"),
        client_cert_sha256=_env(prefix + "CLIENT_CERT_SHA256").replace(":", "").lower(),
    )
