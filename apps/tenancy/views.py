from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import authenticate, login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.password_validation import password_validators_help_texts
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.accounts import selectors as account_selectors
from apps.accounts import services as account_services
from apps.accounts.auditing import audit_personal_data_read
from apps.accounts.decorators import recent_authentication_required
from apps.accounts.models import PERSONAL_DATA_FIELDS, User
from apps.tenancy import services
from apps.tenancy.access import municipality_for
from apps.tenancy.choices import Role
from apps.tenancy.forms import (
    MunicipalityForm,
    PublicContactForm,
    RegimeAddForm,
    RegimeEndForm,
    RoleAssignForm,
    SetPasswordFromInvitationForm,
    StaffInvitationForm,
)
from apps.tenancy.models import Membership, Municipality, StaffInvitation, is_deployment_admin
from apps.tenancy.querysets import get_object_for_user_or_404, user_can
from apps.tenancy.regimes import regime_options, regime_summary
from apps.tenancy.selectors import pending_invitations, staff_invitation_for_token, team_rows
from outorga.submit import submit

MEMBERSHIP = "tenancy.membership"


def _actor(request: HttpRequest) -> User:
    """The signed-in user of a @login_required view."""
    assert isinstance(request.user, User)
    return request.user


@login_required
@require_GET
def team_list(request: HttpRequest, ibge_code: str) -> HttpResponse:
    municipality = municipality_for(request, ibge_code)
    context = {
        "municipality": municipality,
        "rows": team_rows(request.user, municipality),
        "invitations": pending_invitations(request.user, municipality),
        "can_manage": user_can(request.user, municipality.pk, MEMBERSHIP, "change"),
        "can_see_personal_data": user_can(request.user, municipality.pk, "accounts.user", "view"),
    }
    return render(request, "tenancy/team_list.html", context)


@login_required
@require_GET
def member_detail(request: HttpRequest, ibge_code: str, user_id: int) -> HttpResponse:
    """Shows a colleague's CPF, phone and e-mail; every view of it is an audited personal-data read."""
    municipality = municipality_for(request, ibge_code)
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
        actor=_actor(request),
        municipality=municipality,
        obj=member,
        fields=PERSONAL_DATA_FIELDS,
        request_id=getattr(request, "request_id", ""),
    )
    context = {"municipality": municipality, "member": member, "memberships": memberships}
    return render(request, "tenancy/member_detail.html", context)


# --- set-up by the installation's administrator -------------------------------------------------------------


def _deployment_admin_only(request: HttpRequest) -> None:
    """Anyone else gets 404: the set-up screens are not even shown to exist."""
    if not is_deployment_admin(request.user):
        raise Http404("Página não encontrada.")


@login_required
@require_GET
def municipality_list(request: HttpRequest) -> HttpResponse:
    _deployment_admin_only(request)
    administered = set(
        Membership.objects.filter(user=_actor(request), role=Role.ADMINISTRATOR).values_list(
            "municipality_id", flat=True
        )
    )
    rows = [(municipality, municipality.pk in administered) for municipality in Municipality.objects.all()]
    return render(request, "tenancy/municipality_list.html", {"rows": rows})


@login_required
@recent_authentication_required
@require_http_methods(["GET", "POST"])
def municipality_new(request: HttpRequest) -> HttpResponse:
    _deployment_admin_only(request)
    form = MunicipalityForm(request.POST or None)
    if done := submit(
        request,
        form,
        lambda: services.municipality_setup(actor=_actor(request), **form.cleaned_data),
        success=lambda municipality: (
            f"Município {municipality} criado; você é o administrador dele. Agora defina os valores "
            "configuráveis da lei e convide a equipe da prefeitura."
        ),
    ):
        return redirect("lawconfig:overview", ibge_code=done.result.ibge_code)
    return render(request, "tenancy/municipality_new.html", {"form": form})


# --- team management by the municipality's administrator ----------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def public_contact(request: HttpRequest, ibge_code: str) -> HttpResponse:
    """The secretariat's contact shown by the public lookup, set by the municipality's administrator."""
    municipality = _administered(request, ibge_code)
    form = PublicContactForm(request.POST or None, initial={"contact": municipality.public_contact})
    if request.method == "POST" and form.is_valid():
        services.municipality_public_contact_save(
            actor=request.user, municipality=municipality, contact=form.cleaned_data["contact"]
        )
        messages.success(request, "Contato da consulta pública atualizado.")
        return redirect("tenancy:public_contact", ibge_code=ibge_code)
    return render(request, "tenancy/public_contact.html", {"municipality": municipality, "form": form})


def _administered(request: HttpRequest, ibge_code: str) -> Municipality:
    """The municipality, if the user administers its team; 404 otherwise (like a row outside their scope)."""
    municipality = municipality_for(request, ibge_code)
    if not user_can(request.user, municipality.pk, MEMBERSHIP, "change"):
        raise Http404("Registro não encontrado.")
    return municipality


def _team_member(
    request: HttpRequest, municipality: Municipality, user_id: int
) -> tuple[User, list[Membership]]:
    memberships = list(
        Membership.objects.for_user(request.user, "change")
        .filter(municipality=municipality, user_id=user_id)
        .select_related("user")
    )
    if not memberships:
        raise Http404("Registro não encontrado.")
    return memberships[0].user, memberships


@login_required
@recent_authentication_required
@require_http_methods(["GET", "POST"])
def staff_invite(request: HttpRequest, ibge_code: str) -> HttpResponse:
    municipality = _administered(request, ibge_code)
    form = StaffInvitationForm(request.POST or None)
    if submit(
        request,
        form,
        lambda: services.staff_invitation_create(
            actor=_actor(request),
            municipality=municipality,
            base_url=request.build_absolute_uri("/"),
            **form.cleaned_data,
        ),
        success=lambda invitation: (
            f"Convite enviado para {invitation.email}. O link vale até "
            f"{timezone.localtime(invitation.expires_at):%d/%m/%Y às %H:%M} e só pode ser usado uma vez."
        ),
    ):
        return redirect("tenancy:team_list", ibge_code=municipality.ibge_code)
    return render(request, "tenancy/staff_invite.html", {"municipality": municipality, "form": form})


@login_required
@recent_authentication_required
@require_POST
def staff_invitation_revoke(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = _administered(request, ibge_code)
    invitation = get_object_for_user_or_404(
        StaffInvitation.objects.filter(municipality=municipality), request.user, "change", pk=pk
    )
    try:
        services.staff_invitation_revoke(actor=_actor(request), invitation=invitation)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, f"Convite de {invitation.full_name} cancelado: o link não funciona mais.")
    return redirect("tenancy:team_list", ibge_code=municipality.ibge_code)


@login_required
@require_GET
def member_roles(request: HttpRequest, ibge_code: str, user_id: int) -> HttpResponse:
    """Roles of one servidor in this municipality: add one, remove one, switch the account off or on."""
    municipality = _administered(request, ibge_code)
    member, memberships = _team_member(request, municipality, user_id)
    form = RoleAssignForm(held={m.role for m in memberships})
    return _member_roles_page(request, municipality, member, memberships, form)


@login_required
@recent_authentication_required
@require_POST
def member_role_add(request: HttpRequest, ibge_code: str, user_id: int) -> HttpResponse:
    municipality = _administered(request, ibge_code)
    member, memberships = _team_member(request, municipality, user_id)
    form = RoleAssignForm(request.POST, held={m.role for m in memberships})
    if submit(
        request,
        form,
        lambda: services.team_role_assign(
            actor=_actor(request), municipality=municipality, user=member, role=form.cleaned_data["role"]
        ),
        success=lambda membership: f"Papel {membership.get_role_display()} dado a {member.display_name}.",
    ):
        return redirect("tenancy:member_roles", ibge_code=municipality.ibge_code, user_id=member.pk)
    return _member_roles_page(request, municipality, member, memberships, form)


def _member_roles_page(
    request: HttpRequest, municipality: Municipality, member: User, memberships: list[Membership], form: Any
) -> HttpResponse:
    context = {
        "municipality": municipality,
        "member": member,
        "memberships": memberships,
        "form": form,
        "is_self": member.pk == request.user.pk,
    }
    return render(request, "tenancy/member_roles.html", context)


@login_required
@recent_authentication_required
@require_POST
def member_role_remove(
    request: HttpRequest, ibge_code: str, user_id: int, membership_id: int
) -> HttpResponse:
    municipality = _administered(request, ibge_code)
    _, memberships = _team_member(request, municipality, user_id)
    membership = next((m for m in memberships if m.pk == membership_id), None)
    if membership is None:
        raise Http404("Registro não encontrado.")
    label, name = membership.get_role_display(), membership.user.display_name
    try:
        services.team_role_remove(actor=_actor(request), membership=membership)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, f"Papel {label} retirado de {name}.")
    if not Membership.objects.filter(municipality=municipality, user_id=user_id).exists():
        return redirect("tenancy:team_list", ibge_code=municipality.ibge_code)
    return redirect("tenancy:member_roles", ibge_code=municipality.ibge_code, user_id=user_id)


@login_required
@recent_authentication_required
@require_POST
def member_set_active(request: HttpRequest, ibge_code: str, user_id: int) -> HttpResponse:
    municipality = _administered(request, ibge_code)
    member, _ = _team_member(request, municipality, user_id)
    active = request.POST.get("active") == "1"
    try:
        services.staff_account_set_active(
            actor=_actor(request), municipality=municipality, user=member, active=active
        )
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        done = "reativada: pode entrar de novo" if active else "desativada: não consegue mais entrar"
        messages.success(request, f"Conta de {member.display_name} {done}.")
    return redirect("tenancy:member_roles", ibge_code=municipality.ibge_code, user_id=member.pk)


# --- the invitee's side (no login: the link is the credential) ----------------------------------------------


@require_http_methods(["GET", "POST"])
def invitation_accept(request: HttpRequest, token: str) -> HttpResponse:
    invitation = staff_invitation_for_token(token)
    if invitation is None or not invitation.is_usable(timezone.now()):
        return render(
            request, "tenancy/invitation_unusable.html", {"message": services.INVITATION_UNUSABLE}, status=404
        )
    form = SetPasswordFromInvitationForm(request.POST or None)
    if submit(
        request,
        form,
        lambda: services.staff_invitation_accept(
            token=token, username=form.cleaned_data["username"], password=form.cleaned_data["password"]
        ),
    ):
        username, password = form.cleaned_data["username"], form.cleaned_data["password"]
        return _sign_in_new_account(request, username, password, invitation.municipality)
    context = {"invitation": invitation, "form": form, "password_rules": password_validators_help_texts()}
    return render(request, "tenancy/invitation_accept.html", context)


def _sign_in_new_account(
    request: HttpRequest, username: str, password: str, municipality: Municipality
) -> HttpResponse:
    """Sign the new servidor in through the normal authentication backends (lockout, audit) and show their home."""
    user = authenticate(request, username=username.strip(), password=password)
    if user is None:
        messages.success(request, "Conta criada. Entre com o usuário e a senha que você escolheu.")
        return redirect("login")
    login(request, user)
    messages.success(request, f"Bem-vindo(a) ao Outorga, {user}. Sua conta está pronta.")
    return redirect("municipality_home", ibge_code=municipality.ibge_code)


# --- an administrator clears a team member's lost second factor ---------------------------------------------


def _administered_member(request: HttpRequest, ibge_code: str, user_id: int) -> tuple[Municipality, User]:
    """The municipality and the team member, if the user administers that team; 404 otherwise."""
    municipality = municipality_for(request, ibge_code, model_label=MEMBERSHIP, action="change")
    membership = (
        Membership.objects.for_user(request.user, "change")
        .filter(municipality=municipality, user_id=user_id)
        .select_related("user")
        .first()
    )
    if membership is None:
        raise Http404("Registro não encontrado.")
    return municipality, membership.user


@login_required
@recent_authentication_required
@require_http_methods(["GET", "POST"])
def member_second_factor_reset(request: HttpRequest, ibge_code: str, user_id: int) -> HttpResponse:
    """Lost phone: after checking who is asking, the administrator clears the member's authenticator apps and
    recovery codes; the member enrols a new app at the next login."""
    municipality, member = _administered_member(request, ibge_code, user_id)
    if request.method == "POST":
        try:
            account_services.second_factor_reset(
                actor=request.user,  # type: ignore[arg-type]
                user=member,
                municipality_ibge=municipality.ibge_code,
            )
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        else:
            messages.success(
                request,
                f"Segundo fator de {member.display_name} zerado. No próximo acesso, depois da senha, "
                "essa pessoa cadastra um aplicativo autenticador novo.",
            )
            return redirect("tenancy:member_roles", ibge_code=municipality.ibge_code, user_id=member.pk)
    context = {
        "municipality": municipality,
        "member": member,
        "authenticators": account_selectors.authenticators(member),
        "recovery_codes_left": account_selectors.recovery_codes_left(member),
    }
    return render(request, "tenancy/member_second_factor_reset.html", context)


# --- the municipality's regimes: add one, or end one from a date --------------------------------------------


@login_required
@recent_authentication_required
@require_http_methods(["GET", "POST"])
def regimes(request: HttpRequest, ibge_code: str) -> HttpResponse:
    """The laws the municipality runs, with their dates; its administrator adds one or ends one from a date."""
    municipality = _administered(request, ibge_code)
    today = timezone.localdate()
    periods = services.regime_periods(municipality, today)
    running = [p.regime_id for p in periods if p.ends_on is None or p.ends_on > today]
    posted = request.POST.get("acao") if request.method == "POST" else None
    add_form = RegimeAddForm(
        request.POST if posted == "acrescentar" else None, prefix="novo", exclude=running
    )
    end_form = RegimeEndForm(
        request.POST if posted == "encerrar" else None, prefix="fim", regimes=regime_options(running)
    )
    if posted == "acrescentar" and submit(
        request,
        add_form,
        lambda: services.municipality_regime_add(
            actor=_actor(request),
            municipality=municipality,
            regime_id=add_form.cleaned_data["regime"],
            starts_on=add_form.cleaned_data["starts_on"],
            as_of=today,
        ),
        success=lambda row: (
            f"Regime «{regime_summary(add_form.cleaned_data['regime'])[0]}» acrescentado a {row}, em vigor a "
            f"partir de {add_form.cleaned_data['starts_on']:%d/%m/%Y}. Defina os valores configuráveis da lei."
        ),
    ):
        return redirect("tenancy:regimes", ibge_code=municipality.ibge_code)
    if posted == "encerrar" and submit(
        request,
        end_form,
        lambda: services.municipality_regime_end(
            actor=_actor(request),
            municipality=municipality,
            regime_id=end_form.cleaned_data["regime"],
            ends_on=end_form.cleaned_data["ends_on"],
            as_of=today,
        ),
        success=lambda row: (
            f"Regime «{regime_summary(end_form.cleaned_data['regime'])[0]}» encerrado em {row}: deixa de valer a "
            f"partir de {end_form.cleaned_data['ends_on']:%d/%m/%Y}."
        ),
    ):
        return redirect("tenancy:regimes", ibge_code=municipality.ibge_code)
    context = {"municipality": municipality, "periods": periods, "add_form": add_form, "end_form": end_form}
    status = 400 if add_form.errors or end_form.errors else 200
    return render(request, "tenancy/regimes.html", context, status=status)
