"""The municipality's signing screen: which kinds of act are signed, at which level, and whether a certificate
is configured (its holder and validity, never the key: it stays in the environment)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from apps.accounts.decorators import recent_authentication_required
from apps.signing import material, pki, services
from apps.signing.forms import SigningPolicyForm
from apps.signing.models import IssuedDocument, SigningPolicy
from apps.tenancy.access import municipality_for
from apps.tenancy.querysets import user_can
from outorga.submit import submit

POLICY = "signing.signingpolicy"


@login_required
@recent_authentication_required
@require_http_methods(["GET", "POST"])
def policy(request: HttpRequest, ibge_code: str) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=POLICY)
    can_change = user_can(request.user, municipality.pk, POLICY, "change")
    current = dict(SigningPolicy.objects.filter(municipality=municipality).values_list("kind", "level"))
    form = SigningPolicyForm(
        request.POST if request.method == "POST" and can_change else None, current=current
    )
    if (
        request.method == "POST"
        and can_change
        and submit(
            request,
            form,
            lambda: services.signing_policy_set(
                actor=request.user, municipality=municipality, levels=dict(form.cleaned_data)
            ),
            success="Política de assinatura registrada.",
        )
    ):
        return redirect("signing:policy", municipality.ibge_code)
    context = {
        "municipality": municipality,
        "form": form,
        "can_change": can_change,
        "certificate": _certificate(municipality.ibge_code),
        "timestamps": bool(material.tsa_url_for(municipality.ibge_code)),
        "recent": IssuedDocument.objects.filter(municipality=municipality)[:10],
    }
    return render(request, "signing/policy.html", context, status=400 if form.errors else 200)


def _certificate(ibge_code: str) -> dict[str, str]:
    try:
        key = material.signer_for(ibge_code)
    except ImproperlyConfigured as problem:
        return {"problem": str(problem)}
    if key is None:
        return {}
    validity = key.certificate["tbs_certificate"]["validity"]
    return {
        "holder": pki.certificate_name(key.certificate),
        "valid_until": f"{validity['not_after'].native:%d/%m/%Y}",
    }
