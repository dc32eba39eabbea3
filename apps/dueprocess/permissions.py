"""Who may see and act in due process (read by the tenancy gate).

Paper filings are registered by the protocol staff (administration, analysts) and by the judges themselves;
only the judging authority judges the first instance and only the appeal board the second. Finance
charges fines and exports unpaid ones for dívida ativa.
"""

from apps.tenancy.choices import Role
from apps.tenancy.permissions import CHANGE, VIEW, register

JUDGES = {Role.JUDGING_AUTHORITY, Role.APPEAL_BOARD}
READERS = {Role.ADMINISTRATOR, Role.ANALYST, Role.ENFORCEMENT_AGENT, Role.FINANCE, Role.AUDITOR_DPO} | JUDGES
FILERS = {Role.ADMINISTRATOR, Role.ANALYST} | JUDGES

JUDGE_FIRST = "judge_first"
JUDGE_SECOND = "judge_second"
CHARGE = "charge"
EXPORT = "export"

register(
    "dueprocess.appeal",
    {VIEW: READERS, CHANGE: FILERS, JUDGE_FIRST: {Role.JUDGING_AUTHORITY}, JUDGE_SECOND: {Role.APPEAL_BOARD}},
)
register("dueprocess.judgment", {VIEW: READERS})
register("dueprocess.appealattachment", {VIEW: READERS})
register(
    "dueprocess.sanction",
    {VIEW: READERS, CHANGE: FILERS, CHARGE: {Role.FINANCE, Role.ADMINISTRATOR}, EXPORT: {Role.FINANCE}},
)
register("dueprocess.effect", {VIEW: READERS, CHANGE: FILERS})
register("dueprocess.regularization", {VIEW: READERS})
