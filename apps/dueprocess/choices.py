from django.db import models


class Instance(models.TextChoices):
    """The instance an appeal goes to. Who judges each is the regime's (labels.yaml bodies)."""

    FIRST = "first", "1ª instância (defesa)"
    SECOND = "second", "2ª instância (recurso)"


class FilingChannel(models.TextChoices):
    PAPER = "paper", "Protocolo em papel"
    PORTAL = "portal", "Portal do autorizatário"


class Verdict(models.TextChoices):
    UPHELD = "upheld", "Improcedente — penalidade mantida"
    GRANTED = "granted", "Procedente — auto cancelado"
    PARTIALLY_GRANTED = "partially_granted", "Parcialmente procedente — penalidade mantida"
    NOT_ADMITTED = "not_admitted", "Não conhecido (intempestivo) — penalidade mantida"


# Verdicts that keep the condemnation (the case goes on to the next instance or becomes final).
CONDEMNING = frozenset({Verdict.UPHELD, Verdict.PARTIALLY_GRANTED, Verdict.NOT_ADMITTED})


class SanctionState(models.TextChoices):
    AWAITING_APPEAL = "awaiting_appeal", "Condenado em 1ª instância (cabe recurso)"
    FINAL = "final", "Definitiva"
    ANNULLED = "annulled", "Anulada (recurso procedente)"


class FinalityReason(models.TextChoices):
    NO_APPEAL = "no_appeal", "Sem recurso no prazo"
    LAST_INSTANCE = "last_instance", "Mantida na última instância"


class EffectKind(models.TextChoices):
    SUSPENSION = "suspension", "Suspensão da autorização"
    REVOCATION = "revocation", "Cassação da autorização"
    BAN = "ban", "Impedimento registrado"
    SKIPPED = "skipped", "Efeito não aplicado"
    RECORDED = "recorded", "Registrado"


class EffectState(models.TextChoices):
    """Where one effect of a penalty stands (whether a period runs today is read from its dates)."""

    APPLIED = "applied", "Aplicado"
    QUEUED = "queued", "Aplicado em sequência (após a suspensão em curso)"
    NOT_APPLIED = "not_applied", "Não aplicado"
    LIFTED = "lifted", "Levantado"
    RELEASED = "released", "Veículo liberado"
