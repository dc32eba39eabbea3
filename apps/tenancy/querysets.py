"""The single gate for staff reads: every staff view and API builds its queryset with for_user()."""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, ClassVar, Self, TypeVar

from django.apps import apps
from django.core.exceptions import ObjectDoesNotExist
from django.db import models
from django.http import Http404, HttpRequest, HttpResponse

from apps.tenancy.permissions import roles_allowed

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    AnyUser = AbstractBaseUser | AnonymousUser

_M = TypeVar("_M", bound=models.Model)


class MunicipalityScopedQuerySet(models.QuerySet[_M]):
    """Rows belong to a municipality through `municipality_field` (a lookup path).

    for_user(user, action) keeps the rows of municipalities where the user holds a role that the
    permission matrix allows for this model and action. Superusers see every row: they are the
    installation's operators (created with createsuperuser, never by the demo) and Django's own
    convention gives them all permissions. Anonymous or inactive users see nothing.
    """

    municipality_field: ClassVar[str] = "municipality"

    def for_user(self, user: AnyUser | None, action: str) -> Self:
        if user is None or not user.is_authenticated or not user.is_active:
            return self.none()
        if getattr(user, "is_superuser", False):
            return self
        roles = roles_allowed(self.model._meta.label_lower, action)
        membership = apps.get_model("tenancy", "Membership")
        municipality_ids = membership.objects.filter(user_id=user.pk, role__in=roles).values(
            "municipality_id"
        )
        return self.filter(**{f"{self.municipality_field}__in": municipality_ids})


def get_object_for_user_or_404(
    queryset: MunicipalityScopedQuerySet[_M], user: AnyUser | None, action: str, **lookup: Any
) -> _M:
    """Rows outside the user's scope answer 404, exactly like rows that do not exist (no probing)."""
    try:
        return queryset.for_user(user, action).get(**lookup)
    except ObjectDoesNotExist:
        raise Http404("Registro não encontrado.") from None


def user_can(user: AnyUser | None, municipality_id: int, model_label: str, action: str) -> bool:
    """Whether the user may perform `action` on `model_label` rows of this municipality."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    if getattr(user, "is_superuser", False):
        return True
    roles = roles_allowed(model_label, action)
    return not roles.isdisjoint(_roles_of(user.pk, municipality_id))


# Within one request a page asks user_can many times (every menu entry, every card): the user's roles are read
# once per request (RequestRolesMiddleware opens the cache) instead of one EXISTS query per question. Outside a
# request (services, commands, tests) nothing is cached, so a role granted a moment ago always counts.
_request_roles: ContextVar[dict[tuple[Any, int], frozenset[str]] | None] = ContextVar(
    "request_roles", default=None
)


def _roles_of(user_id: Any, municipality_id: int) -> frozenset[str]:
    cache = _request_roles.get()
    key = (user_id, municipality_id)
    if cache is not None and key in cache:
        return cache[key]
    membership = apps.get_model("tenancy", "Membership")
    roles = frozenset(
        membership.objects.filter(user_id=user_id, municipality_id=municipality_id).values_list(
            "role", flat=True
        )
    )
    if cache is not None:
        cache[key] = roles
    return roles


class RequestRolesMiddleware:
    """Opens the per-request roles cache of user_can and closes it when the response is ready."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = _request_roles.set({})
        try:
            return self.get_response(request)
        finally:
            _request_roles.reset(token)
