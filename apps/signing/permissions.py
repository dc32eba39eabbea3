"""Who sees and changes the municipality's signing policy: every staff role reads it, administrators change it
(it decides which acts carry the municipality's signature, Lei 14.063/2020 art. 5º)."""

from apps.tenancy.choices import Role
from apps.tenancy.permissions import ALL_ROLES, CHANGE, VIEW, register

register("signing.signingpolicy", {VIEW: ALL_ROLES, CHANGE: {Role.ADMINISTRATOR}})
register("signing.issueddocument", {VIEW: ALL_ROLES})
