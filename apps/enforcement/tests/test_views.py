"""Screens: the phone form (HTMX lookups, refusals on the fields), my autos, the case page, PDFs; isolation."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from apps.accounts.models import User
from apps.enforcement.choices import NoticeChannel, NoticePurpose
from apps.enforcement.models import InfractionCase
from apps.enforcement.services.notices import notice_send
from apps.licensing.casebook import Case
from apps.licensing.models import Permit
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality

from .conftest import jpeg
from .test_case_open import open_auto

pytestmark = pytest.mark.django_db


def url(name: str, municipality: Any, *args: Any) -> str:
    return reverse(f"enforcement:{name}", args=[municipality.ibge_code, *args])


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def form_data(**changes: Any) -> dict[str, Any]:
    recent = timezone.localtime() - dt.timedelta(hours=1)
    data = {
        "plate": "XYZ1A23",
        "infraction_code": "OLI-22-IV",
        "occurred_at": recent.strftime("%Y-%m-%dT%H:%M"),
        "place": "Av. Brasil, 10",
        "description": "Veículo sujo",
        "agent_registration": "F-9",
    }
    data.update(changes)
    return data


def test_the_agent_files_an_auto_with_a_photo(
    olimpia: Municipality, agent_olimpia: User, olimpia_licensed: tuple[Case, Permit]
) -> None:
    licensed, permit = olimpia_licensed
    client = client_for(agent_olimpia)
    data = form_data(plate=licensed.vehicle.plate, driver=str(licensed.driver.pk), photos=[jpeg()])
    response = client.post(url("case_new", olimpia), data)
    case = InfractionCase.objects.get()
    assert response.status_code == 302 and case.permit == permit and case.driver == licensed.driver
    assert case.evidence.count() == 1
    page = client.get(url("case_detail", olimpia, case.pk)).content.decode()
    assert case.number in page and 'data-testid="case-timeline"' in page
    assert client.get(url("case_pdf", olimpia, case.pk)).content.startswith(b"%PDF")
    assert case.number in client.get(url("my_cases", olimpia)).content.decode()


def test_a_refused_form_keeps_the_photos_for_the_resubmission_and_only_for_this_agent(
    olimpia: Municipality, agent_olimpia: User, make_staff: Any, olimpia_licensed: tuple[Case, Permit]
) -> None:
    licensed, _permit = olimpia_licensed
    client = client_for(agent_olimpia)
    data = form_data(plate=licensed.vehicle.plate, driver=str(licensed.driver.pk))
    refused = client.post(
        url("case_new", olimpia), data | {"infraction_code": "", "photos": [jpeg("frente.jpg")]}
    )
    page = refused.content.decode()
    assert refused.status_code == 400 and not InfractionCase.objects.exists()
    assert 'data-testid="kept-photos"' in page and "frente.jpg" in page
    token = re.search(r'name="kept_photos" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]

    other = client_for(make_staff("outro.agente", (olimpia, Role.ENFORCEMENT_AGENT)))
    stranger = other.post(url("case_new", olimpia), data | {"infraction_code": "", "kept_photos": token})
    assert "frente.jpg" not in stranger.content.decode()  # another agent's token keeps nothing

    response = client.post(
        url("case_new", olimpia), data | {"kept_photos": token, "photos": [jpeg("lado.jpg")]}
    )
    assert response.status_code == 302
    assert InfractionCase.objects.get().evidence.count() == 2  # the kept photo and the new one


@pytest.mark.parametrize(
    ("changes", "text"),
    [
        ({"infraction_code": ""}, "escolha uma infração do catálogo"),
        ({"plate": "123"}, "Placa: use o formato"),
        ({"occurred_at": "2099-01-01T10:00"}, "não pode ser posterior"),
        (
            {"photos": [jpeg("a.jpg").__class__("a.jpg", b"GIF89a....", content_type="image/jpeg")]},
            "PDF, JPEG ou PNG",
        ),
    ],
)
def test_refusals_show_on_the_form_and_store_nothing(
    olimpia: Municipality, agent_olimpia: User, changes: dict[str, Any], text: str
) -> None:
    response = client_for(agent_olimpia).post(url("case_new", olimpia), form_data(**changes))
    assert response.status_code == 400
    assert text in response.content.decode()
    assert not InfractionCase.objects.exists()


def test_plate_lookup_says_clandestine_citing_art_27_in_olimpia(
    olimpia: Municipality, agent_olimpia: User
) -> None:
    response = client_for(agent_olimpia).get(url("plate_lookup", olimpia), {"plate": "XYZ1A23"})
    body = response.content.decode()
    assert "transporte clandestino" in body and "art. 27" in body


def test_plate_lookup_finds_the_permit_operator_and_driver(
    olimpia: Municipality, agent_olimpia: User, olimpia_licensed: tuple[Case, Permit]
) -> None:
    licensed, permit = olimpia_licensed
    body = (
        client_for(agent_olimpia)
        .get(url("plate_lookup", olimpia), {"plate": licensed.vehicle.plate})
        .content.decode()
    )
    assert (
        permit.number in body
        and licensed.operator.holder_name in body
        and licensed.driver.person.name in body
    )


def test_infraction_search_by_words_ignores_accents(olimpia: Municipality, agent_olimpia: User) -> None:
    body = client_for(agent_olimpia).get(url("infraction_search", olimpia), {"q": "higiene"}).content.decode()
    assert "OLI-22-IV" in body and "OLI-27" not in body
    # severity and price are read before choosing: what a first offence costs today, from the law
    assert 'data-testid="infraction-penalty-OLI-22-IV"' in body and "1ª infração: Advertência" in body


def test_outsiders_and_other_municipalities_get_404(
    olimpia: Municipality, agent_olimpia: User, agent_votuporanga: User, outsider: User
) -> None:
    case = open_auto(olimpia, agent_olimpia, plate="ABC1D23")
    for user in (agent_votuporanga, outsider):
        client = client_for(user)
        for name, args in (
            ("case_detail", [case.pk]),
            ("case_pdf", [case.pk]),
            ("case_new", []),
            ("my_cases", []),
            ("case_list", []),
            ("edital_list", []),
        ):
            assert client.get(url(name, olimpia, *args)).status_code == 404


def test_a_judge_reads_the_case_but_cannot_file_autos(
    olimpia: Municipality, agent_olimpia: User, judge_olimpia: User
) -> None:
    case = open_auto(olimpia, agent_olimpia, plate="ABC1D23")
    client = client_for(judge_olimpia)
    assert client.get(url("case_detail", olimpia, case.pk)).status_code == 200
    assert client.get(url("case_new", olimpia)).status_code == 404


def test_a_notice_is_sent_from_the_case_page_and_its_pdf_downloads(
    olimpia: Municipality, agent_olimpia: User, django_capture_on_commit_callbacks: Any
) -> None:
    case = open_auto(olimpia, agent_olimpia, plate="ABC1D23")
    client = client_for(agent_olimpia)
    today = timezone.localdate().isoformat()
    with django_capture_on_commit_callbacks(execute=True):  # the PDF is written once the notice commits
        client.post(
            url("notice_new", olimpia, case.pk), {"purpose": "infraction", "channel": "ar", "sent_on": today}
        )
    notice = case.notices.get()
    response = client.get(url("notice_pdf", olimpia, notice.pk))
    assert b"".join(response.streaming_content).startswith(b"%PDF")  # type: ignore[attr-defined]


def test_the_edital_screen_lists_offenders_not_reached(olimpia: Municipality, agent_olimpia: User) -> None:
    case = open_auto(olimpia, agent_olimpia, plate="ABC1D23")
    notice = notice_send(
        case=case,
        actor=agent_olimpia,
        purpose=NoticePurpose.INFRACTION,
        channel=NoticeChannel.AR,
        sent_on=case.drawn_on,
        as_of=timezone.localdate(),
    )
    client = client_for(agent_olimpia)
    client.post(
        url("notice_receipt", olimpia, notice.pk),
        {"received_on": case.drawn_on.isoformat(), "returned_reason": "other"},
    )
    body = client.get(url("edital_new", olimpia)).content.decode()
    assert case.number in body
    response = client.post(
        url("edital_new", olimpia),
        {
            "purpose": "infraction",
            "cases": [str(case.pk)],
            "published_on": timezone.localdate().isoformat(),
            "publication_ref": "DOM 12",
        },
    )
    assert response.status_code == 302
    assert case.notices.filter(channel="edital", ciencia_on__isnull=False).exists()


def test_the_home_card_shows_the_agents_autos(olimpia: Municipality, agent_olimpia: User) -> None:
    open_auto(olimpia, agent_olimpia, plate="ABC1D23")
    body = (
        client_for(agent_olimpia).get(reverse("municipality_home", args=[olimpia.ibge_code])).content.decode()
    )
    assert "Meus autos de infração" in body


def test_the_main_menu_offers_new_autos_only_to_agents(
    olimpia: Municipality, agent_olimpia: User, judge_olimpia: User
) -> None:
    home = reverse("municipality_home", args=[olimpia.ibge_code])
    agent_page = client_for(agent_olimpia).get(home).content.decode()
    judge_page = client_for(judge_olimpia).get(home).content.decode()
    assert 'data-menu="enforcement_new"' in agent_page and 'data-menu="enforcement_cases"' in agent_page
    assert 'data-menu="enforcement_new"' not in judge_page and 'data-menu="enforcement_cases"' in judge_page


def test_the_list_flags_a_patrocinio_auto_whose_notice_limit_passed(
    patrocinio: Municipality, agent_patrocinio: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    case = open_auto(patrocinio, agent_patrocinio, plate="ABC1D23", infraction_code="PAT-5")
    notice_send(
        case=case,
        actor=agent_patrocinio,
        purpose=NoticePurpose.INFRACTION,
        channel=NoticeChannel.IN_PERSON,
        sent_on=dt.date(2026, 3, 12),
        as_of=dt.date(2026, 3, 12),
        signature_name="Paula",
    )
    client = client_for(agent_patrocinio)
    monkeypatch.setattr("apps.enforcement.views._today", lambda: dt.date(2026, 6, 10))
    assert 'data-testid="notice-limit-passed"' not in client.get(url("my_cases", patrocinio)).content.decode()
    monkeypatch.setattr("apps.enforcement.views._today", lambda: dt.date(2026, 6, 11))
    assert 'data-testid="notice-limit-passed"' in client.get(url("case_list", patrocinio)).content.decode()
    page = client.get(url("case_detail", patrocinio, case.pk)).content.decode()
    assert "prazo ultrapassado" in page and "10/06/2026" in page


def test_the_authority_filters_autos_by_state(
    olimpia: Municipality, agent_olimpia: User, judge_olimpia: User
) -> None:
    drafted = open_auto(olimpia, agent_olimpia, plate="ABC1D23")
    notified = open_auto(olimpia, agent_olimpia, plate="ABC1D24")
    notice_send(
        case=notified,
        actor=agent_olimpia,
        purpose=NoticePurpose.INFRACTION,
        channel=NoticeChannel.IN_PERSON,
        sent_on=notified.drawn_on,
        as_of=notified.drawn_on,
        refused=True,
    )
    body = client_for(judge_olimpia).get(url("case_list", olimpia), {"situacao": "notified"}).content.decode()
    assert notified.number in body and drafted.number not in body


def test_the_autos_list_sorts_by_plate_both_ways(
    olimpia: Municipality, agent_olimpia: User, judge_olimpia: User
) -> None:
    later = open_auto(olimpia, agent_olimpia, plate="ZZZ1D99")
    earlier = open_auto(olimpia, agent_olimpia, plate="AAA1D11")
    client = client_for(judge_olimpia)
    ascending = client.get(url("case_list", olimpia), {"ordering": "placa"}).content.decode()
    assert ascending.index(earlier.number) < ascending.index(later.number)
    assert (
        '<th scope="col" aria-sort="ascending"><a class="outorga-sort" href="?ordering=-placa"' in ascending
    )
    descending = client.get(url("case_list", olimpia), {"ordering": "-placa"}).content.decode()
    assert descending.index(later.number) < descending.index(earlier.number)
    assert 'aria-sort="descending"' in descending


def test_a_100_kb_description_is_refused_naming_the_field(olimpia: Municipality, agent_olimpia: User) -> None:
    response = client_for(agent_olimpia).post(url("case_new", olimpia), form_data(description="x" * 102_400))
    assert response.status_code == 400
    assert (
        "Descrição da infração: no máximo 4000 caracteres (o texto tem 102400)." in response.content.decode()
    )
    assert not InfractionCase.objects.exists()


def test_the_autos_pdf_with_personal_data_is_never_stored_by_browsers_or_proxies(
    olimpia: Municipality, agent_olimpia: User
) -> None:
    case = open_auto(olimpia, agent_olimpia, plate="ABC1D23")
    response = client_for(agent_olimpia).get(url("case_pdf", olimpia, case.pk))
    assert response.content.startswith(b"%PDF")
    assert response["Cache-Control"] == "no-store"


def test_opening_an_auto_that_shows_the_holders_cpf_is_an_audited_read(
    olimpia: Municipality, agent_olimpia: User, olimpia_licensed: tuple[Case, Permit]
) -> None:
    from apps.audit.models import AuditEvent
    from apps.audit.services import PERSONAL_DATA_READ

    licensed, _permit = olimpia_licensed
    case = open_auto(olimpia, agent_olimpia, plate=licensed.vehicle.plate)
    client = client_for(agent_olimpia)
    page = client.get(url("case_detail", olimpia, case.pk)).content.decode()
    assert licensed.person.cpf_display in page
    read = AuditEvent.objects.get(action=PERSONAL_DATA_READ, actor_id=agent_olimpia.pk)
    assert (read.object_type, read.object_id) == ("enforcement.infractioncase", str(case.pk))
    assert read.after == {"fields": ["holder_document"]}
