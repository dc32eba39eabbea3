"""Opening an auto: plate lookup, catalog infraction, date not in the future, evidence checks, warnings."""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.accounts.models import User
from apps.audit.models import AuditEvent
from apps.enforcement.choices import CaseState, EventKind
from apps.enforcement.models import Evidence, InfractionCase
from apps.enforcement.services import AutoDetails, EvidenceUpload, case_mark_traffic_only, case_open
from apps.licensing.casebook import Case
from apps.licensing.models import Permit
from apps.tenancy.models import Municipality

from .conftest import OCCURRED_AT, RECORDED_AT, jpeg

pytestmark = pytest.mark.django_db

FULL = AutoDetails(
    infraction_code="OLI-22-IV",
    plate="",
    occurred_at=OCCURRED_AT,
    place="Rua XV de Novembro, 100",
    description="Veículo com bancos sujos e lixo no assoalho.",
    agent_registration="F-123",
)


def open_auto(municipality: Any, agent: Any, **changes: Any) -> InfractionCase:
    evidence = changes.pop("evidence", [EvidenceUpload(jpeg(), "Bancos sujos")])
    details = dataclasses.replace(FULL, **changes)
    return case_open(
        municipality=municipality, actor=agent, details=details, recorded_at=RECORDED_AT, evidence=evidence
    )


def test_it_finds_vehicle_permit_operator_and_numbers_the_auto(
    olimpia: Municipality,
    agent_olimpia: User,
    olimpia_licensed: tuple[Case, Permit],
    django_capture_on_commit_callbacks: Any,
) -> None:
    licensed, permit = olimpia_licensed
    with django_capture_on_commit_callbacks(execute=True):  # the evidence is written once the auto commits
        case = open_auto(olimpia, agent_olimpia, plate=licensed.vehicle.plate.lower(), driver=licensed.driver)
    assert case.number == "AI-0001/2026"
    assert (case.vehicle, case.permit, case.operator, case.driver) == (
        licensed.vehicle,
        permit,
        licensed.operator,
        licensed.driver,
    )
    assert not case.clandestine and case.state == CaseState.DRAFTED
    assert case.warnings == [] and case.auto_omissions == []
    assert case.agent_name_at_time == "Otávio Agente"
    assert case.events.get().kind == EventKind.OPENED
    assert AuditEvent.objects.filter(action="infractioncase.open", object_id=str(case.pk)).exists()
    assert case.evidence.get().file.read().startswith(b"\xff\xd8\xff")


def test_an_unknown_plate_is_clandestine_transport(olimpia: Municipality, agent_olimpia: User) -> None:
    case = open_auto(olimpia, agent_olimpia, plate="XYZ1A23", infraction_code="OLI-27")
    assert case.clandestine and case.operator is None and case.permit is None


def test_omissions_warn_citing_art_30_and_never_block(olimpia: Municipality, agent_olimpia: User) -> None:
    case = open_auto(
        olimpia, agent_olimpia, plate="XYZ1A23", place="", description="", agent_registration="", evidence=[]
    )
    assert case.pk is not None
    assert case.auto_omissions == [
        "place_date_time",
        "driver_vehicle",
        "officer",
        "description",
        "supporting_documents",
    ]
    assert "art. 30, I" in case.warnings[0]["message"]
    assert "parágrafo único" in case.warnings[0]["message"]


@pytest.mark.parametrize(
    ("changes", "field", "text"),
    [
        ({"infraction_code": ""}, "infraction_code", "catálogo"),
        ({"infraction_code": "VOT-9-I"}, "infraction_code", "catálogo"),
        ({"plate": "12345"}, "plate", "Placa"),
        ({"occurred_at": RECORDED_AT + dt.timedelta(minutes=1)}, "occurred_at", "posterior"),
        ({"occurred_at": OCCURRED_AT.replace(year=1800)}, "occurred_at", "anterior à vigência da lei"),
        (
            {"evidence": [EvidenceUpload(SimpleUploadedFile("x.jpg", b"GIF89a" + b"0" * 50))]},
            "evidence",
            "PDF",
        ),
        (
            {
                "evidence": [
                    EvidenceUpload(SimpleUploadedFile("x.jpg", b"\xff\xd8\xff" + b"0" * (10 * 1024 * 1024)))
                ]
            },
            "evidence",
            "10 MB",
        ),
    ],
)
def test_bad_input_is_refused_in_portuguese_and_nothing_is_stored(
    olimpia: Municipality, agent_olimpia: User, changes: dict[str, Any], field: str, text: str
) -> None:
    changes.setdefault("plate", "ABC1D23")
    with pytest.raises(ValidationError) as raised:
        open_auto(olimpia, agent_olimpia, **changes)
    assert text in raised.value.message_dict[field][0]
    assert not InfractionCase.objects.exists() and not Evidence.objects.exists()
    assert not AuditEvent.objects.filter(action="infractioncase.open").exists()


def test_someone_without_the_agent_role_cannot_open_an_auto(
    olimpia: Municipality, agent_votuporanga: User
) -> None:
    with pytest.raises(ValidationError) as raised:
        open_auto(olimpia, agent_votuporanga, plate="ABC1D23")
    assert "agente de fiscalização" in raised.value.message_dict["agent"][0]


def test_the_patrocinio_notice_limit_waits_for_the_auto_receipt(
    patrocinio: Municipality, agent_patrocinio: User
) -> None:
    case = open_auto(patrocinio, agent_patrocinio, plate="ABC1D23", infraction_code="PAT-5")
    # INT-PAT-ART19-PAR2 counts the 90 days from the receipt of the auto, unknown when it is drawn up.
    assert case.notice_limit is None


def test_the_traffic_only_mark_cites_art_21_par_2(olimpia: Municipality, agent_olimpia: User) -> None:
    case = open_auto(olimpia, agent_olimpia, plate="ABC1D23")
    case = case_mark_traffic_only(
        case=case, actor=agent_olimpia, reference="AIT 123456", as_of=dt.date(2026, 3, 13)
    )
    assert case.already_punished_as_traffic_only
    assert "art. 21, § 2º" in case.events.get(kind=EventKind.TRAFFIC_ONLY_MARKED).note


def test_where_the_law_has_no_traffic_only_guard_the_mark_is_refused_at_opening(
    patrocinio: Municipality, agent_patrocinio: User
) -> None:
    """Patrocínio's procedure.yaml declares the guard absent (art. 17 sends the driver to the CTB as well)."""
    with pytest.raises(ValidationError) as error:
        open_auto(
            patrocinio,
            agent_patrocinio,
            plate="ABC1D23",
            infraction_code="PAT-5",
            already_punished_as_traffic_only=True,
            traffic_only_reference="AIT 1",
        )
    assert "não prevê essa exclusão" in error.value.message_dict["already_punished_as_traffic_only"][0]
    assert not InfractionCase.objects.exists()


def test_omissions_of_contents_the_law_lists_cite_it_and_others_name_the_field(
    patrocinio: Municipality, agent_patrocinio: User
) -> None:
    """Patrocínio art. 19 asks the auto to describe the conduct; it says nothing of the place (generic warning)."""
    case = open_auto(
        patrocinio, agent_patrocinio, plate="ABC1D23", infraction_code="PAT-5", place="", description=""
    )
    assert case.auto_omissions == ["description"]
    by_code = {warning["code"]: warning["message"] for warning in case.warnings}
    assert (
        by_code["description"]
        == "O auto não traz descrição da conduta (Lei 5.832/2025 (Patrocínio), art. 19)."
    )
    assert by_code["place_date_time"] == "Campo não preenchido: local da infração."


def test_every_auto_item_lawcode_knows_is_checked_on_the_record_or_printed_by_the_system() -> None:
    from apps.enforcement.services import PRINTED_BY_THE_SYSTEM, RECORD_OMITS
    from lawcode.procedure import AUTO_ITEMS

    assert set(RECORD_OMITS) | PRINTED_BY_THE_SYSTEM == set(AUTO_ITEMS)
    assert not set(RECORD_OMITS) & PRINTED_BY_THE_SYSTEM
