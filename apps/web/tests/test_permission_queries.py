"""A staff page reads the user's roles once per municipality, however many menu entries and cards ask."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from apps.accounts.models import User
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality
from apps.tenancy.querysets import user_can
from apps.tenancy.services import membership_grant

pytestmark = pytest.mark.django_db


def membership_queries(queries: list[dict[str, Any]]) -> int:
    """Queries that read memberships themselves (not the for_user subqueries inside a list's own query)."""
    return sum(
        q["sql"].startswith("SELECT") and 'FROM "tenancy_membership"' in q["sql"].split(" WHERE ")[0]
        for q in queries
    )


def test_the_municipality_home_asks_for_the_roles_once(
    admin_olimpia_client: Client, olimpia: Municipality
) -> None:
    with CaptureQueriesContext(connection) as captured:
        response = admin_olimpia_client.get(f"/municipios/{olimpia.ibge_code}/")
    assert response.status_code == 200 and "Auditoria" in response.content.decode()
    # 31 before the per-request cache (one EXISTS per menu entry and card); now the roles once, plus the
    # role-switcher and the administrator card's own count.
    assert membership_queries(captured.captured_queries) <= 3


def test_outside_a_request_a_role_granted_a_moment_ago_counts(
    make_staff: Any, olimpia: Municipality, admin_olimpia: User
) -> None:
    user = make_staff("nova.analista")
    assert not user_can(user, olimpia.pk, "registry.operator", "view")
    membership_grant(actor=admin_olimpia, user=user, municipality=olimpia, role=Role.ANALYST)
    assert user_can(user, olimpia.pk, "registry.operator", "view")
