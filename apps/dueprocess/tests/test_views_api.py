"""Screens and API: who sees what (outsiders and the wrong role get 404), the forms' refusals in Portuguese,
and the dívida ativa downloads."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from apps.dueprocess.choices import Instance
from apps.dueprocess.models import Appeal, Judgment
from apps.dueprocess.services import appeal_file
from apps.enforcement.choices import NoticePurpose
from apps.finance.models import PaymentGuide

from .helpers import final_without_appeal, notify, open_case

pytestmark = pytest.mark.django_db
D = dt.date


@pytest.fixture
def filed(olimpia: Any, agent_olimpia: Any, judge_olimpia: Any, olimpia_licensed: Any) -> Any:
    case = open_case(
        olimpia, agent_olimpia, code="OLI-23-I", plate=olimpia_licensed[0].vehicle.plate, on=D(2026, 3, 12)
    )
    notify(case, agent_olimpia, D(2026, 3, 13))
    return appeal_file(
        case=case,
        instance=Instance.FIRST,
        filed_on=D(2026, 3, 16),
        text="Defesa.",
        actor=judge_olimpia,
        as_of=D(2026, 3, 16),
    )


def rows_of(body: Any) -> Any:
    return body["results"] if isinstance(body, dict) else body


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_judge_sees_the_queue_and_judges_others_get_404(
    filed: Any,
    olimpia: Any,
    judge_olimpia: Any,
    board_olimpia: Any,
    outsider_client: Any,
    analyst_olimpia_client: Any,
) -> None:
    queue = reverse("dueprocess:queue", args=[olimpia.ibge_code, "first"])
    judge_page = reverse("dueprocess:judge", args=[olimpia.ibge_code, filed.pk])
    judge = client_for(judge_olimpia)
    assert filed.case.number in judge.get(queue).content.decode()
    for other in (outsider_client, analyst_olimpia_client, client_for(board_olimpia)):
        assert other.get(queue).status_code == 404
        assert (
            other.post(
                judge_page, {"verdict": "upheld", "reasoning": "x", "decided_on": "2026-03-20"}
            ).status_code
            == 404
        )
    assert not Judgment.objects.exists()
    refused = judge.post(judge_page, {"verdict": "upheld", "reasoning": "", "decided_on": "2026-03-20"})
    assert refused.status_code == 400 and "obrigatório" in refused.content.decode()
    done = judge.post(judge_page, {"verdict": "upheld", "reasoning": "Mantido.", "decided_on": "2026-03-20"})
    assert done.status_code == 302 and Judgment.objects.get().decided_by == judge_olimpia


def test_the_queue_sorts_by_filing_date_both_ways(
    filed: Any, olimpia: Any, agent_olimpia: Any, judge_olimpia: Any, olimpia_licensed: Any
) -> None:
    case = open_case(
        olimpia, agent_olimpia, code="OLI-23-I", plate=olimpia_licensed[0].vehicle.plate, on=D(2026, 3, 13)
    )
    notify(case, agent_olimpia, D(2026, 3, 14))
    later = appeal_file(
        case=case,
        instance=Instance.FIRST,
        filed_on=D(2026, 3, 17),
        text="Defesa.",
        actor=judge_olimpia,
        as_of=D(2026, 3, 17),
    )
    queue = reverse("dueprocess:queue", args=[olimpia.ibge_code, "first"])
    judge = client_for(judge_olimpia)
    ascending = judge.get(queue, {"ordering": "protocolo"}).content.decode()
    assert ascending.index(filed.case.number) < ascending.index(later.case.number)
    assert (
        '<th scope="col" aria-sort="ascending"><a class="outorga-sort" href="?ordering=-protocolo"'
        in ascending
    )
    descending = judge.get(queue, {"ordering": "-protocolo"}).content.decode()
    assert descending.index(later.case.number) < descending.index(filed.case.number)
    assert 'aria-sort="descending"' in descending and "Ordenada pelo prazo" not in descending


def test_staff_file_on_paper_and_filing_twice_shows_the_refusal(
    filed: Any, olimpia: Any, analyst_olimpia_client: Any, outsider_client: Any
) -> None:
    url = reverse("dueprocess:appeal_new", args=[olimpia.ibge_code, filed.case_id])
    data = {"instance": "first", "filed_on": "2026-03-17", "text": "De novo."}
    assert outsider_client.post(url, data).status_code == 404
    response = analyst_olimpia_client.post(url, data)
    assert response.status_code == 400 and "já protocolado em 16/03/2026" in response.content.decode()
    page = analyst_olimpia_client.get(reverse("dueprocess:case", args=[olimpia.ibge_code, filed.case_id]))
    assert page.status_code == 200 and "aguardando julgamento" in page.content.decode()
    assert Appeal.objects.count() == 1


def test_api_lists_files_and_judges_through_the_same_gate(
    filed: Any, olimpia: Any, judge_olimpia: Any, board_olimpia: Any, outsider_client: Any
) -> None:
    assert rows_of(outsider_client.get("/api/v1/dueprocess/appeals/").json()) == []
    judge = client_for(judge_olimpia)
    rows = rows_of(
        judge.get(f"/api/v1/dueprocess/appeals/?municipality={olimpia.ibge_code}&pending=1").json()
    )
    assert [row["case_number"] for row in rows] == [filed.case.number]
    url = f"/api/v1/dueprocess/appeals/{filed.pk}/judge/"
    body = {"verdict": "upheld", "reasoning": "Mantido.", "decided_on": "2026-03-20"}
    assert client_for(board_olimpia).post(url, body, content_type="application/json").status_code == 404
    judged = judge.post(url, body, content_type="application/json")
    assert judged.status_code == 200 and judged.json()["judgment"]["verdict"] == "upheld"
    twice = judge.post(url, body, content_type="application/json")
    assert twice.status_code == 400 and "já foi julgado" in json.dumps(twice.json(), ensure_ascii=False)


def test_finance_exports_unpaid_final_fines_and_others_cannot(
    olimpia: Any,
    agent_olimpia: Any,
    judge_olimpia: Any,
    finance_olimpia: Any,
    olimpia_licensed: Any,
    analyst_olimpia_client: Any,
) -> None:
    from apps.dueprocess.services.fines import fine_issue

    case = open_case(
        olimpia, agent_olimpia, code="OLI-23-I", plate=olimpia_licensed[0].vehicle.plate, on=D(2026, 3, 12)
    )
    sanction = final_without_appeal(case, agent_olimpia, judge_olimpia, D(2026, 3, 13), D(2026, 3, 24))
    notify(case, agent_olimpia, D(2026, 3, 25), NoticePurpose.FINAL_DECISION)
    fine_issue(sanction=sanction, actor=finance_olimpia, as_of=D(2026, 3, 25))
    assert PaymentGuide.objects.get().origin_type == "fine"
    finance = client_for(finance_olimpia)
    page = reverse("dueprocess:active_debt", args=[olimpia.ibge_code])
    assert analyst_olimpia_client.get(page).status_code == 404
    download: Any = finance.get(page + "?formato=csv")
    csv_text = b"".join(download.streaming_content).decode("utf-8-sig")
    assert csv_text.splitlines()[0].startswith("Devedor;CPF/CNPJ;")
    assert ";576,30;" in csv_text  # the Brazilian convention, as every list export
    assert case.number in csv_text  # today is long after the 24/04/2026 due date
    api = finance.get(f"/api/v1/dueprocess/active-debt/?municipality={olimpia.ibge_code}").json()
    assert api["count"] == 1 and api["debts"][0]["amount_brl"] == "576.30"
    assert (
        analyst_olimpia_client.get(
            f"/api/v1/dueprocess/active-debt/?municipality={olimpia.ibge_code}"
        ).status_code
        == 404
    )


def test_home_cards_and_menu_for_judge_and_finance(
    filed: Any, olimpia: Any, judge_olimpia: Any, finance_olimpia: Any
) -> None:
    home = reverse("municipality_home", args=[olimpia.ibge_code])
    judge_home = client_for(judge_olimpia).get(home).content.decode()
    assert "Recursos em 1ª instância" in judge_home and "Abrir a fila" in judge_home
    assert "Multas vencidas" not in judge_home
    finance_home = client_for(finance_olimpia).get(home).content.decode()
    assert "Multas vencidas (dívida ativa)" in finance_home and "Recursos em 1ª instância" not in finance_home


def test_the_case_timeline_shows_the_due_process_deadlines(
    olimpia: Any, agent_olimpia: Any, judge_olimpia: Any, olimpia_licensed: Any
) -> None:
    from apps.dueprocess.services import appeal_judge
    from apps.enforcement.timeline import case_timeline

    case = open_case(
        olimpia, agent_olimpia, code="OLI-23-I", plate=olimpia_licensed[0].vehicle.plate, on=D(2026, 3, 12)
    )
    notify(case, agent_olimpia, D(2026, 3, 13))
    appeal = appeal_file(
        case=case,
        instance=Instance.FIRST,
        filed_on=D(2026, 3, 16),
        text="Defesa.",
        actor=judge_olimpia,
        as_of=D(2026, 3, 16),
    )
    marks = {m.label: m for m in case_timeline(case, D(2026, 4, 20))}
    judging = marks["Prazo de julgamento: Recurso em 1ª instância"]
    assert (judging.on, judging.status) == (D(2026, 4, 15), "overdue")
    appeal_judge(
        appeal=appeal,
        verdict="upheld",
        reasoning="Mantido.",
        decided_on=D(2026, 4, 20),
        actor=judge_olimpia,
        as_of=D(2026, 4, 20),
    )
    notify(case, agent_olimpia, D(2026, 4, 22), NoticePurpose.FIRST_DECISION)
    case.refresh_from_db()
    marks = {m.label: m for m in case_timeline(case, D(2026, 4, 23))}
    assert marks["Prazo de julgamento: Recurso em 1ª instância"].status == "late"
    second = marks["Prazo: Recurso em 2ª instância"]
    assert (second.on, second.status) == (D(2026, 5, 4), "due")  # 02/05 is a Saturday


def test_paper_filing_keeps_checked_attachments_and_refuses_the_wrong_type(
    olimpia: Any,
    agent_olimpia: Any,
    olimpia_licensed: Any,
    analyst_olimpia_client: Any,
    outsider_client: Any,
    settings: Any,
    tmp_path: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    settings.MEDIA_ROOT = tmp_path / "media"
    case = open_case(
        olimpia, agent_olimpia, code="OLI-23-I", plate=olimpia_licensed[0].vehicle.plate, on=D(2026, 3, 12)
    )
    notify(case, agent_olimpia, D(2026, 3, 13))
    url = reverse("dueprocess:appeal_new", args=[olimpia.ibge_code, case.pk])
    data = {"instance": "first", "filed_on": "2026-03-16", "text": "Defesa com documentos."}
    gif = SimpleUploadedFile("foto.gif", b"GIF89a" + b"0" * 64, content_type="image/gif")
    refused = analyst_olimpia_client.post(url, {**data, "attachments": [gif]})
    assert refused.status_code == 400 and "PDF" in refused.content.decode() and not Appeal.objects.exists()
    pdf = SimpleUploadedFile(
        "defesa.pdf", b"%PDF-1.4\n" + b"0" * 64 + b"\n%%EOF\n", content_type="application/pdf"
    )
    with django_capture_on_commit_callbacks(execute=True):  # the file is written once the appeal commits
        assert analyst_olimpia_client.post(url, {**data, "attachments": [pdf]}).status_code == 302
    attachment = Appeal.objects.get().attachments.get()
    download = reverse("dueprocess:attachment", args=[olimpia.ibge_code, attachment.pk])
    served = analyst_olimpia_client.get(download)
    assert b"".join(served.streaming_content).startswith(b"%PDF")
    assert (
        f'filename="anexo-recurso-{attachment.appeal_id}-{attachment.pk}.pdf"'
        in served["Content-Disposition"]
    )
    assert outsider_client.get(download).status_code == 404


def test_the_case_page_tells_the_declared_instances_and_when_the_fine_is_due(
    filed: Any, olimpia: Any, analyst_olimpia_client: Any
) -> None:
    """Straight from Olímpia's procedure.yaml: arts. 31 and 32, who judges, art. 21 and art. 33."""
    page = analyst_olimpia_client.get(reverse("dueprocess:case", args=[olimpia.ibge_code, filed.case_id]))
    text = page.content.decode()
    assert "<strong>Recurso em 1ª instância</strong> (Lei 5.171/2025 (Olímpia), art. 31)" in text
    assert (
        "julga: Prefeitura Municipal (recurso de segunda instância) (Lei 5.171/2025 (Olímpia), art. 32)"
        in text
    )
    assert "suspende os efeitos da penalidade (Lei 5.171/2025 (Olímpia), art. 21)" in text
    assert "cobrada já após a condenação em primeira instância (Lei 5.171/2025 (Olímpia), art. 33)" in text


def test_the_appeals_table_names_the_instance_as_the_law_does(
    filed: Any, olimpia: Any, analyst_olimpia_client: Any
) -> None:
    page = analyst_olimpia_client.get(reverse("dueprocess:case", args=[olimpia.ibge_code, filed.case_id]))
    assert "<td>Recurso em 1ª instância</td>" in page.content.decode()
