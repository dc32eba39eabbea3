"""manage.py daily_sweep [--as-of YYYY-MM-DD]: expire, flag, archive, remind and the steps other apps registered
(see apps/licensing/sweep.py)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone
from tqdm import tqdm

from apps.licensing.sweep import run_sweep, sweep_steps


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"--as-of: data inválida {text!r}; use AAAA-MM-DD.") from None


class Command(BaseCommand):
    help = (
        "Rotina diária: vence autorizações e documentos, marca vistorias atrasadas, arquiva pedidos e envia "
        "lembretes."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--as-of", type=_date, default=None, help="Data de referência (padrão: hoje).")
        parser.add_argument("--no-progress", action="store_true", help="Sem barra de progresso (cron).")

    def handle(self, *args: Any, **options: Any) -> None:
        as_of: dt.date = options["as_of"] or timezone.localdate()
        steps = sweep_steps()
        bar = tqdm(
            steps,
            desc=f"Rotina de {as_of:%d/%m/%Y}",
            unit="etapa",
            disable=options["no_progress"],
            file=self.stderr,
        )
        # One run, so the run's totals are recorded once (the metrics read them), not once per step.
        counts = run_sweep(as_of, steps=bar, on_step=lambda step: bar.set_postfix_str(step.label))
        labels = {step.key: step.label for step in steps}
        for key, total in counts.items():
            self.stdout.write(f"{labels[key]}: {total}")
