"""Test support: sign personas in with a verified second factor, and compute the codes a phone would show.

Used by conftest.py (Django test client) and tests/e2e/conftest.py (the browser). Not imported by the app.
"""

from __future__ import annotations

import time
from typing import Any

from django.test import Client
from django_otp import DEVICE_ID_SESSION_KEY
from django_otp.oath import totp
from django_otp.plugins.otp_totp.models import TOTPDevice

from apps.accounts.selectors import second_factor_mandatory
from apps.accounts.services import TOTP_DEVICE_NAME
from apps.accounts.session import AUTH_CONFIRMED_AT_KEY

# The authenticator secret every test persona's "phone" holds (hex, 20 bytes). Tests only.
PERSONA_TOTP_KEY = "3132333435363738393031323334353637383930"


def give_authenticator(user: Any, key: str = PERSONA_TOTP_KEY) -> TOTPDevice:
    """The user's confirmed authenticator (created with `key` if they have none)."""
    device = TOTPDevice.objects.filter(user=user, confirmed=True).first()
    if device is None:
        device = TOTPDevice.objects.create(user=user, name=TOTP_DEVICE_NAME, key=key, confirmed=True)
    return device


def complete_second_factor(client: Client, user: Any) -> None:
    """What typing the code right after the password does to a session: verified, and confirmed just now.

    Staff get an authenticator if they have none; a portal user without one has nothing to verify.
    """
    device = TOTPDevice.objects.filter(user=user, confirmed=True).first()
    if device is None and second_factor_mandatory(user):
        device = give_authenticator(user)
    session = client.session
    if device is not None:
        session[DEVICE_ID_SESSION_KEY] = device.persistent_id
    session[AUTH_CONFIRMED_AT_KEY] = time.time()
    session.save()


def next_code(device: TOTPDevice) -> str:
    """A code the device accepts now: the current one, or the next step's if the current was already used
    (django-otp refuses a code twice). Waits for the clock when even that is used."""
    device.refresh_from_db()
    while True:
        now_step = (int(time.time()) - device.t0) // device.step
        expected = now_step + device.drift  # the device tracks the phone's clock drift (OTP_TOTP_SYNC)
        wanted = max(expected, device.last_t + 1)
        if wanted - expected <= device.tolerance:
            code = totp(device.bin_key, device.step, device.t0, device.digits, wanted - now_step)
            return f"{code:0{device.digits}d}"
        time.sleep(1)


def make_confirmation_stale(client: Client, minutes: float = 16) -> None:
    """What time does to a session: its last password-and-code confirmation is `minutes` old (tests of the
    step-up re-authentication, REAUTHENTICATION_MINUTES being 15 by default)."""
    session = client.session
    session[AUTH_CONFIRMED_AT_KEY] = time.time() - minutes * 60
    session.save()
