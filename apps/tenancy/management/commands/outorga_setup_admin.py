"""Create the installation's first administrator: interactively, or from the environment for automation.

    OUTORGA_ADMIN_USERNAME=admin OUTORGA_ADMIN_EMAIL=ti@prefeitura.sp.gov.br OUTORGA_ADMIN_PASSWORD=... \\
        manage.py outorga_setup_admin --no-input

Messages are in Portuguese: this is the one command the prefeitura's IT team runs by hand.
"""

from __future__ import annotations

import getpass
import os
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from apps.tenancy.models import DeploymentAdministrator
from apps.tenancy.services import FirstAdmin, check_new_password, deployment_admin_create_first

ENV_USERNAME = "OUTORGA_ADMIN_USERNAME"
ENV_EMAIL = "OUTORGA_ADMIN_EMAIL"
ENV_PASSWORD = "OUTORGA_ADMIN_PASSWORD"  # noqa: S105  (the name of a variable, not a password)
ENV_FULL_NAME = "OUTORGA_ADMIN_FULL_NAME"
PASSWORD_ATTEMPTS = 3


class Command(BaseCommand):
    help = (
        "Cria o administrador da instalação (uma vez; rodar de novo não altera nada). Sem terminal, leia "
        f"{ENV_USERNAME}, {ENV_EMAIL}, {ENV_PASSWORD} e, opcional, {ENV_FULL_NAME} com --no-input."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--no-input",
            "--noinput",
            action="store_false",
            dest="interactive",
            help="não pergunta nada: usa só as variáveis de ambiente",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        existing = DeploymentAdministrator.objects.select_related("user").order_by("pk").first()
        if existing is not None:
            self._report(FirstAdmin(existing.user, created=False))
            return
        values = self._from_environment()
        missing = [name for name, key in _ENV_FIELDS if not values.get(key)]
        if missing and not options["interactive"]:
            raise CommandError("Faltam as variáveis de ambiente: " + ", ".join(missing) + ".")
        if missing:
            values = self._ask(values)
        try:
            result = deployment_admin_create_first(**values)
        except ValidationError as exc:
            raise CommandError(_describe(exc)) from None
        self._report(result)

    def _from_environment(self) -> dict[str, str]:
        values = {key: os.environ.get(name, "") for name, key in _ENV_FIELDS}
        values["full_name"] = os.environ.get(ENV_FULL_NAME, "")
        return values

    def _ask(self, values: dict[str, str]) -> dict[str, str]:
        values["username"] = values["username"] or input("Usuário do administrador: ").strip()
        values["full_name"] = values["full_name"] or input("Nome completo (opcional): ").strip()
        values["email"] = values["email"] or input("E-mail (para recuperar a senha): ").strip()
        if not values["password"]:
            values["password"] = self._ask_password(values)
        return values

    def _ask_password(self, values: dict[str, str]) -> str:
        for _ in range(PASSWORD_ATTEMPTS):
            password = getpass.getpass("Senha: ")
            if password != getpass.getpass("Repita a senha: "):
                self.stderr.write("As duas senhas digitadas não são iguais. Tente de novo.")
                continue
            try:
                check_new_password(
                    password,
                    username=values["username"],
                    email=values["email"],
                    full_name=values["full_name"],
                )
            except ValidationError as exc:
                self.stderr.write(_describe(exc))
                continue
            return password
        raise CommandError("Nenhuma senha aceita depois de 3 tentativas; nada foi criado.")

    def _report(self, result: FirstAdmin) -> None:
        if result.created:
            self.stdout.write(
                self.style.SUCCESS(
                    f"Administrador da instalação «{result.user.username}» criado. Entre no Outorga com ele e "
                    "crie o primeiro município em Municípios da instalação."
                )
            )
        else:
            self.stdout.write(
                f"O administrador da instalação já existe: «{result.user.username}». Nada foi alterado."
            )


_ENV_FIELDS = ((ENV_USERNAME, "username"), (ENV_EMAIL, "email"), (ENV_PASSWORD, "password"))
_LABELS = {"username": "Usuário", "email": "E-mail", "password": "Senha", "full_name": "Nome completo"}


def _describe(exc: ValidationError) -> str:
    """Every message of a refusal, each prefixed by the field it is about when the message does not say it."""
    if not hasattr(exc, "error_dict"):
        return " ".join(exc.messages)
    lines: list[str] = []
    for field, messages in exc.message_dict.items():
        label = _LABELS.get(field, field)
        lines.extend(m if m.startswith(label) else f"{label}: {m}" for m in messages)
    return "\n".join(lines)
