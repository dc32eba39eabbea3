"""The shipped schedule: each slot queued once, runs under a lease, executed by the real database worker."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any
from unittest import mock
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.utils import timezone

from apps.jobs.choices import RunStatus
from apps.jobs.models import JobLease, JobRun
from apps.jobs.schedule import SCHEDULE, Daily, Every
from apps.jobs.services import job_run_execute, schedule_tick

pytestmark = pytest.mark.django_db
BRT = ZoneInfo("America/Sao_Paulo")


def at(hour: int, minute: int = 0, day: int = 1) -> dt.datetime:
    return dt.datetime(2026, 12, day, hour, minute, tzinfo=BRT)


def test_a_daily_job_has_todays_slot_only_after_its_time() -> None:
    daily = Daily(dt.time(1, 0))
    assert daily.slot(at(0, 59)) is None
    assert daily.slot(at(1, 0)) == daily.slot(at(23, 0)) == "2026-12-01"


def test_an_interval_job_has_one_slot_per_interval() -> None:
    every = Every(5)
    assert every.slot(at(10, 0)) == every.slot(at(10, 4)) == "2026-12-01T10:00"
    assert every.slot(at(10, 5)) == "2026-12-01T10:05"


def test_each_slot_is_queued_once_however_many_schedulers_tick() -> None:
    first = schedule_tick(now=at(5, 0))
    assert {run.job for run in first} == {job.name for job in SCHEDULE}
    assert schedule_tick(now=at(5, 0)) == []
    assert {run.job for run in schedule_tick(now=at(5, 1))} == {"mail_outbox", "audit_anchor_continuous"}


def test_a_deployment_can_switch_a_job_off(settings: Any) -> None:
    settings.OUTORGA_JOBS_DISABLED = ["open_data", "platform_webhooks"]
    queued = {run.job for run in schedule_tick(now=at(5, 0))}
    assert "open_data" not in queued and "daily_sweep" in queued


def test_a_run_records_the_commands_output() -> None:
    run = JobRun.objects.create(job="mail_outbox", slot="x")
    done = job_run_execute(run_id=run.pk)
    assert done.status == RunStatus.DONE and "Enviados: 0" in done.output
    assert done.started_at is not None and done.finished_at is not None


def test_a_run_delivered_twice_runs_once() -> None:
    run = JobRun.objects.create(job="mail_outbox", slot="x")
    first = job_run_execute(run_id=run.pk)
    with mock.patch("apps.jobs.services.call_command") as command:
        again = job_run_execute(run_id=run.pk)  # the task queue handed the same run to a second worker
    command.assert_not_called()
    assert (again.status, again.finished_at) == (RunStatus.DONE, first.finished_at)


def test_two_runs_of_one_job_never_overlap() -> None:
    JobLease.objects.create(
        name="mail_outbox", holder="another-worker", expires_at=timezone.now() + dt.timedelta(minutes=5)
    )
    run = JobRun.objects.create(job="mail_outbox", slot="x")
    assert job_run_execute(run_id=run.pk).status == RunStatus.SKIPPED


def test_a_failing_command_is_recorded_as_failed_and_raised_to_the_worker() -> None:
    run = JobRun.objects.create(job="audit_verify", slot="x")
    broken = CommandError("audit chain verification FAILED")
    with mock.patch("apps.jobs.services.call_command", side_effect=broken), pytest.raises(CommandError):
        job_run_execute(run_id=run.pk)
    run.refresh_from_db()
    assert run.status == RunStatus.FAILED and "verification FAILED" in run.output
    assert JobLease.objects.get(name="audit_verify").holder == ""  # the lease is released for the next run


@pytest.mark.django_db(transaction=True)
def test_the_database_worker_runs_what_the_scheduler_queued() -> None:
    schedule_tick(now=timezone.now().replace(hour=23))
    call_command(
        "db_worker", "--batch", "--no-startup-delay", "--no-reload", "--interval", "0.1", verbosity=0
    )
    runs = {run.job: run.status for run in JobRun.objects.all()}
    assert runs["mail_outbox"] == RunStatus.DONE
    assert runs["daily_sweep"] == RunStatus.DONE
    assert runs["audit_verify"] == RunStatus.DONE


def test_the_readme_lists_every_scheduled_job_with_its_command() -> None:
    """The README's table is what an IT team reads to run the jobs: it must name each job and its command."""
    readme = (Path(settings.BASE_DIR) / "README.md").read_text(encoding="utf-8")
    cells = [line.split("|")[1:-1] for line in readme.splitlines() if line.startswith("| `")]
    commands = {row[0].strip(" `"): row[2].strip(" `") for row in cells if len(row) == 4}
    for job in SCHEDULE:
        assert commands.get(job.name) == " ".join(job.command), (
            f"README.md: no row or wrong command for {job.name}"
        )
