"""Demo complaints: one per municipality about a licensed vehicle, through the service (audited).

Idempotent: a municipality that already has a complaint is skipped. Runs after licensing's seeder (apps are
ready in INSTALLED_APPS order), so the plate matches a demo permit when there is one.
"""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from apps.licensing.models import Permit
from apps.public.choices import ComplaintCategory
from apps.public.models import Complaint
from apps.public.services import complaint_file
from apps.tenancy.demo import DemoLog, register_demo_seeder
from apps.tenancy.models import Municipality


@register_demo_seeder
def seed_public(log: DemoLog) -> None:
    today = timezone.localdate()
    for municipality in Municipality.objects.order_by("name"):
        if Complaint.objects.filter(municipality=municipality).exists():
            continue
        permit = Permit.objects.filter(municipality=municipality).select_related("vehicle").first()
        complaint_file(
            municipality=municipality,
            category=ComplaintCategory.DOCUMENT_NOT_SHOWN,
            occurred_on=today - dt.timedelta(days=1),
            as_of=today,
            plate=permit.vehicle.plate if permit else "",
            place="Portão da escola, na saída da tarde",
            description="Pedi para ver a autorização do transporte e o condutor disse que não estava no veículo.",
        )
        log.created += 1
