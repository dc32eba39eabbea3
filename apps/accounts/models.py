from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.crypto import salted_hmac
from django_otp.models import Device, ThrottlingMixin

from apps.accounts.choices import UserKind
from apps.accounts.validators import validate_cpf, validate_phone

# Fields whose display to staff is a personal-data read that must be audited (LGPD art. 37).
PERSONAL_DATA_FIELDS: tuple[str, ...] = ("cpf", "phone", "email")


class User(AbstractUser):  # type: ignore[django-manager-missing]  # reverse FK of an untyped django-otp Device
    """Every person who signs in: prefeitura staff, operators, drivers and platforms.

    Login stays by username; `full_name` replaces Django's first/last name split, which
    does not fit Brazilian names.
    """

    full_name = models.CharField("nome completo", max_length=200, blank=True)
    kind = models.CharField("tipo de conta", max_length=16, choices=UserKind.choices, default=UserKind.STAFF)
    cpf = models.CharField("CPF", max_length=11, blank=True, validators=[validate_cpf])
    phone = models.CharField("telefone", max_length=20, blank=True, validators=[validate_phone])

    class Meta:
        verbose_name = "usuário"
        verbose_name_plural = "usuários"
        ordering = ["username"]

    def __str__(self) -> str:
        return self.display_name

    @property
    def display_name(self) -> str:
        return self.full_name or self.username


# Salt of the keyed hash of recovery codes; changing it invalidates every stored code.
RECOVERY_CODE_HASH_SALT = "outorga.accounts.recovery-code"


def recovery_code_digests(code: str) -> list[str]:
    """The keyed hashes (HMAC-SHA256, keyed by SECRET_KEY and its fallbacks) a stored code may have.

    Keyed with a secret kept outside the database, a copy of the table cannot be brute-forced offline (ASVS
    6.5.2); the fallbacks keep codes valid while SECRET_KEY is being rotated."""
    secrets = [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]
    return [
        salted_hmac(RECOVERY_CODE_HASH_SALT, code, secret=key, algorithm="sha256").hexdigest()
        for key in secrets
    ]


class RecoveryCodeDevice(ThrottlingMixin, Device):  # type: ignore[misc]  # django-otp has no type hints
    """A user's single-use recovery codes (the backup of the authenticator app), kept only as keyed hashes: the
    codes themselves are shown once, when generated, and never stored."""

    class Meta:
        verbose_name = "códigos de recuperação"
        verbose_name_plural = "códigos de recuperação"

    def get_throttle_factor(self) -> int:
        return int(getattr(settings, "OTP_STATIC_THROTTLE_FACTOR", 1))

    def verify_token(self, token: str) -> bool:
        """A matching code is used up at once; a wrong one makes the next attempt wait (1 s, 2 s, 4 s...)."""
        if not self.verify_is_allowed()[0]:
            return False
        match = self.codes.filter(digest__in=recovery_code_digests(token)).first()
        if match is None:
            self.throttle_increment()
            return False
        match.delete()
        self.throttle_reset()
        return True


class RecoveryCode(models.Model):
    """One single-use recovery code of a user, kept only as a keyed digest; used up when it matches."""

    device = models.ForeignKey(RecoveryCodeDevice, on_delete=models.CASCADE, related_name="codes")
    digest = models.CharField("resumo (HMAC-SHA256)", max_length=64, db_index=True)

    class Meta:
        verbose_name = "código de recuperação"
        verbose_name_plural = "códigos de recuperação"

    def __str__(self) -> str:
        return f"Código de recuperação {self.pk} de {self.device.user}"
