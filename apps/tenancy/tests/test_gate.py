"""The single gate: MunicipalityScopedQuerySet.for_user and get_object_for_user_or_404."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import Http404

from apps.accounts.models import User
from apps.audit.models import AuditEvent
from apps.tenancy.models import Membership, Municipality
from apps.tenancy.permissions import UnknownPermissionError
from apps.tenancy.querysets import get_object_for_user_or_404, user_can

pytestmark = pytest.mark.django_db


def codes(queryset: object) -> set[str]:
    return {m.ibge_code for m in queryset}  # type: ignore[attr-defined]


def test_it_shows_an_analyst_only_her_municipality(analyst_olimpia: User, votuporanga: Municipality) -> None:
    assert codes(Municipality.objects.for_user(analyst_olimpia, "view")) == {"3533908"}


def test_it_hides_everything_from_an_outsider(outsider: User, olimpia: Municipality) -> None:
    assert not Municipality.objects.for_user(outsider, "view").exists()
    assert not Membership.objects.for_user(outsider, "view").exists()


def test_it_hides_everything_from_anonymous_and_none(olimpia: Municipality) -> None:
    assert not Municipality.objects.for_user(AnonymousUser(), "view").exists()
    assert not Municipality.objects.for_user(None, "view").exists()


def test_it_hides_everything_from_an_inactive_user(analyst_olimpia: User) -> None:
    analyst_olimpia.is_active = False
    assert not Municipality.objects.for_user(analyst_olimpia, "view").exists()


def test_it_filters_by_role_not_only_by_municipality(
    analyst_olimpia: User, auditor_olimpia: User, olimpia: Municipality
) -> None:
    assert not AuditEvent.objects.for_user(analyst_olimpia, "view").exists()
    assert AuditEvent.objects.for_user(auditor_olimpia, "view").filter(municipality=olimpia).exists()
    assert not Municipality.objects.for_user(analyst_olimpia, "change").exists()


def test_it_keeps_rows_of_other_municipalities_out(
    agent_votuporanga: User, analyst_olimpia: User, olimpia: Municipality
) -> None:
    visible = Membership.objects.for_user(agent_votuporanga, "view")
    assert {m.municipality.ibge_code for m in visible} == {"3557105"}
    assert not visible.filter(user=analyst_olimpia).exists()


def test_it_lets_superusers_see_all_municipalities(
    admin_user: User, olimpia: Municipality, votuporanga: Municipality
) -> None:
    assert codes(Municipality.objects.for_user(admin_user, "change")) == {"3533908", "3557105"}


def test_it_raises_for_an_unregistered_action(analyst_olimpia: User) -> None:
    with pytest.raises(UnknownPermissionError):
        Municipality.objects.for_user(analyst_olimpia, "teleport")


def test_it_answers_404_for_rows_outside_scope(analyst_olimpia: User, votuporanga: Municipality) -> None:
    with pytest.raises(Http404):
        get_object_for_user_or_404(Municipality.objects.all(), analyst_olimpia, "view", ibge_code="3557105")
    found = get_object_for_user_or_404(
        Municipality.objects.all(), analyst_olimpia, "view", ibge_code="3533908"
    )
    assert found.name == "Olímpia"


def test_it_answers_user_can_per_municipality(analyst_olimpia: User, votuporanga: Municipality) -> None:
    olimpia = Municipality.objects.get(ibge_code="3533908")
    assert user_can(analyst_olimpia, olimpia.pk, "tenancy.municipality", "view")
    assert not user_can(analyst_olimpia, votuporanga.pk, "tenancy.municipality", "view")
    assert not user_can(analyst_olimpia, olimpia.pk, "accounts.user", "view")


def test_it_lists_municipalities_where_a_user_may_act_on_another_model(
    auditor_olimpia: User, analyst_olimpia: User, votuporanga: Municipality
) -> None:
    assert codes(Municipality.objects.where_user_may(auditor_olimpia, "audit.auditevent", "view")) == {
        "3533908"
    }
    assert not Municipality.objects.where_user_may(analyst_olimpia, "audit.auditevent", "view").exists()
