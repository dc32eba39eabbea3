"""Writes for tenancy. Each service is one transaction that also writes its audit event."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction
from django.utils.text import slugify

from apps.audit.services import audit_record
from apps.tenancy.models import Membership, Municipality

if TYPE_CHECKING:
    from apps.accounts.models import User


@transaction.atomic
def municipality_create(
    *, actor: User | None, ibge_code: str, name: str, uf: str, regimes: list[str], slug: str = ""
) -> Municipality:
    municipality = Municipality(
        ibge_code=ibge_code, name=name, uf=uf, regimes=list(regimes), slug=slug or slugify(f"{name}-{uf}")
    )
    municipality.full_clean()
    municipality.save()
    audit_record(
        actor=actor, municipality=municipality, action="municipality.create", obj=municipality,
        after={"ibge_code": ibge_code, "name": name, "uf": uf, "slug": municipality.slug, "regimes": regimes},
    )  # fmt: skip
    return municipality


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
        actor=actor, municipality=municipality, action="membership.grant", obj=membership,
        after=membership.audit_snapshot(),
    )  # fmt: skip
    return membership


@transaction.atomic
def membership_revoke(*, actor: User | None, membership: Membership) -> None:
    before = membership.audit_snapshot()
    object_id = str(membership.pk)
    municipality = membership.municipality
    membership.delete()
    audit_record(
        actor=actor, municipality=municipality, action="membership.revoke",
        object_type="tenancy.membership", object_id=object_id, before=before,
    )  # fmt: skip
