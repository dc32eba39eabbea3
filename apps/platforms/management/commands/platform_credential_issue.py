"""Issue a platform's API token for one municipality; the token is printed once and never stored in clear."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from apps.platforms.models import Platform
from apps.platforms.services import credential_issue, platform_create
from apps.registry.identifiers import normalize_cnpj
from apps.tenancy.models import Municipality


class Command(BaseCommand):
    help = "Emite o token de API de uma plataforma para um município (mostrado uma única vez)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--cnpj", required=True)
        parser.add_argument(
            "--name", default="", help="Nome, para cadastrar a plataforma se ainda não existir."
        )
        parser.add_argument("--municipality", required=True, help="Código IBGE do município.")
        parser.add_argument("--webhook-url", default="")
        parser.add_argument("--label", default="")

    def handle(self, *args: Any, **options: Any) -> None:
        municipality = Municipality.objects.filter(ibge_code=options["municipality"]).first()
        if municipality is None:
            raise CommandError("Município não encontrado (informe o código IBGE).")
        try:
            platform = Platform.objects.filter(
                cnpj=normalize_cnpj(options["cnpj"])
            ).first() or platform_create(actor=None, name=options["name"], cnpj=options["cnpj"])
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from None
        issued = credential_issue(
            actor=None,
            platform=platform,
            municipality=municipality,
            label=options["label"],
            webhook_url=options["webhook_url"],
        )
        self.stdout.write(f"Token (guarde agora; não será mostrado de novo): {issued.token}")
        if issued.webhook_secret:
            self.stdout.write(f"Segredo HMAC do webhook: {issued.webhook_secret}")
