from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.views.decorators.http import require_GET

from apps.audit import exports
from apps.audit.forms import AuditEventFilterForm
from apps.audit.labels import action_choices
from apps.audit.models import AuditEvent
from apps.tenancy.models import Municipality
from apps.tenancy.querysets import get_object_for_user_or_404
from apps.web.exports import export_response, requested_format
from apps.web.pagination import paginate


@login_required
@require_GET
def event_list(request: HttpRequest) -> HttpResponseBase:
    """The audit trail of the municipalities the user may see (administrators, auditor/DPO)."""
    municipalities = list(Municipality.objects.where_user_may(request.user, "audit.auditevent", "view"))
    if not municipalities:
        raise Http404("Registro não encontrado.")
    events = AuditEvent.objects.for_user(request.user, "view").select_related("municipality")
    form = AuditEventFilterForm(
        request.GET or None, municipalities=municipalities, actions=action_choices(events)
    )
    if form.is_bound and form.is_valid():
        events = form.apply(events)
    elif form.is_bound:
        events = events.none()
    rows = events.order_by("-occurred_at", "-id")
    if (fmt := requested_format(request)) is not None:
        return export_response(request, spec=exports.EVENTS, rows=rows, municipality=None, fmt=fmt)
    page, query = paginate(request, rows)
    context = {"form": form, "page": page, "query": query}
    return render(request, "audit/event_list.html", context)


@login_required
@require_GET
def event_detail(request: HttpRequest, event_id: int) -> HttpResponse:
    """One event with its before/after JSON and its place in the hash chain."""
    event = get_object_for_user_or_404(
        AuditEvent.objects.select_related("municipality"), request.user, "view", pk=event_id
    )
    return render(request, "audit/event_detail.html", {"event": event})
