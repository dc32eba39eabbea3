"""Health and metrics endpoints for load balancers and monitoring (JSON and Prometheus text, no session)."""

from __future__ import annotations

import hmac

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from apps.ops.health import Check, run_checks
from apps.ops.metrics import exposition


@never_cache
@require_GET
def live(request: HttpRequest) -> JsonResponse:
    """The process answers (no database touched): for the supervisor's restart decision."""
    return JsonResponse({"status": "ok"})


@never_cache
@require_GET
def ready(request: HttpRequest) -> JsonResponse:
    """Whether this instance can serve: ok, degraded (serving with per-process limits) or fail (503).

    Anyone gets the status only; a monitor sending METRICS_TOKEN (Authorization: Bearer …) also gets each
    check's state (never their internals)."""
    checks = run_checks()
    failed = [check.name for check in checks if not check.ok]
    status = "fail" if failed else "degraded" if any(check.degraded for check in checks) else "ok"
    body: dict[str, object] = {"status": status}
    if _monitor(request):
        body["checks"] = {c.name: _state(c) for c in checks}
    return JsonResponse(body, status=503 if failed else 200)


def _state(check: Check) -> str:
    return "falhou" if not check.ok else "degradado" if check.degraded else "ok"


def _monitor(request: HttpRequest) -> bool:
    token = getattr(settings, "METRICS_TOKEN", "")
    given = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    return bool(token) and hmac.compare_digest(given.encode(), token.encode())


@never_cache
@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    """Prometheus metrics, behind METRICS_TOKEN (Authorization: Bearer …); without a token, off (404)."""
    if not _monitor(request):
        raise Http404("Registro não encontrado.")
    return HttpResponse(exposition(), content_type="text/plain; version=0.0.4; charset=utf-8")
