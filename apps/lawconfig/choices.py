from django.db import models


class FiscalUnit(models.TextChoices):
    # UFESP is state-wide and lives in lawcode's data; only the municipal unit is configured here.
    UFM = "ufm", "UFM — Unidade Fiscal do Município"


class ClosureKind(models.TextChoices):
    HOLIDAY = "holiday", "Feriado municipal"
    CLOSURE = "closure", "Sem expediente (ponto facultativo, decreto)"
    EARLY_CLOSING = "early_closing", "Expediente encerrado antes da hora normal"
