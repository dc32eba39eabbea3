"""One stored upload: the file a person sent, with its type, size, SHA-256 and who sent it.

Every uploaded file of the domain apps (a registry document, the evidence of an auto, an appeal's attachment,
a renewed copy sent in the portal, the proof of a regularization) subclasses StoredUpload, so the columns are
named alike everywhere and the file rules of apps.ops.storage are applied in one place: the name is unguessable
(never the sender's file name), the bytes reach the storage only after the commit, and the file is served only
through the permission gate, checked against its hash. A subclass whose sender is always known redeclares
``uploaded_by`` as required. (A platform's roster file is not one: its bytes are deleted once imported.)
"""

from __future__ import annotations

import uuid
from pathlib import PurePath
from typing import Any, Protocol

from django.conf import settings
from django.db import models
from django.http import HttpRequest
from django.http.response import HttpResponseBase

from apps.accounts.actors import Actor, actor_user
from apps.tenancy.models import Municipality


class CheckedFile(Protocol):
    """An upload already checked by content (apps.registry.uploads.CheckedUpload)."""

    @property
    def content_type(self) -> str: ...
    @property
    def extension(self) -> str: ...
    @property
    def size(self) -> int: ...
    @property
    def sha256(self) -> str: ...
    @property
    def content(self) -> bytes: ...


def stored_upload_path(upload: StoredUpload, filename: str) -> str:
    """<the model's folder>/<uuid>.<ext>: an unguessable name, never the uploader's file name."""
    suffix = PurePath(filename).suffix.lower()[:5]
    return f"{upload.upload_folder()}/{uuid.uuid4().hex}{suffix}"


class StoredUpload(models.Model):
    file = models.FileField("arquivo", upload_to=stored_upload_path, max_length=200)
    content_type = models.CharField("tipo do arquivo", max_length=40)
    size_bytes = models.PositiveIntegerField("tamanho (bytes)")
    sha256 = models.CharField("SHA-256", max_length=64)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        related_name="+",
        verbose_name="enviado por",
    )
    uploaded_at = models.DateTimeField("enviado em", auto_now_add=True)

    class Meta:
        abstract = True

    def upload_folder(self) -> str:
        """Where the model keeps its files (``documents/<IBGE>/<year>``); each subclass names its own."""
        raise NotImplementedError(f"{type(self).__name__} names no upload folder")

    def upload_keep(self, checked: CheckedFile, *, stem: str, actor: Actor) -> None:
        """Record the checked file's type, size, hash and sender, and name its file; the caller saves the row.

        The bytes are written only once the transaction commits (apps.ops.storage.attach_after_commit).
        """
        # Imported here: storage reaches the audit services, which import the models that subclass this one.
        from apps.ops.storage import attach_after_commit

        self.content_type, self.size_bytes, self.sha256 = checked.content_type, checked.size, checked.sha256
        self.uploaded_by = actor_user(actor)
        attach_after_commit(self.file, f"{stem}{checked.extension}", checked.content)

    def upload_snapshot(self) -> dict[str, Any]:
        """The file's part of the row's audit snapshot."""
        return {"sha256": self.sha256, "size_bytes": self.size_bytes, "content_type": self.content_type}

    def upload_response(
        self,
        request: HttpRequest,
        *,
        municipality: Municipality,
        filename: str = "",
        as_attachment: bool = False,
    ) -> HttpResponseBase:
        """The file of a row the caller already found through the permission gate, checked against its hash."""
        from apps.ops.storage import stored_file_response  # imported here for the same reason as above

        return stored_file_response(
            request,
            row=self,
            fieldfile=self.file,
            sha256=self.sha256,
            municipality=municipality,
            content_type=self.content_type,
            filename=filename,
            as_attachment=as_attachment,
        )
