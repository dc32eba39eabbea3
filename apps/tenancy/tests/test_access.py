"""municipality_for: the one way a staff view opens the municipality in its URL."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import Http404, HttpRequest
from django.test import RequestFactory

from apps.accounts.models import User
from apps.tenancy.access import municipality_for
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db


def _request(user: User | AnonymousUser) -> HttpRequest:
    request = RequestFactory().get("/")
    request.user = user
    return request


def _refused(user: User | AnonymousUser, ibge_code: str, **kwargs: str) -> str:
    with pytest.raises(Http404) as refusal:
        municipality_for(_request(user), ibge_code, **kwargs)
    return str(refusal.value)


def test_it_opens_the_town_where_the_user_works(analyst_olimpia: User, olimpia: Municipality) -> None:
    assert municipality_for(_request(analyst_olimpia), "3533908") == olimpia


def test_it_opens_the_town_when_the_matrix_allows_the_action(
    analyst_olimpia: User, olimpia: Municipality
) -> None:
    found = municipality_for(
        _request(analyst_olimpia),
        "3533908",
        model_label="registry.vehicle",
        action="change",
    )
    assert found == olimpia


def test_an_unknown_code_answers_404(analyst_olimpia: User, olimpia: Municipality) -> None:
    assert _refused(analyst_olimpia, "9999999") == "Registro não encontrado."


def test_another_town_answers_404_like_an_unknown_one(
    analyst_olimpia: User, olimpia: Municipality, votuporanga: Municipality
) -> None:
    assert _refused(analyst_olimpia, "3557105") == "Registro não encontrado."


def test_an_action_the_role_lacks_answers_404(auditor_olimpia: User, olimpia: Municipality) -> None:
    # The auditor sees the registry but may not change it: no 403, so roles cannot be probed either.
    assert municipality_for(_request(auditor_olimpia), "3533908", model_label="registry.vehicle")
    assert _refused(auditor_olimpia, "3533908", model_label="registry.vehicle", action="change")


def test_without_a_model_the_action_is_on_the_municipality_itself(
    analyst_olimpia: User, admin_olimpia: User, olimpia: Municipality
) -> None:
    assert municipality_for(_request(admin_olimpia), "3533908", action="change") == olimpia
    assert _refused(analyst_olimpia, "3533908", action="change")


def test_anonymous_and_outsiders_are_refused(outsider: User, olimpia: Municipality) -> None:
    assert _refused(AnonymousUser(), "3533908")
    assert _refused(outsider, "3533908", model_label="registry.vehicle")
