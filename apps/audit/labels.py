"""How an audit event reads to people: the action in Portuguese and its before/after as "campo: antes → depois".

The action names are engineering identifiers ("registry.person.update"); screens and reports show what
happened ("Alteração — pessoa") with field labels from the model and values in Brazilian formats.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.apps import apps
from django.core.exceptions import FieldDoesNotExist

from apps.audit.minimization import CHANGED_KEY
from apps.audit.services import PERSONAL_DATA_EXPORT, PERSONAL_DATA_LIST_EXPORT, PERSONAL_DATA_READ
from lawcode.decision import OUTCOME_PT
from lawcode.questions import QUESTIONS
from outorga.localdates import moment_text

ISO_DATE_LENGTH = len("2026-03-02")

# Whole actions whose wording is not "<verb> — <object>".
ACTION_LABELS: dict[str, str] = {
    PERSONAL_DATA_READ: "Leitura de dados pessoais",
    PERSONAL_DATA_EXPORT: "Exportação do relatório do titular (LGPD)",
    PERSONAL_DATA_LIST_EXPORT: "Exportação de lista com dados pessoais",
    "user.set_password": "Troca de senha",
    "user.password_change": "Troca de senha",
    "user.password_set": "Definição de senha",
    "user.password_reset": "Redefinição de senha",
    "user.password_reset_request": "Pedido de redefinição de senha",
    "user.deactivate": "Desativação da conta",
    "user.reactivate": "Reativação da conta",
    "municipality.create": "Criação do município",
    "auth.login": "Entrada no sistema",
    "auth.logout": "Saída do sistema",
    "auth.login_failed": "Tentativa de entrada recusada",
    "auth.locked_out": "Conta bloqueada por tentativas",
    "auth.reauthenticated": "Confirmação de senha",
    "auth.second_factor_verified": "Segundo fator confirmado",
    "auth.second_factor_failed": "Segundo fator recusado",
    "auth.second_factor_locked_out": "Segundo fator em espera após códigos errados",
    "auth.recovery_code_used": "Uso de código de recuperação",
    "mfa.device_add": "Cadastro de autenticador",
    "mfa.device_remove": "Remoção de autenticador",
    "mfa.recovery_codes_generate": "Geração de códigos de recuperação",
    "mfa.reset": "Reinício da autenticação em dois fatores",
    "data_subject_request.create": "Registro de requerimento de titular",
    "data_subject_request.progress": "Andamento de requerimento de titular",
    "data_subject_request.answer": "Resposta a requerimento de titular",
    "file.published": "Publicação de arquivo aberto (dados abertos)",
    "notification.read": "Aviso lido pelo destinatário",
    "reports.staff_digest": "Resumo diário de prazos enviado à equipe",
    "whatif.requested": "Simulação de mudança na lei pedida",
    "whatif.finished": "Simulação de mudança na lei concluída",
    "registry.document.rejudge": "Validade do documento revista após mudança da configuração legal",
    "lawconfig.external_value.enter": "Registro de valor de tabela estadual ou federal",
    "file.tampered": "Arquivo recusado: conteúdo diferente do registrado",
    "file.missing": "Arquivo recusado: não encontrado no armazenamento",
    "jobs.mail_delivery": "Entrega de e-mail",
    "jobs.run_queued": "Tarefa em segundo plano na fila",
    "jobs.run_started": "Tarefa em segundo plano iniciada",
    "jobs.run_finished": "Tarefa em segundo plano concluída",
    "licensing.daily_sweep": "Varredura diária de prazos e validades",
    "inspection.passed": "Vistoria aprovada",
    "inspection.failed": "Vistoria reprovada",
    "platform_roster.failed": "Falha na importação da lista da plataforma",
    "fine_valuation.make": "Valoração da multa",
    "fine_valuation.revalue": "Nova valoração da multa",
    "waiting_guide.wait": "Guia à espera de um valor",
    "waiting_guide.issued": "Emissão da guia que esperava um valor",
    "waiting_guide.withdraw": "Guia retirada da espera",
    "cnab_return.apply": "Aplicação de arquivo de retorno do banco (CNAB 240)",
    "municipality.regimes_in_force": "Mudança das leis em vigor no município",
    "notice.ciencia_evidence": "Prova de ciência da notificação",
    "notice.electronic_open": "Abertura da notificação eletrônica pelo destinatário",
    "notice.electronic_lapse": "Ciência da notificação eletrônica por decurso de prazo",
    "application.fee_guide_issued": "Emissão da guia da taxa que esperava um valor",
    "payment_guide.pix_from_psp": "Código PIX da cobrança recebido do banco",
    "payment_received.settle": "Baixa de pagamento recebido pelo banco",
    "payment_review.refund_sent": "Devolução ao pagador enviada ao banco",
    "pix_charge.revise": "Revisão da cobrança PIX no banco",
    "pix_charge.sync": "Cobrança PIX registrada no banco",
    "pix_charge.sync_failed": "Falha ao registrar a cobrança PIX no banco",
    "tax_feed.collect": "Coleta de eventos para o sistema tributário",
}

VERB_LABELS: dict[str, str] = {
    "create": "Cadastro",
    "update": "Alteração",
    "save": "Alteração",
    "set": "Definição",
    "status": "Mudança de situação",
    "link": "Vínculo",
    "unlink": "Desvínculo",
    "upload": "Envio de documento",
    "expire": "Vencimento",
    "record": "Registro",
    "set_active": "Ativação ou desativação",
    "grant": "Concessão",
    "revoke": "Revogação",
    "issue": "Emissão",
    "suspend": "Suspensão",
    "cancel": "Cancelamento",
    "register": "Registro",
    "file": "Protocolo",
    "submitted": "Envio",
    "evaluated": "Avaliação",
    "open": "Abertura",
    "notified": "Notificação",
    "judge": "Julgamento",
    "attach": "Anexo",
    "report": "Comunicação",
    "activate": "Ativação",
    "choose": "Escolha",
    "add": "Inclusão",
    "remove": "Remoção",
    "send": "Envio",
    "receipt": "Recebimento",
    "publish": "Publicação",
    "scheduled": "Agendamento",
    "rescheduled": "Reagendamento",
    "mark_paid": "Pagamento",
    "receive": "Recebimento",
    "answer": "Resposta",
    "progress": "Andamento",
    "accept": "Aceite",
    "reactivate": "Reativação",
    "release": "Liberação",
    "regularize": "Regularização",
    "inspection_done": "Vistoria realizada",
    # Actions written by services as "<object>.<state or event>" (application events, permit states…).
    "created": "Criação",
    "analysis_started": "Início da análise",
    "documents_requested": "Pedido de documentos",
    "fee_required": "Cobrança de taxa",
    "fee_paid": "Pagamento de taxa",
    "inspection_required": "Pedido de vistoria",
    "inspection_passed": "Vistoria aprovada",
    "inspection_failed": "Vistoria reprovada",
    "approved": "Deferimento",
    "denied": "Indeferimento",
    "archived": "Arquivamento",
    "permit_issued": "Emissão da autorização",
    "active": "Ativação",
    "suspended": "Suspensão",
    "revoked": "Cassação",
    "cancelled": "Cancelamento",
    "expired": "Vencimento",
    "passed": "Aprovação",
    "failed": "Falha",
    "queued": "Entrada na fila",
    "received": "Recebimento",
    "in_review": "Início da apuração",
    "forwarded": "Encaminhamento",
    "closed": "Encerramento",
    "submit": "Envio",
    "reject": "Recusa",
    "replace": "Substituição",
    "declare": "Declaração",
    "withdraw": "Retirada",
    "confirm": "Confirmação",
    "dismiss": "Descarte",
    "found": "Detecção",
    "annul": "Anulação",
    "void": "Anulação",
    "condemn": "Condenação",
    "final": "Decisão definitiva",
    "fine_issue": "Emissão da guia da multa",
    "standing": "Registro da situação legal",
    "reminder": "Lembrete",
    "govbr_link": "Vínculo com a conta gov.br",
    "public_contact": "Contato público",
    "traffic_only": "Encaminhamento como infração de trânsito",
    "inspection_overdue": "Vistoria atrasada",
    "suspension_held": "Suspensão mantida",
    "validity_ended": "Fim da validade",
    "conditional_cassation": "Cassação por não regularizar",
    "secretariat": "Convite da secretaria",
    "claim": "Pedido de acesso pelo CPF",
}

FIELD_LABELS: dict[str, str] = {
    CHANGED_KEY: "campos pessoais alterados",
    "fields": "campos exibidos",
    "birth_date": "data de nascimento",
    "cpf": "CPF",
    "address": "endereço",
    # Keys services add to a snapshot that are not fields of the audited model.
    "guide_status": "situação da guia",
    "reason": "motivo",
    "events": "eventos",
    "reported_by": "comunicado por",
    "user_id": "usuário",
    "municipality": "município",
    "role": "papel",
    "outcome": "resultado",
    "file": "arquivo",
    "sha256_recorded": "SHA-256 registrado",
    "sha256_found": "SHA-256 encontrado",
    # Relations some models leave with Django's English default label.
    "person": "pessoa",
    "company": "empresa",
    "vehicle": "veículo",
    "operator": "autorizatário",
    "driver": "condutor",
    "permit": "autorização",
    "platform": "plataforma",
    "holder_document": "CPF/CNPJ do titular",
}
# Names of keys that are no field of the audited model (a snapshot's extra keys, a nested dict's keys).
KEY_LABELS: dict[str, str] = {
    "regime": "regime",
    "regime_id": "regime",
    "regimes": "regimes",
    "kind": "tipo",
    "state": "situação",
    "status": "situação",
    "verdict": "decisão",
    "until": "até",
    "since": "desde",
    "articles": "artigos",
}
REGIME_KEYS = frozenset({"regime", "regime_id", "regimes"})

PROTECTED_VALUE = "(valor protegido)"


LIST_EXPORT_PREFIX = "export."


def object_label(object_type: str) -> str:
    model = _model(object_type)
    return str(model._meta.verbose_name) if model is not None else "registro"


def object_text(object_type: str, object_id: str, after: Any = None) -> str:
    """What an event is about, as people read it: "pessoa nº 4"; a list export names the list it downloaded
    ("lista Autos de infração"), which has no number."""
    if object_type.startswith(LIST_EXPORT_PREFIX):
        title = after.get("title") if isinstance(after, dict) else None
        return f"lista {title or object_type.removeprefix(LIST_EXPORT_PREFIX).replace('-', ' ')}"
    label = object_label(object_type)
    return f"{label} nº {object_id}" if object_id else label


def action_label(action: str, object_type: str = "") -> str:
    if action in ACTION_LABELS:
        return ACTION_LABELS[action]
    verb = action.rsplit(".", 1)[-1]
    what = object_label(object_type) if object_type else "registro"
    return f"{VERB_LABELS.get(verb, 'Registro')} — {what}"


def action_choices(events: Any) -> list[tuple[str, str]]:
    """The actions found among ``events`` as (action, label) options for a filter, by label: people pick
    "Leitura de dados pessoais", never ``personal_data.read``."""
    pairs = events.order_by().values_list("action", "object_type").distinct()
    labels: dict[str, str] = {}
    for action, object_type in pairs:
        labels.setdefault(action, action_label(action, object_type))
    return sorted(labels.items(), key=lambda item: (item[1].casefold(), item[0]))


def is_read(action: str) -> bool:
    return action in (PERSONAL_DATA_READ, PERSONAL_DATA_EXPORT, PERSONAL_DATA_LIST_EXPORT)


@dataclass(frozen=True)
class DetailLine:
    key: str
    field: str
    before: str
    after: str
    changed: bool


def detail_lines(object_type: str, before: Any, after: Any) -> list[DetailLine]:
    """One line per field of before/after, labelled and formatted; fields listed by name show their labels."""
    before = before if isinstance(before, dict) else {}
    after = after if isinstance(after, dict) else {}
    model = _model(object_type)
    lines = []
    for name in list(dict.fromkeys([*before, *after])):
        old, new = before.get(name), after.get(name)
        if name in (CHANGED_KEY, "fields"):
            old, new = _field_names(model, old), _field_names(model, new)
        else:
            old, new = value_label(model, name, old), value_label(model, name, new)
        changed = name in before and old != new
        lines.append(
            DetailLine(name, field_label(model, name), format_value(old), format_value(new), changed)
        )
    return lines


def _model_field(model: Any, name: str) -> Any:
    if model is None:
        return None
    for candidate in (name, name.removesuffix("_id")):
        try:
            return model._meta.get_field(candidate)
        except FieldDoesNotExist:
            continue
    return None


def _choice_label(model: Any, name: str, value: Any) -> Any:
    """A stored choice ("answered") as people read it ("Respondido")."""
    choices = getattr(_model_field(model, name), "choices", None)
    if not choices or not isinstance(value, str):
        return value
    return dict(choices).get(value, value)


def value_label(model: Any, name: str, value: Any) -> Any:
    """A stored value as people read it: a regime by its name, a choice by its label — the audited model's
    field first, else any model's field of that name that offers the value ("granted" → "Deferido")."""
    if isinstance(value, list):
        return [value_label(model, name, item) for item in value]
    if isinstance(value, dict):
        return {key: value_label(None, key, item) for key, item in value.items()}
    if not isinstance(value, str) or not value:
        return value
    if name in REGIME_KEYS:
        return _regime_name(value)
    if name == "outcome" and value in OUTCOME_PT:
        return OUTCOME_PT[value]
    if name == "question" and value in QUESTIONS:
        return QUESTIONS[value].description_pt
    shown = _choice_label(model, name, value)
    if shown != value:
        return shown
    for labeller in _VALUE_LABELLERS.get(name, ()):
        if (label := labeller(value)) is not None:
            return label
    return _choices_named(name).get(value, value)


# Values whose labels live above the trail (a document kind is declared by the regimes, read by the registry):
# the app that knows them registers a labeller from its AppConfig.ready().
ValueLabeller = Callable[[str], str | None]
_VALUE_LABELLERS: dict[str, list[ValueLabeller]] = {}


def register_value_labeller(name: str, labeller: ValueLabeller) -> None:
    """``labeller(value)`` gives the label of a stored value of key ``name``, or None when it is not its own."""
    labellers = _VALUE_LABELLERS.setdefault(name, [])
    if labeller not in labellers:
        labellers.append(labeller)


def _regime_name(regime_id: str) -> str:
    from apps.tenancy.regimes import regime_summary

    try:
        return regime_summary(regime_id)[0]
    except Exception:  # noqa: BLE001 — an event may name a regime no longer loaded; show what was stored
        return regime_id


@cache
def _choices_named(name: str) -> dict[str, str]:
    """Every choice of every model field called ``name``, value → label (first model wins on a clash)."""
    found: dict[str, str] = {}
    for model in apps.get_models():
        for candidate in (name, f"{name}_id"):
            try:
                field = model._meta.get_field(candidate)
            except FieldDoesNotExist:
                continue
            for value, label in getattr(field, "choices", None) or ():
                if isinstance(value, str):
                    found.setdefault(value, str(label))
    return found


def summary_lines(action: str, object_type: str, before: Any, after: Any) -> list[DetailLine]:
    """What a data subject needs to read: every line of a read, only the changed lines of a change."""
    lines = detail_lines(object_type, before, after)
    if is_read(action) or not isinstance(before, dict):
        return lines
    return [line for line in lines if line.changed or line.key == CHANGED_KEY]


def field_label(model: Any, name: str) -> str:
    if name in FIELD_LABELS:
        return FIELD_LABELS[name]
    field = _model_field(model, name)
    if field is not None:
        return str(field.verbose_name)
    return KEY_LABELS.get(name, name.replace("_", " "))


def _field_names(model: Any, names: Any) -> Any:
    if not isinstance(names, list):
        return names
    return ", ".join(field_label(model, str(name)) for name in names)


def format_value(value: Any) -> str:
    if value is None or value == "":
        return "—"
    if value is True:
        return "Sim"
    if value is False:
        return "Não"
    if isinstance(value, str) and value.startswith("hmac:"):
        return PROTECTED_VALUE
    if isinstance(value, str):
        return _date_pt(value) or value
    if isinstance(value, list):
        return ", ".join(format_value(item) for item in value) or "—"
    if isinstance(value, dict):
        return "; ".join(f"{field_label(None, key)}: {format_value(item)}" for key, item in value.items())
    return str(value)


def _date_pt(text: str) -> str:
    """An ISO date as dd/mm/aaaa; an ISO instant as dd/mm/aaaa às HH:MM in the municipality's time zone."""
    try:
        if len(text) == ISO_DATE_LENGTH:
            return dt.date.fromisoformat(text).strftime("%d/%m/%Y")
        if len(text) > ISO_DATE_LENGTH and text[ISO_DATE_LENGTH] in "T " and text[:4].isdigit():
            moment = dt.datetime.fromisoformat(text)
            return moment_text(moment) if moment.tzinfo is not None else f"{moment:%d/%m/%Y às %H:%M}"
    except ValueError:
        return ""
    return ""


def _model(object_type: str) -> Any:
    try:
        return apps.get_model(object_type)
    except (LookupError, ValueError):
        return None
