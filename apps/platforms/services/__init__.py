"""Writes of the platforms app. Each runs in one transaction with its audit row (zulip-style actions)."""

from __future__ import annotations

import datetime as dt
import unicodedata
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

import lawcode
from apps.accounts.actors import Actor, actor_user
from apps.audit.services import audit_record, audited_change
from apps.platforms.checks import check_drivers
from apps.platforms.choices import SubstitutionState
from apps.platforms.errors import PlatformAPIError
from apps.platforms.models import Platform, PlatformCredential, SubstitutionReport
from apps.platforms.tokens import new_token, new_webhook_secret, token_hash
from apps.public.choices import VerificationStatus
from apps.registry.identifiers import validate_cnpj, validate_plate
from apps.tenancy.models import Municipality

SUBSTITUTION_DISPOSITIVO = "art11A"


@dataclass(frozen=True)
class IssuedCredential:
    """The only moment the token (and webhook secret) exist in clear: show them once, then forget them."""

    credential: PlatformCredential
    token: str
    webhook_secret: str


@transaction.atomic
def platform_create(*, actor: Actor, name: str, cnpj: str) -> Platform:
    if not name.strip():
        raise ValidationError({"name": "Nome da plataforma: informe-o."})
    platform = Platform.objects.create(name=name.strip(), cnpj=validate_cnpj(cnpj))
    audit_record(
        actor=actor,
        municipality=None,
        action="platform.create",
        obj=platform,
        after=platform.audit_snapshot(),
    )
    return platform


def _same_name(a: str, b: str) -> bool:
    def plain(text: str) -> str:
        decomposed = unicodedata.normalize("NFKD", text)
        return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).casefold().split())

    return plain(a) == plain(b)


@transaction.atomic
def platform_for_credential(*, actor: Actor, name: str, cnpj: str) -> Platform:
    """The platform a new credential is for: the one registered under the CNPJ when the name typed is its own,
    a new one when the CNPJ is new. A CNPJ that belongs to a platform of another name is refused — a token
    must never be filed, silently, under someone else's platform."""
    cnpj = validate_cnpj(cnpj)
    platform = Platform.objects.filter(cnpj=cnpj).first()
    if platform is None:
        return platform_create(actor=actor, name=name, cnpj=cnpj)
    if not _same_name(platform.name, name):
        raise ValidationError(
            {
                "cnpj": f"CNPJ da plataforma: este CNPJ já está cadastrado para a plataforma «{platform.name}», "
                f"não «{name.strip()}». Confira o CNPJ ou informe o nome dessa plataforma."
            }
        )
    return platform


@transaction.atomic
def credential_issue(
    *, actor: Actor, platform: Platform, municipality: Municipality, label: str = "", webhook_url: str = ""
) -> IssuedCredential:
    token, prefix = new_token()
    secret = new_webhook_secret() if webhook_url else ""
    credential = PlatformCredential.objects.create(
        platform=platform,
        municipality=municipality,
        label=label,
        token_prefix=prefix,
        token_hash=token_hash(token),
        webhook_url=webhook_url,
        webhook_secret=secret,
        created_by=actor_user(actor),
    )
    audit_record(
        actor=actor,
        municipality=municipality,
        action="platform_credential.issue",
        obj=credential,
        after=credential.audit_snapshot(),
    )
    return IssuedCredential(credential, token, secret)


@transaction.atomic
def credential_revoke(*, actor: Actor, credential: PlatformCredential) -> PlatformCredential:
    row = PlatformCredential.objects.select_for_update().get(pk=credential.pk)
    if row.revoked_at is not None:
        raise ValidationError("Esta credencial já estava revogada.")
    with audited_change(row, actor=actor, action="platform_credential.revoke"):
        row.revoked_at = timezone.now()
        row.save(update_fields=["revoked_at"])
    return row


def substitution_allowed(municipality: Municipality) -> bool:
    """Only a regime whose law has art. 11-A (Patrocínio) lets a driver swap to a rented car."""
    for regime_id in municipality.regimes:
        if SUBSTITUTION_DISPOSITIVO in lawcode.get_regime(regime_id).law_text.ids():
            return True
    return False


@transaction.atomic
def substitution_report(
    *,
    credential: PlatformCredential,
    as_of: dt.date,
    driver_cpf: str,
    substitute_plate: str,
    substitute_make_model: str,
    rental_company: str,
    reason: str,
    starts_on: dt.date,
    expected_end_on: dt.date | None = None,
) -> SubstitutionReport:
    """Record the platform's art. 11-A notice for the secretariat's queue; refuse what the law cannot cover."""
    municipality = credential.municipality
    _check_substitution_in_law(municipality)
    permit = _authorized_permit(municipality, driver_cpf, as_of)
    plate = _substitute_plate(substitute_plate, permit.vehicle.plate)
    _check_period(starts_on, expected_end_on, as_of)
    report = SubstitutionReport.objects.create(
        municipality=municipality,
        platform=credential.platform,
        credential=credential,
        permit=permit,
        driver_cpf=driver_cpf,
        substitute_plate=plate,
        substitute_make_model=substitute_make_model.strip(),
        rental_company=rental_company.strip(),
        reason=reason.strip(),
        starts_on=starts_on,
        expected_end_on=expected_end_on,
    )
    audit_record(
        actor=None,
        municipality=municipality,
        action="platform_substitution.report",
        obj=report,
        after=report.audit_snapshot() | {"reported_by": credential.platform.name},
    )
    return report


def _check_substitution_in_law(municipality: Municipality) -> None:
    if not substitution_allowed(municipality):
        raise PlatformAPIError(
            "substitution_not_in_law",
            "A lei deste município não prevê substituição temporária de veículo por veículo locado.",
            422,
        )


def _authorized_permit(municipality: Municipality, driver_cpf: str, as_of: dt.date) -> Any:
    answer = check_drivers(municipality, [driver_cpf], as_of=as_of)[0]
    if answer.error_code:
        raise PlatformAPIError(answer.error_code, answer.error_message, 400)
    if answer.status != VerificationStatus.REGULAR or answer.permit is None:
        raise PlatformAPIError(
            "driver_not_authorized",
            "Este motorista não tem autorização em vigor hoje; a "
            "substituição temporária só vale para quem está autorizado.",
            422,
        )
    return type(answer.permit).objects.select_related("vehicle").get(pk=answer.permit.pk)


def _substitute_plate(raw: str, registered_plate: str) -> str:
    try:
        plate = validate_plate(raw)
    except ValidationError as exc:
        raise PlatformAPIError("plate_invalid", " ".join(exc.messages), 400) from None
    if plate == registered_plate:
        raise PlatformAPIError(
            "plate_same_as_registered",
            "A placa do veículo locado é a mesma do veículo cadastrado na autorização.",
            400,
        )
    return plate


def _check_period(starts_on: dt.date, expected_end_on: dt.date | None, as_of: dt.date) -> None:
    if expected_end_on is not None and expected_end_on < starts_on:
        raise PlatformAPIError(
            "period_invalid", "A previsão de término não pode ser anterior ao início.", 400
        )
    if starts_on > as_of + dt.timedelta(days=30):
        raise PlatformAPIError(
            "period_invalid",
            "Comunique a substituição quando ela acontecer (art. 11-A: "
            "comunicar imediatamente), não com mais de 30 dias de antecedência.",
            400,
        )


@transaction.atomic
def substitution_handle(
    *, actor: Actor, report: SubstitutionReport, accept: bool, note: str = ""
) -> SubstitutionReport:
    row = SubstitutionReport.objects.select_for_update().get(pk=report.pk)
    if row.state != SubstitutionState.RECEIVED:
        raise ValidationError(f"Esta comunicação já foi tratada ({row.get_state_display().lower()}).")
    if not accept and not note.strip():
        raise ValidationError({"note": "Para recusar, escreva o motivo."})
    with audited_change(row, actor=actor, action=lambda: f"platform_substitution.{row.state}"):
        row.state = SubstitutionState.ACKNOWLEDGED if accept else SubstitutionState.REJECTED
        row.handled_by, row.handled_note = actor_user(actor), note.strip()
        row.save(update_fields=["state", "handled_by", "handled_note"])
    return row
