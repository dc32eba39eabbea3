"""The driver's page for the driving record (prontuário de trânsito): what was declared, what the analyst
confirmed from which document, and therefore what the law knows. Staff only; every read goes through the gate."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from apps.registry import forms as f
from apps.registry.models import Driver, TrafficInfraction
from apps.registry.services.traffic import (
    traffic_infraction_declare,
    traffic_infraction_withdraw,
    traffic_record_confirm,
)
from apps.tenancy.access import municipality_for
from apps.tenancy.querysets import get_object_for_user_or_404, user_can
from outorga.submit import submit

DECLARE, CONFIRM = "declarar", "confirmar"


def _driver(request: HttpRequest, ibge_code: str, pk: int) -> Driver:
    municipality = municipality_for(request, ibge_code, model_label="registry.driver")
    queryset = Driver.objects.filter(municipality=municipality).select_related("person", "operator")
    return get_object_for_user_or_404(queryset, request.user, "view", pk=pk)


def _allowed_action(request: HttpRequest, driver: Driver) -> tuple[str | None, bool, bool]:
    """The POSTed ``acao`` (None on GET) and what the user may do; an action they may not do answers 404."""
    municipality_id = driver.municipality_id
    can_declare = user_can(request.user, municipality_id, "registry.trafficinfraction", "change")
    can_confirm = user_can(request.user, municipality_id, "registry.trafficrecordconfirmation", "change")
    action = request.POST.get("acao") if request.method == "POST" else None
    allowed = {None: True, DECLARE: can_declare, CONFIRM: can_confirm}
    if not allowed.get(action, False):
        raise Http404("Registro não encontrado.")
    return action, can_declare, can_confirm


def _declare(request: HttpRequest, driver: Driver, form: f.TrafficInfractionForm) -> bool:
    done = submit(
        request,
        form,
        lambda: traffic_infraction_declare(
            actor=request.user, person=driver.person, as_of=timezone.localdate(), **form.cleaned_data
        ),
        success="Infração declarada. Ela só conta para a lei depois de confirmada.",
    )
    return done is not None


def _confirm(request: HttpRequest, driver: Driver, form: f.TrafficRecordConfirmForm) -> bool:
    done = submit(
        request,
        form,
        lambda: traffic_record_confirm(
            actor=request.user,
            person=driver.person,
            document=form.cleaned_data["document"],
            as_of=timezone.localdate(),
        ),
        success=lambda _: f"Prontuário confirmado a partir de {form.cleaned_data['document']}.",
    )
    return done is not None


@login_required
@require_http_methods(["GET", "POST"])
def driver_record(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    """GET shows the record; POST with ``acao`` = declarar (a clerk adds an infraction) or confirmar (the
    analyst confirms the record from a document)."""
    driver = _driver(request, ibge_code, pk)
    person = driver.person
    action, can_declare, can_confirm = _allowed_action(request, driver)
    declare = f.TrafficInfractionForm(request.POST if action == DECLARE else None)
    documents = person.documents.order_by("-issue_date")
    confirm = f.TrafficRecordConfirmForm(request.POST if action == CONFIRM else None, documents=documents)
    done = (action == DECLARE and _declare(request, driver, declare)) or (
        action == CONFIRM and _confirm(request, driver, confirm)
    )
    if done:
        return redirect("registry:driver_record", ibge_code, driver.pk)
    confirmations = person.traffic_records.select_related("document", "confirmed_by")
    context = {
        "municipality": driver.municipality,
        "driver": driver,
        "person": person,
        "declared": person.traffic_infractions.order_by("-date", "-id"),
        "confirmations": confirmations.order_by("-document__issue_date", "-id"),
        "declare_form": declare,
        "confirm_form": confirm,
        "can_declare": can_declare,
        "can_confirm": can_confirm,
    }
    return render(request, "registry/driver_record.html", context, status=400 if action else 200)


@login_required
@require_POST
def traffic_infraction_remove(
    request: HttpRequest, ibge_code: str, pk: int, infraction_pk: int
) -> HttpResponse:
    """A clerk withdraws a wrongly declared infraction of the driver's person."""
    driver = _driver(request, ibge_code, pk)
    queryset = TrafficInfraction.objects.filter(person=driver.person_id)
    infraction = get_object_for_user_or_404(queryset, request.user, "change", pk=infraction_pk)
    traffic_infraction_withdraw(actor=request.user, infraction=infraction)
    messages.success(request, "Infração declarada retirada.")
    return redirect("registry:driver_record", ibge_code, driver.pk)
