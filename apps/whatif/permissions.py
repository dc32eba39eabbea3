"""Who may simulate a change of the law: those who may adopt one (apps.lawconfig), the administrators."""

from apps.tenancy.choices import Role
from apps.tenancy.permissions import CHANGE, VIEW, register

register("whatif.whatifrun", {VIEW: {Role.ADMINISTRATOR}, CHANGE: {Role.ADMINISTRATOR}})
