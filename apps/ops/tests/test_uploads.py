"""Every uploaded file of the domain is a StoredUpload: same columns, its own folder, an unguessable name."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import cast

from django.apps import apps

from apps.ops.uploads import StoredUpload, stored_upload_path


def test_every_stored_upload_names_its_own_folder() -> None:
    uploads = [model for model in apps.get_models() if issubclass(model, StoredUpload)]
    labels = {model._meta.label for model in uploads}
    assert {"registry.Document", "enforcement.Evidence", "dueprocess.AppealAttachment"} <= labels
    # A subclass that forgot its folder would fail only at its first upload; here it fails first.
    assert [m._meta.label for m in uploads if m.upload_folder is StoredUpload.upload_folder] == []


def test_the_stored_name_is_the_folder_a_random_name_and_the_extension_never_the_senders_name() -> None:
    row = cast(StoredUpload, SimpleNamespace(upload_folder=lambda: "documents/3533908/2026"))
    first, second = stored_upload_path(row, "CNH João.PDF"), stored_upload_path(row, "CNH João.PDF")
    assert re.fullmatch(r"documents/3533908/2026/[0-9a-f]{32}\.pdf", first)
    assert first != second and "Jo" not in first
