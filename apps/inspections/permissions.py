"""Who may see, schedule and record inspections.

Inspectors run them; analysts schedule the inspection an application waits for and read the result; the
administrator does both; agents read results on the street; the auditor/DPO reads everything.
"""

from apps.tenancy.choices import Role
from apps.tenancy.permissions import CHANGE, VIEW, register

SCHEDULE = "schedule"
READERS = {Role.INSPECTOR, Role.ANALYST, Role.ADMINISTRATOR, Role.ENFORCEMENT_AGENT, Role.AUDITOR_DPO}

register(
    "inspections.inspection",
    {
        VIEW: READERS,
        SCHEDULE: {Role.INSPECTOR, Role.ANALYST, Role.ADMINISTRATOR},
        CHANGE: {Role.INSPECTOR, Role.ADMINISTRATOR},
    },
)

# Missed calendar inspections: agents draw up the auto (or dismiss the finding); the others read them.
register(
    "inspections.missedinspection",
    {VIEW: READERS, CHANGE: {Role.ENFORCEMENT_AGENT, Role.ADMINISTRATOR}},
)
