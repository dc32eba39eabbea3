from apps.tenancy.choices import Role
from apps.tenancy.permissions import VIEW, register

# Who sees the files still waiting for the store (/operacao/): the municipality's administrators, who call
# the IT team, and the auditor/DPO.
register("ops.pendingfile", {VIEW: {Role.ADMINISTRATOR, Role.AUDITOR_DPO}})
