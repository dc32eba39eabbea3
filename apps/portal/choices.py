from django.db import models


class PortalRole(models.TextChoices):
    """Who holds the portal login, relative to the operator whose records it reaches."""

    OPERATOR = "operator", "Autorizatário (titular)"
    DRIVER = "driver", "Condutor"
    ATTENDANT = "attendant", "Monitor"


class PortalInvitationVia(models.TextChoices):
    SECRETARIAT = "secretariat", "Convite da secretaria"
    CLAIM = "claim", "Pedido pelo próprio interessado (CPF)"


# Applications an operator may start online (the rest — links of drivers, attendants — stay at the counter).
PORTAL_APPLICATION_KINDS: tuple[str, ...] = (
    "vehicle_permit",
    "renewal",
    "substitution",
    "temporary_vehicle",
    "cancellation",
)


class SubmissionState(models.TextChoices):
    """A document copy sent through the portal: the secretariat checks it before it counts."""

    PENDING = "pending", "Aguardando validação da secretaria"
    ACCEPTED = "accepted", "Aceito pela secretaria"
    REJECTED = "rejected", "Recusado pela secretaria"
