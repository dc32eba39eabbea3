"""Run by tests/test_replica.py in a child process whose settings point at a real primary and streaming replica.

``python tests/replica_probe.py <scenario>`` prints one JSON object with what it observed; the test asserts.
Settings are read from the environment (DATABASE_URL, DATABASE_REPLICA_URL), as in production, so the router
under test is the one a deployment gets. Scenarios: ``routing`` (replica healthy, then lagging, then caught up)
and ``down`` (replica stopped).
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "outorga.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connections, transaction  # noqa: E402
from django.http import HttpRequest, HttpResponse  # noqa: E402
from django.test import Client  # noqa: E402

from apps.ops.metrics import exposition  # noqa: E402
from apps.platforms.models import Platform  # noqa: E402
from apps.tenancy.models import Municipality  # noqa: E402
from outorga import routers  # noqa: E402

IBGE = "3533908"


class Queries:
    """Counts the statements each database alias received."""

    def __init__(self) -> None:
        self.by_alias: Counter[str] = Counter()

    @contextmanager
    def watching(self) -> Iterator[Counter[str]]:
        self.by_alias.clear()
        with (
            connections["default"].execute_wrapper(self._for("default")),
            connections["replica"].execute_wrapper(self._for("replica")),
        ):
            yield self.by_alias

    def _for(self, alias: str) -> Callable[..., Any]:
        def wrapper(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
            if not sql.startswith(routers.LAG_SQL[:20]):  # the health check itself is not a routed read
                self.by_alias[alias] += 1
            return execute(sql, params, many, context)

        return wrapper


class Warnings(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(f"{record.levelname} {record.getMessage()}")


def wait_on_replica(check: Callable[[], bool], seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.1)
    return False


def replica_has_platform(name: str) -> bool:
    return Platform.objects.using("replica").filter(name=name).exists()


def replica_sql(sql: str) -> None:
    with connections["replica"].cursor() as cursor:
        cursor.execute(sql)


def lookup(client: Client, queries: Queries) -> dict[str, Any]:
    with queries.watching() as seen:
        response = client.get("/consulta/", {"municipio": IBGE, "q": "ABC1D23"})
    return {"status": response.status_code, "default": seen["default"], "replica": seen["replica"]}


def fake_request(method: str, cookies: dict[str, str] | None = None) -> HttpRequest:
    request = HttpRequest()
    request.method = method
    request.COOKIES = cookies or {}
    return request


def read_your_writes() -> dict[str, Any]:
    """With replay paused (the replica surely lacks the new row), the request that wrote still finds it."""
    settings.REPLICA_MAX_LAG_SECONDS = 3600  # this part is about pinning, not about the lag limit
    routers.reset_replica_health()
    replica_sql("SELECT pg_wal_replay_pause()")
    seen: dict[str, Any] = {}

    def view(request: HttpRequest) -> HttpResponse:
        Platform.objects.create(name="Escrita agora", cnpj="11222333000181")
        with routers.replica_reads():
            seen["same_request_sees_it"] = Platform.objects.filter(name="Escrita agora").exists()
        return HttpResponse("ok")

    response = routers.ReadYourWritesMiddleware(view)(fake_request("POST"))
    seen["pin_cookie"] = routers.PIN_COOKIE in response.cookies
    seen["pin_seconds"] = response.cookies[routers.PIN_COOKIE]["max-age"] if seen["pin_cookie"] else None

    def later(request: HttpRequest) -> HttpResponse:
        with routers.replica_reads():
            seen.setdefault("later", []).append(Platform.objects.filter(name="Escrita agora").exists())
        return HttpResponse("ok")

    routers.ReadYourWritesMiddleware(later)(fake_request("GET"))  # another client: the lagging replica
    routers.ReadYourWritesMiddleware(later)(fake_request("GET", {routers.PIN_COOKIE: "1"}))  # the writer
    with routers.replica_reads(), transaction.atomic():
        seen["in_transaction_alias"] = routers.read_alias()
    return seen


def lagging(client: Client, queries: Queries, log: Warnings) -> dict[str, Any]:
    """Replay still paused; a write on the primary the replica does not apply; the lag passes 1 s."""
    settings.REPLICA_MAX_LAG_SECONDS = 1
    Platform.objects.create(name="Depois da pausa", cnpj="11444777000161")
    time.sleep(2.5)
    routers.reset_replica_health()
    health = routers.replica_health()
    observed: dict[str, Any] = {
        "health": health.reason,
        "lag": health.lag_seconds,
        "lookup": lookup(client, queries),
    }
    replica_sql("SELECT pg_wal_replay_resume()")
    observed["caught_up"] = wait_on_replica(lambda: replica_has_platform("Depois da pausa"))
    routers.reset_replica_health()
    observed["after_resume"] = {"health": routers.replica_health().reason, "lookup": lookup(client, queries)}
    observed["log"] = list(log.messages)
    return observed


def routing() -> dict[str, Any]:
    queries, log, client = Queries(), Warnings(), Client()
    logging.getLogger("outorga.replica").addHandler(log)
    Municipality.objects.get_or_create(
        ibge_code=IBGE, defaults={"name": "Olímpia", "uf": "SP", "slug": "olimpia"}
    )
    replicated = wait_on_replica(
        lambda: Municipality.objects.using("replica").filter(ibge_code=IBGE).exists()
    )
    with queries.watching() as seen:
        ready = client.get("/saude/pronto/")
    untagged = {"status": ready.status_code, "default": seen["default"], "replica": seen["replica"]}
    observed: dict[str, Any] = {
        "replicated": replicated,
        "untagged": untagged,
        "healthy_lookup": lookup(client, queries),
        "ryw": read_your_writes(),
    }
    observed["lagging"] = lagging(client, queries, log)
    observed["metrics"] = [line for line in exposition().splitlines() if "replica" in line]
    return observed


def down() -> dict[str, Any]:
    queries, log, client = Queries(), Warnings(), Client()
    logging.getLogger("outorga.replica").addHandler(log)
    started = time.monotonic()
    observed: dict[str, Any] = {"lookup": lookup(client, queries), "health": routers.replica_health().reason}
    observed["seconds"] = round(time.monotonic() - started, 2)
    observed["log"] = list(log.messages)
    observed["metrics"] = [line for line in exposition().splitlines() if "replica" in line]
    return observed


if __name__ == "__main__":
    scenario = {"routing": routing, "down": down}[sys.argv[1]]
    print("PROBE " + json.dumps(scenario(), default=str))
