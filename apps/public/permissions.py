"""Who may read and handle public complaints and lookup statistics (read by the tenancy gate)."""

from apps.tenancy.choices import Role
from apps.tenancy.permissions import CHANGE, VIEW, register

HANDLERS = {Role.ADMINISTRATOR, Role.ANALYST, Role.ENFORCEMENT_AGENT}

register("public.complaint", {VIEW: HANDLERS | {Role.AUDITOR_DPO}, CHANGE: HANDLERS})
register("public.lookupcount", {VIEW: {Role.ADMINISTRATOR, Role.AUDITOR_DPO, Role.ANALYST}})
