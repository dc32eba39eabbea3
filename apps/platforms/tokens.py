"""API tokens: `otp_<prefix>_<secret>` shown once; only its SHA-256 is stored (a fast hash is enough for a
256-bit random secret — there is nothing to brute-force, unlike a password)."""

from __future__ import annotations

import hashlib
import re
import secrets

TOKEN_SHAPE = re.compile(r"^otp_([A-Za-z0-9]{8})_([A-Za-z0-9_-]{43})$")


def new_token() -> tuple[str, str]:
    """(token, prefix). The prefix lets staff tell credentials apart without seeing the token."""
    prefix = secrets.token_hex(4)
    return f"otp_{prefix}_{secrets.token_urlsafe(32)}", prefix


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def well_formed(token: str) -> bool:
    return TOKEN_SHAPE.match(token) is not None


def new_webhook_secret() -> str:
    return secrets.token_urlsafe(32)
