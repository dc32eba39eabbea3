"""Who in the secretariat may see the notifications sent to operators and drivers (read-only: the system
writes them)."""

from apps.tenancy.choices import Role
from apps.tenancy.permissions import VIEW, register

register("notifications.notification", {VIEW: {Role.ADMINISTRATOR, Role.ANALYST, Role.AUDITOR_DPO}})
