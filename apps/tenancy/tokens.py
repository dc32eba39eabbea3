"""One-time tokens for invitation links: the link carries the token, the database only its SHA-256."""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets

# Long enough for someone to read the mail after a weekend, short enough that a forgotten link dies.
INVITATION_VALIDITY = dt.timedelta(days=3)


def new_token() -> tuple[str, str]:
    """A fresh (token, digest) pair; 32 random bytes cannot be guessed, so a plain digest is enough."""
    token = secrets.token_urlsafe(32)
    return token, token_digest(token)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
