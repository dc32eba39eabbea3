"""The audit trail's filter by person: the events on any record of the people a CPF or a name finds.

What a person's records are (registration, links, vehicles, permits, autos, portal accounts) is known only to the
apps above audit, so audit cannot compute it: the privacy app registers the matcher from its AppConfig.ready()
(docs/architecture.md, "Layers"), and audit never names it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from django.core.exceptions import ImproperlyConfigured

if TYPE_CHECKING:
    from apps.audit.models import AuditEventQuerySet
    from apps.tenancy.models import Municipality

# A name search needs at least this many letters (a CPF needs all 11 digits).
MIN_NAME_QUERY = 3

PeopleMatcher = Callable[[str, Sequence["Municipality"], "AuditEventQuerySet"], "AuditEventQuerySet"]
_matchers: list[PeopleMatcher] = []


def register_people_matcher(matcher: PeopleMatcher) -> PeopleMatcher:
    """Install the one function that narrows events to those about the people a query finds."""
    if _matchers and _matchers[0] is not matcher:
        raise ImproperlyConfigured("audit.people: a people matcher is already registered")
    _matchers[:] = [matcher]
    return matcher


def events_about_people(
    query: str, municipalities: Sequence[Municipality], events: AuditEventQuerySet
) -> AuditEventQuerySet:
    """The events, among `events`, on any record of the people of these municipalities that `query` finds."""
    if not _matchers:
        raise ImproperlyConfigured("audit.people: no people matcher registered (is apps.privacy installed?)")
    return _matchers[0](query, municipalities, events)
