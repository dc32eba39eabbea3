from django.db import models


class NotificationKind(models.TextChoices):
    """Families of events an operator or driver is told about (labels in pt-BR, values in English)."""

    DOCUMENT_EXPIRING = "document_expiring", "Documento a vencer"
    PERMIT_EXPIRING = "permit_expiring", "Autorização a vencer (renovação)"
    CURE_OPENED = "cure_opened", "Prazo para sanar aberto"
    CURE_ENDING = "cure_ending", "Prazo para sanar terminando"
    INSPECTION_SCHEDULED = "inspection_scheduled", "Vistoria agendada"
    INSPECTION_FAILED = "inspection_failed", "Vistoria reprovada"
    INSPECTION_OVERDUE = "inspection_overdue", "Vistoria atrasada"
    NOTICE_ISSUED = "notice_issued", "Notificação expedida"
    JUDGMENT = "judgment", "Julgamento"
    GUIDE_ISSUED = "guide_issued", "Guia de pagamento emitida"
    GUIDE_DUE = "guide_due", "Guia de pagamento a vencer"
    SUSPENSION_STARTED = "suspension_started", "Suspensão iniciada"
    SUSPENSION_ENDED = "suspension_ended", "Suspensão encerrada"


class DeliveryState(models.TextChoices):
    """How the e-mail of a notification went, as staff read it."""

    NO_ADDRESS = "no_address", "Sem e-mail cadastrado"
    WITH_REMINDER = "with_reminder", "Enviado com o lembrete de vencimento"
    QUEUED = "queued", "Na fila"
    SENT = "sent", "Enviado"
    FAILED = "failed", "Falhou (desistimos)"
