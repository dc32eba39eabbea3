"""Who may see and change finance rows.

Finance staff run the screens (guides, payments, refunds). Analysts read guides because they hand the guide of
an application's fee to the applicant; administrators and the auditor/DPO read everything. Only finance
registers payments and refunds; only administrators change the PIX receiver and the fee schedule, because
they change every guide issued from then on.
"""

from apps.tenancy.choices import Role
from apps.tenancy.permissions import ALL_ROLES, CHANGE, VIEW, register

READERS = {Role.FINANCE, Role.ADMINISTRATOR, Role.AUDITOR_DPO, Role.ANALYST}
MONEY_READERS = {Role.FINANCE, Role.ADMINISTRATOR, Role.AUDITOR_DPO}
ISSUE = "issue"

register("finance.paymentguide", {VIEW: READERS, CHANGE: {Role.FINANCE}, ISSUE: {Role.FINANCE, Role.ANALYST}})
register("finance.payment", {VIEW: MONEY_READERS, CHANGE: {Role.FINANCE}})
register("finance.refund", {VIEW: MONEY_READERS, CHANGE: {Role.FINANCE}})
register("finance.feeschedule", {VIEW: ALL_ROLES, CHANGE: {Role.ADMINISTRATOR}})
register("finance.financesettings", {VIEW: MONEY_READERS, CHANGE: {Role.ADMINISTRATOR}})
register("finance.finevaluation", {VIEW: READERS, CHANGE: {Role.FINANCE}})
register("finance.waitingguide", {VIEW: READERS, CHANGE: {Role.FINANCE}})
register("finance.paymentreview", {VIEW: MONEY_READERS, CHANGE: {Role.FINANCE}})
register("finance.pixchargeterms", {VIEW: MONEY_READERS, CHANGE: {Role.ADMINISTRATOR}})
register("finance.pixcharge", {VIEW: READERS, CHANGE: {Role.FINANCE}})
register("finance.pixreceived", {VIEW: MONEY_READERS, CHANGE: {Role.FINANCE}})
register("finance.taxfeedevent", {VIEW: MONEY_READERS})
