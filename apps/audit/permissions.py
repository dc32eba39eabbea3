from apps.tenancy.choices import Role
from apps.tenancy.permissions import AUDIT, CHANGE, VIEW, register

# Administrators may look at the log of what happened in their municipality; only the
# auditor/DPO runs audits (chain verification, personal-data access reports).
register("audit.auditevent", {VIEW: {Role.AUDITOR_DPO, Role.ADMINISTRATOR}, AUDIT: {Role.AUDITOR_DPO}})
# Data-subject requests carry the requester's CPF and what they asked: the encarregado's work alone.
register("audit.datasubjectrequest", {VIEW: {Role.AUDITOR_DPO}, CHANGE: {Role.AUDITOR_DPO}})
