"""Who may see and change a municipality's legal configuration.

Every staff role reads it (deadlines and fees shown everywhere depend on it); only administrators change it,
because a UFM value, a fleet cap or an interpretation choice changes every decision the engine takes from then on.
"""

from apps.tenancy.choices import Role
from apps.tenancy.permissions import ALL_ROLES, CHANGE, VIEW, register

for _label in (
    "lawconfig.fiscalunitvalue",
    "lawconfig.interpretationchoice",
    "lawconfig.municipalclosure",
    "lawconfig.parametervalue",
):
    register(_label, {VIEW: ALL_ROLES, CHANGE: {Role.ADMINISTRATOR}})
