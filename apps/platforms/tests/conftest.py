"""Platform-API fixtures: permits issued through the licensing services and a token per platform and town."""

from __future__ import annotations

import datetime as dt
from typing import Any
from unittest import mock

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from apps.licensing import services
from apps.licensing.casebook import Case, pf_case, upload_documents
from apps.licensing.models import Permit
from apps.platforms.models import Platform
from apps.platforms.services import IssuedCredential, credential_issue, platform_create
from apps.tenancy.models import Municipality

PLATFORM_CNPJ = "11222333000181"


@pytest.fixture
def today() -> dt.date:
    return timezone.localdate()


def issue_permit(case: Case, as_of: dt.date) -> Permit:
    application = services.application_create(
        actor=None,
        operator=case.operator,
        kind="vehicle_permit",
        as_of=as_of,
        vehicle=case.vehicle,
        enrolled_students=9000,
        carries_children_under_4_or_pcd=False,
    )
    for move in (services.application_submit, services.application_start_analysis):
        application = move(application=application, actor=None, as_of=as_of)
    services.application_require_inspection(application=application, actor=None, as_of=as_of)
    services.application_inspection_passed(
        application=application, performed_on=as_of, actor=None, as_of=as_of
    )
    services.application_approve(application=application, actor=None, as_of=as_of)
    return Permit.objects.select_related("vehicle", "operator__person").get(application=application)


@pytest.fixture
def driver_case(patrocinio: Municipality, today: dt.date) -> Case:
    case = pf_case(patrocinio, 43, "Rafael Aplicativo", as_of=today)
    upload_documents(
        case.vehicle, ("inspection_fee_receipt",), as_of=today, regime_id="patrocinio_mg_aplicativo"
    )
    return case


@pytest.fixture
def patrocinio_permit(driver_case: Case, today: dt.date) -> Permit:
    return issue_permit(driver_case, today)


@pytest.fixture
def platform(db: None) -> Platform:
    return platform_create(actor=None, name="Roda Já Mobilidade", cnpj=PLATFORM_CNPJ)


@pytest.fixture
def issued(platform: Platform, patrocinio: Municipality) -> IssuedCredential:
    return credential_issue(
        actor=None, platform=platform, municipality=patrocinio, webhook_url="http://127.0.0.1:9/hook"
    )


@pytest.fixture
def api(issued: IssuedCredential) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Bearer {issued.token}")


def run_tasks() -> None:
    """Run every queued background task to the end with the real worker (`manage.py db_worker --batch`).

    The worker closes stale connections between tasks, which on PostgreSQL would close the connection holding
    the test's transaction; that housekeeping is switched off here, the rest of the worker runs as deployed.
    """
    with mock.patch("django_tasks_db.management.commands.db_worker.close_old_connections"):
        call_command(
            "db_worker", "--batch", "--no-startup-delay", "--no-reload", "--interval", "0.1", verbosity=0
        )


def url(ibge: str, tail: str) -> str:
    return f"/api/v1/platform/{ibge}/{tail}"


def post_json(client: Client, path: str, body: Any) -> Any:
    return client.post(path, body, content_type="application/json")
