"""Who acts in a service call: a signed-in user, or the system (the sweep, a command, the demo seeder).

Every service takes `actor: Actor`: never `Any`, never a local alias (tests/test_one_way.py checks it). Records
keep the user only when there is one (`actor_user`) and always a name for people to read (`actor_name`), so a
line written by the sweep says "sistema" instead of being blank.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias, cast

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied

if TYPE_CHECKING:
    from apps.accounts.models import User

# A real union, not a string, so typing.get_type_hints resolves a service's signature (tools/model_docs.py reads
# them). It imports django.contrib.auth.models: an AppConfig module names it from inside ready().
Actor: TypeAlias = AbstractBaseUser | AnonymousUser | None

SYSTEM_ACTOR_NAME = "sistema"


def actor_user(actor: Actor) -> User | None:
    """The user to store in a foreign key, or None for the system and anonymous visitors."""
    return cast("User", actor) if actor is not None and actor.is_authenticated else None


def signed_in(actor: Actor) -> User:
    """The user of an act only a person performs (an auto's agent, a judgment's author): the record needs one.

    The system or an anonymous visitor reaching here is a programming error, refused rather than stored blank.
    """
    user = actor_user(actor)
    if user is None:
        raise PermissionDenied("Esta ação exige um usuário identificado.")
    return user


def actor_name(actor: Actor) -> str:
    user = actor_user(actor)
    if user is None:
        return SYSTEM_ACTOR_NAME
    return getattr(user, "display_name", "") or user.get_username()
