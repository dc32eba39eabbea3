"""Who may see and write autos de infração (read by the tenancy gate).

Agents draw up autos; judges and the board read them in proceedings; finance reads them for fines; the DPO
audits. Notices and editais are sent by the agents and the administration (authority staff).
"""

from apps.tenancy.choices import Role
from apps.tenancy.permissions import CHANGE, VIEW, register

AGENTS = {Role.ADMINISTRATOR, Role.ENFORCEMENT_AGENT}
READERS = AGENTS | {Role.JUDGING_AUTHORITY, Role.APPEAL_BOARD, Role.FINANCE, Role.AUDITOR_DPO, Role.ANALYST}
# The authority may also record that a fact was already punished as a traffic infraction (Olímpia art. 21 §2).
NOTIFIERS = AGENTS | {Role.JUDGING_AUTHORITY, Role.APPEAL_BOARD}

# FILE: drawing up autos (agents only); CHANGE: later marks on the case, which the authority may also record.
FILE = "file"
register(
    "enforcement.infractioncase", {VIEW: READERS, FILE: AGENTS, CHANGE: AGENTS | {Role.JUDGING_AUTHORITY}}
)
register("enforcement.evidence", {VIEW: READERS, CHANGE: AGENTS})
register("enforcement.notice", {VIEW: READERS, CHANGE: NOTIFIERS})
register("enforcement.edital", {VIEW: READERS, CHANGE: NOTIFIERS})
register("enforcement.caseevent", {VIEW: READERS})
