from django.db import models


class ApplicationKind(models.TextChoices):
    OPERATOR_REGISTRATION = "operator_registration", "Cadastro de autorizatário"
    DRIVER_LINK = "driver_link", "Vínculo de condutor"
    ATTENDANT_LINK = "attendant_link", "Vínculo de monitor"
    VEHICLE_PERMIT = "vehicle_permit", "Autorização de veículo"
    RENEWAL = "renewal", "Renovação anual"
    SUBSTITUTION = "substitution", "Substituição de veículo"
    TEMPORARY_VEHICLE = "temporary_vehicle", "Veículo provisório"
    EMERGENCY_DRIVER = "emergency_driver", "Condutor emergencial"
    CANCELLATION = "cancellation", "Cancelamento a pedido"


class ApplicationState(models.TextChoices):
    DRAFT = "draft", "Rascunho"
    SUBMITTED = "submitted", "Protocolado"
    IN_ANALYSIS = "in_analysis", "Em análise"
    PENDING_DOCUMENTS = "pending_documents", "Pendência de documentos"
    AWAITING_FEE = "awaiting_fee", "Aguardando taxa"
    AWAITING_INSPECTION = "awaiting_inspection", "Aguardando vistoria"
    APPROVED = "approved", "Deferido"
    DENIED = "denied", "Indeferido"
    ARCHIVED = "archived", "Arquivado"


FINAL_STATES = frozenset({ApplicationState.APPROVED, ApplicationState.DENIED, ApplicationState.ARCHIVED})
OPEN_STATES = frozenset(set(ApplicationState.values) - FINAL_STATES - {ApplicationState.DRAFT})

# Kinds whose approval issues a permit for a vehicle (and so need an approved inspection first).
PERMIT_KINDS = frozenset(
    {
        ApplicationKind.VEHICLE_PERMIT,
        ApplicationKind.RENEWAL,
        ApplicationKind.SUBSTITUTION,
        ApplicationKind.TEMPORARY_VEHICLE,
    }
)
# Kinds that act on an existing permit.
PERMIT_TARGET_KINDS = frozenset(
    {
        ApplicationKind.RENEWAL,
        ApplicationKind.SUBSTITUTION,
        ApplicationKind.TEMPORARY_VEHICLE,
        ApplicationKind.CANCELLATION,
    }
)
DRIVER_KINDS = frozenset({ApplicationKind.DRIVER_LINK, ApplicationKind.EMERGENCY_DRIVER})


class EventKind(models.TextChoices):
    CREATED = "created", "Requerimento criado"
    SUBMITTED = "submitted", "Protocolado"
    ANALYSIS_STARTED = "analysis_started", "Análise iniciada"
    DOCUMENTS_REQUESTED = "documents_requested", "Documentos solicitados"
    EVALUATED = "evaluated", "Avaliado pela lei"
    FEE_REQUIRED = "fee_required", "Guia de taxa emitida"
    FEE_PAID = "fee_paid", "Taxa paga"
    INSPECTION_REQUIRED = "inspection_required", "Vistoria solicitada"
    INSPECTION_PASSED = "inspection_passed", "Vistoria aprovada"
    INSPECTION_FAILED = "inspection_failed", "Vistoria reprovada"
    APPROVED = "approved", "Deferido"
    DENIED = "denied", "Indeferido"
    ARCHIVED = "archived", "Arquivado"
    PERMIT_ISSUED = "permit_issued", "Autorização emitida"


class PermitState(models.TextChoices):
    ACTIVE = "active", "Ativo"
    SUSPENDED = "suspended", "Suspenso"
    REVOKED = "revoked", "Cassado"
    CANCELLED = "cancelled", "Cancelado"
    EXPIRED = "expired", "Vencido"


class LegalStatus(models.TextChoices):
    """What the law says of a permit on a day (apps.licensing.standing); only REGULAR may operate."""

    REGULAR = "regular", "Regular"
    IRREGULAR = "irregular", "Irregular"
    SUSPENDED = "suspended", "Suspenso"
    EXPIRED = "expired", "Vencido"
    REVOKED = "revoked", "Cassado"
    CANCELLED = "cancelled", "Encerrado"
    NOT_YET_VALID = "not_yet_valid", "Ainda não vigente"


# States in which a permit still counts against the operator's quota.
PERMIT_IN_FORCE_STATES = frozenset({PermitState.ACTIVE, PermitState.SUSPENDED})


class PermitKind(models.TextChoices):
    REGULAR = "regular", "Autorização do veículo"
    TEMPORARY = "temporary", "Autorização temporária"
    EMERGENCY = "emergency", "Autorização especial de condutor emergencial"


class ReminderTarget(models.TextChoices):
    PERMIT = "permit", "Autorização"
    DOCUMENT = "document", "Documento"


REMINDER_DAYS = (60, 30, 7)
