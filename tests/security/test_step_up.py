"""Step-up re-authentication over the whole URL conf (issue 28, item 1).

The enforcement lives in the sensitive services (apps.accounts.stepup). This test walks every route of the URL
conf, reads the code its view runs (the function, a DRF viewset's action, and the same module's helpers they
call) and finds each sensitive service it reaches. Each one reached must be the guarded service, and the set of
(route, service) pairs must be the one below: a new route that reaches a sensitive service fails here until it
is listed (and so looked at); behaviour tests of the doors (form, API, htmx) are in
apps/finance/tests/test_step_up.py and apps/dueprocess/tests/test_step_up.py.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
import types
from collections.abc import Callable, Iterator
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver

from apps.accounts.stepup import SENSITIVE_SERVICES

# The sensitive actions of docs/security-authentication.md ("Sessão") and the services that do them.
DOCUMENTED = {
    "apps.licensing.services.application_approve",  # deferir requerimento (emite o alvará)
    "apps.dueprocess.services.appeal_judge",  # julgar
    "apps.dueprocess.services.finality.case_finalize_unappealed",  # tornar definitiva a decisão
    "apps.finance.services.payment_register",  # registrar pagamento
    "apps.tenancy.services.staff_invitation_create",  # convidar servidor
    "apps.tenancy.services.staff_invitation_revoke",
    "apps.tenancy.services.team_role_assign",  # dar papéis
    "apps.tenancy.services.team_role_remove",  # retirar papéis
    "apps.tenancy.services.staff_account_set_active",  # ativar ou desativar contas
    "apps.tenancy.services.municipality_setup",  # criar município
    "apps.lawconfig.services.fiscal_unit_value_set",  # UFM
    "apps.lawconfig.services.parameter_value_set",  # parâmetros
    "apps.lawconfig.services.interpretation_choose",  # interpretações
    "apps.lawconfig.services.closure_add",  # dias sem expediente
    "apps.lawconfig.services.closure_remove",
    "apps.accounts.services.recovery_codes_generate",  # códigos de recuperação novos
    "apps.accounts.services.totp_device_remove",  # remover aplicativo
    "apps.accounts.services.second_factor_reset",  # zerar o segundo fator de outra pessoa
    "apps.privacy.services.subject_report_issue",  # relatório do titular (a pessoa inteira sai do sistema)
}

# Every route that reaches a sensitive service, and which. A new one goes here after a look at its door.
ROUTES = {
    ("authenticator_remove", "totp_device_remove"),
    ("recovery_codes_regenerate", "recovery_codes_generate"),
    ("dueprocess:finalize", "case_finalize_unappealed"),
    ("dueprocess:judge", "appeal_judge"),
    ("finance:payment_register", "payment_register"),
    ("finance:review_decide", "payment_review_resolve"),
    ("finance:cnab_upload", "cnab_return_apply"),
    ("lawconfig:closure_add", "closure_add"),
    ("lawconfig:closure_remove", "closure_remove"),
    ("lawconfig:interpretation_choose", "interpretation_choose"),
    ("lawconfig:parameter_value_add", "parameter_value_set"),
    ("lawconfig:ufm_add", "fiscal_unit_value_set"),
    ("licensing:application_action", "application_approve"),
    ("privacy:subject_report", "subject_report_issue"),
    ("tenancy:member_role_add", "team_role_assign"),
    ("tenancy:member_role_remove", "team_role_remove"),
    ("tenancy:member_second_factor_reset", "second_factor_reset"),
    ("tenancy:member_set_active", "staff_account_set_active"),
    ("tenancy:municipality_new", "municipality_setup"),
    ("tenancy:staff_invitation_revoke", "staff_invitation_revoke"),
    ("tenancy:staff_invite", "staff_invitation_create"),
    # the staff API
    ("dueprocess-appeal-judge", "appeal_judge"),
    ("finance-guide-payment", "payment_register"),
    ("licensing-application-transition", "application_approve"),
}


def _routes(
    resolver: URLResolver | None = None, namespace: str = ""
) -> Iterator[tuple[str, Callable[..., Any]]]:
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from _routes(entry, inner)
        elif isinstance(entry, URLPattern):
            yield f"{namespace}{entry.name or entry.pattern}", entry.callback


def _entry_functions(callback: Callable[..., Any]) -> list[Callable[..., Any]]:
    cls = getattr(callback, "cls", None) or getattr(callback, "view_class", None)
    if cls is None:
        return [callback]
    actions = getattr(callback, "actions", None) or {}
    names = set(actions.values()) or {"get", "post", "put", "patch", "delete", "dispatch"}
    return [getattr(cls, name) for name in sorted(names) if hasattr(cls, name)]


def _referenced(function: Callable[..., Any], seen: set[Any]) -> Iterator[tuple[str, Any]]:
    """(name, object) of every attribute or global the function's code names, its own module's helpers followed."""
    function = inspect.unwrap(function)
    if function in seen or not isinstance(function, types.FunctionType):
        return
    seen.add(function)
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    except (OSError, TypeError):
        return
    scope = function.__globals__
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            owner = scope.get(node.value.id)
            target = getattr(owner, node.attr, None) if owner is not None else None
            yield node.attr, target
        elif isinstance(node, ast.Name):
            target = scope.get(node.id)
            yield node.id, target
            if isinstance(target, types.FunctionType) and target.__module__ == function.__module__:
                yield from _referenced(target, seen)


def _sensitive_reached() -> set[tuple[str, str, bool]]:
    get_resolver().url_patterns  # noqa: B018  (imports every view, so every service registers)
    short = {name.rsplit(".", 1)[1] for name in SENSITIVE_SERVICES}
    found = set()
    for route, callback in _routes():
        seen: set[Any] = set()
        for entry in _entry_functions(callback):
            for name, target in _referenced(entry, seen):
                if name in short and callable(target):
                    found.add((route, name, bool(getattr(target, "sensitive", False))))
    return found


def test_every_documented_sensitive_action_is_a_guarded_service() -> None:
    get_resolver().url_patterns  # noqa: B018  (imports every view, so every service registers)
    assert set(SENSITIVE_SERVICES) >= DOCUMENTED
    for name, service in SENSITIVE_SERVICES.items():
        assert getattr(service, "sensitive", False), name


def test_every_route_that_reaches_a_sensitive_service_reaches_it_guarded() -> None:
    reached = _sensitive_reached()
    assert {(route, name) for route, name, _ in reached} == ROUTES
    assert all(guarded for _, _, guarded in reached), [r for r in reached if not r[2]]


def test_a_view_that_prompts_early_reaches_a_sensitive_service() -> None:
    """@recent_authentication_required only prompts before a form: the refusal is the service's. A view carrying
    it without reaching one would refuse nothing on POST."""
    reaching = {route for route, _ in ROUTES}
    prompting = set()
    for route, callback in _routes():
        if getattr(callback, "prompts_reauthentication", False) or any(
            getattr(inner, "prompts_reauthentication", False) for inner in _wrapped_chain(callback)
        ):
            prompting.add(route)
    assert prompting <= reaching | {"second_factor_enrol"}, prompting - reaching


def _wrapped_chain(callback: Callable[..., Any]) -> Iterator[Any]:
    current: Any = callback
    while (current := getattr(current, "__wrapped__", None)) is not None:
        yield current
