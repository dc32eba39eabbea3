from apps.tenancy.choices import Role
from apps.tenancy.permissions import AUDIT, VIEW, register

# Administrators may look at the log of what happened in their municipality; only the
# auditor/DPO runs audits (chain verification, personal-data access reports).
register("audit.auditevent", {VIEW: {Role.AUDITOR_DPO, Role.ADMINISTRATOR}, AUDIT: {Role.AUDITOR_DPO}})
