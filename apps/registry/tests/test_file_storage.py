"""A document's file on the local disk and on S3 (moto in server mode): written only after the commit, served
only through the gate, refused (and audited) when it no longer matches its SHA-256."""

from __future__ import annotations

import datetime as dt
import hashlib
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction
from django.test import Client
from django.urls import reverse

from apps.audit.models import AuditEvent
from apps.registry.models import Document, Vehicle
from apps.registry.services import document_upload
from apps.registry.tests.conftest import AS_OF, PDF_BYTES, pdf_upload

pytestmark = pytest.mark.django_db


class Rollback(Exception):
    """Raised inside the transaction to roll it back."""


@pytest.fixture(params=["local", "s3"])
def storage(request: pytest.FixtureRequest) -> Any:
    if request.param == "s3":
        return request.getfixturevalue("s3_storage")
    return default_storage  # the registry's autouse fixture points MEDIA_ROOT at tmp_path


def all_names(storage: Any, folder: str = "") -> list[str]:
    """Every object in the storage (a recursive listdir: works the same on disk and in a bucket)."""
    try:
        folders, files = storage.listdir(folder)
    except FileNotFoundError:  # the local MEDIA_ROOT before the first file
        return []
    prefix = f"{folder}/" if folder else ""
    names = [f"{prefix}{name}" for name in files]
    for sub in folders:
        names += all_names(storage, f"{prefix}{sub}")
    return names


def upload(kombi: Vehicle, content: bytes = PDF_BYTES) -> Document:
    return document_upload(
        actor=None,
        owner=kombi,
        kind="crlv",
        upload=pdf_upload(content=content),
        issue_date=dt.date(2026, 1, 5),
        expiry_date=dt.date(2026, 12, 31),
        as_of=AS_OF,
    )


def committed_upload(kombi: Vehicle, capture: Callable[..., Any]) -> Document:
    with capture(execute=True):
        return upload(kombi)


@pytest.fixture
def stored(kombi: Vehicle, storage: Any, django_capture_on_commit_callbacks: Callable[..., Any]) -> Document:
    return committed_upload(kombi, django_capture_on_commit_callbacks)


def file_url(document: Document) -> str:
    return reverse("registry:document_file", args=[document.municipality.ibge_code, document.pk])


def test_the_file_reaches_the_storage_only_when_the_transaction_commits(
    kombi: Vehicle, storage: Any, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        document = upload(kombi)
    assert document.file.name.startswith("documents/3533908/2026/")
    assert all_names(storage) == []  # the row is saved, the bytes wait for the commit
    for callback in callbacks:
        callback()
    assert all_names(storage) == [document.file.name]
    with storage.open(document.file.name, "rb") as handle:
        assert handle.read() == PDF_BYTES
    assert Document.objects.get(pk=document.pk).sha256 == hashlib.sha256(PDF_BYTES).hexdigest()


def test_a_rolled_back_upload_leaves_no_file(
    kombi: Vehicle, storage: Any, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(Rollback),
        transaction.atomic(),
    ):
        upload(kombi)
        raise Rollback
    assert callbacks == []
    assert all_names(storage) == [] and not Document.objects.exists()


def test_the_gate_streams_a_local_file(
    kombi: Vehicle, analyst_olimpia_client: Client, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    document = committed_upload(kombi, django_capture_on_commit_callbacks)
    response = analyst_olimpia_client.get(file_url(document))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert b"".join(response.streaming_content) == PDF_BYTES  # type: ignore[attr-defined]


def test_the_gate_hands_out_a_short_lived_signed_url_for_s3(
    kombi: Vehicle,
    s3_storage: Any,
    analyst_olimpia_client: Client,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    document = committed_upload(kombi, django_capture_on_commit_callbacks)
    response = analyst_olimpia_client.get(file_url(document))
    assert response.status_code == 302 and response["Cache-Control"] == "no-store"
    query = parse_qs(urlsplit(response["Location"]).query)
    assert query["X-Amz-Expires"] == ["60"] and query["X-Amz-Signature"]
    with urllib.request.urlopen(response["Location"]) as signed:  # noqa: S310 (the moto server on localhost)
        assert signed.read() == PDF_BYTES
        assert signed.headers["Content-Type"] == "application/pdf"
        assert f'filename="crlv-{document.pk}.pdf"' in signed.headers["Content-Disposition"]
    unsigned = response["Location"].split("?", 1)[0]
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(unsigned)  # noqa: S310
    assert refused.value.code == 403  # the bucket is private: no signature, no file


def test_outsiders_get_404_before_the_storage_is_touched(stored: Document, outsider_client: Client) -> None:
    assert outsider_client.get(file_url(stored)).status_code == 404
    assert not AuditEvent.objects.filter(action__startswith="file.").exists()


def _overwrite_behind_the_app(storage: Any, name: str, content: bytes) -> None:
    """What someone with access to the disk or the bucket (not the app) could do."""
    if hasattr(storage, "bucket"):
        storage.bucket.put_object(Key=name, Body=content)  # no SHA-256 checksum: the app must read it
    else:
        with open(storage.path(name), "wb") as handle:
            handle.write(content)


def test_a_tampered_file_is_refused_and_audited(
    stored: Document, storage: Any, analyst_olimpia_client: Client, analyst_olimpia: Any
) -> None:
    forged = PDF_BYTES.replace(b"1 0 obj", b"9 0 obj")
    _overwrite_behind_the_app(storage, stored.file.name, forged)
    response = analyst_olimpia_client.get(file_url(stored))
    assert response.status_code == 409
    page = response.content.decode()
    assert "não confere com o resumo SHA-256" in page and "Location" not in response
    event = AuditEvent.objects.get(action="file.tampered")
    assert (event.object_type, event.object_id) == ("registry.document", str(stored.pk))
    assert event.actor_id == analyst_olimpia.pk
    assert event.after["sha256_recorded"] == stored.sha256
    assert event.after["sha256_found"] == hashlib.sha256(forged).hexdigest()


def test_s3_replacement_is_caught_from_its_checksum_without_a_download(
    kombi: Vehicle,
    s3_storage: Any,
    analyst_olimpia_client: Client,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    stored = committed_upload(kombi, django_capture_on_commit_callbacks)
    forged = PDF_BYTES + b"\n%%EOF\n"
    s3_storage.delete(stored.file.name)
    s3_storage.save(stored.file.name, ContentFile(forged))  # S3 verifies and keeps the new SHA-256
    monkeypatch.setattr(type(s3_storage._wrapped), "open", _no_download)
    response = analyst_olimpia_client.get(file_url(stored))
    assert response.status_code == 409
    assert (
        AuditEvent.objects.get(action="file.tampered").after["sha256_found"]
        == hashlib.sha256(forged).hexdigest()
    )


def _no_download(*args: Any, **kwargs: Any) -> None:
    raise AssertionError("the checksum S3 keeps is enough: no download")


def test_a_missing_file_is_refused_and_audited(
    stored: Document, storage: Any, analyst_olimpia_client: Client
) -> None:
    storage.delete(stored.file.name)
    response = analyst_olimpia_client.get(file_url(stored))
    assert response.status_code == 409
    assert "não foi encontrado no armazenamento" in response.content.decode()
    assert AuditEvent.objects.get(action="file.missing").after["sha256_found"] == ""
