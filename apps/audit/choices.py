from django.db import models


class RequestKind(models.TextChoices):
    """The data subject's rights of LGPD art. 18 that a request to the prefeitura can invoke."""

    CONFIRMATION = "confirmation", "Confirmação da existência de tratamento (art. 18, I)"
    ACCESS = "access", "Acesso aos dados (art. 18, II)"
    CORRECTION = "correction", "Correção de dados incompletos, inexatos ou desatualizados (art. 18, III)"
    ANONYMIZATION = (
        "anonymization",
        "Anonimização, bloqueio ou eliminação de dados desnecessários (art. 18, IV)",
    )
    PORTABILITY = "portability", "Portabilidade (art. 18, V)"
    DELETION = "deletion", "Eliminação de dados (art. 18, VI)"
    SHARING = "sharing", "Informação sobre compartilhamento (art. 18, VII)"
    REVOCATION = "revocation", "Revogação do consentimento (art. 18, IX)"


class RequestStatus(models.TextChoices):
    RECEIVED = "received", "Recebido"
    IN_PROGRESS = "in_progress", "Em atendimento"
    ANSWERED = "answered", "Respondido"
    REFUSED = "refused", "Negado (com fundamentação)"


CLOSED_STATUSES = (RequestStatus.ANSWERED, RequestStatus.REFUSED)
