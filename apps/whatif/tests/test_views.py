"""Only the municipality's administrators simulate a change; an outsider cannot tell the pages exist."""

from __future__ import annotations

import pytest
from django.test import Client

from apps.accounts.models import User
from apps.licensing.models import Permit
from apps.tenancy.models import Municipality
from apps.whatif.choices import RunState
from apps.whatif.models import WhatIfRun
from apps.whatif.services import whatif_run_execute

from .conftest import age_change

pytestmark = pytest.mark.django_db


def page(municipality: Municipality) -> str:
    return f"/municipios/{municipality.ibge_code}/simulacoes/"


def test_an_outsider_gets_404_and_an_analyst_is_refused(
    olimpia: Municipality, outsider_client: Client, analyst_olimpia_client: Client
) -> None:
    assert outsider_client.get(page(olimpia)).status_code == 404
    assert analyst_olimpia_client.get(page(olimpia)).status_code == 404
    assert analyst_olimpia_client.post(page(olimpia), age_change()).status_code == 404
    assert not WhatIfRun.objects.exists()


def test_the_administrator_queues_a_run_and_reads_the_report_and_the_list(
    olimpia: Municipality,
    admin_olimpia_client: Client,
    admin_olimpia: User,
    olimpia_fleet: dict[str, Permit],
    outsider_client: Client,
) -> None:
    response = admin_olimpia_client.post(page(olimpia), age_change())
    run = WhatIfRun.objects.get()
    assert response.status_code == 302 and run.state == RunState.QUEUED
    assert run.requested_by == admin_olimpia
    assert outsider_client.get(f"{page(olimpia)}{run.pk}/").status_code == 404
    whatif_run_execute(run_id=run.pk)
    report = admin_olimpia_client.get(f"{page(olimpia)}{run.pk}/").content.decode()
    assert "1 de 2 alvarás em vigor" in report and "art. 13, II" in report
    assert "/configuracao-legal/" in report  # adopting the change is the audited configuration screen
    text = admin_olimpia_client.get(f"{page(olimpia)}{run.pk}/?formato=csv").getvalue().decode("utf-8-sig")
    assert text.splitlines()[0].startswith("Registro;Identificação;Placa")
    assert "Deferido;Indeferido" in text and olimpia_fleet["old"].vehicle.plate in text


def test_a_parameter_change_needs_its_new_value(olimpia: Municipality, admin_olimpia_client: Client) -> None:
    response = admin_olimpia_client.post(page(olimpia), age_change(value=""))
    assert response.status_code == 400
    assert "Informe o novo valor do parâmetro." in response.content.decode()
    assert not WhatIfRun.objects.exists()
