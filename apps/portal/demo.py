"""Demo portal logins: one holder per regime, `<municipality>.permissionario` with the shared demo password.

Each is tied to the operator, among those with a permit in force (active or suspended), that the enforcement demo
drew the most autos against: the login shows permits, documents, applications, notices and autos to defend.
Idempotent (an existing login is kept).
"""

from __future__ import annotations

from django.db.models import Count

from apps.accounts.models import User
from apps.licensing.choices import PERMIT_IN_FORCE_STATES
from apps.licensing.models import Permit
from apps.portal.choices import PortalRole
from apps.portal.services import portal_account_create
from apps.registry.models import Operator
from apps.tenancy.demo import DEMO_MUNICIPALITIES, DemoLog, DemoLogin, demo_password, register_demo_seeder
from apps.tenancy.models import Municipality

PORTAL_LOGIN_LABEL = "Portal do autorizatário"


@register_demo_seeder
def seed_portal(log: DemoLog) -> None:
    for demo in DEMO_MUNICIPALITIES:
        municipality = Municipality.objects.filter(ibge_code=demo.ibge_code).first()
        operator = _busiest_licensed_operator(municipality) if municipality is not None else None
        if municipality is None or operator is None:
            continue
        username = f"{demo.short}.permissionario"
        if not User.objects.filter(username=username).exists():
            portal_account_create(
                actor=None,
                operator=operator,
                role=PortalRole.OPERATOR,
                username=username,
                password=demo_password(username),
                full_name=f"{operator.holder_name} (demonstração)",
            )
            log.created += 1
        log.logins.append(DemoLogin(username, demo_password(username), str(municipality), PORTAL_LOGIN_LABEL))


def _busiest_licensed_operator(municipality: Municipality) -> Operator | None:
    in_force = Permit.objects.filter(municipality=municipality, state__in=PERMIT_IN_FORCE_STATES)
    operators = Operator.objects.filter(pk__in=in_force.values("operator_id"))
    return operators.annotate(autos=Count("infraction_cases")).order_by("-autos", "pk").first()
