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
    # When each regime was added or ended from the screens (services.municipality_regime_add/_end): regime id →
    # {"from": ISO date, "until": ISO date or null, first day no longer in force}. ``regimes`` holds those in
    # force today; the daily sweep (municipality_regimes_sync) moves a regime in or out on its date.
    regime_terms = models.JSONField("vigência dos regimes", default=dict, blank=True)
    # Shown by the public lookup next to every answer: whom a parent or passenger calls about a vehicle.
    public_contact = models.TextField(
        "contato da secretaria para o público",
        max_length=500,
        blank=True,
        help_text="Órgão responsável, telefone, e-mail e endereço de atendimento.",
    )

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


class DeploymentAdministrator(models.Model):
    """The installation's administrator (whoever runs the Outorga server for one or more prefeituras).

    Not a Django superuser: it sees no municipal row by itself. It may create municipalities and becomes
    the administrator (a Membership) of each one it creates, so everything it does there goes through the
    same permission matrix and audit trail as any municipal administrator. Created by
    `manage.py outorga_setup_admin`.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="deployment_admin",
        verbose_name="usuário",
    )
    created_at = models.DateTimeField("criado em", auto_now_add=True)

    class Meta:
        verbose_name = "administrador da instalação"
        verbose_name_plural = "administradores da instalação"

    def __str__(self) -> str:
        return str(self.user)


def is_deployment_admin(user: Any) -> bool:
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    return DeploymentAdministrator.objects.filter(user_id=user.pk).exists()


class InvitationState(models.TextChoices):
    PENDING = "pending", "Aguardando o convidado"
    ACCEPTED = "accepted", "Aceito"
    REVOKED = "revoked", "Cancelado"
    EXPIRED = "expired", "Expirado"


class Invitation(models.Model):
    """A one-time link sent by e-mail that lets someone create their login and set their password.

    Only the SHA-256 of the token is stored: a copy of the database does not hold usable links. The account
    itself is created when the link is used, so an expired or cancelled invitation leaves nothing behind.
    """

    email = models.EmailField("e-mail")
    full_name = models.CharField("nome completo", max_length=200)
    token_hash = models.CharField("resumo do token", max_length=64, unique=True)
    created_at = models.DateTimeField("criado em", auto_now_add=True)
    expires_at = models.DateTimeField("expira em")
    accepted_at = models.DateTimeField("aceito em", null=True, blank=True)
    revoked_at = models.DateTimeField("cancelado em", null=True, blank=True)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="convidado por",
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="conta criada",
    )

    class Meta:
        abstract = True

    def state(self, now: Any) -> InvitationState:
        if self.accepted_at is not None:
            return InvitationState.ACCEPTED
        if self.revoked_at is not None:
            return InvitationState.REVOKED
        if now >= self.expires_at:
            return InvitationState.EXPIRED
        return InvitationState.PENDING

    def is_usable(self, now: Any) -> bool:
        return self.state(now) == InvitationState.PENDING


def validate_role_list(value: Any) -> None:
    if not isinstance(value, list) or not value or not set(value) <= set(Role.values):
        raise ValidationError("Papéis: escolha ao menos um papel da lista.", code="invalid_roles")


class StaffInvitationQuerySet(MunicipalityScopedQuerySet["StaffInvitation"]):
    pass


class StaffInvitation(Invitation):
    """A municipality's administrator invites a servidor, who gets these roles when accepting."""

    municipality = models.ForeignKey(
        Municipality, on_delete=models.PROTECT, related_name="staff_invitations", verbose_name="município"
    )
    roles = models.JSONField("papéis", default=list, validators=[validate_role_list])

    objects = StaffInvitationQuerySet.as_manager()

    class Meta:
        verbose_name = "convite de servidor"
        verbose_name_plural = "convites de servidores"
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"Convite de {self.full_name} para {self.municipality}"

    @property
    def role_labels(self) -> list[str]:
        return [Role(role).label for role in self.roles]

    def audit_snapshot(self) -> dict[str, Any]:
        # The e-mail address stays out of the permanent log (LGPD art. 6 III): the row keeps it.
        return {
            "municipality": self.municipality.ibge_code,
            "roles": list(self.roles),
            "expires_at": self.expires_at,
            "invited_by": self.invited_by_id,
        }


class Counter(models.Model):
    """The last number given, per municipality, kind of number and year (applications, permits, autos, …).

    One table serves every yearly sequence; `apps.tenancy.numbering.number_take` is the only writer. Its row
    stays locked from the increment to the commit, so numbers are gapless and never repeat.
    """

    municipality = models.ForeignKey(Municipality, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=32)
    year = models.PositiveSmallIntegerField()
    last = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["municipality", "kind", "year"], name="counter_one_per_kind_and_year"
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.year}: {self.last}"
