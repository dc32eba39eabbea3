from django.db import models


class FeeKind(models.TextChoices):
    PERMIT = "permit", "Taxa da autorização"
    RENEWAL = "renewal", "Taxa de renovação"
    INSPECTION = "inspection", "Taxa de vistoria"
    SUBSTITUTION = "substitution", "Taxa de substituição de veículo"
    TEMPORARY = "temporary", "Taxa de veículo provisório"


class GuideStatus(models.TextChoices):
    OPEN = "open", "Em aberto"
    PAID = "paid", "Paga"
    CANCELLED = "cancelled", "Cancelada"
    REFUNDED = "refunded", "Restituída"


class OriginType(models.TextChoices):
    APPLICATION = "application", "Requerimento"
    FINE = "fine", "Multa"


class PaymentMethod(models.TextChoices):
    PIX = "pix", "PIX"
    BANK_SLIP = "bank_slip", "Boleto / DAM"
    TRANSFER = "transfer", "Transferência bancária"
    CASH = "cash", "Dinheiro no caixa da prefeitura"


class RefundStatus(models.TextChoices):
    PENDING = "pending", "A pagar"
    PAID = "paid", "Paga"
