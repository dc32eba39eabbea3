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


# What the apps do with each question they ask, and what happens when a regime does not answer it. This is the
# list the apps ask from (a test, lawcode/tests/test_doctor.py, reads apps/ and fails when a question is asked
# there and not listed here, or listed and never asked), so ``python -m lawcode doctor`` and the guide's table
# cannot go stale. ``required``: the apps cannot run the regime without it.
@dataclass(frozen=True)
class AppQuestion:
    question: str
    asked_pt: str
    unanswered_pt: str
    required: bool = False


APP_QUESTIONS: tuple[AppQuestion, ...] = (
    AppQuestion(
        "operator_registration",
        "requerimento de cadastro do autorizatário",
        "o cadastro é analisado sem a lei (requerimento sem decisão automática)",
    ),
    AppQuestion(
        "driver_registration",
        "vínculo de condutor e condutor emergencial",
        "o vínculo fica sem decisão automática",
    ),
    AppQuestion(
        "attendant_registration", "vínculo de auxiliar/monitor", "o vínculo fica sem decisão automática"
    ),
    AppQuestion(
        "vehicle_permit",
        "requerimento de alvará, renovação, substituição e veículo provisório",
        "o requerimento fica sem decisão automática e nenhum alvará pode ser emitido",
        required=True,
    ),
    AppQuestion(
        "document_validity", "envio de documento: é aceito? até quando?", "o documento vale sem prazo da lei"
    ),
    AppQuestion(
        "document_standing",
        "situação documental do alvará (painel, varredura diária)",
        "documentos vencidos não afetam o alvará",
    ),
    AppQuestion("ban_status", "cadastro: o operador está impedido?", "nenhum impedimento é verificado"),
    AppQuestion("sanction", "auto de infração, julgamento e decisão definitiva", "o auto não tem penalidade"),
    AppQuestion(
        "appeal_deadline",
        "prazo de defesa e de recurso de cada instância",
        "a tela diz que a lei não fixa prazo; o caso não transita em julgado por decurso de prazo",
    ),
    AppQuestion(
        "judgment_deadline", "prazo de julgamento do recurso", "a fila de julgamento não mostra prazo"
    ),
    AppQuestion(
        "payment_deadline", "vencimento da guia da multa", "vale o prazo usual do município para a guia"
    ),
    AppQuestion(
        "ciencia_date",
        "data de ciência de cada notificação (AR, edital, meio eletrônico)",
        "a ciência não é calculada e nenhum prazo corre",
    ),
    AppQuestion(
        "notice_limit",
        "prazo máximo para notificar a penalidade (nulidade «penalty_notice»)",
        "nenhum prazo de notificação da penalidade é mostrado",
    ),
    AppQuestion("cure_deadline", "prazo para sanar pendências", "a pendência fica sem prazo"),
    AppQuestion("inspection_scheduling", "agendamento da vistoria", "a vistoria é agendada sem prazo da lei"),
    AppQuestion(
        "inspection_calendar", "calendário de vistorias pelo final da placa", "não há calendário anual"
    ),
    AppQuestion(
        "permit_validity",
        "validade e renovação do alvará",
        "o alvará não pode ser emitido com validade",
        required=True,
    ),
    AppQuestion(
        "temporary_vehicle", "prazo do veículo provisório", "o veículo provisório fica sem prazo da lei"
    ),
    AppQuestion("fine_amount", "valor da multa e das guias em reais", "a guia não pode ser valorada"),
)
assert {q.question for q in APP_QUESTIONS} <= set(QUESTIONS), "every question the apps ask is a standard one"
