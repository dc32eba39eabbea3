from django.db import models


class Role(models.TextChoices):
    """Staff roles a user may hold in one municipality (tenancy.Membership)."""

    ADMINISTRATOR = "administrator", "Administrador"
    ANALYST = "analyst", "Analista"
    INSPECTOR = "inspector", "Vistoriador"
    ENFORCEMENT_AGENT = "enforcement_agent", "Agente de fiscalização"
    JUDGING_AUTHORITY = "judging_authority", "Julgamento em 1ª instância"
    APPEAL_BOARD = "appeal_board", "Julgamento em 2ª instância"
    FINANCE = "finance", "Financeiro"
    AUDITOR_DPO = "auditor_dpo", "Auditor / Encarregado de dados (DPO)"


class UF(models.TextChoices):
    AC = "AC", "Acre"
    AL = "AL", "Alagoas"
    AP = "AP", "Amapá"
    AM = "AM", "Amazonas"
    BA = "BA", "Bahia"
    CE = "CE", "Ceará"
    DF = "DF", "Distrito Federal"
    ES = "ES", "Espírito Santo"
    GO = "GO", "Goiás"
    MA = "MA", "Maranhão"
    MT = "MT", "Mato Grosso"
    MS = "MS", "Mato Grosso do Sul"
    MG = "MG", "Minas Gerais"
    PA = "PA", "Pará"
    PB = "PB", "Paraíba"
    PR = "PR", "Paraná"
    PE = "PE", "Pernambuco"
    PI = "PI", "Piauí"
    RJ = "RJ", "Rio de Janeiro"
    RN = "RN", "Rio Grande do Norte"
    RS = "RS", "Rio Grande do Sul"
    RO = "RO", "Rondônia"
    RR = "RR", "Roraima"
    SC = "SC", "Santa Catarina"
    SP = "SP", "São Paulo"
    SE = "SE", "Sergipe"
    TO = "TO", "Tocantins"


# The first two digits of every IBGE municipality code are its state's IBGE code.
UF_IBGE_PREFIX: dict[str, str] = {
    "RO": "11",
    "AC": "12",
    "AM": "13",
    "RR": "14",
    "PA": "15",
    "AP": "16",
    "TO": "17",
    "MA": "21",
    "PI": "22",
    "CE": "23",
    "RN": "24",
    "PB": "25",
    "PE": "26",
    "AL": "27",
    "SE": "28",
    "BA": "29",
    "MG": "31",
    "ES": "32",
    "RJ": "33",
    "SP": "35",
    "PR": "41",
    "SC": "42",
    "RS": "43",
    "MS": "50",
    "MT": "51",
    "GO": "52",
    "DF": "53",
}
