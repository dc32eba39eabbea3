from django.db import models


class SubstitutionState(models.TextChoices):
    RECEIVED = "received", "Recebida"
    ACKNOWLEDGED = "acknowledged", "Conferida pela secretaria"
    REJECTED = "rejected", "Recusada pela secretaria"


class ChangeKind(models.TextChoices):
    ISSUED = "issued", "Autorização emitida"
    SUSPENDED = "suspended", "Autorização suspensa"
    REVOKED = "revoked", "Autorização cassada"
    CANCELLED = "cancelled", "Autorização cancelada"
    EXPIRED = "expired", "Autorização vencida"
    IRREGULAR = "irregular", "Situação irregular (documento vencido ou ausente)"
    REGULARIZED = "regularized", "Situação regularizada (documentos em dia)"
    LIFTED = "lifted", "Suspensão encerrada"


class DeliveryState(models.TextChoices):
    PENDING = "pending", "Pendente"
    DELIVERED = "delivered", "Entregue"
    FAILED = "failed", "Desistida após tentativas"


class RosterImportState(models.TextChoices):
    QUEUED = "queued", "Na fila"
    READING = "reading", "Conferindo as linhas"
    STORING = "storing", "Gravando o cadastro"
    IMPORTED = "imported", "Importado"
    REJECTED = "rejected", "Recusado (nada importado)"
    FAILED = "failed", "Falhou (nada importado)"


# An import in one of these states will not change any more.
ROSTER_FINISHED = frozenset(
    {RosterImportState.IMPORTED, RosterImportState.REJECTED, RosterImportState.FAILED}
)
