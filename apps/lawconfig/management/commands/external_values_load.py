"""Load a yearly table of the state or the Union (the UFESP) from a CSV shaped like lawcode/data/ufesp.csv:

    manage.py external_values_load ufesp-2027.csv [--tabela ufesp] [--usuario admin]

    year,value_brl,source
    2027,40.12,"SEFAZ-SP Comunicado DICAR-90/26 (18-12-2026)"

Each row is a value from 1 January of its year, cited to the act its ``source`` names (published on the date in
parentheses). Idempotent: a row already entered is left alone; a different value for a year already entered is
recorded as a correction (the earlier entry stays in the history). All rows or none; every entry is audited, as
the installation's administrator named by --usuario (or as the system). Messages in Portuguese: the IT team of
the installation runs it by hand.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from apps.accounts.models import User
from apps.lawconfig.services import external_values_load
from apps.tenancy.models import is_deployment_admin
from lawcode.errors import LawcodeError
from lawcode.fiscal import read_table_csv, shared_parameters


class Command(BaseCommand):
    help = "Carrega valores anuais de uma tabela estadual ou federal (ex.: UFESP) de um CSV year,value_brl,source."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "arquivo", help="o CSV (colunas year,value_brl,source, como lawcode/data/ufesp.csv)"
        )
        parser.add_argument("--tabela", default="", help="a tabela (padrão: a única que o engine tem)")
        parser.add_argument("--usuario", default="", help="login do administrador da instalação que registra")

    def handle(self, *args: Any, **options: Any) -> None:
        table = self._table(options["tabela"])
        actor = self._actor(options["usuario"])
        path = Path(options["arquivo"])
        if not path.is_file():
            raise CommandError(f"Arquivo não encontrado: {path}.")
        try:
            rows = read_table_csv(path)
        except LawcodeError as exc:
            raise CommandError(f"{exc.message_pt}. Nada foi gravado.") from None
        except UnicodeDecodeError:
            raise CommandError(f"{path.name}: o arquivo deve estar em UTF-8.") from None
        if not rows:
            raise CommandError(f"{path.name}: nenhuma linha de valores.")
        try:
            done = external_values_load(actor=actor, parameter=table, rows=rows, file_name=path.name)
        except ValidationError as exc:
            raise CommandError(f"{path.name}: {' '.join(exc.messages)} Nada foi gravado.") from None
        self.stdout.write(
            f"{shared_parameters()[table].description}: {done.added} valor(es) novo(s), "
            f"{done.corrected} correção(ões), {done.unchanged} já registrado(s)."
        )

    def _table(self, name: str) -> str:
        tables = shared_parameters()
        if not name and len(tables) == 1:
            return next(iter(tables))
        if name not in tables:
            raise CommandError(
                f"Tabela desconhecida {name!r}; as do engine são: {', '.join(sorted(tables))}."
            )
        return name

    def _actor(self, username: str) -> User | None:
        if not username:
            return None
        user = User.objects.filter(username=username).first()
        if user is None or not is_deployment_admin(user):
            raise CommandError(f"{username!r} não é um administrador da instalação.")
        return user
