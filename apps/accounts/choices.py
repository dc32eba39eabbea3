from django.db import models


class UserKind(models.TextChoices):
    """Who the account belongs to; staff roles per municipality live in tenancy.Membership."""

    STAFF = "staff", "Servidor da prefeitura"
    OPERATOR = "operator", "Permissionário"
    DRIVER = "driver", "Condutor"
    PLATFORM = "platform", "Operadora de plataforma"
