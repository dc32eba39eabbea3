"""Files published for anyone to download (the open data): stored through the storage API like every other file.

``apps.ops.services.published_file_add`` keeps a new version in one transaction with its audit event; the bytes
reach the store after the commit (apps.ops.storage.attach_after_commit: kept in the database until the store
confirms them).
``published_file_response`` serves the newest version of a (municipality, key) after checking its SHA-256: a
stream from the local disk, a short-lived signed URL on S3.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest
from django.http.response import HttpResponseBase

from apps.ops.models import PublishedFile
from apps.ops.storage import stored_file_response
from apps.tenancy.models import Municipality


def latest_published(municipality: Municipality, key: str) -> PublishedFile | None:
    return PublishedFile.objects.filter(municipality=municipality, key=key).order_by("-pk").first()


def published_file_response(
    request: HttpRequest, *, municipality: Municipality, key: str, download_name: str
) -> HttpResponseBase:
    row = latest_published(municipality, key)
    if row is None:
        raise Http404("Este arquivo ainda não foi publicado.")
    return stored_file_response(
        request,
        row=row,
        fieldfile=row.file,
        sha256=row.sha256,
        municipality=municipality,
        content_type=row.content_type,
        filename=download_name,
        as_attachment=True,
    )
