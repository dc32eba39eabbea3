"""manage.py export_open_data [--as-of AAAA-MM-DD] [--municipio IBGE] — the daily open-data files."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from apps.public.opendata import export_municipality
from apps.tenancy.models import Municipality
from outorga.routers import reads_from_replica


class Command(BaseCommand):
    help = "Escreve os arquivos de dados abertos (CSV e JSON) das autorizações em vigor de cada município."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--as-of", help="Data de referência (AAAA-MM-DD); padrão: hoje.")
        parser.add_argument("--municipio", help="Código IBGE de um só município; padrão: todos.")

    @reads_from_replica
    def handle(self, *args: Any, **options: Any) -> None:
        as_of = _as_of(options["as_of"])
        municipalities = Municipality.objects.order_by("name")
        if options["municipio"]:
            municipalities = municipalities.filter(ibge_code=options["municipio"])
            if not municipalities.exists():
                raise CommandError(f"Município com código IBGE {options['municipio']} não encontrado.")
        for municipality in municipalities:
            export = export_municipality(municipality, as_of)
            paths = ", ".join(str(path) for path in export.files.values())
            self.stdout.write(
                f"{municipality}: {export.rows} autorizações em vigor em {as_of:%d/%m/%Y} → {paths}"
            )


def _as_of(raw: str | None) -> dt.date:
    if not raw:
        return timezone.localdate()
    try:
        return dt.date.fromisoformat(raw)
    except ValueError:
        raise CommandError(f"--as-of: data inválida {raw!r}; use AAAA-MM-DD.") from None
