from __future__ import annotations

import pytest
from django.db import transaction
from django.test import Client

from apps.jobs.services import MailDraft, mail_queue, schedule_tick
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db


def test_the_administrator_sees_the_jobs_and_the_mails_of_the_municipality(
    admin_olimpia_client: Client, olimpia: Municipality, votuporanga: Municipality
) -> None:
    with transaction.atomic():
        mail_queue(drafts=[MailDraft("a@example.com", "Lembrete de Olímpia", "…", olimpia.pk)], reason="t")
        mail_queue(
            drafts=[MailDraft("b@example.com", "Lembrete de Votuporanga", "…", votuporanga.pk)], reason="t"
        )
    schedule_tick()
    page = admin_olimpia_client.get("/operacao/").content.decode()
    assert "Rotina diária: vencimentos, prazos e lembretes" in page
    assert "Lembrete de Olímpia" in page and "Na fila: 1" in page
    assert "Lembrete de Votuporanga" not in page


def test_staff_without_the_role_get_404(analyst_olimpia_client: Client, outsider_client: Client) -> None:
    assert analyst_olimpia_client.get("/operacao/").status_code == 404
    assert outsider_client.get("/operacao/").status_code == 404
