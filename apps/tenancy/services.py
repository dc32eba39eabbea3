"""Writes for tenancy. Each service is one transaction that also writes its audit event."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify

from apps.accounts.actors import Actor
from apps.accounts.auditing import audit_record
from apps.accounts.choices import UserKind
from apps.accounts.models import User
from apps.accounts.services import password_check, user_create
from apps.accounts.stepup import sensitive_service
from apps.tenancy.choices import Role
from apps.tenancy.mail import mail_after_commit
from apps.tenancy.models import (
    DeploymentAdministrator,
    Membership,
    Municipality,
    StaffInvitation,
    is_deployment_admin,
)
from apps.tenancy.querysets import user_can
from apps.tenancy.regimes import known_regime_ids, regime_summary
from apps.tenancy.tokens import INVITATION_VALIDITY, new_token, token_digest


@transaction.atomic
def municipality_create(
    *, actor: User | None, ibge_code: str, name: str, uf: str, regimes: list[str], slug: str = ""
) -> Municipality:
    municipality = Municipality(
        ibge_code=ibge_code, name=name, uf=uf, regimes=list(regimes), slug=slug or slugify(f"{name}-{uf}")
    )
    _refuse_existing(municipality)
    municipality.full_clean()
    municipality.save()
    audit_record(
        actor=actor,
        municipality=municipality,
        action="municipality.create",
        obj=municipality,
        after={"ibge_code": ibge_code, "name": name, "uf": uf, "slug": municipality.slug, "regimes": regimes},
    )
    return municipality


def _refuse_existing(municipality: Municipality) -> None:
    """A municipality already installed is named, with where its regimes are changed (never a field's name)."""
    existing = Municipality.objects.filter(ibge_code=municipality.ibge_code).first()
    if existing is None:
        existing = Municipality.objects.filter(slug=municipality.slug).first()
    if existing is not None:
        raise ValidationError(
            {
                "ibge_code": f"O município {existing} (código IBGE {existing.ibge_code}) já está cadastrado. "
                "Para acrescentar ou encerrar um regime legal, use «Regimes legais» no painel dele."
            }
        )


@transaction.atomic
def municipality_public_contact_save(
    *, actor: Actor, municipality: Municipality, contact: str
) -> Municipality:
    """The secretariat's contact the public lookup shows; only the municipality's administrator sets it."""
    row = Municipality.objects.select_for_update().get(pk=municipality.pk)
    if not user_can(actor, row.pk, MEMBERSHIP, "change"):
        raise PermissionDenied("Somente o administrador do município altera o contato exibido ao público.")
    before = {"public_contact": row.public_contact}
    row.public_contact = contact.strip()
    row.full_clean()
    row.save(update_fields=["public_contact"])
    audit_record(
        actor=actor,
        municipality=row,
        action="municipality.public_contact",
        obj=row,
        before=before,
        after={"public_contact": row.public_contact},
    )
    return row


@transaction.atomic
def membership_grant(*, actor: User | None, user: User, municipality: Municipality, role: str) -> Membership:
    """Give `user` the role in the municipality; granting a role already held changes nothing."""
    existing = Membership.objects.filter(user=user, municipality=municipality, role=role).first()
    if existing is not None:
        return existing
    membership = Membership(user=user, municipality=municipality, role=role)
    membership.full_clean()
    membership.save()
    audit_record(
        actor=actor,
        municipality=municipality,
        action="membership.grant",
        obj=membership,
        after=membership.audit_snapshot(),
    )
    return membership


@transaction.atomic
def membership_revoke(*, actor: User | None, membership: Membership) -> None:
    before = membership.audit_snapshot()
    object_id = str(membership.pk)
    municipality = membership.municipality
    membership.delete()
    audit_record(
        actor=actor,
        municipality=municipality,
        action="membership.revoke",
        object_type="tenancy.membership",
        object_id=object_id,
        before=before,
    )


# --- the installation's administrator and new municipalities ------------------------------------------------

MEMBERSHIP = "tenancy.membership"
INVITATION_UNUSABLE = (
    "Este convite não pode mais ser usado: ele já foi aceito, expirou ou foi cancelado. "
    "Peça um novo convite ao administrador do município."
)


@dataclass(frozen=True)
class FirstAdmin:
    user: User
    created: bool


def check_new_password(password: str, *, username: str, email: str, full_name: str) -> None:
    """The accounts policy (Django's validators, under the password field) before any row is written, so a
    form or the command can ask again. The candidate user lets the similarity validator compare the password
    with the name and the e-mail."""
    password_check(password=password, user=User(username=username, email=email, full_name=full_name))


def check_username_free(username: str) -> None:
    if not username.strip():
        raise ValidationError({"username": "Usuário: informe o nome de usuário para entrar no Outorga."})
    if User.objects.filter(username__iexact=username.strip()).exists():
        raise ValidationError({"username": f"Usuário: «{username.strip()}» já está em uso; escolha outro."})


@transaction.atomic
def deployment_admin_create_first(*, username: str, email: str, password: str, full_name: str) -> FirstAdmin:
    """Create the installation's administrator, once. Run again, it changes nothing and says who exists."""
    existing = DeploymentAdministrator.objects.select_related("user").order_by("pk").first()
    if existing is not None:
        return FirstAdmin(existing.user, created=False)
    username, email, full_name = username.strip(), email.strip(), full_name.strip()
    check_username_free(username)
    if not email:
        raise ValidationError(
            {"email": "E-mail: informe o e-mail do administrador (para recuperar a senha)."}
        )
    check_new_password(password, username=username, email=email, full_name=full_name)
    user = user_create(
        actor=None,
        username=username,
        password=password,
        full_name=full_name or username,
        kind=UserKind.STAFF,
        email=email,
    )
    deployment_admin_grant(actor=None, user=user)
    return FirstAdmin(user, created=True)


@transaction.atomic
def deployment_admin_grant(*, actor: User | None, user: User) -> DeploymentAdministrator:
    """Make an existing staff account an installation administrator (the demo's regional administrator);
    granting it again changes nothing."""
    existing = DeploymentAdministrator.objects.filter(user=user).first()
    if existing is not None:
        return existing
    admin = DeploymentAdministrator.objects.create(user=user)
    audit_record(
        actor=actor,
        municipality=None,
        action="deployment_admin.create",
        obj=admin,
        after={"user_id": user.pk, "username": user.username},
    )
    return admin


@sensitive_service
@transaction.atomic
def municipality_setup(
    *, actor: User, ibge_code: str, name: str, uf: str, regimes: list[str]
) -> Municipality:
    """The installation's administrator creates a municipality and becomes its first administrator.

    Holding the administrator role there (an audited Membership) is what lets it configure the law's values
    and invite the prefeitura's staff through the same gate as anyone else; it can later hand over.
    """
    if not is_deployment_admin(actor):
        raise PermissionDenied("Somente o administrador da instalação pode criar municípios.")
    if not regimes:
        raise ValidationError({"regimes": "Regimes: escolha ao menos um regime legal para o município."})
    municipality = municipality_create(
        actor=actor, ibge_code=ibge_code.strip(), name=name.strip(), uf=uf, regimes=list(regimes)
    )
    membership_grant(actor=actor, user=actor, municipality=municipality, role=Role.ADMINISTRATOR)
    return municipality


# --- the team of a municipality: invitations, roles, accounts -----------------------------------------------


def _require_admin(actor: User, municipality: Municipality, what: str) -> None:
    if not user_can(actor, municipality.pk, MEMBERSHIP, "change"):
        raise PermissionDenied(f"{what}: você não administra a equipe de {municipality}.")


def invitation_link(base_url: str, route: str, token: str) -> str:
    return base_url.rstrip("/") + reverse(route, args=[token])


@sensitive_service
@transaction.atomic
def staff_invitation_create(
    *, actor: User, municipality: Municipality, email: str, full_name: str, roles: list[str], base_url: str
) -> StaffInvitation:
    """Invite a servidor by e-mail; the link (valid for INVITATION_VALIDITY, once) creates their login.

    Inviting the same e-mail again cancels the earlier pending invitation, so only the newest link works.
    """
    _require_admin(actor, municipality, "Convite")
    email = email.strip()
    now = timezone.now()
    for earlier in StaffInvitation.objects.filter(municipality=municipality, email__iexact=email):
        if earlier.is_usable(now):
            _revoke(actor, earlier, now)
    token, digest = new_token()
    ordered_roles = [role for role in Role.values if role in set(roles)]
    invitation = StaffInvitation(
        municipality=municipality,
        email=email,
        full_name=full_name.strip(),
        roles=ordered_roles,
        token_hash=digest,
        expires_at=now + INVITATION_VALIDITY,
        invited_by=actor,
    )
    invitation.full_clean()
    invitation.save()
    audit_record(
        actor=actor,
        municipality=municipality,
        action="staff_invitation.create",
        obj=invitation,
        after=invitation.audit_snapshot(),
    )
    mail_after_commit(
        to=email,
        subject=f"Convite para o Outorga — Prefeitura de {municipality.name}-{municipality.uf}",
        template="tenancy/mail/staff_invitation.txt",
        context={
            "invitation": invitation,
            "inviter": actor,
            "municipality": municipality,
            "link": invitation_link(base_url, "tenancy:invitation_accept", token),
        },
    )
    return invitation


def _revoke(actor: User, invitation: StaffInvitation, now: Any) -> None:
    invitation.revoked_at = now
    invitation.save(update_fields=["revoked_at"])
    audit_record(
        actor=actor,
        municipality=invitation.municipality,
        action="staff_invitation.revoke",
        obj=invitation,
        after={"revoked_at": now},
    )


@sensitive_service
@transaction.atomic
def staff_invitation_revoke(*, actor: User, invitation: StaffInvitation) -> StaffInvitation:
    _require_admin(actor, invitation.municipality, "Convite")
    if not invitation.is_usable(timezone.now()):
        raise ValidationError({"invitation": "Convite: só um convite ainda pendente pode ser cancelado."})
    _revoke(actor, invitation, timezone.now())
    return invitation


@transaction.atomic
def staff_invitation_accept(*, token: str, username: str, password: str) -> User:
    """The invitee chooses a username and a password; the account and the invited roles are created together.

    The account and the roles are recorded as the inviter's doing (it was their decision), the acceptance as the
    invitee's. An invitation whose inviter no longer administers the municipality is void.
    """
    invitation = (
        StaffInvitation.objects.select_for_update(of=("self",))
        .select_related("municipality", "invited_by")
        .filter(token_hash=token_digest(token))
        .first()
    )
    now = timezone.now()
    if invitation is None or not invitation.is_usable(now):
        raise ValidationError(INVITATION_UNUSABLE)
    inviter = invitation.invited_by
    if not user_can(inviter, invitation.municipality_id, MEMBERSHIP, "change"):
        raise ValidationError(INVITATION_UNUSABLE)
    check_username_free(username)
    check_new_password(password, username=username, email=invitation.email, full_name=invitation.full_name)
    user = user_create(
        actor=inviter,
        username=username.strip(),
        password=password,
        full_name=invitation.full_name,
        kind=UserKind.STAFF,
        email=invitation.email,
    )
    for role in invitation.roles:
        membership_grant(actor=inviter, user=user, municipality=invitation.municipality, role=role)
    invitation.accepted_at, invitation.user = now, user
    invitation.save(update_fields=["accepted_at", "user"])
    audit_record(
        actor=user,
        municipality=invitation.municipality,
        action="staff_invitation.accept",
        obj=invitation,
        after={"user_id": user.pk, "roles": list(invitation.roles)},
    )
    return user


@sensitive_service
@transaction.atomic
def team_role_assign(*, actor: User, municipality: Municipality, user: User, role: str) -> Membership:
    """Give one more role to someone already in the municipality's team (newcomers get an invitation)."""
    _require_admin(actor, municipality, "Papel")
    if not Membership.objects.filter(user=user, municipality=municipality).exists():
        raise ValidationError(
            {"user": "Servidor: não faz parte da equipe deste município; envie um convite."}
        )
    if role not in Role.values:
        raise ValidationError({"role": "Papel: escolha um papel da lista."})
    return membership_grant(actor=actor, user=user, municipality=municipality, role=role)


@sensitive_service
@transaction.atomic
def team_role_remove(*, actor: User, membership: Membership) -> None:
    """Take a role away; the municipality always keeps at least one active administrator."""
    _require_admin(actor, membership.municipality, "Papel")
    if membership.role == Role.ADMINISTRATOR:
        others = Membership.objects.filter(
            municipality=membership.municipality, role=Role.ADMINISTRATOR, user__is_active=True
        ).exclude(pk=membership.pk)
        if not others.exists():
            raise ValidationError(
                {
                    "role": "Papel: este é o último administrador do município; nomeie outro antes de retirá-lo."
                }
            )
    membership_revoke(actor=actor, membership=membership)


@sensitive_service
@transaction.atomic
def staff_account_set_active(*, actor: User, municipality: Municipality, user: User, active: bool) -> User:
    """Deactivate (or reactivate) a servidor's login: an inactive account cannot sign in and its open sessions
    stop working at the next request. Its roles and its history stay.

    The login is one for every municipality, so a municipality's administrator may switch it off only when every
    role it holds is in a municipality that administrator also administers.
    """
    _require_admin(actor, municipality, "Conta")
    held = Membership.objects.filter(user=user)
    if not held.filter(municipality=municipality).exists():
        raise ValidationError({"user": "Servidor: não faz parte da equipe deste município."})
    if user.pk == actor.pk:
        raise ValidationError({"user": "Conta: você não pode desativar ou reativar a sua própria conta."})
    if DeploymentAdministrator.objects.filter(user_id=user.pk).exists():
        raise ValidationError(
            {"user": "Conta: a conta do administrador da instalação não se altera por aqui."}
        )
    administered = Membership.objects.filter(user_id=actor.pk, role=Role.ADMINISTRATOR).values(
        "municipality_id"
    )
    if not actor.is_superuser and held.exclude(municipality_id__in=administered).exists():
        raise ValidationError(
            {
                "user": "Conta: este servidor também trabalha em outro município; retire os "
                "papéis dele neste município em vez de desativar a conta."
            }
        )
    before = {"is_active": user.is_active}
    user.is_active = active
    user.save(update_fields=["is_active"])
    audit_record(
        actor=actor,
        municipality=municipality,
        action="user.reactivate" if active else "user.deactivate",
        obj=user,
        before=before,
        after={"is_active": active},
    )
    return user


# --- the regimes of an existing municipality: added or ended from a date ------------------------------------


def _term_dates(term: dict[str, Any]) -> tuple[dt.date | None, dt.date | None]:
    start, until = term.get("from"), term.get("until")
    return (
        dt.date.fromisoformat(start) if start else None,
        dt.date.fromisoformat(until) if until else None,
    )


def regimes_in_force(municipality: Municipality, on: dt.date) -> list[str]:
    """The municipality's regimes on ``on``: a regime with a term is in force from its start to the day before
    its end; one without a term (created with the municipality) stays as it is."""
    terms: dict[str, dict[str, Any]] = municipality.regime_terms or {}
    kept = [regime_id for regime_id in municipality.regimes if regime_id not in terms]
    for regime_id, term in terms.items():
        start, until = _term_dates(term)
        if (start is None or start <= on) and (until is None or on < until):
            kept.append(regime_id)
    return kept


def regime_periods(municipality: Municipality, on: dt.date) -> list[RegimePeriod]:
    """Every regime the municipality has or had, with its dates and whether it is in force on ``on``."""
    terms: dict[str, dict[str, Any]] = municipality.regime_terms or {}
    ids = [
        *municipality.regimes,
        *(regime_id for regime_id in terms if regime_id not in municipality.regimes),
    ]
    in_force = set(regimes_in_force(municipality, on))
    out = []
    for regime_id in ids:
        start, until = _term_dates(terms.get(regime_id, {}))
        out.append(RegimePeriod(regime_id, start, until, regime_id in in_force))
    return out


@dataclass(frozen=True)
class RegimePeriod:
    regime_id: str
    starts_on: dt.date | None
    ends_on: dt.date | None  # first day no longer in force
    in_force: bool


def _regime_change(
    row: Municipality, actor: User, as_of: dt.date, action: str, regime_id: str, before: dict[str, Any]
) -> Municipality:
    row.regimes = regimes_in_force(row, as_of)
    row.full_clean()
    row.save(update_fields=["regimes", "regime_terms"])
    audit_record(
        actor=actor,
        municipality=row,
        action=action,
        obj=row,
        before=before,
        after={"regime": regime_id, "regimes": row.regimes, "regime_terms": row.regime_terms},
    )
    return row


@sensitive_service
@transaction.atomic
def municipality_regime_add(
    *, actor: User, municipality: Municipality, regime_id: str, starts_on: dt.date, as_of: dt.date
) -> Municipality:
    """Add a regime (a law Outorga has in its regime folders) to the municipality from ``starts_on``; in force
    at once when that day has come, otherwise the daily sweep brings it in on the day."""
    row = Municipality.objects.select_for_update().get(pk=municipality.pk)
    _require_admin(actor, row, "Regimes")
    if regime_id not in known_regime_ids():
        raise ValidationError({"regime": "Regime: escolha um dos regimes da lista."})
    terms: dict[str, dict[str, Any]] = dict(row.regime_terms or {})
    _, until = _term_dates(terms.get(regime_id, {}))
    running = regime_id in row.regimes or (regime_id in terms and (until is None or until > as_of))
    if running:
        name = regime_summary(regime_id)[0]
        raise ValidationError(
            {
                "regime": f"Regime: «{name}» já está em vigor ou agendado em {row}; para trocá-lo, encerre-o antes."
            }
        )
    before = {"regimes": list(row.regimes), "regime_terms": dict(row.regime_terms or {})}
    terms[regime_id] = {"from": starts_on.isoformat(), "until": None}
    row.regime_terms = terms
    return _regime_change(row, actor, as_of, "municipality.regime_add", regime_id, before)


@sensitive_service
@transaction.atomic
def municipality_regime_end(
    *, actor: User, municipality: Municipality, regime_id: str, ends_on: dt.date, as_of: dt.date
) -> Municipality:
    """End a regime from ``ends_on`` (the first day it no longer applies). Its permits, cases and records stay
    as they are, under the law that produced them; no new application is filed under it from that day."""
    row = Municipality.objects.select_for_update().get(pk=municipality.pk)
    _require_admin(actor, row, "Regimes")
    terms: dict[str, dict[str, Any]] = dict(row.regime_terms or {})
    if regime_id not in row.regimes and regime_id not in terms:
        raise ValidationError({"regime": "Regime: o município não tem este regime."})
    start, until = _term_dates(terms.get(regime_id, {}))
    name = regime_summary(regime_id)[0]
    if until is not None and until <= as_of:
        raise ValidationError({"regime": f"Regime: «{name}» já foi encerrado em {until:%d/%m/%Y}."})
    if start is not None and ends_on <= start:
        raise ValidationError(
            {
                "ends_on": f"Deixa de valer a partir de: a data deve ser posterior ao início ({start:%d/%m/%Y})."
            }
        )
    if ends_on < as_of:
        raise ValidationError(
            {"ends_on": f"Deixa de valer a partir de: não pode ser anterior a {as_of:%d/%m/%Y}."}
        )
    before = {"regimes": list(row.regimes), "regime_terms": dict(row.regime_terms or {})}
    terms[regime_id] = {"from": start.isoformat() if start else None, "until": ends_on.isoformat()}
    row.regime_terms = terms
    return _regime_change(row, actor, as_of, "municipality.regime_end", regime_id, before)


def municipality_regimes_sync(as_of: dt.date) -> int:
    """Daily: bring in the regimes whose start has come and take out those whose end has; audited per change."""
    changed = 0
    for row in Municipality.objects.select_for_update().exclude(regime_terms={}):
        wanted = regimes_in_force(row, as_of)
        if wanted == row.regimes:
            continue
        before = {"regimes": list(row.regimes)}
        row.regimes = wanted
        row.save(update_fields=["regimes"])
        audit_record(
            actor=None,
            municipality=row,
            action="municipality.regimes_in_force",
            obj=row,
            before=before,
            after={"regimes": wanted, "on": as_of.isoformat()},
        )
        changed += 1
    return changed
