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


class ValuationMoment(models.TextChoices):
    """When a fine was valued: at finality (the law's or the interpretation's date is already known) or when
    its guide was issued (the law values on the guide, or the value was not yet known at finality)."""

    FINALITY = "finality", "Na decisão definitiva"
    GUIDE_ISSUE = "guide_issue", "Na emissão da guia"


class WaitingState(models.TextChoices):
    WAITING = "waiting", "Aguardando o valor"
    ISSUED = "issued", "Emitida"
    WITHDRAWN = "withdrawn", "Retirada da fila"


class ChargeState(models.TextChoices):
    ACTIVE = "active", "Ativa"
    REMOVED = "removed", "Removida"


class ReceiptSource(models.TextChoices):
    WEBHOOK = "webhook", "Aviso do banco"
    RECONCILIATION = "reconciliation", "Conciliação diária"
    CNAB = "cnab", "Arquivo de retorno CNAB 240"


class ReviewReason(models.TextChoices):
    AMOUNT = "amount", "Valor diferente do devido"
    ALREADY_PAID = "already_paid", "Guia já paga"
    CANCELLED = "cancelled", "Guia cancelada"
    UNKNOWN = "unknown", "Cobrança desconhecida"
    REFUSED = "refused", "Baixa recusada"


class ReviewStatus(models.TextChoices):
    OPEN = "open", "Em conferência"
    SETTLED = "settled", "Baixado na guia"
    REFUND = "refund", "Devolução ao pagador"
    ARCHIVED = "archived", "Arquivado com justificativa"


class TaxFeedKind(models.TextChoices):
    INSCRIPTION = "inscription", "Inscrição em dívida ativa"
    PAYMENT = "payment", "Pagamento"
    CANCELLATION = "cancellation", "Cancelamento"
    REFUND = "refund", "Restituição"
