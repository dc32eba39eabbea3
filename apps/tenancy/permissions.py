"""The permission matrix: for each model label and action, which roles may perform it.

Apps register their models here (in their AppConfig.ready) and never check roles in views:
`MunicipalityScopedQuerySet.for_user(user, action)` reads this matrix. Asking for a model or
action nobody registered is a programming error and raises — silently denying would hide
the typo, silently allowing would leak data.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.core.exceptions import ImproperlyConfigured

from apps.tenancy.choices import Role

ALL_ROLES: frozenset[str] = frozenset(Role.values)

VIEW = "view"
CHANGE = "change"
JUDGE = "judge"
AUDIT = "audit"

_MATRIX: dict[str, dict[str, frozenset[str]]] = {}


class UnknownPermissionError(ImproperlyConfigured):
    pass


def register(model_label: str, rules: Mapping[str, Iterable[str]]) -> None:
    """Declare who may do what on a model, e.g. register("permits.permit", {"view": ALL_ROLES})."""
    label = model_label.lower()
    if label in _MATRIX:
        raise ImproperlyConfigured(f"Permissions for {label} are already registered")
    checked: dict[str, frozenset[str]] = {}
    for action, roles in rules.items():
        role_set = frozenset(roles)
        if not role_set <= ALL_ROLES:
            raise ImproperlyConfigured(f"Unknown roles for {label}.{action}: {sorted(role_set - ALL_ROLES)}")
        checked[action] = role_set
    _MATRIX[label] = checked


def roles_allowed(model_label: str, action: str) -> frozenset[str]:
    label = model_label.lower()
    try:
        return _MATRIX[label][action]
    except KeyError:
        raise UnknownPermissionError(
            f"No permission rule for action {action!r} on {label!r}; register it in tenancy.permissions"
        ) from None


def matrix() -> dict[str, dict[str, frozenset[str]]]:
    """A copy of the whole matrix, for documentation pages and tests."""
    return {label: dict(rules) for label, rules in _MATRIX.items()}


register(
    "tenancy.municipality",
    {VIEW: ALL_ROLES, CHANGE: {Role.ADMINISTRATOR}},
)
register(
    "tenancy.membership",
    {VIEW: ALL_ROLES, CHANGE: {Role.ADMINISTRATOR}},
)
# Seeing a colleague's CPF/phone is a personal-data read: administrators manage accounts,
# the DPO answers data-subject requests. Nobody else needs it.
register(
    "accounts.user",
    {VIEW: {Role.ADMINISTRATOR, Role.AUDITOR_DPO}},
)
# Invitations carry roles: only who may grant roles may see and send them.
register(
    "tenancy.staffinvitation",
    {VIEW: {Role.ADMINISTRATOR}, CHANGE: {Role.ADMINISTRATOR}},
)
