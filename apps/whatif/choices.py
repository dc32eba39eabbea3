from django.db import models


class RunState(models.TextChoices):
    QUEUED = "queued", "Na fila"
    RUNNING = "running", "Em andamento"
    DONE = "done", "Concluída"
    FAILED = "failed", "Falhou"


class ChangeKind(models.TextChoices):
    PARAMETER = "parameter", "Novo valor de parâmetro"
    INTERPRETATION = "interpretation", "Outra interpretação (ou redação)"


class SubjectKind(models.TextChoices):
    PERMIT = "permit", "Autorização"
    DRIVER = "driver", "Condutor"


FINISHED = frozenset({RunState.DONE, RunState.FAILED})
