"""The standard questions every regime may answer, the facts class each takes and its outcome vocabulary.

spec = QUESTIONS["vehicle_permit"]
spec.facts_class        # PermitApplication
spec.outcomes           # ("granted", "denied")
"""

from __future__ import annotations

from dataclasses import dataclass

from lawcode import facts as f
from lawcode.errors import QuestionNotApplicableError

ELIGIBILITY = ("granted", "denied")
COMPUTED = ("computed",)


@dataclass(frozen=True)
class QuestionSpec:
    name: str
    facts_class: type
    outcomes: tuple[str, ...]
    description_pt: str


def _spec(name: str, facts_class: type, outcomes: tuple[str, ...], description_pt: str) -> QuestionSpec:
    return QuestionSpec(name, facts_class, outcomes, description_pt)


QUESTIONS: dict[str, QuestionSpec] = {
    spec.name: spec
    for spec in (
        _spec(
            "law_in_force",
            f.LawInForceFacts,
            ("in_force", "not_in_force"),
            "A lei está em vigor na data? Desde quando? Há transições em curso?",
        ),
        _spec("operator_registration", f.Operator, ELIGIBILITY, "Cadastro do autorizatário (PF/PJ)"),
        _spec("driver_registration", f.Driver, ELIGIBILITY, "Cadastro do condutor, conforme a função"),
        _spec("attendant_registration", f.Attendant, ELIGIBILITY, "Cadastro do auxiliar/monitor de embarque"),
        _spec(
            "vehicle_permit",
            f.PermitApplication,
            ELIGIBILITY,
            "Alvará/autorização do veículo: veículo, operador, condutores, cotas, impedimentos e transições",
        ),
        _spec("document_validity", f.Document, ELIGIBILITY, "O documento é aceito na data? Até quando?"),
        _spec(
            "document_standing",
            f.StandingFacts,
            ("regular", "irregular", "suspended"),
            "Documentos obrigatórios vencidos ou ausentes: o que a lei diz da situação na data?",
        ),
        _spec("ban_status", f.Operator, ("banned", "not_banned"), "O operador está impedido de atuar?"),
        _spec("sanction", f.InfractionCase, ("penalty", "no_penalty"), "Penalidade aplicável à infração"),
        _spec("appeal_deadline", f.DeadlineFacts, COMPUTED, "Prazo para recurso"),
        _spec("judgment_deadline", f.DeadlineFacts, COMPUTED, "Prazo para julgamento do recurso"),
        _spec("payment_deadline", f.DeadlineFacts, COMPUTED, "Prazo para pagamento da multa"),
        _spec("ciencia_date", f.NoticeFacts, COMPUTED, "Data em que o infrator toma ciência"),
        _spec("notice_limit", f.NoticeFacts, COMPUTED, "Prazo máximo para a notificação da penalidade"),
        _spec("cure_deadline", f.DeadlineFacts, COMPUTED, "Prazo para sanar pendências"),
        _spec("inspection_scheduling", f.InspectionFacts, COMPUTED, "Agendamento da vistoria"),
        _spec(
            "inspection_calendar", f.InspectionFacts, COMPUTED, "Calendário de vistorias pelo final da placa"
        ),
        _spec("permit_validity", f.DeadlineFacts, COMPUTED, "Validade e renovação da autorização"),
        _spec("temporary_vehicle", f.DeadlineFacts, COMPUTED, "Autorização temporária de veículo"),
        _spec("service_class", f.TripFacts, COMPUTED, "Classe do serviço (regular/especial)"),
        _spec("fine_amount", f.FineFacts, COMPUTED, "Valor da multa em reais"),
    )
}


def question_spec(name: str) -> QuestionSpec:
    """The spec of a standard question; QuestionNotApplicableError listing the known ones otherwise."""
    try:
        return QUESTIONS[name]
    except KeyError:
        raise QuestionNotApplicableError(
            f"unknown question {name!r}; known questions: {', '.join(QUESTIONS)}",
            message_pt=f"pergunta desconhecida {name!r}",
            field="question",
        ) from None
