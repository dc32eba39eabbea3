"""Benchmark of the public verification over HTTP at school-start peaks, against a minimal Django view.

    createdb -h 127.0.0.1 -U postgres outorga_bench_public
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/outorga_bench_public .venv/bin/python benchmarks/public_lookup.py
    ... benchmarks/public_lookup.py --scale 0.1 --duration 10        # 30,000 vehicles, shorter rounds

Run it against a database of its own: it migrates it, refuses to run if it holds any municipality other than
its synthetic "São Paulo (benchmark)", and reuses that municipality's rows when they already have the size asked
(else replaces them). At --scale 1: 300,000 people, operators, vehicles and permits, bulk inserted (85% regular,
5% suspended, 5% past validity, 3% revoked, 2% closed).

One gunicorn (this file is also its WSGI module: the project's URLs plus the baseline views below, all on the
lean path of apps.web.lean, like the lookup's) serves its rounds one after the other, in the same run, to a load
generator in a second process on 127.0.0.1 (`wrk` when installed — `apt-get install wrk` — else a small Python
client with threads), each for a fixed duration and number of connections:
1. ping  — /bench/ping/, a Django view doing nothing;
2. raw   — /bench/raw/, the lookup's SELECT by hand (the baseline of the make-bench rows, --rounds);
3. floor — /bench/floor/, raw plus the work no correct lookup can skip: the rate-limit count in the shared
   store and the standing's documents (one more SELECT). Its ratio to raw bounds what the lookup can reach;
4. json  — GET /api/publica/v1/verificacao/?municipio=…&placa=… for random plates (5% unknown);
5. page  — GET /consulta/?municipio=…&q=… (the phone page, rendered) for the same plates.
Each lookup runs everything production does: rate limit (limit raised so the single client is never refused),
one SELECT on the (municipality, plate) index that also reads the law configuration's stamp (a subquery), the
standing's drivers and documents (one UNION ALL written once, apps.public.standing_rows), the lookup count (summed
in memory, written every 10 s).
The server counts rate limits where a deployment of several servers (tier B, a state capital) does: in Redis
(REDIS_URL, outorga.cache.CountingRedisCache: one round trip) whenever one answers — REDIS_URL from the
environment, else redis://127.0.0.1:6379/0 — and in the database cache otherwise, or with `--counters database`;
the output says which. The floor round counts in the same store.
Reported: requests/s, p50 and p99 latency, and each round's throughput as a ratio of raw's and of floor's.
A benchmark, not a test: pytest does not collect it.

Figures of 2026-11-30 (--scale 1, 16 connections, 5 workers, a 2-CPU machine shared with other test runs,
load average 8-13, so absolute numbers are low and noisy; the ratio is taken in the same run):
    run 1 (20 s rounds): ping 534 req/s p99 95 ms; json 78 req/s p99 308 ms (0.15); page 44 req/s p99 487 ms (0.08)
    run 2 (30 s rounds): ping 341 req/s p99 278 ms; json 70 req/s p99 391 ms (0.21); page 37 req/s p99 592 ms (0.11)
In-process, one JSON lookup costs 3.6 ms of CPU, the same as a one-query page (/dados-abertos/ 3.4 ms); the
SELECT executes in 0.1-0.3 ms. The gap to the no-database ping is the database round trips on a saturated box.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from http.client import HTTPConnection
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "outorga.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.models import Model  # noqa: E402
from django.http import HttpRequest, HttpResponse  # noqa: E402
from django.urls import include, path  # noqa: E402
from django.utils import timezone  # noqa: E402

from apps.licensing.casebook import demo_plate  # noqa: E402
from apps.licensing.models import Permit  # noqa: E402
from apps.public.models import LookupCount  # noqa: E402
from apps.registry.models import Operator, Person, Vehicle  # noqa: E402
from apps.tenancy.models import Municipality  # noqa: E402
from apps.web.lean import session_free  # noqa: E402
from benchmarks.results import Row, emit  # noqa: E402

FULL = 300_000
BATCH = 10_000
SEED = 20261130
IBGE = "3550308"
REGIME = "olimpia_sp_escolar"
SAMPLE_PATHS = 20_000


# The baselines take the same lean path as the lookup (apps.web.lean): the same stack, as the issue asks.
@session_free
def ping(request: HttpRequest) -> HttpResponse:
    """The baseline: a Django view doing nothing, behind the same middleware as the lookup."""
    return HttpResponse("ok", content_type="text/plain")


RAW_LOOKUP = (
    "SELECT p.number, p.state, p.valid_until, v.plate FROM licensing_permit p "
    "JOIN registry_vehicle v ON v.id = p.vehicle_id JOIN tenancy_municipality m ON m.id = p.municipality_id "
    "WHERE m.ibge_code = %s AND v.plate = %s ORDER BY p.valid_until DESC NULLS LAST"
)


@session_free
def raw_lookup(request: HttpRequest) -> HttpResponse:
    """The limit for a lookup: its SELECT, by hand, answered as JSON by a bare view behind the same middleware."""
    with connection.cursor() as cursor:
        cursor.execute(RAW_LOOKUP, [request.GET.get("municipio", ""), request.GET.get("placa", "")])
        rows = [
            {"numero": n, "situacao": s, "validade": str(v), "placa": p} for n, s, v, p in cursor.fetchall()
        ]
    return HttpResponse(json.dumps({"resultados": rows}), content_type="application/json")


# The least any correct lookup must also do, by hand (the detailed report's "floor" round): count the client in
# the shared rate-limit store (the project's own one-statement counter, apps.public.ratelimit) and read the
# documents the answer's standing depends on (the vehicle's, the holder's, the operator's), one SELECT.
RAW_LOOKUP_OWNERS = (
    "SELECT p.number, p.state, p.valid_until, v.plate, p.vehicle_id, p.operator_id, o.person_id "
    "FROM licensing_permit p JOIN registry_vehicle v ON v.id = p.vehicle_id "
    "JOIN registry_operator o ON o.id = p.operator_id JOIN tenancy_municipality m ON m.id = p.municipality_id "
    "WHERE m.ibge_code = %s AND v.plate = %s ORDER BY p.valid_until DESC NULLS LAST"
)
RAW_DOCUMENTS = (
    "SELECT kind, valid_until, status FROM registry_document "
    "WHERE vehicle_id = ANY(%s) OR operator_id = ANY(%s) OR person_id = ANY(%s)"
)


@session_free
def raw_floor(request: HttpRequest) -> HttpResponse:
    """The raw view plus the unavoidable work: the rate-limit count and the standing's documents."""
    from apps.public import ratelimit

    ratelimit.hit(request)
    with connection.cursor() as cursor:
        cursor.execute(RAW_LOOKUP_OWNERS, [request.GET.get("municipio", ""), request.GET.get("placa", "")])
        found = cursor.fetchall()
        rows = [{"numero": n, "situacao": s, "validade": str(v), "placa": p} for n, s, v, p, *_ in found]
        if found:
            owners = [[row[i] for row in found if row[i] is not None] for i in (4, 5, 6)]
            cursor.execute(RAW_DOCUMENTS, owners)
            documents = [{"tipo": k, "validade": str(v), "situacao": s} for k, v, s in cursor.fetchall()]
            rows[0]["documentos"] = documents
    return HttpResponse(json.dumps({"resultados": rows}), content_type="application/json")


urlpatterns = [
    path("bench/ping/", ping),
    path("bench/raw/", raw_lookup),
    path("bench/floor/", raw_floor),
    path("", include("outorga.urls")),
]


def _serve_from_this_module() -> Any:
    """When gunicorn imports this file: the project's settings with this module as URLconf.

    A checkout has no collectstatic manifest, so static URLs are built without one (DEBUG is off).
    """
    from django.core.wsgi import get_wsgi_application

    import lawcode

    settings.ROOT_URLCONF = __name__
    # Loaded once in the master (gunicorn --preload) instead of on each worker's first lookup: production
    # pays that parse once per worker too, but it is start-up, not the lookup being measured.
    lawcode.get_regime(REGIME)
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    return get_wsgi_application()


if __name__ != "__main__":
    application = _serve_from_this_module()


# --- data ---------------------------------------------------------------------------------------------------


def _bulk(model: type[Model], rows: Iterator[Model]) -> list[Any]:
    ids: list[Any] = []
    batch: list[Model] = []
    for row in rows:
        batch.append(row)
        if len(batch) == BATCH:
            ids += [obj.pk for obj in model._default_manager.bulk_create(batch)]
            batch = []
    if batch:
        ids += [obj.pk for obj in model._default_manager.bulk_create(batch)]
    return ids


def _municipality() -> Municipality:
    others = Municipality.objects.exclude(ibge_code=IBGE)
    if others.exists():
        sys.exit(
            f"Refusing to run: this database holds other municipalities ({others.count()}). "
            "Point DATABASE_URL at a database of its own."
        )
    municipality, _ = Municipality.objects.get_or_create(
        ibge_code=IBGE,
        defaults={
            "name": "São Paulo (benchmark)",
            "uf": "SP",
            "slug": "sao-paulo-benchmark",
            "regimes": [REGIME],
        },
    )
    return municipality


def _clear(municipality: Municipality) -> None:
    for model in (LookupCount, Permit, Vehicle, Operator, Person):
        model._default_manager.filter(municipality=municipality)._raw_delete(connection.alias)


def _permit(
    m: Municipality, i: int, operator: int, vehicle: int, today: dt.date, rng: random.Random
) -> Permit:
    roll = rng.random()
    state, until = "active", today + dt.timedelta(days=rng.randint(1, 360))
    if roll < 0.05:
        state = "suspended"
    elif roll < 0.10:
        until = today - dt.timedelta(days=rng.randint(1, 60))  # past validity, the sweep not run yet
    elif roll < 0.13:
        state = "revoked"
    elif roll < 0.15:
        state = "cancelled"
    return Permit(
        municipality=m,
        regime_id=REGIME,
        number=f"{i + 1:04d}/2026",
        year=2026,
        sequence=i + 1,
        operator_id=operator,
        vehicle_id=vehicle,
        issued_on=until - dt.timedelta(days=365),
        valid_from=until - dt.timedelta(days=365),
        valid_until=until,
        state=state,
        suspended_until=today + dt.timedelta(days=20) if state == "suspended" else None,
        qr_token=secrets.token_urlsafe(24),
    )


def build(n: int) -> Municipality:
    municipality = _municipality()
    if Permit.objects.filter(municipality=municipality).count() == n:
        print(f"Reusing the {n:,} synthetic vehicles and permits already in the database.")
        LookupCount.objects.filter(municipality=municipality).delete()
        return municipality
    started = time.perf_counter()
    _clear(municipality)
    rng, today, m = random.Random(SEED), timezone.localdate(), municipality
    people = _bulk(
        Person,
        (
            Person(
                municipality=m,
                cpf=f"{i:011d}",
                name=f"Pessoa {i}",
                phone="11999990000",
                street="Rua Sintética",
                postal_code="01000000",
            )
            for i in range(n)
        ),
    )
    operators = _bulk(
        Operator,
        (
            Operator(
                municipality=m, regime_id=REGIME, kind="PF", person_id=p, status="active", registered_on=today
            )
            for p in people
        ),
    )
    vehicles = _bulk(
        Vehicle,
        (
            Vehicle(
                municipality=m,
                operator_id=o,
                plate=demo_plate(i),
                renavam=f"{i:011d}",
                make="Volkswagen",
                model="Kombi",
                manufacture_year=2020,
                model_year=2021,
                seats=15,
                doors=4,
                registration_municipality_ibge=IBGE,
                registration_municipality_name="São Paulo",
                category="aluguel",
                owner_name=f"Pessoa {i}",
                owner_document=f"{i:011d}",
                ownership_kind="own",
            )
            for i, o in enumerate(operators)
        ),
    )
    pairs = zip(operators, vehicles, strict=True)
    _bulk(Permit, (_permit(m, i, o, v, today, rng) for i, (o, v) in enumerate(pairs)))
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # fresh statistics, so the planner uses the plate index from the start
    print(f"Inserted {n:,} people, operators, vehicles and permits in {time.perf_counter() - started:.0f} s.")
    return municipality


# --- server -------------------------------------------------------------------------------------------------


def _free_port() -> int:
    """A port nobody listens on now (other servers may run on this machine)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# The load client is this file in a second process: it must knock on the server's port, not pick its own.
PORT = int(os.environ.get("BENCH_PORT") or _free_port())


REDIS_DEFAULT = "redis://127.0.0.1:6379/0"


def counters_store(choice: str) -> str:
    """The REDIS_URL the server runs with ("" = the database cache). A deployment of several servers (a state
    capital's, tier B) counts its rate limits in Redis, so with `--counters auto` the benchmark does too
    whenever a Redis answers (REDIS_URL from the environment, else the default local one)."""
    if choice == "database":
        return ""
    url = os.environ.get("REDIS_URL") or REDIS_DEFAULT
    try:
        import redis

        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
    except Exception as error:  # no package, no server, refused: count in the database (or stop if asked)
        if choice == "redis":
            sys.exit(f"--counters redis: no Redis answers at {url} ({error}).")
        return ""
    return url


def describe_counters(redis_url: str) -> str:
    if redis_url:
        return f"rate-limit counters in Redis (REDIS_URL={redis_url}, as a tier-B deployment runs)"
    return f"rate-limit counters in the database cache ({connection.vendor}; no REDIS_URL)"


def start_server(workers: int, redis_url: str) -> subprocess.Popen[bytes]:
    env = {
        **{key: value for key, value in os.environ.items() if key != "REDIS_URL"},
        **({"REDIS_URL": redis_url} if redis_url else {}),
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "AUDIT_HMAC_KEYS": f"bench:{secrets.token_urlsafe(48)}",
        "SECURE_SSL_REDIRECT": "0",
        "PUBLIC_RATE_LIMIT": str(10**9),
        "LOG_LEVEL": "WARNING",
    }
    command = [
        str(Path(sys.executable).with_name("gunicorn")),
        "--chdir",
        str(ROOT),
        "--pythonpath",
        f"{ROOT},{ROOT / 'benchmarks'}",
        "--workers",
        str(workers),
        "--bind",
        f"127.0.0.1:{PORT}",
        "--log-level",
        "warning",
        "--preload",
        "public_lookup:application",
    ]
    server = subprocess.Popen(command, env=env)
    for _ in range(150):
        if server.poll() is not None:
            sys.exit(f"gunicorn stopped (exit code {server.returncode}); see its messages above.")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{PORT}/bench/ping/", timeout=1) as response:
                if response.status == 200:
                    return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    sys.exit("gunicorn did not answer /bench/ping/ within 30 s.")


def sample_paths(n: int, kind: str, rng: random.Random) -> list[str]:
    paths = []
    for _ in range(SAMPLE_PATHS):
        plate = (
            demo_plate(rng.randrange(n))
            if rng.random() >= 0.05
            else f"ZZZ{rng.randrange(10)}Z{rng.randrange(100):02d}"
        )
        paths.append(
            {
                "json": f"/api/publica/v1/verificacao/?municipio={IBGE}&placa={plate}",
                "raw": f"/bench/raw/?municipio={IBGE}&placa={plate}",
                "floor": f"/bench/floor/?municipio={IBGE}&placa={plate}",
            }.get(kind, f"/consulta/?municipio={IBGE}&q={plate}")
        )
    return paths


def check_answers(n: int) -> None:
    """Before measuring: the lookup answers what it should (a known plate, an unknown one). The synthetic
    permits carry no documents, so the document standing may call a known one irregular."""
    for plate, expected in ((demo_plate(0), None), ("ZZZ9Z99", "unknown")):
        url = f"http://127.0.0.1:{PORT}/api/publica/v1/verificacao/?municipio={IBGE}&placa={plate}"
        with urllib.request.urlopen(url, timeout=5) as response:
            body = json.load(response)
        assert body["status"] in (
            {expected}
            if expected
            else {"regular", "irregular", "suspended", "expired", "revoked", "cancelled"}
        ), body


# --- load ---------------------------------------------------------------------------------------------------


def run_wrk(paths: list[str], duration: int, connections: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "paths.lua"
        table = ",\n".join(json.dumps(p) for p in paths)
        request = "request = function() return wrk.format('GET', paths[math.random(#paths)]) end\n"
        script.write_text(f"paths = {{\n{table}\n}}\nmath.randomseed({SEED})\n{request}")
        output = subprocess.run(
            [
                "wrk",
                "-t",
                "2",
                "-c",
                str(connections),
                "-d",
                f"{duration}s",
                "--latency",
                "-s",
                str(script),
                f"http://127.0.0.1:{PORT}",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    return _parse_wrk(output)


def _ms(value: str, unit: str) -> float:
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def _parse_wrk(output: str) -> dict[str, float]:
    percentile = {
        m[0]: _ms(m[1], m[2]) for m in re.findall(r"^\s+(50|99)%\s+([\d.]+)(us|ms|s)\s*$", output, re.M)
    }
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    return {
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", output)[1]),  # type: ignore[index]
        "p50_ms": percentile["50"],
        "p99_ms": percentile["99"],
        "requests": float(re.search(r"(\d+) requests in", output)[1]),  # type: ignore[index]
        "errors": float(errors[1]) if errors else 0.0,
    }


def python_client(paths: list[str], duration: int, connections: int) -> dict[str, float]:
    """The fallback load generator: threads with keep-alive connections, every latency recorded."""
    latencies: list[float] = []
    errors = [0]
    deadline = time.perf_counter() + duration
    lock = threading.Lock()

    def worker(seed: int) -> None:
        rng, conn, mine, failed = random.Random(seed), HTTPConnection("127.0.0.1", PORT, timeout=10), [], 0
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            conn.request("GET", rng.choice(paths))
            response = conn.getresponse()
            response.read()
            mine.append((time.perf_counter() - started) * 1000)
            failed += response.status >= 400 and response.status != 404
        with lock:
            latencies.extend(mine)
            errors[0] += failed

    threads = [threading.Thread(target=worker, args=(SEED + i,)) for i in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    latencies.sort()
    return {
        "rps": len(latencies) / duration,
        "p50_ms": latencies[len(latencies) // 2],
        "p99_ms": latencies[int(len(latencies) * 0.99)],
        "requests": float(len(latencies)),
        "errors": float(errors[0]),
    }


def load_in_second_process(paths: list[str], duration: int, connections: int) -> dict[str, float]:
    if shutil.which("wrk"):
        return run_wrk(paths, duration, connections) | {"tool": 0.0}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(paths, handle)
    command = [
        sys.executable,
        __file__,
        "--client",
        handle.name,
        "--duration",
        str(duration),
        "--connections",
        str(connections),
    ]
    env = {**os.environ, "BENCH_PORT": str(PORT)}
    result = json.loads(subprocess.run(command, capture_output=True, text=True, check=True, env=env).stdout)
    os.unlink(handle.name)
    return dict(result) | {"tool": 1.0}


# --- main ---------------------------------------------------------------------------------------------------


def measure(n: int, duration: int, connections: int) -> dict[str, dict[str, float]]:
    rng = random.Random(SEED)
    rounds = {
        "ping": ["/bench/ping/"],
        "raw": sample_paths(n, "raw", rng),
        "floor": sample_paths(n, "floor", rng),
        "json": sample_paths(n, "json", rng),
        "page": sample_paths(n, "page", rng),
    }
    results = {}
    for name, paths in rounds.items():
        load_in_second_process(paths, 3, connections)  # warm-up: connections, caches, query plans
        results[name] = load_in_second_process(paths, duration, connections)
    return results


def report_rows(duration: int, connections: int, rounds: int) -> None:
    """The make-bench rows: the raw SELECT view (baseline), the JSON lookup and the page, interleaved."""
    rng = random.Random(SEED)
    n = Permit.objects.filter(municipality__ibge_code=IBGE).count()
    kinds = {kind: sample_paths(n, kind, rng) for kind in ("raw", "json", "page")}
    for paths in kinds.values():
        load_in_second_process(paths, 2, connections)  # warm-up
    runs: dict[str, list[dict[str, float]]] = {kind: [] for kind in kinds}
    for _ in range(rounds):
        for kind, paths in kinds.items():
            runs[kind].append(load_in_second_process(paths, duration, connections))
    rps = {kind: statistics.median(r["rps"] for r in results) for kind, results in runs.items()}
    p99 = {kind: statistics.median(r["p99_ms"] for r in results) for kind, results in runs.items()}
    baseline = "its SELECT by hand in a bare view, same stack"
    for kind, measure, goal in (
        ("json", "public JSON lookup", 0.8),
        ("page", "public HTML lookup page", 0.5),
    ):
        emit(Row(f"{measure} (throughput)", baseline, rps["raw"], rps[kind], "req/s", goal))
    # p99 ≤ 1.5× the baseline's, as a ratio ≥ 0.67 (the baseline's p99 over Outorga's)
    emit(Row("public JSON lookup (p99 latency)", baseline, p99["raw"] / 1000, p99["json"] / 1000, "s", 0.67))


def report(n: int, results: dict[str, dict[str, float]], args: argparse.Namespace, redis_url: str) -> None:
    tool = "wrk" if results["ping"]["tool"] == 0.0 else "Python client (threads)"
    print(
        f"\n{n:,} vehicles/permits on {connection.vendor}; gunicorn {args.workers} sync workers; {tool}, "
        f"{args.connections} connections, {args.duration} s per round; {os.cpu_count()} CPUs shared; "
        f"{describe_counters(redis_url)}."
    )
    print(
        f"{'round':<6} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'requests':>9} {'errors':>7} "
        f"{'/raw':>6} {'/floor':>6}"
    )
    raw, floor = results["raw"]["rps"], results["floor"]["rps"]
    for name, r in results.items():
        print(
            f"{name:<6} {r['rps']:>9.0f} {r['p50_ms']:>8.2f} {r['p99_ms']:>8.2f} {r['requests']:>9.0f} "
            f"{r['errors']:>7.0f} {r['rps'] / raw:>6.2f} {r['rps'] / floor:>6.2f}"
        )
    print(
        "raw: the lookup's SELECT by hand (the make-bench baseline); floor: raw plus what no correct lookup can "
        "skip (the rate-limit count in the shared store, the standing's documents in one SELECT). "
        f"The floor itself runs at {floor / raw:.2f}× raw: the most the lookup can reach against raw."
    )
    municipality = Municipality.objects.get(ibge_code=IBGE)
    counted = sum(LookupCount.objects.filter(municipality=municipality).values_list("count", flat=True))
    print(f"Lookups counted by the app (warm-ups included): {counted:,}.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of 300,000 vehicles (default 1)")
    parser.add_argument("--duration", type=int, default=20, help="seconds per round (default 20)")
    parser.add_argument("--connections", type=int, default=16, help="concurrent connections (default 16)")
    parser.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 1) + 1, help="gunicorn workers")
    parser.add_argument(
        "--rounds", type=int, default=0, help="report the make-bench rows: N interleaved rounds"
    )
    parser.add_argument(
        "--counters",
        choices=("auto", "redis", "database"),
        default="auto",
        help="where the server counts rate limits: Redis when one answers (auto, the default), or the database",
    )
    parser.add_argument("--client", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client:
        print(
            json.dumps(
                python_client(json.loads(Path(args.client).read_text()), args.duration, args.connections)
            )
        )
        return
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)  # the rate limit and counters live in the cache
    n = max(1, int(FULL * args.scale))
    build(n)
    connection.close()  # the server's workers open their own
    redis_url = counters_store(args.counters)
    print(f"Server: {describe_counters(redis_url)}.")
    server = start_server(args.workers, redis_url)
    try:
        check_answers(n)
        if args.rounds:
            report_rows(args.duration, args.connections, args.rounds)
            return
        results = measure(n, args.duration, args.connections)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    report(n, results, args, redis_url)


if __name__ == "__main__":
    main()
