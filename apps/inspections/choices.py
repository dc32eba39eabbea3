from django.db import models


class InspectionKind(models.TextChoices):
    INITIAL = "initial", "Vistoria inicial"
    PERIODIC = "periodic", "Vistoria periódica (renovação)"
    SEMESTRAL = "semestral", "Vistoria semestral"
    REINSPECTION = "reinspection", "Nova vistoria (após reprovação)"
    TEMPORARY = "temporary", "Vistoria de veículo provisório"


class InspectionResult(models.TextChoices):
    PENDING = "pending", "Agendada"
    PASSED = "passed", "Aprovada"
    FAILED = "failed", "Reprovada"


# The checklist kind an application's inspection uses (lawcode.checklists.BASE_KINDS).
KIND_BY_APPLICATION = {
    "vehicle_permit": InspectionKind.INITIAL,
    "substitution": InspectionKind.INITIAL,
    "renewal": InspectionKind.PERIODIC,
    "temporary_vehicle": InspectionKind.TEMPORARY,
}


class MissedState(models.TextChoices):
    """A missed calendar inspection the sweep found: waiting for an agent, who draws up the auto or dismisses it."""

    PENDING = "pending", "Aguardando o agente"
    CONFIRMED = "confirmed", "Auto lavrado"
    DISMISSED = "dismissed", "Descartado pelo agente"
