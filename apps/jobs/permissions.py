from apps.tenancy.choices import Role
from apps.tenancy.permissions import VIEW, register

# Administrators see what the system sent on their municipality's behalf (and whether it arrived); the
# auditor/DPO too, since e-mails carry personal data.
register("jobs.outboundmail", {VIEW: {Role.ADMINISTRATOR, Role.AUDITOR_DPO}})
