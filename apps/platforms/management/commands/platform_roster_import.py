"""Import a platform's roster CSV with a progress bar; nothing is imported if any line is refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from apps.platforms.choices import RosterImportState
from apps.platforms.models import Platform
from apps.platforms.services import roster
from apps.registry.identifiers import normalize_cnpj
from apps.tenancy.models import Municipality


class Command(BaseCommand):
    help = "Importa o cadastro de motoristas de uma plataforma (CSV): tudo ou nada, com relatório de recusas."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--cnpj", required=True, help="CNPJ da plataforma.")
        parser.add_argument("--municipality", required=True, help="Código IBGE do município.")
        parser.add_argument("--report", type=Path, help="Onde gravar o relatório de recusas (.csv ou .json).")

    def handle(self, *args: Any, **options: Any) -> None:
        platform = Platform.objects.filter(cnpj=normalize_cnpj(options["cnpj"])).first()
        municipality = Municipality.objects.filter(ibge_code=options["municipality"]).first()
        if platform is None or municipality is None:
            raise CommandError("Plataforma ou município não encontrado.")
        path: Path = options["file"]
        with (
            path.open(encoding="utf-8-sig", newline="") as stream,
            tqdm(unit=" linhas", desc="Conferindo e gravando") as bar,
        ):
            record = roster.roster_import(
                platform=platform,
                municipality=municipality,
                file_name=path.name,
                stream=stream,
                progress=bar.update,
            )
        if options["report"]:
            self._write_report(record, options["report"])
        if record.state != RosterImportState.IMPORTED:
            raise CommandError(
                f"Nada foi importado: {record.rejected_rows} de {record.total_rows} linhas recusadas."
            )
        self.stdout.write(f"Importadas {record.total_rows} linhas (envio {record.pk}).")

    def _write_report(self, record: Any, target: Path) -> None:
        if target.suffix == ".json":
            target.write_text(json.dumps(record.rejections, ensure_ascii=False, indent=1), encoding="utf-8")
        else:
            target.write_text(roster.report_csv(record), encoding="utf-8")
