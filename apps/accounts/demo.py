"""Demo: every demo staff login gets the same public authenticator key, so the demonstration stays usable with
any authenticator app (or `oathtool --totp -b KEY`). Public like the demo passwords: never in production.

The demo seeding is tenancy's (apps/tenancy/demo.py, a layer above accounts): its last seeder hands the logins
every other seeder listed to seed_demo_authenticators."""

from __future__ import annotations

from base64 import b32encode
from collections.abc import Iterable

from django_otp.plugins.otp_totp.models import TOTPDevice

from apps.accounts.models import User
from apps.accounts.selectors import second_factor_mandatory
from apps.accounts.services import TOTP_DEVICE_NAME

DEMO_TOTP_KEY = b"outorga-demonstracao".hex()
DEMO_TOTP_KEY_BASE32 = b32encode(bytes.fromhex(DEMO_TOTP_KEY)).decode()


def seed_demo_authenticators(usernames: Iterable[str]) -> int:
    """Confirms the public authenticator for each of these logins that must use a second factor and has none;
    returns how many it created."""
    created = 0
    for user in User.objects.filter(username__in=set(usernames)):
        if (
            second_factor_mandatory(user)
            and not TOTPDevice.objects.filter(user=user, confirmed=True).exists()
        ):
            TOTPDevice.objects.create(user=user, name=TOTP_DEVICE_NAME, key=DEMO_TOTP_KEY, confirmed=True)
            created += 1
    return created


DEMO_AUTHENTICATOR_NOTE = (
    f"Segundo fator dos servidores de demonstração: cadastre a chave {DEMO_TOTP_KEY_BASE32} (TOTP, 6 dígitos, "
    "30 s) num aplicativo autenticador, ou gere o código com: oathtool --totp -b " + DEMO_TOTP_KEY_BASE32
)
