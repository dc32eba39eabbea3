from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from apps.jobs.choices import MailStatus
from apps.jobs.models import OutboundMail
from apps.jobs.selectors import mail_counts, pending_files, schedule_status
from apps.tenancy.models import Municipality
from apps.web.pagination import paginate


@login_required
@require_GET
def overview(request: HttpRequest) -> HttpResponse:
    """The periodic jobs (last run of each), the files waiting for the store and the e-mails sent for the
    user's municipalities."""
    municipalities = list(Municipality.objects.where_user_may(request.user, "jobs.outboundmail", "view"))
    if not municipalities:
        raise Http404("Registro não encontrado.")
    mails = OutboundMail.objects.for_user(request.user, "view").select_related("municipality")
    if code := request.GET.get("municipio", ""):
        mails = mails.filter(municipality__ibge_code=code)
    if (status := request.GET.get("situacao")) in MailStatus.values:
        mails = mails.filter(status=status)
    page, query = paginate(request, mails.order_by("-created_at", "-pk"))
    context = {
        "jobs": schedule_status(),
        "pending_files": pending_files(request.user, code),
        "page": page,
        "statuses": _status_tabs(OutboundMail.objects.for_user(request.user, "view")),
        "chosen_status": status,
        "query": query,
    }
    return render(request, "jobs/overview.html", context)


def _status_tabs(mails: QuerySet[OutboundMail]) -> list[tuple[str, str, int]]:
    counts = mail_counts(mails)
    return [(value, label, counts.get(value, 0)) for value, label in MailStatus.choices]
