"""Notices, ciência and editais: the writes of the notification step (services, same rules as services.py).

- notice_send: in person (signature or refusal, ciência at once), registered letter with AR (a letter PDF to
  print), electronic. Every notice is kept as a PDF with the case.
- notice_record_receipt: the AR came back signed, or returned (Olímpia art. 34 II: returned letters for address
  change, refusal or bad records still count), or the electronic message was confirmed.
- notice_electronic_open / notice_electronic_lapse: an electronic notice (only where the regime allows the
  channel for that act, procedure.yaml ``electronic_notice``, and the holder opted in on the portal) is known
  when opened in the portal, or by the declared lapse after it was made available (the daily sweep).
- edital_publish: one edital for every offender not reached, ciência per regime (Olímpia: 5 dias corridos).
The first ciência of the infraction notice moves the case from «lavrado» to «notificado».
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone

from apps.accounts.actors import Actor, actor_user
from apps.audit.services import audit_record, audited_change
from apps.enforcement import lawbridge, pdf
from apps.enforcement.choices import CaseState, EventKind, NoticeChannel, NoticePurpose, ReturnedReason
from apps.enforcement.hooks import electronic_consent, notice_sent
from apps.enforcement.models import Edital, InfractionCase, Notice
from apps.enforcement.services import case_event_add, locked_case, refresh_notice_limit
from apps.ops.storage import attach_after_commit, sha256_hex
from apps.tenancy.models import Municipality
from apps.tenancy.numbering import format_number, number_take
from apps.tenancy.querysets import user_can
from apps.web.refusals import refuse

DIRECT_CHANNELS = (NoticeChannel.IN_PERSON, NoticeChannel.AR, NoticeChannel.ELECTRONIC)


def _check_notifier(actor: Actor, municipality: Municipality) -> None:
    if not user_can(actor, municipality.pk, "enforcement.notice", "change"):
        raise refuse("notice", f"Notificação: você não pode notificar autos em {municipality}.")


def _check_day(field: str, label: str, day: dt.date | None, *, not_before: dt.date, as_of: dt.date) -> None:
    if day is None:
        return
    if day > as_of:
        raise refuse(field, f"{label}: não pode ser posterior a {as_of:%d/%m/%Y}.")
    if day < not_before:
        raise refuse(field, f"{label}: não pode ser anterior a {not_before:%d/%m/%Y}.")


def _recipient(case: InfractionCase) -> tuple[str, str]:
    operator = case.operator
    if operator is None:
        return case.offender_name or case.driver_name, case.offender_address
    holder = operator.person if operator.person_id else operator.company
    return operator.holder_name, getattr(holder, "address_line", "") or case.offender_address


@transaction.atomic
def notice_send(
    *,
    case: InfractionCase,
    actor: Actor,
    purpose: str,
    channel: str,
    sent_on: dt.date,
    as_of: dt.date,
    signature_name: str = "",
    refused: bool = False,
    recipient_name: str = "",
    recipient_address: str = "",
    note: str = "",
) -> Notice:
    """Send a notice by a direct channel; in person it is received at once (signature or refusal)."""
    row = locked_case(case)
    _check_notifier(actor, row.municipality)
    _check_send(row, purpose, channel, sent_on, as_of, signature_name, refused)
    consent = _check_electronic(row, purpose, sent_on) if channel == NoticeChannel.ELECTRONIC else None
    notice = Notice(
        case=row,
        purpose=purpose,
        channel=channel,
        sent_on=sent_on,
        **_addressed(row, recipient_name, recipient_address),
        refused=refused,
        signature_name=signature_name.strip(),
        created_by=actor_user(actor),
    )
    _write_and_keep(notice, row, note, as_of)
    _note_sent(notice, row, actor, consent)
    _after_ciencia(notice, row, actor, as_of)
    audit_record(
        actor=actor,
        municipality=row.municipality,
        action="notice.send",
        obj=notice,
        after={**notice.audit_snapshot(), **({"electronic_consent": consent} if consent else {})},
    )
    notice_sent(notice, as_of)
    return notice


def _addressed(case: InfractionCase, recipient_name: str, recipient_address: str) -> dict[str, str]:
    """Whom the notice goes to: the name and address given, else those of the case's holder or offender."""
    name, address = _recipient(case)
    return {
        "recipient_name": (recipient_name or name).strip() or "Autuado não identificado",
        "recipient_address": (recipient_address or address).strip(),
    }


def _write_and_keep(notice: Notice, case: InfractionCase, note: str, as_of: dt.date) -> None:
    """The notice's text, its ciência at once when handed over in person, then the row and its PDF."""
    notice.body = pdf.notice_body(notice, note)
    if notice.channel == NoticeChannel.IN_PERSON:
        notice.received_on = notice.sent_on
        _apply_ciencia(notice, case, as_of)
    _store_pdf(notice)


def _note_sent(
    notice: Notice, case: InfractionCase, actor: Actor, consent: dict[str, str] | None = None
) -> None:
    extra = ""
    if consent:
        extra = (
            f" — disponibilizada no portal em {notice.sent_on:%d/%m/%Y}; adesão à notificação eletrônica "
            f"em {consent.get('accepted_on', '')} pela conta {consent.get('account', '')}"
        )
    case_event_add(
        case=case,
        kind=EventKind.NOTICE_SENT,
        actor=actor,
        on=notice.sent_on,
        note=f"{notice.get_purpose_display()} — {notice.get_channel_display()}{extra}"[:500],
        data={"notice_id": notice.pk, **({"electronic_consent": consent} if consent else {})},
    )


def _check_electronic(case: InfractionCase, purpose: str, on: dt.date) -> dict[str, str]:
    """The electronic channel only for the acts the regime allows it (procedure.yaml ``electronic_notice``) and
    only to a holder who opted in on the portal; returns the opt-in's proof."""
    refusal = lawbridge.electronic_refusal(case, purpose, on)
    if refusal:
        raise refuse("channel", f"Meio eletrônico: {refusal}")
    consent = electronic_consent(case.operator)
    if consent is None:
        holder = case.operator.holder_name if case.operator is not None else "o autuado"
        basis = lawbridge.electronic_basis(case, on)
        raise refuse(
            "channel",
            f"Meio eletrônico: {holder} não aderiu à notificação eletrônica no portal "
            f"({basis}); notifique pessoalmente, por carta com AR ou por edital.",
        )
    return consent


def _check_send(
    case: InfractionCase,
    purpose: str,
    channel: str,
    sent_on: dt.date,
    as_of: dt.date,
    signature: str,
    refused: bool,
) -> None:
    if purpose not in NoticePurpose.values:
        raise refuse("purpose", "Finalidade: escolha a finalidade da notificação.")
    if channel not in DIRECT_CHANNELS:
        raise refuse(
            "channel",
            "Meio: escolha pessoalmente, carta com AR ou meio eletrônico "
            "(o edital é publicado pela tela de editais).",
        )
    if case.state in (CaseState.CLOSED, CaseState.CANCELLED):
        raise refuse("state", f"O auto {case.number} está «{case.get_state_display()}».")
    _check_day("sent_on", "Data de expedição", sent_on, not_before=case.drawn_on, as_of=as_of)
    if channel == NoticeChannel.IN_PERSON and not signature.strip() and not refused:
        raise refuse(
            "signature_name",
            "Ciência pessoal: informe o nome de quem assinou ou registre a recusa em assinar.",
        )


def _apply_ciencia(
    notice: Notice, case: InfractionCase, as_of: dt.date, published_on: dt.date | None = None
) -> None:
    answer = lawbridge.ciencia(case, lawbridge.notice_facts(notice, case, published_on), as_of)
    notice.ciencia_on = answer.value if answer else None
    notice.decision = answer.decision if answer else {}


def _store_pdf(notice: Notice) -> None:
    notice.save()
    _attach_pdf(notice, f"notificacao-{notice.pk}.pdf", pdf.notice_pdf(notice))


def _attach_pdf(row: Notice | Edital, filename: str, content: bytes) -> None:
    """The generated PDF and its hash on the row; the file itself is written once the transaction commits."""
    attach_after_commit(row.pdf, filename, content)
    row.pdf_sha256 = sha256_hex(content)
    row.save(update_fields=["pdf", "pdf_sha256"])


def _after_ciencia(
    notice: Notice,
    case: InfractionCase,
    actor: Actor,
    as_of: dt.date,
    evidence: dict[str, str] | None = None,
) -> None:
    """The first ciência of the auto moves the case on; in Patrocínio it also starts the 90-day limit.
    `evidence`: how the ciência is proven (an electronic notice opened: instant, account, IP, the PDF's hash)."""
    if notice.ciencia_on is None:
        return
    proof = f" — {evidence['note']}" if evidence else ""
    case_event_add(
        case=case,
        kind=EventKind.NOTICE_RECEIVED,
        actor=actor,
        on=notice.ciencia_on,
        note=f"Ciência: {notice.get_purpose_display().lower()}{proof}"[:500],
        data={"notice_id": notice.pk, **(evidence or {})},
    )
    if notice.purpose != NoticePurpose.INFRACTION or case.state != CaseState.DRAFTED:
        return
    with audited_change(case, actor=actor, action="infractioncase.notified"):
        case.state = CaseState.NOTIFIED
        case.save(update_fields=["state", "updated_at"])
        refresh_notice_limit(case, as_of, auto_received_on=notice.ciencia_on)
        case_event_add(
            case=case,
            kind=EventKind.STATE_CHANGED,
            actor=actor,
            on=notice.ciencia_on,
            state_from=CaseState.DRAFTED,
            note="Autuado notificado",
        )


@transaction.atomic
def notice_record_receipt(
    *, notice: Notice, actor: Actor, as_of: dt.date, received_on: dt.date, returned_reason: str = ""
) -> Notice:
    """The AR or the electronic confirmation came back: received (or returned, with the reason) on a day."""
    row: Notice = Notice.objects.select_for_update().get(pk=notice.pk)
    case = locked_case(row.case)
    _check_notifier(actor, case.municipality)
    _check_receipt(row, received_on, returned_reason, as_of)
    with audited_change(row, actor=actor, action="notice.receipt", municipality=case.municipality):
        row.received_on, row.returned_reason = received_on, returned_reason
        _apply_ciencia(row, case, as_of)
        row.save()
        if row.ciencia_on is None:
            reason = lawbridge.ciencia_refusal(case, lawbridge.notice_facts(row, case), as_of)
            case_event_add(
                case=case,
                kind=EventKind.NOTICE_RETURNED,
                actor=actor,
                on=received_on,
                note=f"{row.get_returned_reason_display()}: sem ciência — {reason}",
            )
        _after_ciencia(row, case, actor, as_of)
    notice_sent(row, as_of)
    return row


@transaction.atomic
def notice_electronic_open(*, notice: Notice, actor: Actor, opened_at: dt.datetime, ip: str) -> Notice:
    """The addressee opened an electronic notice in the portal: the first opening is its receipt, with the proof
    of ciência (instant, account, IP, the SHA-256 of the signed PDF opened) in the case's timeline and the
    audit trail. The law decides whether this channel gives ciência (engine ``ciencia_date``); when it does, the
    deadlines count from it. Later openings change nothing."""
    row: Notice = Notice.objects.select_for_update().get(pk=notice.pk)
    if row.channel != NoticeChannel.ELECTRONIC or row.received_on is not None or row.ciencia_on is not None:
        return row  # opened before, or already known by lapse: later openings change nothing
    case = locked_case(row.case)
    user = actor_user(actor)
    moment = timezone.localtime(opened_at)
    evidence = {
        "opened_at": moment.isoformat(),
        "account": user.get_username() if user else "",
        "ip": ip,
        "pdf_sha256": row.pdf_sha256,
        "note": (
            f"notificação eletrônica aberta no portal em {moment:%d/%m/%Y às %H:%M} pela conta "
            f"{user.get_username() if user else 'desconhecida'} (IP {ip}; documento SHA-256 {row.pdf_sha256[:16]}…)"
        ),
    }
    as_of = moment.date()
    with audited_change(row, actor=actor, action="notice.electronic_open", municipality=case.municipality):
        row.received_on = as_of
        _apply_ciencia(row, case, as_of)
        row.save()
        if row.ciencia_on is None:
            reason = lawbridge.ciencia_refusal(case, lawbridge.notice_facts(row, case), as_of)
            case_event_add(
                case=case,
                kind=EventKind.NOTE,
                actor=actor,
                on=as_of,
                note=f"{evidence['note'][0].upper()}{evidence['note'][1:]}: sem ciência — {reason}"[:500],
                data={"notice_id": row.pk, **evidence},
            )
        _after_ciencia(row, case, actor, as_of, evidence)
    audit_record(
        actor=actor,
        municipality=case.municipality,
        action="notice.ciencia_evidence",
        obj=row,
        after={key: value for key, value in evidence.items() if key != "note"},
    )
    notice_sent(row, as_of)
    return row


def electronic_lapse_due(as_of: dt.date) -> list[Notice]:
    """Electronic notices made available and never opened nor known, in open cases, whose lapse may be over."""
    rows = Notice.objects.filter(
        channel=NoticeChannel.ELECTRONIC, received_on__isnull=True, ciencia_on__isnull=True, sent_on__lt=as_of
    ).exclude(case__state__in=(CaseState.CLOSED, CaseState.CANCELLED))
    return list(rows.select_related("case__municipality", "case__operator").order_by("pk"))


@transaction.atomic
def notice_electronic_lapse(*, notice: Notice, actor: Actor, as_of: dt.date) -> Notice | None:
    """Ciência by lapse: an electronic notice not opened within the lapse the regime declares (an article, or the
    municipality's named interpretation; e.g. 10 days after it was made available) is taken as known on the
    lapse's last day, with the evidence (made available on, the rule and its basis) in the case's timeline and
    the audit trail; deadlines count from it. None when there is no lapse or it is not over on ``as_of``."""
    row: Notice = Notice.objects.select_for_update().get(pk=notice.pk)
    if row.channel != NoticeChannel.ELECTRONIC or row.received_on is not None or row.ciencia_on is not None:
        return None
    case = locked_case(row.case)
    lapse = lawbridge.electronic_lapse(case, row.sent_on)
    if lapse is None or lapse.ciencia_on >= as_of:
        return None
    evidence = {
        "made_available_on": row.sent_on.isoformat(),
        "lapse_days": str(lapse.days),
        "lapse_basis": lapse.basis,
        "pdf_sha256": row.pdf_sha256,
        "note": (
            f"por decurso de prazo: notificação eletrônica disponibilizada no portal em {row.sent_on:%d/%m/%Y} e "
            f"não aberta em {lapse.days} {lapse.counting} ({lapse.basis}); ciência em {lapse.ciencia_on:%d/%m/%Y}"
        ),
    }
    with audited_change(row, actor=actor, action="notice.electronic_lapse", municipality=case.municipality):
        row.ciencia_on = lapse.ciencia_on
        row.decision = {
            "question": "electronic_lapse",
            "result": {"ciencia_on": lapse.ciencia_on.isoformat()},
            "explanation": evidence["note"],
            "evidence": {key: value for key, value in evidence.items() if key != "note"},
        }
        row.save()
        _after_ciencia(row, case, actor, as_of, evidence)
    audit_record(
        actor=actor,
        municipality=case.municipality,
        action="notice.ciencia_evidence",
        obj=row,
        after={key: value for key, value in evidence.items() if key != "note"},
    )
    notice_sent(row, as_of)
    return row


def electronic_lapse_sweep(as_of: dt.date) -> int:
    """The daily sweep's step: ciência by lapse for every electronic notice whose lapse is over (each in its
    own transaction, so one failure never undoes the others)."""
    done = 0
    for notice in electronic_lapse_due(as_of):
        if notice_electronic_lapse(notice=notice, actor=None, as_of=as_of) is not None:
            done += 1
    return done


def _check_receipt(notice: Notice, received_on: dt.date, returned_reason: str, as_of: dt.date) -> None:
    if notice.channel not in (NoticeChannel.AR, NoticeChannel.ELECTRONIC):
        raise refuse("channel", "Recebimento: só cartas com AR e mensagens eletrônicas aguardam retorno.")
    if notice.received_on is not None:
        raise refuse("received_on", f"Recebimento: já registrado em {notice.received_on:%d/%m/%Y}.")
    if returned_reason not in ReturnedReason.values:
        raise refuse("returned_reason", "Motivo da devolução: escolha um dos motivos da lista.")
    if returned_reason and notice.channel != NoticeChannel.AR:
        raise refuse("returned_reason", "Motivo da devolução: só cartas são devolvidas.")
    _check_day("received_on", "Data do recebimento", received_on, not_before=notice.sent_on, as_of=as_of)


# --- editais ---------------------------------------------------------------------------------------------


def unreached_cases(municipality: Municipality, purpose: str) -> list[InfractionCase]:
    """Open cases with a notice of ``purpose`` that did not reach the offender and none that did."""
    tried = Notice.objects.filter(case__municipality=municipality, purpose=purpose, ciencia_on__isnull=True)
    tried = tried.exclude(channel__in=(NoticeChannel.AR, NoticeChannel.ELECTRONIC), received_on__isnull=True)
    reached = Notice.objects.filter(purpose=purpose, ciencia_on__isnull=False).values("case_id")
    rows = InfractionCase.objects.filter(pk__in=tried.values("case_id")).exclude(pk__in=reached)
    rows = rows.exclude(state__in=(CaseState.CLOSED, CaseState.CANCELLED))
    return list(rows.select_related("operator__person", "operator__company").order_by("year", "sequence"))


@transaction.atomic
def edital_publish(
    *,
    municipality: Municipality,
    actor: Actor,
    purpose: str,
    cases: Sequence[InfractionCase],
    published_on: dt.date,
    publication_ref: str,
    as_of: dt.date,
) -> Edital:
    """Publish one edital for the offenders not reached; each case gets an edital notice with its ciência."""
    _check_notifier(actor, municipality)
    _check_edital(municipality, purpose, cases, published_on, publication_ref, as_of)
    sequence = number_take(kind="edital", municipality=municipality, year=published_on.year)
    edital = Edital(
        municipality=municipality,
        regime_id=cases[0].regime_id,
        year=published_on.year,
        sequence=sequence,
        number=format_number(sequence, published_on.year, prefix="ED-"),
        purpose=purpose,
        published_on=published_on,
        publication_ref=publication_ref.strip(),
        created_by=actor_user(actor),
    )
    edital.text = pdf.edital_text(edital, cases)
    edital.save()
    content = pdf.edital_pdf(edital)
    _attach_pdf(edital, f"edital-{edital.pk}.pdf", content)
    for case in cases:
        _edital_notice(edital, locked_case(case), actor, as_of, content)
    audit_record(
        actor=actor,
        municipality=municipality,
        action="edital.publish",
        obj=edital,
        after={"number": edital.number, "published_on": published_on, "cases": [c.pk for c in cases]},
    )
    return edital


def _check_edital(
    municipality: Municipality,
    purpose: str,
    cases: Sequence[InfractionCase],
    published_on: dt.date,
    publication_ref: str,
    as_of: dt.date,
) -> None:
    if not cases:
        raise refuse("cases", "Autos: escolha ao menos um autuado não localizado.")
    if not publication_ref.strip():
        raise refuse(
            "publication_ref",
            "Veículo de publicação: informe onde o edital foi publicado "
            "(ex.: Diário Oficial do Município, edição e página).",
        )
    pending = {c.pk for c in unreached_cases(municipality, purpose)}
    outside = [c.number for c in cases if c.pk not in pending]
    if outside:
        raise refuse("cases", f"Autos: {', '.join(outside)} não têm notificação frustrada desta finalidade.")
    if len({c.regime_id for c in cases}) > 1:
        raise refuse("cases", "Autos: um edital reúne autos de um só regime.")
    _check_day(
        "published_on",
        "Data de publicação",
        published_on,
        not_before=max(c.drawn_on for c in cases),
        as_of=as_of,
    )
    probe = Notice(channel=NoticeChannel.EDITAL, sent_on=published_on)
    answer = lawbridge.ciencia(cases[0], lawbridge.notice_facts(probe, cases[0], published_on), as_of)
    if answer is None or answer.value is None:
        reason = lawbridge.ciencia_refusal(
            cases[0], lawbridge.notice_facts(probe, cases[0], published_on), as_of
        )
        raise refuse("published_on", f"Edital: {reason}")


def _edital_notice(
    edital: Edital, case: InfractionCase, actor: Actor, as_of: dt.date, content: bytes
) -> Notice:
    name, address = _recipient(case)
    notice = Notice(
        case=case,
        purpose=edital.purpose,
        channel=NoticeChannel.EDITAL,
        sent_on=edital.published_on,
        recipient_name=name or "Autuado não identificado",
        recipient_address=address,
        edital=edital,
        body=edital.text,
        created_by=actor_user(actor),
    )
    _apply_ciencia(notice, case, as_of, published_on=edital.published_on)
    notice.save()
    _attach_pdf(notice, f"edital-{edital.pk}-{case.pk}.pdf", content)
    case_event_add(
        case=case,
        kind=EventKind.EDITAL_PUBLISHED,
        actor=actor,
        on=edital.published_on,
        note=f"Edital {edital.number} — {edital.publication_ref}",
        data={"notice_id": notice.pk},
    )
    _after_ciencia(notice, case, actor, as_of)
    return notice
