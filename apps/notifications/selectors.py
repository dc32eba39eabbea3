"""Reads of notifications: a portal account's (its operator's, or only its own person's) and the staff list."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from apps.notifications.models import Notification, NotificationQuerySet


def _person_id(account: Any) -> int | None:
    link = account.driver or account.attendant
    return link.person_id if link is not None else None


def portal_notifications(account: Any) -> NotificationQuerySet:
    """What a portal login may read: the holder every notification of its operator (its drivers' too, so it
    knows their documents expire); a driver or attendant only their own, in the account's municipality (as
    the portal shows them their own documents, whichever operator they work for)."""
    if account.is_holder:
        return Notification.objects.filter(operator_id=account.operator_id).select_related("person")
    person_id = _person_id(account)
    if person_id is None:
        return Notification.objects.none()
    return Notification.objects.filter(person_id=person_id, municipality_id=account.municipality_id)


def _addressee(account: Any) -> int | None:
    """The person a login is told as: none for the holder (notifications to the operator itself)."""
    return None if account.is_holder else _person_id(account)


def is_addressed_to(account: Any, row: Notification) -> bool:
    """Whether the login itself is told (a holder reading a driver's notification leaves it unread for them)."""
    return row.person_id == _addressee(account)


def unread_count(account: Any) -> int:
    rows = portal_notifications(account).filter(read_at__isnull=True)
    addressee = _addressee(account)
    return (
        rows.filter(person__isnull=True) if addressee is None else rows.filter(person_id=addressee)
    ).count()


def staff_notifications(user: Any, municipality: Any) -> QuerySet[Notification]:
    return (
        Notification.objects.for_user(user, "view")
        .filter(municipality=municipality)
        .select_related("operator__person", "operator__company", "person", "mail")
    )
