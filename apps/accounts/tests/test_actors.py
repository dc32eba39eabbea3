"""Who acts: the user kept on a record, the name people read, and the acts only a person may perform."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied

from apps.accounts.actors import SYSTEM_ACTOR_NAME, actor_name, actor_user, signed_in
from apps.accounts.models import User

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("actor", [None, AnonymousUser()], ids=["system", "anonymous"])
def test_the_system_and_a_visitor_keep_no_user_and_read_as_sistema(actor: AnonymousUser | None) -> None:
    assert actor_user(actor) is None
    assert actor_name(actor) == SYSTEM_ACTOR_NAME
    with pytest.raises(PermissionDenied, match="usuário identificado"):
        signed_in(actor)


def test_a_signed_in_user_is_kept_and_named() -> None:
    user = User.objects.create_user(username="ana", password="frase-longa-de-teste", full_name="Ana Lima")
    assert actor_user(user) == user
    assert signed_in(user) == user
    assert actor_name(user) == "Ana Lima"
