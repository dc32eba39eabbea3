from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET

from apps.accounts.choices import UserKind
from apps.tenancy.choices import Role
from apps.tenancy.models import Membership, Municipality, is_deployment_admin
from apps.web.cards import Card, CardContext, cards_for
from apps.web.selectors import default_municipality, municipalities_of, municipality_for_request

_PORTAL_KINDS = frozenset({UserKind.OPERATOR, UserKind.DRIVER})


@login_required
@require_GET
def home(request: HttpRequest) -> HttpResponse:
    if getattr(request.user, "kind", UserKind.STAFF) in _PORTAL_KINDS:
        # Operators and drivers have no staff home: theirs is the portal, whichever login they used.
        return redirect("portal:home")
    municipality = default_municipality(request)
    if municipality is None and is_deployment_admin(request.user):
        return redirect("tenancy:municipality_list")
    if municipality is None:
        return render(request, "web/no_municipality.html")
    return redirect("municipality_home", ibge_code=municipality.ibge_code)


@login_required
@require_GET
def municipality_home(request: HttpRequest, ibge_code: str) -> HttpResponse:
    municipality = municipality_for_request(request, ibge_code)
    roles = Membership.objects.filter(user=request.user.pk, municipality=municipality).values_list(
        "role", flat=True
    )
    context = {
        "municipality": municipality,
        "municipalities": municipalities_of(request.user),
        "role_labels": [Role(role).label for role in roles],
        "cards": _cards(request, municipality),
    }
    return render(request, "web/home.html", context)


@login_required
@require_GET
def municipality_cards(request: HttpRequest, ibge_code: str) -> HttpResponse:
    """HTMX partial: the cards block alone, refreshed in place."""
    municipality = municipality_for_request(request, ibge_code)
    context = {"municipality": municipality, "cards": _cards(request, municipality)}
    return render(request, "web/_cards.html", context)


@login_required
@require_GET
def municipality_switch(request: HttpRequest) -> HttpResponse:
    """Target of the header's municipality selector (a GET form, so it works without JavaScript)."""
    municipality = municipality_for_request(request, request.GET.get("municipio", ""))
    return redirect("municipality_home", ibge_code=municipality.ibge_code)


def _cards(request: HttpRequest, municipality: Municipality) -> list[Card]:
    # "Today" is the prefeitura's calendar day (TIME_ZONE), which is what staff mean by it.
    return cards_for(CardContext(user=request.user, municipality=municipality, today=timezone.localdate()))
