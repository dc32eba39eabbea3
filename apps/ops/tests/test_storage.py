"""The storage module's own promises: every file field keeps a hash, storage_verify finds what is wrong, the
readiness check names the store and fails when S3 does not answer."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest
from django.core.files.base import ContentFile
from django.core.management import CommandError, call_command
from django.db import models
from django.test.utils import isolate_apps

from apps.ops import health
from apps.ops.storage import hash_field_name, hashed_file_fields, verify_all
from apps.registry.models import Document
from outorga.settings import s3_storage as s3_storage_entry

pytestmark = pytest.mark.django_db


def test_every_file_field_of_the_project_keeps_its_sha256() -> None:
    fields = hashed_file_fields()
    labels = {f"{field.model._meta.label}.{field.name}" for field in fields}
    assert {"registry.Document.file", "enforcement.Notice.pdf", "dueprocess.AppealAttachment.file"} <= labels
    for (
        field
    ) in fields:  # a new FileField without <name>_sha256 or sha256 fails here, before any view serves it
        assert isinstance(field.model._meta.get_field(hash_field_name(field)), models.CharField)


@isolate_apps("apps.ops")  # a throwaway model, never in the project's registry
def test_a_file_field_without_a_hash_is_a_loud_error() -> None:
    class Unhashed(models.Model):
        file = models.FileField(upload_to="x/")

        def __str__(self) -> str:
            return str(self.file.name)

    with pytest.raises(LookupError, match="keeps no SHA-256"):
        hash_field_name(Unhashed._meta.get_field("file"))


@pytest.fixture
def documents(settings: Any, tmp_path: Any, django_capture_on_commit_callbacks: Callable[..., Any]) -> Any:
    """Two documents of the demo seeder (real uploads through the service), their files committed."""
    from apps.tenancy.demo import seed_demo

    settings.MEDIA_ROOT = tmp_path / "media"
    with django_capture_on_commit_callbacks(execute=True):
        seed_demo()
    return Document.objects.order_by("pk")


def test_storage_verify_passes_and_then_names_the_damaged_and_the_missing_file(documents: Any) -> None:
    out = io.StringIO()
    call_command("storage_verify", stdout=out)
    checked, problems = verify_all()
    assert problems == [] and checked >= 2 and f"{checked} stored files match" in out.getvalue()
    first, second = documents[0], documents[1]
    first.file.storage.delete(first.file.name)
    first.file.storage.save(first.file.name, ContentFile(b"%PDF-1.4 forged %%EOF"))
    second.file.storage.delete(second.file.name)
    out = io.StringIO()
    with pytest.raises(CommandError, match=f"2 of {checked} stored files failed"):
        call_command("storage_verify", stdout=out)
    assert f"registry.document {first.pk}: {first.file.name}: SHA-256 mismatch" in out.getvalue()
    assert f"registry.document {second.pk}: {second.file.name}: missing" in out.getvalue()


def test_readiness_writes_to_the_s3_bucket(s3_storage: Any) -> None:
    check = health.storage()
    assert check.ok and s3_storage.bucket_name in check.detail
    assert list(s3_storage.bucket.objects.all()) == []  # the probe file is deleted again


def test_readiness_fails_when_s3_does_not_answer(settings: Any) -> None:
    import socket

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    entry = s3_storage_entry(
        bucket="outorga-absent",
        endpoint_url=f"http://127.0.0.1:{port}",
        region="us-east-1",
        access_key="testing",
        secret_key="testing",
    )
    entry["OPTIONS"]["client_config"] = _no_retries()
    settings.STORAGES = {**settings.STORAGES, "default": entry}
    check = health.storage()
    assert not check.ok and "não foi possível gravar arquivos" in check.detail


def _no_retries() -> Any:
    from botocore.config import Config

    return Config(retries={"max_attempts": 1}, connect_timeout=1, read_timeout=1)
