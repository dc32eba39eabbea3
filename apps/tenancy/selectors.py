"""Composed reads for the team and set-up screens, always through the gate."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from apps.accounts.models import User
from apps.tenancy.models import Membership, Municipality, StaffInvitation
from apps.tenancy.querysets import user_can
from apps.tenancy.tokens import token_digest


@dataclass(frozen=True)
class TeamRow:
    """One person of the team and every role they hold in the municipality."""

    user: User
    memberships: tuple[Membership, ...]

    @property
    def role_labels(self) -> list[str]:
        return [membership.get_role_display() for membership in self.memberships]


def team_rows(user: Any, municipality: Municipality) -> list[TeamRow]:
    memberships = (
        Membership.objects.for_user(user, "view")
        .filter(municipality=municipality)
        .select_related("user")
        .order_by("user__full_name", "user__username", "role")
    )
    grouped: dict[int, list[Membership]] = {}
    for membership in memberships:
        grouped.setdefault(membership.user_id, []).append(membership)
    return [TeamRow(rows[0].user, tuple(rows)) for rows in grouped.values()]


def pending_invitations(user: Any, municipality: Municipality) -> list[StaffInvitation]:
    """Invitations still waiting for the invitee (administrators only: the gate returns none to others)."""
    if not user_can(user, municipality.pk, "tenancy.staffinvitation", "view"):
        return []
    now = timezone.now()
    rows = StaffInvitation.objects.for_user(user, "view").filter(
        municipality=municipality, accepted_at__isnull=True, revoked_at__isnull=True, expires_at__gt=now
    )
    return list(rows.select_related("invited_by"))


def staff_invitation_for_token(token: str) -> StaffInvitation | None:
    """The invitation a link names (any state), or None; the link is the only credential, so no gate."""
    return (
        StaffInvitation.objects.select_related("municipality").filter(token_hash=token_digest(token)).first()
    )
