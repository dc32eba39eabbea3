"""The tax system's incremental feed as files (layout: docs/tax-feed.md): events after a cursor, in order.

JSON: ``{"municipality": …, "since": n, "next_cursor": m, "has_more": bool, "events": [...]}``; CSV: UTF-8 with
BOM, «;» separated, one event a line (machine file, like the dívida ativa export: ISO dates, decimal point).
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from typing import Any

from apps.finance.models import TaxFeedEvent
from apps.tenancy.models import Municipality
from apps.web.csvsafe import safe_row

PAGE = 1000
CSV_FIELDS = ("cursor", "kind", "occurred_on", "guide_number", "amount_brl", "debtor_document", "details")


@dataclass(frozen=True)
class FeedPage:
    since: int
    events: list[TaxFeedEvent]
    has_more: bool

    @property
    def next_cursor(self) -> int:
        return self.events[-1].pk if self.events else self.since


def feed_page(municipality: Municipality, since: int, limit: int = PAGE) -> FeedPage:
    rows = list(
        TaxFeedEvent.objects.filter(municipality=municipality, pk__gt=since)
        .select_related("guide")
        .order_by("pk")[: limit + 1]
    )
    return FeedPage(since, rows[:limit], len(rows) > limit)


def _event(event: TaxFeedEvent) -> dict[str, Any]:
    return {
        "cursor": event.pk,
        "kind": event.kind,
        "occurred_on": event.occurred_on.isoformat(),
        "guide_number": event.guide.number,
        "data": event.payload,
    }


def to_json(page: FeedPage, municipality: Municipality) -> str:
    payload = {
        "municipality": {
            "ibge_code": municipality.ibge_code,
            "name": municipality.name,
            "uf": municipality.uf,
        },
        "since": page.since,
        "next_cursor": page.next_cursor,
        "has_more": page.has_more,
        "events": [_event(event) for event in page.events],
    }
    return json.dumps(payload, ensure_ascii=False, indent=2)


def to_csv(page: FeedPage) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";", lineterminator="\r\n")
    writer.writerow(CSV_FIELDS)
    for event in page.events:
        data = event.payload
        amount = data.get("amount_brl") or data.get("refunded_brl") or ""
        writer.writerow(
            safe_row(
                [
                    str(event.pk),
                    event.kind,
                    event.occurred_on.isoformat(),
                    event.guide.number,
                    str(amount),
                    str(data.get("debtor_document", "")),
                    json.dumps(data, ensure_ascii=False, sort_keys=True),
                ]
            )
        )
    return "\ufeff" + buffer.getvalue()
