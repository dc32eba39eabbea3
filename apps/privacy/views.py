"""The encarregado's (DPO's) pages: data subjects, their access report, and their requests (LGPD arts. 18–19)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods

from apps.accounts.decorators import recent_authentication_required
from apps.audit.labels import action_label, is_read, object_label, summary_lines
from apps.audit.models import AuditEvent, DataSubjectRequest
from apps.audit.services import audit_personal_data_read
from apps.privacy import services
from apps.privacy.forms import DataSubjectRequestForm, DataSubjectRequestUpdateForm, SubjectSearchForm
from apps.privacy.pdf import subject_report_pdf
from apps.privacy.subjects import events_of, find_people, masked_cpf, subject_of
from apps.registry.identifiers import format_cpf
from apps.registry.models import Person
from apps.tenancy.models import Municipality
from apps.tenancy.querysets import get_object_for_user_or_404, user_can
from apps.web.pagination import paginate
from outorga.submit import submit

SUBJECT_PAGE_SIZE = 50
SUBJECT_FIELDS_SHOWN = ("cpf", "birth_date", "email", "phone", "address")


def _audit_municipalities(request: HttpRequest) -> list[Municipality]:
    """Municipalities where the user audits (the auditor/DPO); none answers 404 like any other page."""
    municipalities = list(Municipality.objects.where_user_may(request.user, "audit.auditevent", "audit"))
    if not municipalities:
        raise Http404("Registro não encontrado.")
    return municipalities


def _subject_person(request: HttpRequest, person_id: int) -> Person:
    municipalities = _audit_municipalities(request)
    person = Person.objects.filter(pk=person_id, municipality__in=municipalities).select_related(
        "municipality"
    )
    found = person.first()
    if found is None:
        raise Http404("Registro não encontrado.")
    return found


@login_required
@require_GET
def subject_search(request: HttpRequest) -> HttpResponse:
    """Find a data subject by CPF or name; results show the CPF masked (opening one is the audited read)."""
    municipalities = _audit_municipalities(request)
    form = SubjectSearchForm(request.GET or None)
    people = (
        find_people(form.cleaned_data["q"], municipalities)[:50] if form.is_bound and form.is_valid() else []
    )
    rows = [(person, masked_cpf(person)) for person in people]
    return render(request, "privacy/subject_search.html", {"form": form, "rows": rows})


@login_required
@require_GET
def subject_detail(request: HttpRequest, person_id: int) -> HttpResponse:
    """What Outorga holds on the person and every event on it: "who read or changed my data, and when"."""
    person = _subject_person(request, person_id)
    subject = subject_of(person)
    audit_personal_data_read(
        actor=request.user,
        municipality=person.municipality,
        obj=person,
        fields=SUBJECT_FIELDS_SHOWN,
        request_id=getattr(request, "request_id", ""),
    )
    events = events_of(subject, AuditEvent.objects.for_user(request.user, "audit"))
    page, query = paginate(request, events, SUBJECT_PAGE_SIZE)
    rows = [_event_row(event) for event in page]
    context = {"subject": subject, "person": person, "page": page, "query": query, "rows": rows}
    return _no_store(render(request, "privacy/subject_detail.html", context))


def _event_row(event: AuditEvent) -> dict[str, object]:
    return {
        "event": event,
        "kind": "Leitura" if is_read(event.action) else "Alteração",
        "label": action_label(event.action, event.object_type),
        "object": f"{object_label(event.object_type)} nº {event.object_id}",
        "lines": summary_lines(event.action, event.object_type, event.before, event.after),
        "created": event.before is None and not is_read(event.action),
    }


@login_required
@recent_authentication_required
@require_GET
def subject_report(request: HttpRequest, person_id: int) -> HttpResponse:
    """The subject-access report as PDF; issuing it is itself recorded (a personal-data export).

    A whole person's file leaving the system is a sensitive action: it asks for a recent password and code.
    """
    person = _subject_person(request, person_id)
    subject = subject_of(person)
    events = list(events_of(subject, AuditEvent.objects.for_user(request.user, "audit")))
    services.subject_report_issue(
        actor=request.user, person=person, fields=SUBJECT_FIELDS_SHOWN, events=len(events)
    )
    actor = getattr(request.user, "display_name", "") or request.user.get_username()
    content = subject_report_pdf(subject, events, generated_by=actor)
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="relatorio-titular-{person.pk}.pdf"'
    return _no_store(response)


def _no_store(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "no-store"  # personal data: never kept by a browser or proxy cache
    return response


def _request_municipalities(request: HttpRequest, action: str) -> list[Municipality]:
    municipalities = list(
        Municipality.objects.where_user_may(request.user, "audit.datasubjectrequest", action)
    )
    if not municipalities:
        raise Http404("Registro não encontrado.")
    return municipalities


@login_required
@require_GET
def request_list(request: HttpRequest) -> HttpResponse:
    """The queue of data-subject requests, the nearest deadline first; the closed ones on request."""
    _request_municipalities(request, "view")
    rows = DataSubjectRequest.objects.for_user(request.user, "view").select_related("municipality")
    show_all = request.GET.get("todos") == "1"
    if not show_all:
        rows = rows.pending()
    today = timezone.localdate()
    context = {
        "rows": [(row, row.is_late(today), (row.due_on - today).days) for row in rows],
        "show_all": show_all,
    }
    return _no_store(render(request, "privacy/request_list.html", context))


@login_required
@require_http_methods(["GET", "POST"])
def request_create(request: HttpRequest) -> HttpResponse:
    municipalities = _request_municipalities(request, "change")
    form = DataSubjectRequestForm(
        request.POST or None, municipalities=municipalities, initial={"received_on": timezone.localdate()}
    )

    def create() -> DataSubjectRequest:
        data = form.cleaned_data
        return services.data_subject_request_create(
            actor=request.user,
            municipality=next(m for m in municipalities if m.ibge_code == data["municipality"]),
            requester_name=data["requester_name"],
            requester_cpf=data["requester_cpf"],
            contact=data["contact"],
            kind=data["kind"],
            description=data["description"],
            received_on=data["received_on"],
            as_of=timezone.localdate(),
        )

    if done := submit(request, form, create, success=_registered):
        return redirect("privacy:request_detail", request_id=done.result.pk)
    return render(request, "privacy/request_form.html", {"form": form})


def _registered(row: DataSubjectRequest) -> str:
    return f"Requerimento nº {row.pk} registrado; prazo de resposta: {row.due_on:%d/%m/%Y}."


@login_required
@require_http_methods(["GET", "POST"])
def request_detail(request: HttpRequest, request_id: int) -> HttpResponse:
    """One request with the requester's data (an audited read) and the form that moves or answers it."""
    row = get_object_for_user_or_404(
        DataSubjectRequest.objects.select_related("municipality", "person"),
        request.user,
        "view",
        pk=request_id,
    )
    can_change = user_can(request.user, row.municipality_id, "audit.datasubjectrequest", "change")
    form = DataSubjectRequestUpdateForm(
        request.POST or None, initial={"status": row.status, "answer": row.answer}
    )

    def update() -> DataSubjectRequest:
        return services.data_subject_request_update(
            actor=request.user,
            request=row,
            status=form.cleaned_data["status"],
            answer=form.cleaned_data["answer"],
            as_of=timezone.localdate(),
        )

    if can_change and submit(request, form, update, success="Requerimento atualizado."):
        return redirect("privacy:request_detail", request_id=row.pk)
    audit_personal_data_read(
        actor=request.user,
        municipality=row.municipality,
        obj=row,
        fields=("requester_cpf", "contact"),
        request_id=getattr(request, "request_id", ""),
    )
    context = {
        "row": row,
        "form": form if can_change and not row.is_closed else None,
        "late": row.is_late(timezone.localdate()),
        "cpf": format_cpf(row.requester_cpf),
    }
    return _no_store(render(request, "privacy/request_detail.html", context))
