"""Who may see and move applications and permits (read by the tenancy gate)."""

from apps.tenancy.choices import Role
from apps.tenancy.permissions import ALL_ROLES, CHANGE, VIEW, register

ANALYSTS = {Role.ADMINISTRATOR, Role.ANALYST}

register(
    "licensing.application",
    {VIEW: ANALYSTS | {Role.INSPECTOR, Role.FINANCE, Role.AUDITOR_DPO}, CHANGE: ANALYSTS},
)
# Agents check permits on the street and judges read them in proceedings: every role sees permits.
register("licensing.permit", {VIEW: ALL_ROLES, CHANGE: ANALYSTS})
register("licensing.reminder", {VIEW: {Role.ADMINISTRATOR, Role.AUDITOR_DPO}})
