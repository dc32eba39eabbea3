"""Who among the staff sees and handles platform substitution notices (read by the tenancy gate)."""

from apps.tenancy.choices import Role
from apps.tenancy.permissions import CHANGE, VIEW, register

HANDLERS = {Role.ADMINISTRATOR, Role.ANALYST}

register(
    "platforms.substitutionreport",
    {VIEW: HANDLERS | {Role.AUDITOR_DPO, Role.ENFORCEMENT_AGENT}, CHANGE: HANDLERS},
)
register(
    "platforms.platformcredential",
    {VIEW: {Role.ADMINISTRATOR, Role.AUDITOR_DPO}, CHANGE: {Role.ADMINISTRATOR}},
)
register(
    "platforms.rosterimport",
    {VIEW: HANDLERS | {Role.AUDITOR_DPO}, CHANGE: HANDLERS},
)
