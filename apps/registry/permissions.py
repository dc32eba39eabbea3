"""Who may see and change the registry.

Seeing the registry is part of every municipal job (analysts, inspectors, agents, judges, finance, the DPO);
changing it is the analysts' and administrators' job. Bans are written by enforcement (agents and judging
authorities) in a later issue, so those roles may change them too.
"""

from apps.tenancy.choices import Role
from apps.tenancy.permissions import ALL_ROLES, CHANGE, VIEW, register

REGISTRY_EDITORS = {Role.ADMINISTRATOR, Role.ANALYST}

_MODELS = (
    "person",
    "company",
    "operator",
    "driver",
    "attendant",
    "vehicle",
    "document",
    "trafficinfraction",
    "trafficrecordconfirmation",
)
for _model in _MODELS:
    register(f"registry.{_model}", {VIEW: ALL_ROLES, CHANGE: REGISTRY_EDITORS})
register(
    "registry.ban", {VIEW: ALL_ROLES, CHANGE: REGISTRY_EDITORS | {Role.JUDGING_AUTHORITY, Role.APPEAL_BOARD}}
)
