"""The files of the rows (uploads and generated PDFs), through Django's storage API: local disk or S3.

Three promises, kept here for every app that stores a file:

- **Written only after the commit.** A row gets its file name inside the transaction; the bytes go to the
  storage in ``transaction.on_commit``. A transaction that rolls back (a refusal after the upload, a failed
  audit, an outer rollback) therefore leaves no object behind, on disk or in the bucket.
- **Never lost to a store that is down.** The bytes are kept in the database in the same transaction (a
  PendingFile) and deleted only when the store has them; a failed write is retried with backoff by the task
  worker (apps.ops.pending). Until then the file is served as «ainda em gravação», not as missing.
- **Served only through the permission gate, checked against the SHA-256 kept on the row.** The view finds
  the row through ``for_user`` first; this module then refuses a file whose content no longer matches its
  hash (or that is gone) and records the refusal in the audit chain. Local files are streamed by Django; S3
  objects are handed out as a signed URL that expires in ``STORAGE_S3_URL_SECONDS``.
"""

from __future__ import annotations

import base64
import hashlib
import logging
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, TypeGuard

from django.core.files.storage import Storage
from django.db import models, transaction
from django.db.models.fields.files import FieldFile
from django.http import FileResponse, HttpRequest, HttpResponse, HttpResponseRedirect
from django.http.response import HttpResponseBase
from django.shortcuts import render

from apps.audit.services import audit_record
from apps.ops.models import PendingFile
from apps.ops.pending import field_label, is_pending, pending_file_keep
from apps.tenancy.models import Municipality

if TYPE_CHECKING:
    from storages.backends.s3 import S3Storage

logger = logging.getLogger("outorga.storage")

CHUNK_BYTES = 64 * 1024
FILE_TAMPERED = "file.tampered"
FILE_MISSING = "file.missing"


def sha256_hex(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


def attach_after_commit(fieldfile: FieldFile, filename: str, content: bytes) -> str:
    """Name the row's file now (the caller saves the row) and write ``content`` once the transaction commits.

    The name comes from the field's ``upload_to``, so it is final before the row is saved; nothing reaches
    the storage if the transaction rolls back. The bytes are kept in the same transaction (a PendingFile), so
    a store that fails after the commit delays the file instead of losing it (apps.ops.pending).
    """
    field, instance = fieldfile.field, fieldfile.instance
    name = field.generate_filename(instance, filename)
    setattr(instance, field.attname, name)
    pending_file_keep(field=field, name=name, content=content, municipality_id=_municipality_id(instance))
    return name


def _municipality_id(instance: models.Model) -> int | None:
    """The row's municipality through the lookup path its queryset's gate uses (``case__municipality``)."""
    path = getattr(type(instance)._default_manager.get_queryset(), "municipality_field", "municipality")
    *parents, last = path.split("__")
    target: Any = instance
    for part in parents:
        target = getattr(target, part, None)
    return getattr(target, f"{last}_id", None)


# --- which column keeps each file's hash ---------------------------------------------------------------


def hash_field_name(field: models.FileField) -> str:
    """The column with the file's SHA-256: ``<field>_sha256`` (e.g. ``pdf_sha256``) or the row's ``sha256``."""
    names = {f.name for f in field.model._meta.get_fields()}
    for candidate in (f"{field.name}_sha256", "sha256"):
        if candidate in names:
            return candidate
    raise LookupError(
        f"{field.model._meta.label}.{field.name} keeps no SHA-256 ({field.name}_sha256 or sha256)"
    )


def hashed_file_fields() -> list[models.FileField]:
    """Every file field of every installed model (each must keep a hash: ``hash_field_name`` raises if not)."""
    from django.apps import apps

    return [
        field
        for model in apps.get_models()
        for field in model._meta.get_fields()
        if isinstance(field, models.FileField)
    ]


@dataclass(frozen=True)
class Problem:
    label: str
    pk: Any
    name: str
    missing: bool
    pending: bool = False  # committed, still waiting in the database for the store (apps.ops.pending)


def verify_all() -> tuple[int, list[Problem]]:
    """(files checked, files missing, not matching their hash or still pending), for storage_verify and the
    restore test."""
    checked, problems = 0, []
    for field in hashed_file_fields():
        hash_name = hash_field_name(field)
        pending = set(PendingFile.objects.filter(field=field_label(field)).values_list("name", flat=True))
        rows = field.model._default_manager.exclude(**{field.name: ""}).only("pk", field.name, hash_name)
        for row in rows.iterator():
            fieldfile = getattr(row, field.name)
            checked += 1
            if fieldfile.name in pending:
                problems.append(Problem(field.model._meta.label_lower, row.pk, fieldfile.name, False, True))
                continue
            verdict = verify(fieldfile, getattr(row, hash_name))
            if not verdict.ok:
                problems.append(
                    Problem(field.model._meta.label_lower, row.pk, fieldfile.name, verdict.missing)
                )
    return checked, problems


# --- reading: the hash check and the response -------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    ok: bool
    found_sha256: str  # "" when the file is missing

    @property
    def missing(self) -> bool:
        return not self.ok and not self.found_sha256


def verify(fieldfile: FieldFile, expected_sha256: str) -> Verdict:
    """Whether the stored file still has the SHA-256 recorded when it was written."""
    if not fieldfile.name:
        return Verdict(False, "")
    storage = fieldfile.storage
    reported = _s3_reported_sha256(storage, fieldfile.name)
    found = reported if reported is not None else _stream_sha256(storage, fieldfile.name)
    return Verdict(found == expected_sha256, found)


def _stream_sha256(storage: Storage, name: str) -> str:
    digest = hashlib.sha256()
    try:
        with storage.open(name, "rb") as handle:
            for chunk in iter(partial(handle.read, CHUNK_BYTES), b""):
                digest.update(chunk)
    except OSError:  # gone or unreadable on the local disk
        return ""
    except Exception as error:  # S3: a missing key is a botocore ClientError (404), not an OSError
        if _is_not_found(error):
            return ""
        raise
    return digest.hexdigest()


def _s3_reported_sha256(storage: Storage, name: str) -> str | None:
    """The object's SHA-256 as S3 computed it on upload (no download), or None to fall back to reading it.

    S3 (and MinIO, Ceph, moto) validates the checksum sent with the PUT, so an object replaced behind our
    back reports the checksum of its new content; a multipart ("-N") or absent checksum proves nothing.
    """
    if not is_s3(storage):
        return None
    from storages.utils import clean_name

    try:
        head = storage.connection.meta.client.head_object(
            Bucket=storage.bucket_name,
            Key=storage._normalize_name(clean_name(name)),
            ChecksumMode="ENABLED",
        )
    except Exception as error:
        if _is_not_found(error):
            return ""
        raise
    checksum = head.get("ChecksumSHA256") or ""
    if not checksum or "-" in checksum or head.get("ChecksumType", "FULL_OBJECT") != "FULL_OBJECT":
        return None
    return base64.b64decode(checksum).hex()


def _is_not_found(error: Exception) -> bool:
    response = getattr(error, "response", None) or {}
    return str(response.get("Error", {}).get("Code", "")) in {"404", "NoSuchKey", "NotFound"}


def is_s3(storage: Storage) -> TypeGuard[S3Storage]:
    from storages.backends.s3 import S3Storage

    return isinstance(storage, S3Storage)


def stored_file_response(
    request: HttpRequest,
    *,
    row: models.Model,
    fieldfile: FieldFile,
    sha256: str,
    municipality: Municipality,
    content_type: str,
    filename: str = "",
    as_attachment: bool = False,
) -> HttpResponseBase:
    """The file of a row the caller already found through the permission gate.

    A file that fails its hash check (or is gone) is refused with a page in Portuguese and an audit event;
    a good one is streamed (local disk) or handed out as a short-lived signed URL (S3). A file committed but
    not yet in the store is answered as such (503, «ainda em gravação»), never as missing.
    """
    if is_pending(fieldfile.field, str(fieldfile.name)):
        response = render(request, "ops/file_pending.html", status=503)
        response["Retry-After"] = "60"
        return response
    verdict = verify(fieldfile, sha256)
    if not verdict.ok:
        return _refuse(request, row, fieldfile, sha256, verdict, municipality)
    if is_s3(fieldfile.storage):
        return _signed_redirect(fieldfile.storage, str(fieldfile.name), content_type, filename, as_attachment)
    return FileResponse(
        fieldfile.open("rb"), content_type=content_type, filename=filename, as_attachment=as_attachment
    )


def _signed_redirect(
    storage: S3Storage, name: str, content_type: str, filename: str, as_attachment: bool
) -> HttpResponseRedirect:
    disposition = "attachment" if as_attachment else "inline"
    parameters = {
        "ResponseContentType": content_type,
        "ResponseContentDisposition": f'{disposition}; filename="{filename}"' if filename else disposition,
    }
    url = storage.url(name, parameters=parameters)
    response = HttpResponseRedirect(url)
    response["Cache-Control"] = "no-store"  # the signed URL is a short-lived credential
    return response


def _refuse(
    request: HttpRequest,
    row: models.Model,
    fieldfile: FieldFile,
    sha256: str,
    verdict: Verdict,
    municipality: Municipality,
) -> HttpResponse:
    action = FILE_MISSING if verdict.missing else FILE_TAMPERED
    logger.error("Refused %s of %s %s: %s", fieldfile.name, row._meta.label_lower, row.pk, action)
    with transaction.atomic():
        audit_record(
            actor=request.user,
            municipality=municipality,
            action=action,
            obj=row,
            after={"file": fieldfile.name, "sha256_recorded": sha256, "sha256_found": verdict.found_sha256},
        )
    context = {"missing": verdict.missing, "request_id": getattr(request, "request_id", "")}
    return render(request, "ops/file_refused.html", context, status=409)
