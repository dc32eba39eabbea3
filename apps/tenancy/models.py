from __future__ import annotations

from typing import Any, ClassVar

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

from apps.tenancy.choices import UF, UF_IBGE_PREFIX, Role
from apps.tenancy.permissions import roles_allowed
from apps.tenancy.querysets import MunicipalityScopedQuerySet
from apps.tenancy.validators import validate_ibge_code, validate_regime_ids


class MunicipalityQuerySet(MunicipalityScopedQuerySet["Municipality"]):
    municipality_field: ClassVar[str] = "pk"

    def where_user_may(self, user: Any, model_label: str, action: str) -> MunicipalityQuerySet:
        """Municipalities where the user may do `action` on rows of another model (filter choices)."""
        if user is None or not user.is_authenticated or not user.is_active:
            return self.none()
        if user.is_superuser:
            return self
        roles = roles_allowed(model_label, action)
        return self.filter(
            pk__in=Membership.objects.filter(user_id=user.pk, role__in=roles).values("municipality_id")
        )


class Municipality(models.Model):
    """A prefeitura using Outorga; every municipal row hangs from one of these."""

    ibge_code = models.CharField("código IBGE", max_length=7, unique=True, validators=[validate_ibge_code])
    name = models.CharField("nome", max_length=120)
    uf = models.CharField("UF", max_length=2, choices=UF.choices)
    slug = models.SlugField("identificador na URL", max_length=80, unique=True)
    # Regime ids from lawcode (e.g. "exemplo_sp_escolar"); JSON keeps SQLite and PostgreSQL alike.
    regimes = models.JSONField("regimes legais", default=list, blank=True, validators=[validate_regime_ids])

    objects = MunicipalityQuerySet.as_manager()

    class Meta:
        verbose_name = "município"
        verbose_name_plural = "municípios"
        ordering = ["name"]

    def __str__(self) -> str:
        return f"{self.name}-{self.uf}"

    def clean(self) -> None:
        prefix = UF_IBGE_PREFIX.get(self.uf)
        if prefix and self.ibge_code and not self.ibge_code.startswith(prefix):
            raise ValidationError(
                {"ibge_code": f"O código IBGE de um município de {self.uf} começa com {prefix}."}
            )


class MembershipQuerySet(MunicipalityScopedQuerySet["Membership"]):
    def count_by_role(self) -> dict[str, int]:
        rows = self.values("role").annotate(total=models.Count("id")).order_by()
        return {row["role"]: row["total"] for row in rows}


class Membership(models.Model):
    """A staff user holds one role in one municipality; several rows for several roles."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships", verbose_name="usuário"
    )
    municipality = models.ForeignKey(
        Municipality, on_delete=models.PROTECT, related_name="memberships", verbose_name="município"
    )
    role = models.CharField("papel", max_length=32, choices=Role.choices)
    created_at = models.DateTimeField("criado em", auto_now_add=True)

    objects = MembershipQuerySet.as_manager()

    class Meta:
        verbose_name = "vínculo"
        verbose_name_plural = "vínculos"
        ordering = ["municipality__name", "role", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["user", "municipality", "role"], name="membership_unique_role"),
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_role_display()} em {self.municipality}"

    def audit_snapshot(self) -> dict[str, Any]:
        return {"user_id": self.user_id, "municipality": self.municipality.ibge_code, "role": self.role}
