"""The public lookups' Prometheus family, added to ops' exposition at startup."""

from __future__ import annotations

from django.db.models import Sum

from apps.ops.metrics import Sample, register_family
from apps.public.models import LookupCount


def _lookups() -> list[Sample]:
    rows = LookupCount.objects.order_by().values_list("municipality__ibge_code").annotate(total=Sum("count"))
    return [({"municipality": code or "desconhecido"}, float(total or 0)) for code, total in rows]


register_family(
    "outorga_public_lookups_total",
    "counter",
    "public vehicle lookups per municipality (IBGE code)",
    _lookups,
)
