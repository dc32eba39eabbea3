"""Demo portal logins: one holder per regime, `<municipality>.permissionario` / `demo-<municipality>-permissionario`,
tied to the operator of the first active permit — the one the enforcement demo drew autos against, so the login
shows permits, documents, applications, notices and an auto to defend. Idempotent (an existing login is kept).
"""

from __future__ import annotations

from apps.accounts.models import User
from apps.licensing.models import Permit
from apps.portal.choices import PortalRole
from apps.portal.services import portal_account_create
from apps.tenancy.demo import DEMO_MUNICIPALITIES, DemoLog, DemoLogin, demo_password, register_demo_seeder
from apps.tenancy.models import Municipality

PORTAL_LOGIN_LABEL = "Portal do autorizatário"


@register_demo_seeder
def seed_portal(log: DemoLog) -> None:
    for demo in DEMO_MUNICIPALITIES:
        municipality = Municipality.objects.filter(ibge_code=demo.ibge_code).first()
        permit = Permit.objects.filter(municipality=municipality, state="active").order_by("pk").first()
        if municipality is None or permit is None:
            continue
        username = f"{demo.short}.permissionario"
        if not User.objects.filter(username=username).exists():
            portal_account_create(actor=None, operator=permit.operator, role=PortalRole.OPERATOR, username=username,
                                  password=demo_password(username),
                                  full_name=f"{permit.operator.holder_name} (demonstração)")  # fmt: skip
            log.created += 1
        log.logins.append(DemoLogin(username, demo_password(username), str(municipality), PORTAL_LOGIN_LABEL))
