"""Audit's filter by person is answered by the privacy app, through the registry audit owns."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from apps.audit import people
from apps.privacy.subjects import events_about_query


def test_the_audit_trail_asks_the_privacy_app_which_events_are_about_a_person() -> None:
    assert people._matchers == [events_about_query]


def test_a_second_matcher_is_refused_rather_than_silently_replacing_the_first() -> None:
    with pytest.raises(ImproperlyConfigured, match="already registered"):
        people.register_people_matcher(lambda query, municipalities, events: events)
    assert people._matchers == [events_about_query]


def test_without_a_matcher_the_person_filter_fails_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(people, "_matchers", [])
    with pytest.raises(ImproperlyConfigured, match="apps.privacy"):
        people.events_about_people("Maria", [], None)  # type: ignore[arg-type]
