"""manage.py pix_webhook_register --municipality <IBGE> --base-url https://<server>: register at the
municipality's PSP the webhook that tells Outorga of each PIX received (API Pix ``PUT /webhook/{chave}``)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.urls import reverse

from apps.finance.models import FinanceSettings
from apps.finance.psp.client import PspClient, PspError
from apps.finance.psp.config import psp_config, webhook_auth
from apps.tenancy.models import Municipality


class Command(BaseCommand):
    help = "Cadastra no banco (PSP) do município o endereço do aviso de PIX recebido (webhook)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--municipality", required=True, help="Código IBGE do município.")
        parser.add_argument(
            "--base-url",
            required=True,
            help="Endereço público do Outorga, ex.: https://outorga.prefeitura.gov.br",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        code = options["municipality"]
        municipality = Municipality.objects.filter(ibge_code=code).first()
        settings = FinanceSettings.objects.filter(municipality__ibge_code=code).first()
        config = psp_config(code)
        if municipality is None or settings is None or config is None:
            raise CommandError(
                "Município sem chave PIX configurada ou sem banco (PSP) no ambiente (docs/pix.md)."
            )
        if not webhook_auth(code).configured:
            raise CommandError(
                f"Configure antes OUTORGA_PIX_WEBHOOK_{code}_SECRET ou _CLIENT_CERT_SHA256: sem autenticação, "
                "o Outorga recusa todo aviso."
            )
        path = reverse("finance:pix_webhook", args=[code]).removesuffix("/pix")
        url = options["base_url"].rstrip("/") + path
        try:
            PspClient(config).webhook_register(settings.pix_key, url)
        except PspError as exc:
            raise CommandError(f"O banco recusou o cadastro do aviso: {exc.message}") from exc
        self.stdout.write(f"Aviso cadastrado no banco para a chave {settings.pix_key}: {url}/pix")
