from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models

from apps.accounts.choices import UserKind
from apps.accounts.validators import validate_cpf, validate_phone

# Fields whose display to staff is a personal-data read that must be audited (LGPD art. 37).
PERSONAL_DATA_FIELDS: tuple[str, ...] = ("cpf", "phone", "email")


class User(AbstractUser):
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
