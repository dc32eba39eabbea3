"""Generated PDFs (notices, editais) follow the storage rules: hash kept on the row, file written only when the
transaction commits, nothing left behind when it rolls back."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import transaction

from apps.accounts.models import User
from apps.enforcement.choices import NoticeChannel, NoticePurpose
from apps.enforcement.models import Edital
from apps.enforcement.services.notices import edital_publish, notice_record_receipt
from apps.tenancy.models import Municipality

from .test_case_open import open_auto
from .test_notices import AS_OF, send

pytestmark = pytest.mark.django_db


class Rollback(Exception):
    """Raised inside the transaction to roll it back."""


def media_files() -> list[Path]:
    return sorted(path for path in Path(settings.MEDIA_ROOT).rglob("*") if path.is_file())


def publish(olimpia: Municipality, agent: User) -> Edital:
    case = open_auto(olimpia, agent, plate="ABC1D23")
    notice = send(case, agent, NoticeChannel.AR)
    notice_record_receipt(
        notice=notice, actor=agent, as_of=AS_OF, received_on=dt.date(2026, 3, 20), returned_reason="other"
    )
    return edital_publish(
        municipality=olimpia,
        actor=agent,
        purpose=NoticePurpose.INFRACTION,
        cases=[case],
        published_on=dt.date(2026, 3, 25),
        publication_ref="DOM ed. 321",
        as_of=AS_OF,
    )


def test_an_edital_and_its_notice_keep_the_hash_of_the_pdf_written_at_commit(
    olimpia: Municipality, agent_olimpia: User, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        edital = publish(olimpia, agent_olimpia)
    notice = edital.notices.get()
    for row in (edital, notice):
        row.refresh_from_db()
        content = Path(settings.MEDIA_ROOT, row.pdf.name).read_bytes()
        assert content.startswith(b"%PDF") and row.pdf_sha256 == hashlib.sha256(content).hexdigest()


def test_a_rolled_back_edital_leaves_no_pdf(
    olimpia: Municipality, agent_olimpia: User, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(Rollback),
        transaction.atomic(),
    ):
        publish(olimpia, agent_olimpia)
        raise Rollback
    assert callbacks == [] and media_files() == [] and not Edital.objects.exists()
