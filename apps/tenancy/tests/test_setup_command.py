"""manage.py outorga_setup_admin: from the environment (automation) and interactively."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from apps.accounts.models import User
from apps.audit.models import AuditEvent
from apps.tenancy.models import DeploymentAdministrator

pytestmark = pytest.mark.django_db

PASSWORD = "Licenciamento-Municipal-9"


@pytest.fixture
def admin_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OUTORGA_ADMIN_USERNAME", "ti.prefeitura")
    monkeypatch.setenv("OUTORGA_ADMIN_EMAIL", "ti@example.gov.br")
    monkeypatch.setenv("OUTORGA_ADMIN_PASSWORD", PASSWORD)


def run(*args: str) -> str:
    out = StringIO()
    call_command("outorga_setup_admin", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def answers(monkeypatch: pytest.MonkeyPatch, typed: list[str], passwords: list[str]) -> None:
    typed_iter, password_iter = iter(typed), iter(passwords)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(typed_iter))
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(password_iter))


def test_it_creates_the_administrator_from_the_environment(admin_env: None) -> None:
    output = run("--no-input")
    user = User.objects.get(username="ti.prefeitura")
    assert DeploymentAdministrator.objects.filter(user=user).exists() and user.check_password(PASSWORD)
    assert not user.is_superuser
    assert "«ti.prefeitura» criado" in output
    assert AuditEvent.objects.filter(action="deployment_admin.create").count() == 1


def test_running_it_again_changes_nothing_and_says_so(
    admin_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    run("--no-input")
    monkeypatch.setenv("OUTORGA_ADMIN_USERNAME", "outra.pessoa")
    output = run("--no-input")
    assert "já existe: «ti.prefeitura». Nada foi alterado." in output
    assert User.objects.count() == 1


def test_without_input_it_names_the_missing_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OUTORGA_ADMIN_USERNAME", "ti.prefeitura")
    monkeypatch.delenv("OUTORGA_ADMIN_EMAIL", raising=False)
    monkeypatch.delenv("OUTORGA_ADMIN_PASSWORD", raising=False)
    with pytest.raises(CommandError, match="OUTORGA_ADMIN_EMAIL, OUTORGA_ADMIN_PASSWORD"):
        run("--no-input")
    assert not User.objects.exists()


def test_a_weak_password_from_the_environment_is_refused_in_portuguese(
    admin_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OUTORGA_ADMIN_PASSWORD", "1234567890")
    with pytest.raises(CommandError, match="Senha: .*inteiramente numérica"):
        run("--no-input")
    assert not User.objects.exists()


def test_it_asks_interactively_and_asks_again_for_a_weak_password(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OUTORGA_ADMIN_USERNAME", "OUTORGA_ADMIN_EMAIL", "OUTORGA_ADMIN_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    answers(
        monkeypatch,
        typed=["maria.ti", "Maria da TI", "maria@example.gov.br"],
        passwords=["1234567890", "1234567890", PASSWORD, "diferente", PASSWORD, PASSWORD],
    )
    err = StringIO()
    call_command("outorga_setup_admin", stdout=StringIO(), stderr=err)
    user = User.objects.get(username="maria.ti")
    assert user.full_name == "Maria da TI" and user.check_password(PASSWORD)
    assert "numérica" in err.getvalue() and "não são iguais" in err.getvalue()


def test_interactively_it_gives_up_after_three_bad_passwords(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OUTORGA_ADMIN_USERNAME", "OUTORGA_ADMIN_EMAIL", "OUTORGA_ADMIN_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    answers(monkeypatch, typed=["maria.ti", "", "maria@example.gov.br"], passwords=["123"] * 6)
    with pytest.raises(CommandError, match="nada foi criado"):
        call_command("outorga_setup_admin", stdout=StringIO(), stderr=StringIO())
    assert not User.objects.exists()


def test_an_existing_administrator_is_reported_before_asking_anything(
    admin_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    run("--no-input")
    answers(monkeypatch, typed=[], passwords=[])  # any question would raise StopIteration
    assert "Nada foi alterado" in run()
