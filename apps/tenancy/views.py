from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from apps.accounts.models import PERSONAL_DATA_FIELDS
from apps.audit.services import audit_personal_data_read
from apps.tenancy.models import Membership, Municipality
from apps.tenancy.querysets import get_object_for_user_or_404, user_can


def _municipality(request: HttpRequest, ibge_code: str) -> Municipality:
    return get_object_for_user_or_404(Municipality.objects.all(), request.user, "view", ibge_code=ibge_code)


@login_required
@require_GET
def team_list(request: HttpRequest, ibge_code: str) -> HttpResponse:
    municipality = _municipality(request, ibge_code)
    memberships = (
        Membership.objects.for_user(request.user, "view")
        .filter(municipality=municipality)
        .select_related("user")
        .order_by("user__full_name", "role")
    )
    context = {
        "municipality": municipality,
        "memberships": memberships,
        "can_see_personal_data": user_can(request.user, municipality.pk, "accounts.user", "view"),
    }
    return render(request, "tenancy/team_list.html", context)


@login_required
@require_GET
def member_detail(request: HttpRequest, ibge_code: str, user_id: int) -> HttpResponse:
    """Shows a colleague's CPF, phone and e-mail; every view of it is an audited personal-data read."""
    municipality = _municipality(request, ibge_code)
    if not user_can(request.user, municipality.pk, "accounts.user", "view"):
        raise Http404("Registro não encontrado.")
    memberships = list(
        Membership.objects.for_user(request.user, "view")
        .filter(municipality=municipality, user_id=user_id)
        .select_related("user")
    )
    if not memberships:
        raise Http404("Registro não encontrado.")
    member = memberships[0].user
    audit_personal_data_read(
        actor=request.user, municipality=municipality, obj=member, fields=PERSONAL_DATA_FIELDS,
        request_id=getattr(request, "request_id", ""),
    )  # fmt: skip
    context = {"municipality": municipality, "member": member, "memberships": memberships}
    return render(request, "tenancy/member_detail.html", context)
