from django.db import models


class ClosureKind(models.TextChoices):
    HOLIDAY = "holiday", "Feriado municipal"
    CLOSURE = "closure", "Sem expediente (ponto facultativo, decreto)"
    EARLY_CLOSING = "early_closing", "Expediente encerrado antes da hora normal"
