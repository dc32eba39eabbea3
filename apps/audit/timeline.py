"""The human timeline of a record (an application, an auto): one line per step, written by services, never edited.

The audit chain proves who changed what; the timeline tells the story on the record's page. Each app's event model
subclasses TimelineEvent, adding the foreign key to its record and its own `kind` choices.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Self

from django.conf import settings
from django.db import models

from apps.accounts.actors import Actor, actor_name, actor_user


class TimelineEvent(models.Model):
    at = models.DateTimeField("registrado em", auto_now_add=True)
    on = models.DateField("data")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+")
    actor_name = models.CharField("por", max_length=200)
    state_from = models.CharField("de", max_length=24, blank=True)
    state_to = models.CharField("para", max_length=24, blank=True)
    note = models.TextField("observação", blank=True)
    data = models.JSONField("dados", default=dict, blank=True)

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return f"{self.get_kind_display()} em {self.on:%d/%m/%Y}"  # type: ignore[attr-defined]

    @classmethod
    def record(
        cls,
        *,
        actor: Actor,
        on: dt.date,
        kind: str,
        state_from: str = "",
        state_to: str = "",
        note: str = "",
        data: dict[str, Any] | None = None,
        **owner: models.Model,
    ) -> Self:
        """Write one line inside the caller's transaction; `owner` is the record (application=…, case=…)."""
        return cls.objects.create(  # type: ignore[attr-defined, no-any-return]
            on=on,
            kind=kind,
            actor=actor_user(actor),
            actor_name=actor_name(actor),
            state_from=state_from,
            state_to=state_to,
            note=note,
            data=data or {},
            **owner,
        )
