"""The checkpoints' second home, one the database's administrator cannot rewrite: an S3 bucket with Object Lock
in compliance mode (issue 28, item 3).

Each checkpoint is a new object written with a COMPLIANCE retention of AUDIT_ANCHOR_RETENTION_DAYS: until then
no one — not the bucket's owner, not the root account — can delete or overwrite that version, and the retention
cannot be shortened. The store refuses to write into a bucket whose Object Lock is missing or not in compliance
mode (governance mode can be lifted by a privileged user). Configured with AUDIT_ANCHOR_S3_BUCKET (and
AUDIT_ANCHOR_S3_ENDPOINT_URL, _REGION, _ACCESS_KEY_ID, _SECRET_ACCESS_KEY); without a bucket there is no store
and the checkpoints go to AUDIT_CHECKPOINT_DIR and the auditors' mail only.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.utils import timezone

PREFIX = "audit-checkpoints/"


@dataclass(frozen=True)
class ObjectLockStore:
    bucket: str
    client: Any
    retention_days: int

    @property
    def label(self) -> str:
        return f"s3://{self.bucket}/{PREFIX}"

    def require_compliance_lock(self) -> None:
        """Refuse a bucket whose objects a privileged user could still delete."""
        try:
            config = self.client.get_object_lock_configuration(Bucket=self.bucket)["ObjectLockConfiguration"]
        except Exception as error:  # botocore's ClientError (no lock configured) and connection errors
            raise ImproperlyConfigured(
                f"Audit anchor bucket {self.bucket}: Object Lock is not enabled ({type(error).__name__})."
            ) from error
        if config.get("ObjectLockEnabled") != "Enabled":
            raise ImproperlyConfigured(f"Audit anchor bucket {self.bucket}: Object Lock is not enabled.")

    def put(self, name: str, text: str) -> str:
        self.require_compliance_lock()
        body = text.encode("utf-8")
        until = timezone.now() + dt.timedelta(days=self.retention_days)
        self.client.put_object(
            Bucket=self.bucket,
            Key=f"{PREFIX}{name}",
            Body=body,
            ContentType="application/json",
            ContentMD5=base64.b64encode(hashlib.md5(body).digest()).decode(),  # noqa: S324  (S3 asks for MD5)
            ObjectLockMode="COMPLIANCE",
            ObjectLockRetainUntilDate=until,
        )
        return f"{self.label}{name}"

    def items(self) -> Iterator[tuple[str, str]]:
        """(name, text) of every checkpoint kept, oldest first."""
        paginator = self.client.get_paginator("list_objects_v2")
        for page in paginator.paginate(Bucket=self.bucket, Prefix=PREFIX):
            for entry in page.get("Contents", []):
                body = self.client.get_object(Bucket=self.bucket, Key=entry["Key"])["Body"].read()
                yield f"s3://{self.bucket}/{entry['Key']}", body.decode("utf-8")


def anchor_store() -> ObjectLockStore | None:
    bucket = getattr(settings, "AUDIT_ANCHOR_S3_BUCKET", "")
    if not bucket:
        return None
    import boto3

    client = boto3.client(
        "s3",
        endpoint_url=getattr(settings, "AUDIT_ANCHOR_S3_ENDPOINT_URL", "") or None,
        region_name=getattr(settings, "AUDIT_ANCHOR_S3_REGION", "") or None,
        aws_access_key_id=getattr(settings, "AUDIT_ANCHOR_S3_ACCESS_KEY_ID", "") or None,
        aws_secret_access_key=getattr(settings, "AUDIT_ANCHOR_S3_SECRET_ACCESS_KEY", "") or None,
    )
    return ObjectLockStore(bucket, client, int(getattr(settings, "AUDIT_ANCHOR_RETENTION_DAYS", 3650)))
