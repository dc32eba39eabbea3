"""More than one machine: two app servers and two task workers against one PostgreSQL, under load.

Two gunicorn servers (each its own process group, on free 127.0.0.1 ports) and two ``manage.py db_worker``
processes share the test database. Client threads hammer the public lookup (JSON and HTML, on both servers)
while the daily sweep runs as tasks: queued by two schedulers ticking at the same instant, the same run's task
delivered twice, and a second run of the sweep queued beside it. The test then asserts that nothing was lost
or duplicated: every answer is a 200 with one of the two truthful contents (before or after the sweep) or a
429 exactly where the shared rate limit says so; the sweep's changes, audit events and e-mails exist once; the
lookup and request counters of the four web processes add up to what the clients saw; the audit chains verify.

The throughput line it prints (``-s``) is the figure quoted in docs/scaling.md. Runs with PostgreSQL
(``make test-pg``); skipped on SQLite.
"""

from __future__ import annotations

import datetime as dt
import functools
import io
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import caches
from django.core.management import call_command
from django.db import connection, connections
from django.db.models import Count, Sum
from django.utils import timezone

from apps.public.tests.conftest import issue_permit

ROOT = Path(__file__).resolve().parent.parent
pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

RATE_LIMIT = 30  # per client address and window, shared by every server through the database cache
RATE_WINDOW = 3600
CLIENTS = 6  # well-behaved clients, each under the limit
CLIENT_REQUESTS = 24
GREEDY_REQUESTS = 50  # one client asks more than its share: exactly RATE_LIMIT answers, then 429s
GREEDY = "10.0.0.99"
LOAD_SECONDS_MAX = 40


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Cluster:
    web: list[str]  # base URLs of the two app servers
    logs: Path
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    def stop_all(self) -> None:
        """SIGTERM to each process group at once: gunicorn's workers finish their request and flush their
        counters at exit, the task workers finish their task."""
        for process in self.processes.values():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes.values():
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)


def child_env(media: Path) -> dict[str, str]:
    """This run's settings for the children, pointed at the test database (the one pytest-django made)."""
    database = connection.settings_dict
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DATABASE", "PYTEST"))}
    env.update(
        DATABASE_URL=f"postgresql://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}",
        DJANGO_SETTINGS_MODULE="outorga.settings",
        MEDIA_ROOT=str(media),
        PUBLIC_RATE_LIMIT=str(RATE_LIMIT),
        PUBLIC_RATE_WINDOW=str(RATE_WINDOW),
        PUBLIC_CLIENT_IP_META="HTTP_X_REAL_IP",  # each client thread is its own address
        PUBLIC_COUNT_FLUSH_SECONDS="2",  # the batched path production runs, not write-through
        OPS_COUNTER_FLUSH_SECONDS="2",
        EMAIL_BACKEND="django.core.mail.backends.console.EmailBackend",  # sent mail lands in the worker log
        LOG_FORMAT="json",
    )
    return env


@pytest.fixture
def cluster(tmp_path: Path, settings: Any) -> Iterator[Cluster]:
    if connection.vendor != "postgresql":
        pytest.skip("the scale-out load test runs with PostgreSQL (make test-pg)")
    settings.MEDIA_ROOT = tmp_path / "media"
    env = child_env(tmp_path / "media")
    ports = [free_port(), free_port()]
    running = Cluster([f"http://127.0.0.1:{port}" for port in ports], tmp_path)
    commands = {
        **{
            f"web{n}": [
                str(ROOT / ".venv/bin/gunicorn"),
                "outorga.wsgi:application",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                "2",
                "--preload",  # one Django start per server, forked into its workers
                "--worker-class",
                "sync",
                "--timeout",
                "60",
            ]
            for n, port in enumerate(ports, 1)
        },
        **{
            f"worker{n}": [sys.executable, "manage.py", "db_worker", "--no-reload", "--interval", "0.2"]
            for n in (1, 2)
        },
    }
    try:
        for name, command in commands.items():
            with (tmp_path / f"{name}.log").open("wb") as log:
                running.processes[name] = subprocess.Popen(
                    command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
                )
        yield running
    finally:
        running.stop_all()


# --- the clients ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    kind: str  # "json" or "html"
    target: str
    status: int
    content: str  # the verdict: the JSON results, or the HTML verdict articles


VERDICT = re.compile(r'<article class="outorga-verdict.*?</article>', re.S)


def ask(base: str, kind: str, target: tuple[str, str], address: str) -> Answer:
    ibge, plate = target
    path = (
        f"/api/publica/v1/verificacao/?municipio={ibge}&placa={plate}"
        if kind == "json"
        else f"/consulta/?q={plate}"
    )
    request = urllib.request.Request(base + path, headers={"X-Real-IP": address})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 (a local URL)
            status, body = response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        status, body = error.code, error.read().decode()
    if status != 200:
        return Answer(kind, plate, status, _refusal(kind, body))
    if kind == "json":
        return Answer(kind, plate, status, json.dumps(json.loads(body)["results"], sort_keys=True))
    return Answer(kind, plate, status, "\n".join(VERDICT.findall(body)))


def _refusal(kind: str, body: str) -> str:
    if kind == "json":
        return str(json.loads(body).get("error", {}).get("code", ""))
    return "rate_limited" if "Muitas consultas" in body or "aguarde" in body.lower() else body[:200]


@dataclass
class Load:
    answers: dict[str, list[Answer]] = field(default_factory=dict)
    seconds: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, address: str, answer: Answer) -> None:
        with self.lock:
            self.answers.setdefault(address, []).append(answer)

    def all(self) -> list[Answer]:
        return [answer for answers in self.answers.values() for answer in answers]


def hammer(running: Cluster, targets: list[tuple[str, str]], sweep_done: Callable[[], bool]) -> Load:
    """Well-behaved clients until the sweep is over (bounded), plus one greedy client, on both servers."""
    load = Load()
    deadline = time.monotonic() + LOAD_SECONDS_MAX

    def client(number: int) -> None:
        address = f"10.0.0.{number}"
        done = 0
        while done < CLIENT_REQUESTS and (done < CLIENT_REQUESTS // 2 or not sweep_done()):
            if time.monotonic() > deadline:
                break
            kind = "json" if done % 2 else "html"
            load.record(address, ask(running.web[done % 2], kind, targets[done % len(targets)], address))
            done += 1

    def greedy() -> None:
        for n in range(GREEDY_REQUESTS):
            load.record(GREEDY, ask(running.web[n % 2], "json", targets[0], GREEDY))

    threads = [threading.Thread(target=client, args=(n,)) for n in range(1, CLIENTS + 1)]
    threads.append(threading.Thread(target=greedy))
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=LOAD_SECONDS_MAX + 30)
    load.seconds = time.monotonic() - started
    return load


# --- setting the scene ---------------------------------------------------------------------------------------


def wait_for(check: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise AssertionError(f"timed out waiting for {what}")


def answering(base: str) -> bool:
    with urllib.request.urlopen(f"{base}/saude/vivo/", timeout=5) as response:  # noqa: S310
        return bool(response.status == 200)


@dataclass(frozen=True)
class Scene:
    lapsing: Any  # past its validity: the sweep expires it
    ending: Any  # ends in five days: the sweep sends one reminder
    steady: Any  # nothing for the sweep to do

    @property
    def targets(self) -> list[tuple[str, str]]:
        return [(p.municipality.ibge_code, p.vehicle.plate) for p in (self.lapsing, self.ending, self.steady)]


def scene_with_sweep_work(municipality: Any, today: dt.date) -> Scene:
    from apps.licensing.casebook import pf_case
    from apps.licensing.models import Permit

    names = ("Ana Lapso", "Bruno Aviso", "Clara Firme")
    permits = [
        issue_permit(pf_case(municipality, 61 + n, name, as_of=today), today) for n, name in enumerate(names)
    ]
    lapsing, ending, steady = permits
    Permit.objects.filter(pk=lapsing.pk).update(
        valid_from=today - dt.timedelta(days=365), valid_until=today - dt.timedelta(days=1)
    )
    Permit.objects.filter(pk=ending.pk).update(valid_until=today + dt.timedelta(days=5))
    return Scene(lapsing, ending, steady)


def tick_twice_at_once(now: dt.datetime) -> None:
    """Two schedulers (one per machine) reach the same minute together."""
    from apps.jobs.services import schedule_tick

    barrier = threading.Barrier(2)

    def scheduler() -> None:
        try:
            barrier.wait(timeout=10)
            schedule_tick(now=now)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=scheduler) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)


def tasks_settled() -> bool:
    from django_tasks.base import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    busy = (TaskResultStatus.READY, TaskResultStatus.RUNNING)
    return not DBTaskResult.objects.filter(status__in=busy).exists()


# --- the test ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Baseline:
    """What the audit, the outbox and the lookups looked like before the load."""

    last_event: int
    mails: int
    before: dict[tuple[str, str], Answer]


def truthful_answers(running: Cluster, server: int, targets: list[tuple[str, str]], address: str) -> Any:
    return {
        (kind, plate): ask(running.web[server], kind, (ibge, plate), address)
        for ibge, plate in targets
        for kind in ("json", "html")
    }


def queue_the_sweep_racing(today: dt.date, done: threading.Event) -> None:
    """Two schedulers tick at once; the run's task is delivered twice; a second run is queued beside it."""
    from apps.jobs.choices import RunStatus
    from apps.jobs.models import JobRun
    from apps.jobs.tasks import run_scheduled_job

    try:
        time.sleep(1.0)  # the clients are under way
        tick_twice_at_once(timezone.make_aware(dt.datetime.combine(today, dt.time(1, 30))))
        run = JobRun.objects.get(job="daily_sweep", slot=today.isoformat())
        run_scheduled_job.enqueue(run.pk)
        again = JobRun.objects.create(job="daily_sweep", slot=f"{today.isoformat()}-again")
        run_scheduled_job.enqueue(again.pk)
        busy = JobRun.objects.filter(status__in=[RunStatus.QUEUED, RunStatus.RUNNING])
        wait_for(lambda: not busy.exists() and tasks_settled(), 60, "the sweep runs")
    finally:
        done.set()
        connections.close_all()


def test_two_servers_and_two_workers_lose_and_duplicate_nothing(
    cluster: Cluster, settings: Any, olimpia: Any
) -> None:
    from apps.audit.models import AuditEvent
    from apps.jobs.models import OutboundMail
    from apps.jobs.schedule import SCHEDULE

    today = timezone.localdate()
    scene = scene_with_sweep_work(olimpia, today)
    caches["default"].clear()  # the rate-limit counters of an earlier run on a reused database
    settings.OUTORGA_JOBS_DISABLED = [job.name for job in SCHEDULE if job.name != "daily_sweep"]
    for base in cluster.web:
        wait_for(functools.partial(answering, base), 90, f"{base} to answer")
    baseline = Baseline(
        last_event=AuditEvent.objects.order_by("-pk").values_list("pk", flat=True).first() or 0,
        mails=OutboundMail.objects.count(),
        before=truthful_answers(cluster, 0, scene.targets, "10.1.0.1"),
    )
    swept = threading.Event()
    queuer = threading.Thread(target=queue_the_sweep_racing, args=(today, swept))
    queuer.start()
    load = hammer(cluster, scene.targets, swept.is_set)
    queuer.join(timeout=90)
    wait_for(tasks_settled, 60, "the mail delivery tasks")
    after = truthful_answers(cluster, 1, scene.targets, "10.1.0.2")
    cluster.stop_all()

    answers = load.all()
    print(
        f"\nscale-out load: {len(answers)} lookups in {load.seconds:.1f} s = {len(answers) / load.seconds:.1f}/s "
        f"on 2 servers x 2 gunicorn workers + 2 task workers; statuses {dict(Counter(a.status for a in answers))}"
    )
    _answers_are_truthful(load, baseline.before, after)
    _the_sweep_applied_once(scene, baseline, today)
    _mail_sent_once(cluster, scene, baseline)
    _counters_match(answers, len(baseline.before) + len(after))
    call_command("audit_verify", stdout=io.StringIO())


def _answers_are_truthful(load: Load, before: dict[Any, Answer], after: dict[Any, Answer]) -> None:
    """200 with the answer of before or after the sweep, or 429 where the shared limit says; nothing else."""
    for answer in load.all():
        if answer.status == 200:
            key = (answer.kind, answer.target)
            assert answer.content in {before[key].content, after[key].content}, answer
        else:
            assert (answer.status, answer.content) == (429, "rate_limited"), answer
    well_behaved = [a for address, got in load.answers.items() if address != GREEDY for a in got]
    assert {a.status for a in well_behaved} == {200}
    allowed = Counter(answer.status for answer in load.answers[GREEDY])[200]
    assert allowed == RATE_LIMIT or (allowed <= 2 * RATE_LIMIT and _crossed_a_window(load))


def _the_sweep_applied_once(scene: Scene, baseline: Baseline, today: dt.date) -> None:
    """One run per slot; the run that got the lease did the work, the other none; every change audited once."""
    from apps.audit.models import AuditEvent
    from apps.jobs.choices import RunStatus
    from apps.jobs.models import JobRun
    from apps.licensing.models import Permit, Reminder

    assert Permit.objects.get(pk=scene.lapsing.pk).state == "expired"
    assert Reminder.objects.filter(target="permit", target_id=scene.ending.pk).count() == 1
    runs = {run.slot: run for run in JobRun.objects.filter(job="daily_sweep")}
    assert set(runs) == {today.isoformat(), f"{today.isoformat()}-again"}
    statuses = sorted(run.status for run in runs.values())
    assert statuses in ([RunStatus.DONE, RunStatus.DONE], [RunStatus.DONE, RunStatus.SKIPPED]), statuses
    events = AuditEvent.objects.filter(pk__gt=baseline.last_event)
    started = events.filter(action="jobs.run_started", object_id__in=[str(run.pk) for run in runs.values()])
    starts = Counter(started.values_list("object_id", flat=True))
    assert starts == Counter({str(run.pk): 1 for run in runs.values() if run.status == RunStatus.DONE})
    repeated = (
        events.exclude(action__startswith="jobs.")
        .values("action", "object_type", "object_id")
        .annotate(times=Count("pk"))
        .filter(times__gt=1)
    )
    assert list(repeated) == []
    assert events.filter(action="permit.validity_ended", object_id=str(scene.lapsing.pk)).count() == 1


def _mail_sent_once(running: Cluster, scene: Scene, baseline: Baseline) -> None:
    """Each reminder queued once and sent once (the console backend writes what it sends to a worker's log)."""
    from apps.jobs.choices import MailStatus
    from apps.jobs.models import OutboundMail

    mails = list(OutboundMail.objects.order_by("pk"))[baseline.mails :]
    assert mails and {mail.status for mail in mails} == {MailStatus.SENT}
    assert len({(m.recipient, m.subject, m.body) for m in mails}) == len(mails)
    assert [m.recipient for m in mails].count(scene.ending.operator.person.email) == 1
    logs = (running.logs / f"worker{n}.log" for n in (1, 2))
    assert sum(log.read_text(errors="replace").count("\nMessage-ID: ") for log in logs) == len(mails)


def _crossed_a_window(load: Load) -> bool:
    return int(time.time() // RATE_WINDOW) != int((time.time() - load.seconds) // RATE_WINDOW)


def _counters_match(answers: list[Answer], baseline_lookups: int) -> None:
    """The four web processes' lookup and request counters add up to what the clients saw (none lost)."""
    from apps.ops.middleware import REQUESTS
    from apps.ops.models import MetricSeries
    from apps.public.choices import LookupResult
    from apps.public.models import LookupCount

    asked = len(answers) + baseline_lookups
    limited = sum(1 for answer in answers if answer.status == 429)
    counted = LookupCount.objects.aggregate(total=Sum("count"))["total"]
    counted_limited = LookupCount.objects.filter(result=LookupResult.LIMITED).aggregate(total=Sum("count"))
    assert (counted, counted_limited["total"] or 0) == (asked, limited)
    by_status: Counter[str] = Counter()
    for series in MetricSeries.objects.filter(name=REQUESTS):
        route = re.search(r'route="([^"]+)"', series.labels)
        status = re.search(r'status="(\d+)"', series.labels)
        if route and status and route[1] in ("public:search", "public:verify-json"):
            by_status[status[1]] += int(series.value)
    assert by_status == Counter({"200": asked - limited, "429": limited})
