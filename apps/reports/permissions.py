"""Who may open the managers' reports: the administrator and the auditor/DPO of the municipality.

Each section also needs the reader's view permission on the rows it counts (permits, vehicles, documents,
autos, guides), so a report never shows totals of data the person could not list.
"""

from apps.tenancy.choices import Role
from apps.tenancy.permissions import VIEW, register

REPORT = "reports.report"

register(REPORT, {VIEW: {Role.ADMINISTRATOR, Role.AUDITOR_DPO}})
