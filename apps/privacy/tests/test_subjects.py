"""The encarregado's (DPO's) tools: who read or changed a subject's data, the access report, the request queue."""

from __future__ import annotations

import base64
import datetime as dt
import re
import time
import zlib
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from apps.accounts.models import User
from apps.accounts.session import AUTH_CONFIRMED_AT_KEY
from apps.audit.models import AuditEvent, DataSubjectRequest
from apps.audit.services import PERSONAL_DATA_EXPORT, PERSONAL_DATA_READ
from apps.privacy.services import data_subject_request_create, data_subject_request_deadline
from apps.registry.models import Person
from apps.registry.services import person_create, person_update
from apps.tenancy.models import Municipality

pytestmark = [pytest.mark.django_db, pytest.mark.local_clock]

AS_OF = dt.date(2026, 3, 2)
CPF = "52998224725"


@pytest.fixture
def maria(olimpia: Municipality, analyst_olimpia: User) -> Person:
    person = person_create(
        actor=analyst_olimpia,
        municipality=olimpia,
        cpf=CPF,
        name="Maria Souza",
        birth_date=dt.date(1980, 5, 17),
        phone="17999990000",
        as_of=AS_OF,
    )
    return person_update(actor=analyst_olimpia, person=person, phone="17988880000", as_of=AS_OF)


def subject_url(person: Person) -> str:
    return reverse("privacy:subject_detail", args=[person.pk])


def test_search_by_cpf_shows_the_person_with_the_cpf_masked(
    auditor_olimpia_client: Client, maria: Person
) -> None:
    html = auditor_olimpia_client.get(
        reverse("privacy:subject_search"), {"q": "529.982.247-25"}
    ).content.decode()
    assert "Maria Souza" in html and "***.982.247-**" in html
    assert "529.982.247-25" not in html.replace('value="529.982.247-25"', "")


def test_search_by_name_part(auditor_olimpia_client: Client, maria: Person) -> None:
    response = auditor_olimpia_client.get(reverse("privacy:subject_search"), {"q": "souz"})
    assert [person.pk for person, _ in response.context["rows"]] == [maria.pk]


def test_search_refuses_a_short_cpf_in_portuguese(auditor_olimpia_client: Client, maria: Person) -> None:
    html = auditor_olimpia_client.get(reverse("privacy:subject_search"), {"q": "529982"}).content.decode()
    assert "um CPF tem 11 dígitos" in html


@pytest.mark.parametrize("persona", ["admin_olimpia_client", "analyst_olimpia_client", "outsider_client"])
def test_only_the_auditor_reaches_the_dpo_screens(
    persona: str, request: pytest.FixtureRequest, maria: Person
) -> None:
    client: Client = request.getfixturevalue(persona)
    for url in (
        reverse("privacy:subject_search"),
        subject_url(maria),
        reverse("privacy:subject_report", args=[maria.pk]),
        reverse("privacy:request_list"),
        reverse("privacy:request_create"),
    ):
        assert client.get(url).status_code == 404, url


def test_another_municipalitys_person_is_404(
    auditor_olimpia_client: Client, votuporanga: Municipality, analyst_olimpia: User
) -> None:
    other = person_create(actor=None, municipality=votuporanga, cpf=CPF, name="Outra", as_of=AS_OF)
    assert auditor_olimpia_client.get(subject_url(other)).status_code == 404


def test_the_subject_page_answers_who_read_or_changed_the_data_in_portuguese(
    auditor_olimpia_client: Client, analyst_olimpia_client: Client, maria: Person
) -> None:
    analyst_olimpia_client.get(reverse("registry:person_edit", args=["3533908", maria.pk]))  # a staff read
    response = auditor_olimpia_client.get(subject_url(maria))
    html = response.content.decode()
    assert response["Cache-Control"] == "no-store"
    assert "529.982.247-25" in html and "Cadastro de pessoa" in html and "Base legal" in html
    assert "Alteração — pessoa" in html and "Cadastro — pessoa" in html
    assert "Leitura de dados pessoais" in html and "Ana Analista" in html
    assert "campos pessoais alterados: telefone" in html
    assert "<div>telefone: (valor protegido) → (valor protegido)</div>" in html
    assert "registry.person" not in html and "{&#x27;" not in html and "personal_data" not in html


def test_opening_the_subject_page_is_itself_an_audited_read(
    auditor_olimpia_client: Client, auditor_olimpia: User, maria: Person
) -> None:
    auditor_olimpia_client.get(subject_url(maria))
    read = AuditEvent.objects.get(action=PERSONAL_DATA_READ, actor_id=auditor_olimpia.pk)
    assert (read.object_type, read.object_id) == ("registry.person", str(maria.pk))
    # ... and the next look shows it in the subject's history.
    html = auditor_olimpia_client.get(subject_url(maria)).content.decode()
    assert f'data-event-id="{read.pk}"' in html


def _pdf_text(content: bytes) -> str:
    """The page streams (reportlab writes them ASCII85 + Flate encoded), enough to look for plain text."""
    chunks = [content]
    for stream in re.findall(rb"\nstream\r?\n(.*?)endstream", content, re.S):
        try:
            chunks.append(zlib.decompress(base64.a85decode(stream.strip(), adobe=True)))
        except (ValueError, zlib.error):
            continue
    return b"".join(chunks).decode("latin-1")


def test_the_subject_access_report_is_a_pdf_with_holdings_basis_and_history(
    auditor_olimpia_client: Client, auditor_olimpia: User, maria: Person
) -> None:
    response = auditor_olimpia_client.get(reverse("privacy:subject_report", args=[maria.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response["Cache-Control"] == "no-store"
    assert response.content.startswith(b"%PDF")
    text = _pdf_text(response.content)
    assert "Maria Souza" in text and "529.982.247-25" in text and "Lei 13.709/2018" in text
    assert "Cadastro de pessoa" in text and "Ana Analista" in text
    export = AuditEvent.objects.get(action=PERSONAL_DATA_EXPORT)
    assert (export.actor_id, export.object_id) == (auditor_olimpia.pk, str(maria.pk))


def test_the_registration_date_is_the_day_it_was_made_in_the_municipality(
    auditor_olimpia_client: Client, maria: Person
) -> None:
    # Registered at 23:30 in São Paulo, 02:30 of the next day in UTC: the subject sees the local day.
    html = auditor_olimpia_client.get(subject_url(maria)).content.decode()
    assert f"<dt>Cadastrada em</dt><dd>{timezone.localdate():%d/%m/%Y}</dd>" in html


# --- data-subject requests ----------------------------------------------------------------------------------


def test_the_deadline_is_15_calendar_days_from_the_request(olimpia: Municipality) -> None:
    deadline = data_subject_request_deadline(olimpia, dt.date(2026, 3, 2))
    assert deadline.end == dt.date(2026, 3, 17)
    assert "prazo de 15 dias corridos contados de 02/03/2026" in deadline.explanation()


def new_request(olimpia: Municipality, auditor: User, received_on: dt.date) -> DataSubjectRequest:
    return data_subject_request_create(
        actor=auditor,
        municipality=olimpia,
        requester_name="Maria Souza",
        requester_cpf="529.982.247-25",
        contact="maria@example.org",
        kind="access",
        description="Quero saber quem acessou meus dados.",
        received_on=received_on,
        as_of=received_on,
    )


def test_registering_a_request_links_the_person_fixes_the_deadline_and_is_audited_minimized(
    auditor_olimpia_client: Client, maria: Person
) -> None:
    today = timezone.localdate()
    response = auditor_olimpia_client.post(
        reverse("privacy:request_create"),
        {
            "municipality": "3533908",
            "requester_name": "Maria Souza",
            "requester_cpf": "529.982.247-25",
            "contact": "maria@example.org",
            "kind": "access",
            "description": "Quem acessou meus dados?",
            "received_on": today.isoformat(),
        },
    )
    row = DataSubjectRequest.objects.get()
    assert response.status_code == 302 and row.person == maria
    assert row.due_on == today + dt.timedelta(days=15) and "art. 19, II" in row.deadline_explanation
    event = AuditEvent.objects.get(action="data_subject_request.create")
    assert event.after["requester_cpf"] == "***.982.247-**"  # type: ignore[index]
    assert "maria@example.org" not in str(event.after)


def test_a_request_in_the_future_is_refused_naming_the_field(
    auditor_olimpia_client: Client, olimpia: Municipality
) -> None:
    tomorrow = timezone.localdate() + dt.timedelta(days=1)
    html = auditor_olimpia_client.post(
        reverse("privacy:request_create"),
        {
            "municipality": "3533908",
            "requester_name": "X",
            "requester_cpf": CPF,
            "contact": "x",
            "kind": "access",
            "description": "x",
            "received_on": tomorrow.isoformat(),
        },
    ).content.decode()
    assert "Recebido em: a data" in html and "está no futuro" in html
    assert not DataSubjectRequest.objects.exists()


def test_the_queue_flags_a_late_request_and_hides_closed_ones(
    auditor_olimpia_client: Client, auditor_olimpia: User, olimpia: Municipality
) -> None:
    late = new_request(olimpia, auditor_olimpia, timezone.localdate() - dt.timedelta(days=20))
    fresh = new_request(olimpia, auditor_olimpia, timezone.localdate())
    html = auditor_olimpia_client.get(reverse("privacy:request_list")).content.decode()
    late_row = html.split(f'data-request-id="{late.pk}"')[1].split("</tr>")[0]
    fresh_row = html.split(f'data-request-id="{fresh.pk}"')[1].split("</tr>")[0]
    assert 'data-testid="late"' in late_row and 'data-testid="late"' not in fresh_row
    assert "(15 dia(s))" in fresh_row


def test_closing_a_request_needs_the_answer_and_is_audited(
    auditor_olimpia_client: Client, auditor_olimpia: User, olimpia: Municipality
) -> None:
    row = new_request(olimpia, auditor_olimpia, timezone.localdate())
    url = reverse("privacy:request_detail", args=[row.pk])
    html = auditor_olimpia_client.post(url, {"status": "answered", "answer": ""}).content.decode()
    assert "Resposta: informe o texto enviado ao titular" in html
    auditor_olimpia_client.post(url, {"status": "answered", "answer": "Relatório enviado por e-mail."})
    row.refresh_from_db()
    assert row.status == "answered" and row.answered_on == timezone.localdate()
    answer = AuditEvent.objects.get(action="data_subject_request.answer")
    assert answer.before["status"] == "received" and answer.after["status"] == "answered"  # type: ignore[index]
    detail = auditor_olimpia_client.get(reverse("audit:event_detail", args=[answer.pk])).content.decode()
    assert "Resposta a requerimento de titular" in detail
    assert "<td>situação</td><td>Recebido</td><td>Respondido</td>" in detail
    closed = auditor_olimpia_client.get(reverse("privacy:request_list")).content.decode()
    assert f'data-request-id="{row.pk}"' not in closed


def test_reading_a_request_is_an_audited_personal_data_read(
    auditor_olimpia_client: Client, auditor_olimpia: User, olimpia: Municipality
) -> None:
    row = new_request(olimpia, auditor_olimpia, timezone.localdate())
    html = auditor_olimpia_client.get(reverse("privacy:request_detail", args=[row.pk])).content.decode()
    assert "529.982.247-25" in html
    read = AuditEvent.objects.get(action=PERSONAL_DATA_READ, object_type="audit.datasubjectrequest")
    assert read.after == {"fields": ["contact", "requester_cpf"]}


def test_a_request_of_another_municipality_is_404(
    auditor_olimpia_client: Client, make_staff: Callable[..., User], votuporanga: Municipality
) -> None:
    dpo = make_staff("dpo.votuporanga", (votuporanga, "auditor_dpo"))
    row = new_request(votuporanga, dpo, timezone.localdate())
    assert auditor_olimpia_client.get(reverse("privacy:request_detail", args=[row.pk])).status_code == 404


def test_the_home_card_counts_pending_and_late_requests(
    auditor_olimpia_client: Client, auditor_olimpia: User, olimpia: Municipality
) -> None:
    new_request(olimpia, auditor_olimpia, timezone.localdate() - dt.timedelta(days=20))
    new_request(olimpia, auditor_olimpia, timezone.localdate())
    response = auditor_olimpia_client.get(reverse("municipality_home", args=["3533908"]))
    (card,) = [card for card in response.context["cards"] if card.key == "data_subject_requests"]
    assert [(item.label, item.value) for item in card.items] == [
        ("Requerimentos de titulares pendentes", 2),
        ("Com prazo vencido (art. 19, II)", 1),
    ]


def test_an_invalid_cpf_is_refused_on_its_field(
    auditor_olimpia_client: Client, olimpia: Municipality
) -> None:
    response = auditor_olimpia_client.post(
        reverse("privacy:request_create"),
        {
            "municipality": "3533908",
            "requester_name": "X",
            "requester_cpf": "529.982.247-26",
            "contact": "x",
            "kind": "access",
            "description": "x",
            "received_on": timezone.localdate().isoformat(),
        },
    )
    assert response.context["form"].errors["requester_cpf"] == [
        "CPF: número inválido (dígitos verificadores não conferem)."
    ]


def test_the_report_asks_for_a_recent_authentication(auditor_olimpia_client: Client, maria: Person) -> None:
    session = auditor_olimpia_client.session
    session[AUTH_CONFIRMED_AT_KEY] = time.time() - 60 * 60
    session.save()
    response = auditor_olimpia_client.get(reverse("privacy:subject_report", args=[maria.pk]))
    assert response.status_code == 302 and response["Location"].startswith(reverse("reauthenticate"))
    assert not AuditEvent.objects.filter(action=PERSONAL_DATA_EXPORT).exists()


def test_the_request_form_starts_with_today_in_the_date_inputs_format(auditor_olimpia_client: Client) -> None:
    html = auditor_olimpia_client.get(reverse("privacy:request_create")).content.decode()
    assert f'type="date" name="received_on" value="{timezone.localdate().isoformat()}"' in html


def test_the_role_is_checked_before_the_re_authentication_prompt(
    analyst_olimpia_client: Client, auditor_olimpia_client: Client, maria: Person
) -> None:
    from apps.accounts.testing import make_confirmation_stale

    url = reverse("privacy:subject_report", args=[maria.pk])
    make_confirmation_stale(analyst_olimpia_client)
    assert analyst_olimpia_client.get(url).status_code == 404
    make_confirmation_stale(auditor_olimpia_client)
    assert auditor_olimpia_client.get(url)["Location"].startswith(reverse("reauthenticate"))
