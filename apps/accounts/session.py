"""What the session remembers about how, and how recently, its user proved who they are."""

from __future__ import annotations

import time
from typing import Any, Literal

from django.conf import settings
from django.http import HttpRequest

from apps.accounts.selectors import has_authenticator, second_factor_mandatory

# Epoch seconds of the last time the user typed their password *and* second factor (login or re-authentication).
AUTH_CONFIRMED_AT_KEY = "outorga_auth_confirmed_at"
# Epoch seconds of the user's last request (refreshed at most once a minute), for the inactivity timeout.
LAST_SEEN_KEY = "outorga_last_seen"

SecondFactorStep = Literal["verify", "enrol"]


def second_factor_step(user: Any) -> SecondFactorStep | None:
    """What a signed-in user still owes: a code from their authenticator, an enrolment (staff without one), or
    nothing (verified already, or a portal user who did not turn the second factor on)."""
    if not user.is_authenticated or _verified(user):
        return None
    if has_authenticator(user):
        return "verify"
    if second_factor_mandatory(user):
        return "enrol"
    return None


def _verified(user: Any) -> bool:
    # OTPMiddleware adds is_verified(); a user just signed in by login() is a fresh object without it.
    is_verified = getattr(user, "is_verified", None)
    return bool(is_verified()) if callable(is_verified) else False


def mark_authentication_confirmed(request: HttpRequest) -> None:
    """The user just proved who they are (password and code, at login or before a sensitive action): a privilege
    change, so the session gets a new id (ASVS 7.2.4) — one stolen before no longer carries it."""
    request.session.cycle_key()
    request.session[AUTH_CONFIRMED_AT_KEY] = time.time()


def authentication_is_recent(request: HttpRequest) -> bool:
    """Password and (when the user has one) second factor confirmed within REAUTHENTICATION_MINUTES."""
    confirmed_at = request.session.get(AUTH_CONFIRMED_AT_KEY)
    if not isinstance(confirmed_at, int | float):
        return False
    if second_factor_step(request.user) is not None:
        return False
    return time.time() - confirmed_at <= settings.REAUTHENTICATION_MINUTES * 60
