"""Copy the last number of each app's yearly sequence table into tenancy.Counter, before those tables go.

Kinds are the ones the services pass to number_take. Reversible: going back copies the counters out again.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

# (app label, old model, kind in tenancy.Counter)
SEQUENCES = (
    ("licensing", "ApplicationSequence", "application"),
    ("licensing", "PermitSequence", "permit"),
    ("enforcement", "CaseSequence", "infraction_case"),
    ("enforcement", "EditalSequence", "edital"),
    ("public", "ComplaintSequence", "complaint"),
    ("finance", "GuideSequence", "payment_guide"),
)


def forward(apps: Any, schema_editor: Any) -> None:
    counter = apps.get_model("tenancy", "Counter")
    for app_label, model_name, kind in SEQUENCES:
        for row in apps.get_model(app_label, model_name).objects.all():
            counter.objects.update_or_create(
                municipality_id=row.municipality_id, kind=kind, year=row.year, defaults={"last": row.last}
            )


def backward(apps: Any, schema_editor: Any) -> None:
    counter = apps.get_model("tenancy", "Counter")
    for app_label, model_name, kind in SEQUENCES:
        model = apps.get_model(app_label, model_name)
        for row in counter.objects.filter(kind=kind):
            model.objects.update_or_create(
                municipality_id=row.municipality_id, year=row.year, defaults={"last": row.last}
            )


class Migration(migrations.Migration):
    dependencies = [
        ("tenancy", "0003_counter"),
        ("licensing", "0002_alter_applicationevent_kind"),
        ("enforcement", "0001_initial"),
        ("public", "0001_initial"),
        ("finance", "0002_units_declared_by_the_regime"),
    ]

    operations = [migrations.RunPython(forward, backward)]
