from django.db import models


class MailStatus(models.TextChoices):
    PENDING = "pending", "Na fila"
    SENT = "sent", "Enviado"
    FAILED = "failed", "Falhou (desistimos)"


class RunStatus(models.TextChoices):
    QUEUED = "queued", "Na fila"
    RUNNING = "running", "Em execução"
    DONE = "done", "Concluída"
    FAILED = "failed", "Falhou"
    SKIPPED = "skipped", "Não executada (outra execução em andamento)"
