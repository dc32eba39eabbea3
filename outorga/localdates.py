"""Legal dates from instants: the day an instant falls on in the municipality's time zone, never in UTC.

Instants are stored in UTC; the law counts days where the act happened. From 21:00 to 24:00 in São Paulo the UTC
date is already tomorrow, so ``instant.date()`` of a stored instant dates an evening act on the next day. Every
date or text derived from an instant in apps/ goes through this module (tests/test_local_dates.py holds it).

The municipalities served keep their legal time in settings.TIME_ZONE (America/Sao_Paulo, Brasília time).
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from functools import cache

from django.conf import settings
from django.utils import timezone


@cache
def _zone(name: str) -> zoneinfo.ZoneInfo:
    return zoneinfo.ZoneInfo(name)


def municipal_zone() -> zoneinfo.ZoneInfo:
    """The time zone in which the municipalities' legal days are counted."""
    return _zone(settings.TIME_ZONE)


def local_moment(instant: dt.datetime) -> dt.datetime:
    """The instant as the municipality's clock shows it. A naive datetime has no instant: refused loudly."""
    if timezone.is_naive(instant):
        raise ValueError(f"{instant!r} has no time zone: an instant must be aware to be dated")
    return instant.astimezone(municipal_zone())


def local_date(instant: dt.datetime) -> dt.date:
    """The legal date of an instant: the day it falls on in the municipality's time zone."""
    return local_moment(instant).date()


def local_today() -> dt.date:
    """Today, in the municipality's time zone."""
    return local_date(timezone.now())


def date_text(value: dt.date | dt.datetime | None, empty: str = "—") -> str:
    """dd/mm/aaaa; an instant is dated in the municipality's time zone."""
    if value is None:
        return empty
    day = local_date(value) if isinstance(value, dt.datetime) else value
    return f"{day:%d/%m/%Y}"


def moment_text(instant: dt.datetime | None, empty: str = "—") -> str:
    """dd/mm/aaaa às HH:MM in the municipality's time zone."""
    if instant is None:
        return empty
    return f"{local_moment(instant):%d/%m/%Y às %H:%M}"
