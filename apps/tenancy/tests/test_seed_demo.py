from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import override_settings

from apps.accounts.models import User
from apps.audit.models import AuditEvent
from apps.tenancy.models import DeploymentAdministrator, Membership, Municipality

pytestmark = pytest.mark.django_db


def counts() -> tuple[int, int, int, int]:
    return (
        Municipality.objects.count(),
        User.objects.count(),
        Membership.objects.count(),
        AuditEvent.objects.count(),
    )


@override_settings(DEBUG=True)
def test_it_seeds_four_municipalities_with_every_role() -> None:
    out = StringIO()
    call_command("seed_demo", stdout=out)
    assert set(Municipality.objects.values_list("ibge_code", flat=True)) == {
        "3533908",
        "3557105",
        "3148103",
        "3549904",
    }
    assert Membership.objects.count() == 4 * 8 + 4
    assert User.objects.get(username="olimpia.analista").check_password("demo-publica-do-outorga")
    assert User.objects.get(username="admin.regional").memberships.count() == 4
    assert DeploymentAdministrator.objects.get().user.username == "admin.regional"
    assert "olimpia.analista  " in out.getvalue() and "demo-publica-do-outorga" in out.getvalue()
    assert "N52XI33SM5QS2ZDFNVXW443UOJQWGYLP" in out.getvalue()  # the demo authenticator key


@override_settings(DEBUG=True)
def test_it_creates_nothing_the_second_time() -> None:
    call_command("seed_demo", stdout=StringIO())
    first = counts()
    out = StringIO()
    call_command("seed_demo", stdout=out)
    assert counts() == first
    assert "0 new record(s)" in out.getvalue()


@override_settings(DEBUG=True)
def test_it_starts_a_verifiable_audit_chain_per_municipality() -> None:
    call_command("seed_demo", stdout=StringIO())
    out = StringIO()
    call_command("audit_verify", stdout=out)
    assert "OK: 5 chain(s)" in out.getvalue()


@override_settings(DEBUG=False)
def test_it_refuses_to_run_in_production_without_force() -> None:
    with pytest.raises(CommandError, match="DEBUG is off"):
        call_command("seed_demo", stdout=StringIO())
    assert not Municipality.objects.exists()
    call_command("seed_demo", "--force", stdout=StringIO())
    assert Municipality.objects.count() == 4


def test_demo_modules_are_loaded_only_when_demo_data_is_asked_for() -> None:
    """A production process never imports the demo seeders (and their public passwords) at start-up."""
    import subprocess
    import sys

    code = (
        "import django, os, sys; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'outorga.settings'); django.setup();"
        "loaded = sorted(m for m in sys.modules if m.startswith('apps.') and m.endswith('.demo'));"
        "print(','.join(loaded))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""


def test_seeders_run_in_app_order_whatever_was_imported_first() -> None:
    import apps.finance.demo  # noqa: F401  (imported before the municipalities' seeder on purpose)
    from apps.tenancy.demo import demo_seeders

    modules = [seeder.__module__ for seeder in demo_seeders()]
    first_of = {module: modules.index(module) for module in reversed(modules)}
    assert modules[0] == "apps.tenancy.demo"
    assert first_of["apps.registry.demo"] < first_of["apps.finance.demo"] < first_of["apps.licensing.demo"]
    # the authenticators go to the logins every other seeder listed
    assert [seeder.__name__ for seeder in demo_seeders()][-1] == "seed_staff_authenticators"
