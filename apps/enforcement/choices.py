from django.db import models


class CaseState(models.TextChoices):
    """Where an auto de infração stands; due process (apps.dueprocess) moves it past «notified»."""

    DRAFTED = "drafted", "Lavrado"
    NOTIFIED = "notified", "Notificado"
    IN_DEFENCE = "in_defence", "Em defesa (1ª instância)"
    JUDGED_FIRST = "judged_first", "Julgado em 1ª instância"
    IN_APPEAL = "in_appeal", "Em recurso (2ª instância)"
    FINAL = "final", "Decisão definitiva"
    CLOSED = "closed", "Encerrado"
    CANCELLED = "cancelled", "Cancelado"


# States in which the case still runs (deadlines shown as due/overdue).
OPEN_STATES = frozenset(
    {CaseState.DRAFTED, CaseState.NOTIFIED, CaseState.IN_DEFENCE, CaseState.JUDGED_FIRST, CaseState.IN_APPEAL}
)


class NoticePurpose(models.TextChoices):
    INFRACTION = "infraction", "Notificação da autuação"
    FIRST_DECISION = "first_decision", "Notificação da decisão de 1ª instância"
    SECOND_DECISION = "second_decision", "Notificação da decisão de 2ª instância"
    FINAL_DECISION = "final_decision", "Notificação da penalidade (decisão definitiva)"
    PAYMENT = "payment", "Notificação para pagamento da multa"


class NoticeChannel(models.TextChoices):
    IN_PERSON = "in_person", "Pessoalmente"
    AR = "ar", "Carta registrada com AR"
    ELECTRONIC = "electronic", "Meio eletrônico"
    EDITAL = "edital", "Edital"


class ReturnedReason(models.TextChoices):
    NONE = "", "Não devolvida"
    ADDRESS_CHANGE = "address_change", "Mudança de endereço"
    REFUSAL = "refusal", "Recusa em receber"
    BAD_RECORDS = "bad_records", "Dados cadastrais inconsistentes"
    OTHER = "other", "Outro motivo"


class EventKind(models.TextChoices):
    """Timeline events. Enforcement writes the first group; due process writes the rest through case_event_add."""

    OPENED = "opened", "Auto lavrado"
    EVIDENCE_ADDED = "evidence_added", "Prova anexada"
    NOTICE_SENT = "notice_sent", "Notificação expedida"
    NOTICE_RECEIVED = "notice_received", "Ciência registrada"
    NOTICE_RETURNED = "notice_returned", "Notificação devolvida"
    EDITAL_PUBLISHED = "edital_published", "Edital publicado"
    TRAFFIC_ONLY_MARKED = "traffic_only_marked", "Fato já punido como infração de trânsito"
    STATE_CHANGED = "state_changed", "Situação alterada"
    APPEAL_FILED = "appeal_filed", "Defesa/recurso protocolado"
    JUDGED = "judged", "Julgamento"
    SANCTION_APPLIED = "sanction_applied", "Penalidade aplicada"
    FINE_ISSUED = "fine_issued", "Guia da multa emitida"
    FINE_PAID = "fine_paid", "Multa paga"
    REFUND_DUE = "refund_due", "Restituição devida"
    NOTE = "note", "Anotação"
