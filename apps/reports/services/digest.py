"""The staff daily digest: one e-mail a day to each staff member with the deadlines at risk they act on.

Who acts on what is the tenancy permission matrix, read through each deadline's ``acts`` (apps.reports.deadlines):
the judging authority gets the first-instance judgments, the appeal board the second-instance ones, inspectors
the inspections, analysts the cure windows of applications, finance the guides due or overdue; an administrator
gets what the matrix lets administrators do (inspections, cure windows, notices — not judgments). A person with
roles in several municipalities gets one e-mail with all of them. From 1 December the administrators also get
the values the law will need on 1 January that nobody entered yet (deadlines.values_to_enter).

The e-mail goes through the transactional outbox (apps.jobs): written with the digest's row and its audit
record in one transaction, delivered after commit and retried on failure. The row is unique per person and day,
so the job run twice (or by two schedulers) sends one digest. Nothing is sent to whom nothing is at risk.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string

from apps.accounts.models import User
from apps.audit.services import audit_record
from apps.jobs.services import MailDraft, mail_queue
from apps.reports.deadlines import AtRisk, deadlines_at_risk, values_to_enter
from apps.reports.models import StaffDigest
from apps.tenancy.models import Membership, Municipality
from apps.tenancy.querysets import user_can

DIGEST_WINDOW_DAYS = 7  # a week ahead: time enough to act before the legal limit
REASON = "reports.staff_digest"


@dataclass(frozen=True)
class DigestOutcome:
    sent: int = 0
    already_sent: int = 0
    nothing_at_risk: int = 0


def digest_items(user: User, municipality: Municipality, found: list[AtRisk]) -> list[AtRisk]:
    """The deadlines of ``found`` this person's roles in ``municipality`` allow them to act on."""
    return [item for item in found if user_can(user, municipality.pk, *item.acts)]


def staff_digest_send(
    *, as_of: dt.date, within_days: int = DIGEST_WINDOW_DAYS, base_url: str = ""
) -> DigestOutcome:
    """Queue today's digest for every active staff member with an e-mail and something at risk."""
    base_url = (base_url or settings.SITE_URL).rstrip("/")
    done = set(StaffDigest.objects.filter(day=as_of).values_list("user_id", flat=True))
    places = _places_of_staff(exclude=done)
    cache: dict[int, list[AtRisk]] = {}
    sent = nothing = 0
    for user, municipalities in places.items():
        mine: list[tuple[Municipality, list[AtRisk]]] = []
        for municipality in municipalities:
            if municipality.pk not in cache:
                cache[municipality.pk] = deadlines_at_risk(
                    municipality=municipality, as_of=as_of, within_days=within_days
                ) + values_to_enter(municipality=municipality, as_of=as_of)
            items = digest_items(user, municipality, cache[municipality.pk])
            if items:
                mine.append((municipality, items))
        if not mine:
            nothing += 1
        elif staff_digest_queue(user=user, places=mine, as_of=as_of, base_url=base_url):
            sent += 1
    return DigestOutcome(sent=sent, already_sent=len(done), nothing_at_risk=nothing)


def _places_of_staff(*, exclude: set[int]) -> dict[User, list[Municipality]]:
    memberships = (
        Membership.objects.filter(user__is_active=True)
        .exclude(user__email="")
        .exclude(user_id__in=exclude)
        .select_related("user", "municipality")
        .order_by("user_id", "municipality__name")
    )
    places: dict[User, list[Municipality]] = defaultdict(list)
    for membership in memberships:
        if membership.municipality not in places[membership.user]:
            places[membership.user].append(membership.municipality)
    return places


@transaction.atomic
def staff_digest_queue(
    *, user: User, places: list[tuple[Municipality, list[AtRisk]]], as_of: dt.date, base_url: str
) -> bool:
    """Record today's digest of ``user`` and queue its e-mail; False when it was already recorded today."""
    count = sum(len(items) for _, items in places)
    try:
        with transaction.atomic():
            row = StaffDigest.objects.create(user=user, day=as_of, items=count)
    except IntegrityError:
        return False  # another run got there first: one digest per person per day
    only = places[0][0] if len(places) == 1 else None
    mail_queue(drafts=[_mail(user, places, as_of, base_url, only)], reason=REASON)
    audit_record(
        actor=None, municipality=only, action="reports.staff_digest", obj=row, after=row.audit_snapshot()
    )
    return True


def _mail(
    user: User,
    places: list[tuple[Municipality, list[AtRisk]]],
    as_of: dt.date,
    base_url: str,
    only: Municipality | None,
) -> MailDraft:
    count = sum(len(items) for _, items in places)
    context = {"user": user, "places": places, "as_of": as_of, "base_url": base_url}
    return MailDraft(
        recipient=user.email,
        subject=f"Outorga — {count} prazo(s) legal(is) em risco em {as_of:%d/%m/%Y}",
        body=render_to_string("reports/mail/staff_digest.txt", context),
        municipality_id=only.pk if only else None,
    )
