"""Audit anchoring (issue 28, item 3): the minute's checkpoint leaves no hour-long window for deleting the newest
events, a copy of it sits in an S3 bucket under Object Lock in compliance mode (tested on the local S3 server),
and keyless events are refused wherever the keyed scheme is configured, whatever the checkpoints say."""

from __future__ import annotations

import datetime as dt
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.db import transaction

from apps.audit.models import AuditEvent
from apps.audit.services import audit_record
from apps.audit.tests.tampering import rehash_from, run, tamper
from apps.jobs.schedule import SCHEDULE, Every

pytestmark = pytest.mark.django_db
TABLE = AuditEvent._meta.db_table


def _record(n: int) -> list[AuditEvent]:
    events = []
    for i in range(n):
        with transaction.atomic():
            events.append(
                audit_record(
                    actor=None, municipality=None, action="test.anchor", object_type="x.y", object_id=str(i)
                )
            )
    return events


@pytest.fixture
def checkpoints(settings: Any, tmp_path: Path) -> Path:
    settings.AUDIT_CHECKPOINT_DIR = tmp_path / "checkpoints"
    settings.AUDIT_CHECKPOINT_RECIPIENTS = []
    return Path(settings.AUDIT_CHECKPOINT_DIR)


@pytest.fixture(autouse=True)
def _fresh_process_memory() -> None:
    from apps.audit.management.commands import audit_anchor

    audit_anchor._last_heads.clear()


def test_the_scheduler_anchors_every_minute() -> None:
    jobs = {job.name: job for job in SCHEDULE}
    continuous = jobs["audit_anchor_continuous"]
    assert continuous.command == ("audit_anchor", "--continuous") and continuous.when == Every(1)


def test_deleting_the_newest_events_after_the_minutes_checkpoint_is_detected(checkpoints: Path) -> None:
    _record(3)
    assert run("audit_anchor")[1]  # the hourly one
    newest = _record(2)
    output, ok = run("audit_anchor", "--continuous")  # a minute later
    assert ok, output
    assert run("audit_anchor", "--continuous")[0].strip() == "Nothing new to anchor."
    tamper(f"DELETE FROM {TABLE} WHERE id IN (%s, %s)", [newest[0].pk, newest[1].pk])
    output, ok = run("audit_verify")
    assert not ok and "events missing" in output


def test_a_chain_rewritten_keyless_fails_without_any_checkpoint(checkpoints: Path) -> None:
    _record(3)
    rehash_from("global", 1, keyless=True)  # the forger has no key: plain SHA-256 all along
    output, ok = run("audit_verify")
    assert not ok and "keyless hash where a keyed scheme is configured" in output


@pytest.fixture
def locked_bucket(settings: Any, s3_endpoint: str) -> Any:
    import boto3

    bucket = f"outorga-anchor-{uuid.uuid4().hex[:12]}"
    client = boto3.client(
        "s3",
        endpoint_url=s3_endpoint,
        region_name="us-east-1",
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )
    client.create_bucket(Bucket=bucket, ObjectLockEnabledForBucket=True)
    client.put_object_lock_configuration(
        Bucket=bucket,
        ObjectLockConfiguration={
            "ObjectLockEnabled": "Enabled",
            "Rule": {"DefaultRetention": {"Mode": "COMPLIANCE", "Days": 1}},
        },
    )
    settings.AUDIT_ANCHOR_S3_BUCKET = bucket
    settings.AUDIT_ANCHOR_S3_ENDPOINT_URL = s3_endpoint
    settings.AUDIT_ANCHOR_S3_REGION = "us-east-1"
    settings.AUDIT_ANCHOR_S3_ACCESS_KEY_ID = settings.AUDIT_ANCHOR_S3_SECRET_ACCESS_KEY = "testing"
    return client, bucket


def test_the_minutes_checkpoint_goes_to_the_locked_bucket_and_catches_a_deleted_tail(
    checkpoints: Path, locked_bucket: Any
) -> None:
    client, bucket = locked_bucket
    events = _record(3)
    output, ok = run("audit_anchor", "--continuous")
    assert ok, output
    assert not checkpoints.exists() or not list(checkpoints.iterdir())  # only in the bucket
    (kept,) = client.list_object_versions(Bucket=bucket)["Versions"]
    head = client.head_object(Bucket=bucket, Key=kept["Key"])
    assert head["ObjectLockMode"] == "COMPLIANCE"
    assert head["ObjectLockRetainUntilDate"] > dt.datetime.now(dt.UTC) + dt.timedelta(days=3000)
    with pytest.raises(Exception, match="AccessDenied"):  # not even the bucket's owner deletes it
        client.delete_object(Bucket=bucket, Key=kept["Key"], VersionId=kept["VersionId"])

    tamper(f"DELETE FROM {TABLE} WHERE id = %s", [events[-1].pk])
    output, ok = run("audit_verify")  # no checkpoint file in the directory: the bucket's copy speaks
    assert not ok and "events missing" in output and f"s3://{bucket}/" in output


def test_a_bucket_without_object_lock_is_refused(checkpoints: Path, settings: Any, s3_endpoint: str) -> None:
    import boto3

    bucket = f"outorga-plain-{uuid.uuid4().hex[:12]}"
    boto3.client(
        "s3",
        endpoint_url=s3_endpoint,
        region_name="us-east-1",
        aws_access_key_id="t",
        aws_secret_access_key="t",
    ).create_bucket(Bucket=bucket)
    settings.AUDIT_ANCHOR_S3_BUCKET = bucket
    settings.AUDIT_ANCHOR_S3_ENDPOINT_URL = s3_endpoint
    settings.AUDIT_ANCHOR_S3_REGION = "us-east-1"
    settings.AUDIT_ANCHOR_S3_ACCESS_KEY_ID = settings.AUDIT_ANCHOR_S3_SECRET_ACCESS_KEY = "testing"
    _record(1)
    with pytest.raises(Exception, match="Object Lock is not enabled"):
        run("audit_anchor", "--continuous")
