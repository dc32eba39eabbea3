"""The staff list of notifications sent to operators and drivers, with how each e-mail was delivered."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from apps.notifications.choices import NotificationKind
from apps.notifications.selectors import staff_notifications
from apps.registry.models import Operator
from apps.tenancy.access import municipality_for
from apps.tenancy.querysets import get_object_for_user_or_404
from apps.web.pagination import paginate


@login_required
@require_GET
def staff_list(request: HttpRequest, ibge_code: str) -> HttpResponse:
    """Newest first; ``?autorizatario=<id>`` narrows to one holder (looked up through the gate: another
    municipality's operator answers 404) and ``?tipo=`` to one family of events."""
    municipality = municipality_for(request, ibge_code, model_label="notifications.notification")
    rows = staff_notifications(request.user, municipality)
    operator = None
    if (chosen := request.GET.get("autorizatario", "")).isdigit():
        operator = get_object_for_user_or_404(
            Operator.objects.select_related("person", "company"), request.user, "view", pk=int(chosen)
        )
        rows = rows.filter(operator=operator)
    if (kind := request.GET.get("tipo")) in NotificationKind.values:
        rows = rows.filter(kind=kind)
    page, query = paginate(request, rows.order_by("-created_at", "-pk"))
    context = {
        "municipality": municipality,
        "page": page,
        "operator": operator,
        "kinds": NotificationKind.choices,
        "chosen_kind": kind,
        "query": query,
    }
    return render(request, "notifications/staff_list.html", context)
