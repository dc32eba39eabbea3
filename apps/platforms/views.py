"""Staff screens: the queue of art. 11-A substitution notices the platforms sent, and their handling."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from apps.platforms.choices import SubstitutionState
from apps.platforms.models import SubstitutionReport
from apps.platforms.services import substitution_handle
from apps.tenancy.models import Municipality
from apps.tenancy.querysets import get_object_for_user_or_404, user_can

MODEL = "platforms.substitutionreport"


def _municipality(request: HttpRequest, ibge_code: str, action: str) -> Municipality:
    municipality = get_object_for_user_or_404(
        Municipality.objects.all(), request.user, "view", ibge_code=ibge_code
    )
    if not user_can(request.user, municipality.pk, MODEL, action):
        raise Http404("Registro não encontrado.")
    return municipality


@login_required
@require_GET
def substitution_queue(request: HttpRequest, ibge_code: str) -> HttpResponse:
    municipality = _municipality(request, ibge_code, "view")
    show_all = request.GET.get("todas") == "1"
    rows = (
        SubstitutionReport.objects.for_user(request.user, "view")
        .filter(municipality=municipality)
        .select_related("platform", "permit", "permit__vehicle")
    )
    rows = rows if show_all else rows.filter(state=SubstitutionState.RECEIVED)
    context = {
        "municipality": municipality, "page": Paginator(rows, 25).get_page(request.GET.get("pagina")),
        "show_all": show_all, "can_change": user_can(request.user, municipality.pk, MODEL, "change"),
    }  # fmt: skip
    return render(request, "platforms/substitution_queue.html", context)


@login_required
@require_POST
def substitution_decide(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = _municipality(request, ibge_code, "change")
    report = get_object_for_user_or_404(SubstitutionReport.objects.all(), request.user, "change",
                                        municipality=municipality, pk=pk)  # fmt: skip
    accept = request.POST.get("decision") == "accept"
    try:
        substitution_handle(
            actor=request.user, report=report, accept=accept, note=request.POST.get("note", "")
        )
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, "Comunicação conferida." if accept else "Comunicação recusada.")
    return redirect("platforms:substitution-queue", municipality.ibge_code)
