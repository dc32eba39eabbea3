"""The one exit of every act's PDF (document_issue) and the municipality's signing policy (signing_policy_set).

document_issue stamps the verification code and the QR code on every page, signs the result with the
municipality's certificate at the level its policy sets for that kind of act (Lei 14.063/2020 art. 5º), and
records the code and the hash of the final bytes (IssuedDocument) with its audit event, in the caller's
transaction when there is one: a notice whose transaction rolls back leaves no registered act, and its file is
written only after commit (apps.ops.storage.attach_after_commit). Without a certificate (the demo) the act goes
out with the visible mark «não assinado digitalmente», never with a signature that is not one.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.db import models, transaction
from django.urls import reverse
from django.utils import timezone

from apps.accounts.actors import Actor
from apps.accounts.stepup import sensitive_service
from apps.audit.services import audit_record
from apps.signing import material, pki
from apps.signing.kinds import DocumentKind, known
from apps.signing.models import IssuedDocument, SignatureLevel, SigningPolicy
from apps.tenancy.models import Municipality

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: typed from paper


def new_code() -> str:
    raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(16))
    return "-".join(raw[i : i + 4] for i in range(0, 16, 4))


def verify_url(code: str) -> str:
    return f"{settings.SITE_URL}{reverse('public:document-code', args=[code])}"


def policy_level(municipality: Municipality, kind: str) -> str:
    found = SigningPolicy.objects.filter(municipality=municipality, kind=kind).values_list("level", flat=True)
    return next(iter(found), SignatureLevel.QUALIFIED)


def document_issue(
    *,
    actor: Actor,
    municipality: Municipality,
    kind: DocumentKind,
    title: str,
    content: bytes,
    subject: models.Model | None = None,
    signed_by: str = "",
    own_qr: bool = False,
) -> bytes:
    """The act as it leaves Outorga: stamped, signed per policy, registered. Returns the final bytes.

    `signed_by` names the person whose act it is (the authority who decided, the agent who drew up the auto):
    it goes into the signature's reason and the audit. `own_qr`: the act already prints a QR code of its own.
    """
    if not known(kind.slug):
        raise ValueError(f"unregistered document kind {kind.slug!r}")
    level = policy_level(municipality, kind.slug)
    key = material.signer_for(municipality.ibge_code) if level != SignatureLevel.NONE else None
    if key is not None:
        _check_in_force(key, municipality)
    code = new_code()
    place = f"{municipality.name}-{municipality.uf}"
    lines = [_signature_line(municipality, key, signed_by)]
    final = pki.stamp(
        content, code=code, verify_url=verify_url(code), lines=lines, qr=not own_qr, unsigned=key is None
    )
    tsa = material.tsa_url_for(municipality.ibge_code) if level == SignatureLevel.QUALIFIED else ""
    if key is not None:
        reason = f"{title}, emitido pela Prefeitura de {place}"
        if signed_by:
            reason += f"; ato assinado por {signed_by}"
        final = pki.sign(
            final,
            key,
            reason=reason,
            location=place,
            tsa_url=tsa,
            ltv=level == SignatureLevel.QUALIFIED,
            trust=material.trust(),
        )
    with transaction.atomic():
        row = IssuedDocument.objects.create(
            municipality=municipality,
            code=code,
            kind=kind.slug,
            title=title[:200],
            subject_type=subject._meta.label_lower if subject is not None else "",
            subject_id=str(subject.pk) if subject is not None else "",
            sha256=pki.sha256_hex(final),
            issued_at=timezone.now(),
            level=level if key is not None else SignatureLevel.NONE,
            signed=key is not None,
            timestamped=bool(key is not None and tsa),
            certificate_fingerprint=pki.certificate_fingerprint(key.certificate) if key else "",
            certificate_name=pki.certificate_name(key.certificate)[:200] if key else "",
            signed_by=signed_by[:200],
        )
        audit_record(
            actor=actor,
            municipality=municipality,
            action="document.issue",
            obj=row,
            after=row.audit_snapshot(),
        )
    return final


def _signature_line(municipality: Municipality, key: pki.SignerMaterial | None, signed_by: str) -> str:
    person = f" Ato de {signed_by}." if signed_by else ""
    if key is None:
        return f"Documento sem assinatura digital: a autenticidade se confere pelo código acima.{person}"
    holder = pki.certificate_name(key.certificate)
    return f"Assinado digitalmente pela Prefeitura de {municipality.name} ({holder}).{person}"


def _check_in_force(key: pki.SignerMaterial, municipality: Municipality) -> None:
    validity = key.certificate["tbs_certificate"]["validity"]
    now = timezone.now()
    if not (validity["not_before"].native <= now <= validity["not_after"].native):
        raise ImproperlyConfigured(
            f"O certificado de assinatura do município {municipality.ibge_code} não está em vigor: "
            "renove-o antes de emitir documentos."
        )


@sensitive_service
@transaction.atomic
def signing_policy_set(
    *, actor: Actor, municipality: Municipality, levels: dict[str, str]
) -> list[SigningPolicy]:
    """The level for each kind of act (Lei 14.063/2020 art. 5º); a kind left out keeps its level."""
    rows = []
    for kind, level in levels.items():
        if not known(kind) or level not in SignatureLevel.values:
            raise ValidationError("Espécie de documento ou nível de assinatura desconhecido.")
        row = SigningPolicy.objects.filter(municipality=municipality, kind=kind).first()
        before = row.audit_snapshot() if row else None
        if row is None:
            row = SigningPolicy(municipality=municipality, kind=kind, level=level)
        elif row.level == level:
            rows.append(row)
            continue
        row.level = level
        row.save()
        audit_record(
            actor=actor,
            municipality=municipality,
            action="signing_policy.set",
            obj=row,
            before=before,
            after=row.audit_snapshot(),
        )
        rows.append(row)
    return rows
