"""The sample Grafana dashboard only charts metrics that /metricas/ really exports."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from apps.jobs.services import schedule_tick

DASHBOARD = Path(__file__).resolve().parents[3] / "docs" / "monitoring" / "grafana-outorga.json"


@pytest.mark.django_db
def test_every_metric_on_the_dashboard_is_exported(client: Client, settings: Any) -> None:
    settings.METRICS_TOKEN = "t"
    schedule_tick()
    exported = set(
        re.findall(
            r"^# TYPE (\w+) ", client.get("/metricas/", HTTP_AUTHORIZATION="Bearer t").content.decode(), re.M
        )
    )
    panels = json.loads(DASHBOARD.read_text())["panels"]
    # A histogram is exported as one family; the dashboard reads its _bucket series.
    charted = {
        re.sub(r"_bucket$", "", name)
        for p in panels
        for t in p["targets"]
        for name in re.findall(r"outorga_\w+", t["expr"])
    }
    assert charted and charted <= exported, charted - exported
