"""Who in the secretariat may see and manage portal accounts (read by the tenancy gate)."""

from apps.tenancy.choices import Role
from apps.tenancy.permissions import CHANGE, VIEW, register

MANAGERS = {Role.ADMINISTRATOR, Role.ANALYST}

register("portal.portalaccount", {VIEW: MANAGERS | {Role.AUDITOR_DPO}, CHANGE: MANAGERS})
register("portal.portalinvitation", {VIEW: MANAGERS | {Role.AUDITOR_DPO}, CHANGE: MANAGERS})
register("portal.documentsubmission", {VIEW: MANAGERS | {Role.AUDITOR_DPO}, CHANGE: MANAGERS})
