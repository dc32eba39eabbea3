from django.db import models


class VerificationStatus(models.TextChoices):
    """What a parent or passenger needs to know today; only REGULAR means the vehicle may carry passengers."""

    REGULAR = "regular", "Regular"
    IRREGULAR = "irregular", "Irregular"
    SUSPENDED = "suspended", "Suspenso"
    EXPIRED = "expired", "Vencido"
    REVOKED = "revoked", "Cassado"
    CANCELLED = "cancelled", "Encerrado"
    NOT_YET_VALID = "not_yet_valid", "Ainda não vigente"
    UNKNOWN = "unknown", "Não encontrado"


class LookupVia(models.TextChoices):
    PLATE = "plate", "Placa"
    PERMIT = "permit", "Número da autorização"
    TOKEN = "token", "Código QR"


class LookupResult(models.TextChoices):
    """How a lookup ended, for the statistics: a verification status, or why there was none."""

    REGULAR = "regular", "Regular"
    IRREGULAR = "irregular", "Irregular"
    SUSPENDED = "suspended", "Suspenso"
    EXPIRED = "expired", "Vencido"
    REVOKED = "revoked", "Cassado"
    CANCELLED = "cancelled", "Encerrado"
    NOT_YET_VALID = "not_yet_valid", "Ainda não vigente"
    UNKNOWN = "unknown", "Não encontrado"
    INVALID = "invalid", "Consulta malformada"
    LIMITED = "limited", "Limite de consultas excedido"


class ComplaintCategory(models.TextChoices):
    DOCUMENT_NOT_SHOWN = "document_not_shown", "O condutor não mostrou a autorização ou os documentos"
    NO_PERMIT = "no_permit", "Veículo sem autorização (transporte clandestino)"
    UNSAFE_VEHICLE = "unsafe_vehicle", "Veículo em más condições de segurança ou higiene"
    DRIVER_CONDUCT = "driver_conduct", "Conduta do condutor (direção perigosa, desrespeito)"
    OVERCROWDING = "overcrowding", "Lotação acima do permitido"
    OTHER = "other", "Outro problema"


class ComplaintState(models.TextChoices):
    RECEIVED = "received", "Recebida"
    IN_REVIEW = "in_review", "Em apuração"
    FORWARDED = "forwarded", "Encaminhada à fiscalização"
    CLOSED = "closed", "Encerrada"


OPEN_COMPLAINT_STATES = frozenset(
    {ComplaintState.RECEIVED, ComplaintState.IN_REVIEW, ComplaintState.FORWARDED}
)
