"""Photos attached to an auto form that came back with an error are kept on the server, so the agent on the
street does not have to take them again: they wait in the cache (a couple of hours) under a random token the
form carries in a hidden field, readable only by the agent who sent them, and join the auto when it is filed.
No script is involved, so it works on any phone under the Content-Security-Policy."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile, UploadedFile

from apps.registry.uploads import check_upload

KEEP_SECONDS = 2 * 60 * 60
MAX_KEPT = 10


@dataclass(frozen=True)
class KeptPhoto:
    name: str
    content_type: str
    content: bytes

    def as_upload(self) -> SimpleUploadedFile:
        return SimpleUploadedFile(self.name, self.content, content_type=self.content_type)


def _key(user_id: int, token: str) -> str:
    return f"enforcement:kept-photos:{user_id}:{token}"


def load(user_id: int, token: str) -> list[KeptPhoto]:
    """The photos kept under ``token`` for this agent (none for another agent's token or an expired one)."""
    if not token or not token.replace("-", "").replace("_", "").isalnum():
        return []
    return list(cache.get(_key(user_id, token), []))


def keep(user_id: int, token: str, kept: list[KeptPhoto], uploads: Iterable[UploadedFile]) -> str:
    """Add the new uploads that are real photos or PDFs (a refused file is not kept: its error is shown) to the
    kept ones; returns the token to carry in the form."""
    photos = list(kept)
    for upload in uploads:
        try:
            checked = check_upload(upload, "photos")
        except ValidationError:
            continue
        photos.append(
            KeptPhoto(upload.name or f"foto{checked.extension}", checked.content_type, checked.content)
        )
    if not photos:
        return ""
    token = token if kept else secrets.token_urlsafe(16)
    cache.set(_key(user_id, token), photos[:MAX_KEPT], KEEP_SECONDS)
    return token


def discard(user_id: int, token: str) -> None:
    if token:
        cache.delete(_key(user_id, token))
