"""The ops app's writes (docs/architecture.md, "Where writes happen"): files published for anyone to download."""

from __future__ import annotations

import datetime as dt

from django.db import transaction

from apps.audit.services import audit_record
from apps.ops.models import PublishedFile
from apps.ops.storage import attach_after_commit, sha256_hex
from apps.tenancy.models import Municipality


def published_file_add(
    *,
    municipality: Municipality,
    key: str,
    as_of: dt.date,
    filename: str,
    content: bytes,
    content_type: str,
) -> PublishedFile:
    """Keep a new version of (municipality, key) with its audit event; the bytes reach the store after the commit."""
    with transaction.atomic():
        row = PublishedFile(
            municipality=municipality,
            key=key,
            as_of=as_of,
            sha256=sha256_hex(content),
            size=len(content),
            content_type=content_type,
        )
        attach_after_commit(row.file, filename, content)
        row.save()
        audit_record(
            actor=None,
            municipality=municipality,
            action="file.published",
            obj=row,
            after={"key": key, "as_of": as_of, "file": row.file.name, "sha256": row.sha256, "size": row.size},
        )
    return row
