"""Demo data: the four municipalities of the project and one staff login per role in each.

Login scheme (documented in the README): `<municipality>.<role>`, e.g. olimpia.analista; the regional
administrator of all four is admin.regional. Every demo login shares the public password DEMO_PASSWORD
(one that passes the password validators: "demo-<username>" would be refused as too similar to the
username) and, for staff, the public authenticator key of apps/accounts/demo.py.

Everything goes through the services, so the audit chains start with the demo. Re-running finds
what exists and creates nothing. Later apps add their own demo rows with @register_demo_seeder.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.apps import apps as django_apps
from django.db import transaction
from django.utils.module_loading import autodiscover_modules

from apps.accounts.choices import UserKind
from apps.accounts.demo import DEMO_AUTHENTICATOR_NOTE, seed_demo_authenticators
from apps.accounts.models import User
from apps.accounts.services import user_create
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality
from apps.tenancy.services import deployment_admin_grant, membership_grant, municipality_create


@dataclass(frozen=True)
class DemoMunicipality:
    short: str
    ibge_code: str
    name: str
    uf: str
    regime: str
    ddd: str


DEMO_MUNICIPALITIES = (
    DemoMunicipality("olimpia", "3533908", "Olímpia", "SP", "olimpia_sp_escolar", "17"),
    DemoMunicipality("votuporanga", "3557105", "Votuporanga", "SP", "votuporanga_sp_escolar", "17"),
    DemoMunicipality("patrocinio", "3148103", "Patrocínio", "MG", "patrocinio_mg_aplicativo", "34"),
    DemoMunicipality("saojose", "3549904", "São José dos Campos", "SP", "sao_jose_dos_campos_sp_taxi", "12"),
)

# Short Portuguese word used in demo usernames, per role.
ROLE_LOGIN_WORD: dict[str, str] = {
    Role.ADMINISTRATOR: "administrador",
    Role.ANALYST: "analista",
    Role.INSPECTOR: "vistoriador",
    Role.ENFORCEMENT_AGENT: "agente",
    Role.JUDGING_AUTHORITY: "julgador",
    Role.APPEAL_BOARD: "jari",
    Role.FINANCE: "financeiro",
    Role.AUDITOR_DPO: "auditor",
}

REGIONAL_ADMIN = "admin.regional"


@dataclass(frozen=True)
class DemoLogin:
    username: str
    password: str
    municipality: str
    role: str


@dataclass
class DemoLog:
    logins: list[DemoLogin] = field(default_factory=list)
    created: int = 0
    notes: list[str] = field(default_factory=list)  # printed after the login table


DemoSeeder = Callable[[DemoLog], None]
_SEEDERS: list[DemoSeeder] = []


_FINISHERS: list[DemoSeeder] = []


def register_demo_seeder(seeder: DemoSeeder) -> DemoSeeder:
    if seeder not in _SEEDERS:
        _SEEDERS.append(seeder)
    return seeder


def register_demo_finisher(seeder: DemoSeeder) -> DemoSeeder:
    """A seeder that works on what every other seeder created (e.g. the logins they listed): it runs last."""
    if seeder not in _FINISHERS:
        _FINISHERS.append(seeder)
    return seeder


DEMO_PASSWORD = "demo-publica-do-outorga"


def demo_password(username: str) -> str:
    return DEMO_PASSWORD


def demo_cpf(number: int) -> str:
    """A valid, obviously fictitious CPF (base 900000000 + number) with correct check digits."""
    digits = [int(d) for d in f"{900000000 + number:09d}"]
    for length in (9, 10):
        total = sum(d * w for d, w in zip(digits[:length], range(length + 1, 1, -1), strict=True))
        digits.append((total * 10 % 11) % 10)
    return "".join(map(str, digits))


def seed_demo() -> DemoLog:
    log = DemoLog()
    with transaction.atomic():
        for seeder in demo_seeders():
            seeder(log)
    return log


def demo_seeders() -> list[DemoSeeder]:
    """Every app's seeders, in INSTALLED_APPS order, then in the order each `demo` module registers them.

    The `demo` modules are imported here, when someone asks for demo data, and never by `ready()`: a production
    process does not load the public demo passwords. Sorting by app keeps the order right even when a test imported
    some app's `demo` module first (municipalities before the people in them, people before their permits).
    """
    autodiscover_modules("demo")
    apps_in_order = [config.name for config in django_apps.get_app_configs()]

    def position(seeder: DemoSeeder) -> int:
        module = seeder.__module__.removesuffix(".demo")
        return apps_in_order.index(module) if module in apps_in_order else len(apps_in_order)

    # sorted() is stable: within an app, registration order
    return sorted(_SEEDERS, key=position) + sorted(_FINISHERS, key=position)


def _ensure_user(log: DemoLog, username: str, full_name: str, phone: str) -> User:
    user = User.objects.filter(username=username).first()
    if user is None:
        user = user_create(
            actor=None,
            username=username,
            password=demo_password(username),
            full_name=full_name,
            kind=UserKind.STAFF,
            cpf=demo_cpf(User.objects.count() + 1),
            phone=phone,
        )
        log.created += 1
    return user


def _ensure_municipality(log: DemoLog, demo: DemoMunicipality) -> Municipality:
    municipality = Municipality.objects.filter(ibge_code=demo.ibge_code).first()
    if municipality is None:
        municipality = municipality_create(
            actor=None, ibge_code=demo.ibge_code, name=demo.name, uf=demo.uf, regimes=[demo.regime]
        )
        log.created += 1
    return municipality


def _grant(log: DemoLog, user: User, municipality: Municipality, role: str) -> None:
    before = user.memberships.count()
    membership_grant(actor=None, user=user, municipality=municipality, role=role)
    log.created += user.memberships.count() - before
    label = Role(role).label
    log.logins.append(DemoLogin(user.username, demo_password(user.username), str(municipality), label))


@register_demo_seeder
def seed_municipal_staff(log: DemoLog) -> None:
    for index, demo in enumerate(DEMO_MUNICIPALITIES):
        municipality = _ensure_municipality(log, demo)
        for role_number, (role, word) in enumerate(ROLE_LOGIN_WORD.items()):
            username = f"{demo.short}.{word}"
            full_name = f"{Role(role).label.split(' (')[0]} de {demo.name} (demonstração)"
            phone = f"{demo.ddd}99{index:02d}{role_number:05d}"
            _grant(log, _ensure_user(log, username, full_name, phone), municipality, role)


@register_demo_seeder
def seed_regional_admin(log: DemoLog) -> None:
    admin = _ensure_user(log, REGIONAL_ADMIN, "Administração regional (demonstração)", "17999999999")
    for demo in DEMO_MUNICIPALITIES:
        _grant(log, admin, Municipality.objects.get(ibge_code=demo.ibge_code), Role.ADMINISTRATOR)
    deployment_admin_grant(actor=None, user=admin)  # so the demo also shows "Municípios da instalação"


@register_demo_finisher
def seed_staff_authenticators(log: DemoLog) -> None:
    """Last: the public authenticator for every login the other seeders listed (apps/accounts/demo.py)."""
    log.created += seed_demo_authenticators(login.username for login in log.logins)
    log.notes.append(DEMO_AUTHENTICATOR_NOTE)
