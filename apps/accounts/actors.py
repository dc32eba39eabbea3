"""Who acts in a service call: a signed-in user, or the system (the sweep, a command, the demo seeder).

Every service takes `actor: Actor`. Records keep the user only when there is one (`actor_user`) and always a name
for people to read (`actor_name`), so a line written by the sweep says "sistema" instead of being blank.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias, cast

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

if TYPE_CHECKING:
    from apps.accounts.models import User

Actor: TypeAlias = AbstractBaseUser | AnonymousUser | None

SYSTEM_ACTOR_NAME = "sistema"


def actor_user(actor: Actor) -> User | None:
    """The user to store in a foreign key, or None for the system and anonymous visitors."""
    return cast("User", actor) if actor is not None and actor.is_authenticated else None


def actor_name(actor: Actor) -> str:
    user = actor_user(actor)
    if user is None:
        return SYSTEM_ACTOR_NAME
    return getattr(user, "display_name", "") or user.get_username()
