from django.db import models


class OperatorKind(models.TextChoices):
    PF = "PF", "Pessoa física"
    PJ = "PJ", "Pessoa jurídica"


class OperatorStatus(models.TextChoices):
    PENDING = "pending", "Em cadastro"
    ACTIVE = "active", "Ativo"
    SUSPENDED = "suspended", "Suspenso"
    REVOKED = "revoked", "Cassado"
    CANCELLED = "cancelled", "Cancelado a pedido"


class DriverRole(models.TextChoices):
    PRINCIPAL = "principal", "Condutor principal"
    AUXILIARY = "auxiliary", "Condutor auxiliar"
    EMPLOYEE = "employee", "Empregado da empresa (com contrato)"
    EMERGENCY = "emergency", "Substituto emergencial"


class Accessibility(models.TextChoices):
    NONE = "", "Sem adaptação"
    ACCESSIBLE = "acessivel", "Acessível"
    ADAPTED = "adaptado", "Adaptado"


class VehicleCategory(models.TextChoices):
    RENTAL = "aluguel", "Aluguel"
    PRIVATE = "particular", "Particular"


class OwnershipKind(models.TextChoices):
    OWN = "own", "Próprio"
    SPOUSE = "spouse", "Do cônjuge"
    PARTNER = "partner", "Do companheiro(a)"
    CHILD = "child", "De filho(a)"
    COMPANY_PARTNER = "company_partner", "De sócio da empresa"
    COMODATO = "comodato", "Comodato"
    LEASE = "lease", "Arrendamento (leasing)"
    RENTAL = "rental", "Locação"
    FIDUCIARY = "fiduciary", "Alienação fiduciária"


class DocumentStatus(models.TextChoices):
    VALID = "valid", "Válido"
    NOT_ACCEPTED = "not_accepted", "Não aceito"
    EXPIRED = "expired", "Vencido"
    REPLACED = "replaced", "Substituído por cópia mais nova"


class InfractionSeverity(models.TextChoices):
    """CTB art. 258 classes; values as lawcode.facts.Severity names them."""

    LEVE = "leve", "Leve"
    MEDIA = "media", "Média"
    GRAVE = "grave", "Grave"
    GRAVISSIMA = "gravissima", "Gravíssima"
