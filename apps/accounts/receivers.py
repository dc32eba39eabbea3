"""Sign-in events from Django (login, failure, logout) and django-axes (lockout) into the audit trail.

Connected in AccountsConfig.ready. The credentials Django passes on failure are already cleansed, and we
read only the username from them: no password ever reaches the audit log.
"""

from __future__ import annotations

import time
from typing import Any

from axes.helpers import get_client_ip_address
from axes.signals import user_locked_out
from django.contrib.auth.signals import user_logged_in, user_logged_out, user_login_failed
from django.dispatch import receiver
from django.http import HttpRequest

from apps.accounts import services
from apps.accounts.models import User
from apps.accounts.session import LAST_SEEN_KEY

# Set on the request by whoever logs a user out for a reason other than the "Sair" button.
LOGOUT_REASON_ATTRIBUTE = "outorga_logout_reason"


def client_ip(request: HttpRequest | None) -> str:
    if request is None:
        return ""
    return str(getattr(request, "axes_ip_address", "") or get_client_ip_address(request) or "")


def _path(request: HttpRequest | None) -> str:
    return request.path if request is not None else ""


@receiver(user_logged_in, dispatch_uid="accounts.audit_login")
def audit_login(sender: Any, request: HttpRequest | None, user: User, **kwargs: Any) -> None:
    services.login_success_record(user=user, client_ip=client_ip(request), path=_path(request))


@receiver(user_logged_in, dispatch_uid="accounts.start_idle_clock")
def start_idle_clock(sender: Any, request: HttpRequest | None, user: User, **kwargs: Any) -> None:
    # The inactivity timeout counts from the login, not from the first page after it.
    if request is not None and hasattr(request, "session"):
        request.session[LAST_SEEN_KEY] = time.time()


@receiver(user_login_failed, dispatch_uid="accounts.audit_login_failed")
def audit_login_failed(
    sender: Any, credentials: dict[str, Any], request: HttpRequest | None = None, **kwargs: Any
) -> None:
    username = str(credentials.get("username") or "")
    services.login_failure_record(username=username, client_ip=client_ip(request), path=_path(request))


@receiver(user_locked_out, dispatch_uid="accounts.audit_locked_out")
def audit_locked_out(
    sender: Any, request: HttpRequest, username: str | None, ip_address: str, **kwargs: Any
) -> None:
    services.lockout_record(username=username or "", client_ip=ip_address or "", path=_path(request))


@receiver(user_logged_out, dispatch_uid="accounts.audit_logout")
def audit_logout(sender: Any, request: HttpRequest | None, user: User | None, **kwargs: Any) -> None:
    if user is None:  # the session had no user: nothing to record
        return
    reason = getattr(request, LOGOUT_REASON_ATTRIBUTE, "user")
    services.logout_record(user=user, client_ip=client_ip(request), reason=reason)
