"""The application workflow through the services, per regime: the law decides, every move is audited,
illegal moves and legal refusals are Portuguese messages that name the field or the article, nothing stored."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from apps.audit.models import AuditEvent
from apps.finance.services import fee_schedule_create, finance_settings_save, payment_register
from apps.lawconfig.services import fiscal_unit_value_set
from apps.licensing import services
from apps.licensing.casebook import PROFILES, Case, extra_vehicle, make_driver, make_person, upload_documents
from apps.licensing.models import Application, ApplicationEvent, Permit
from apps.licensing.tests.conftest import AS_OF, issue_permit, to_analysis
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db


def messages_of(error: pytest.ExceptionInfo[ValidationError]) -> str:
    return " ".join(error.value.messages)


def test_olimpia_pf_goes_from_application_to_permit_with_the_laws_validity(olimpia_pf: Case) -> None:
    permit = issue_permit(olimpia_pf)
    assert permit.number == "0001/2026"
    assert permit.state == "active"
    assert permit.valid_until == dt.date(2027, 3, 10)  # art. 13: yearly, date to date
    assert "art. 13" in " ".join(c["text"] for c in permit.decision["citations"])
    application = permit.application
    assert application is not None and application.state == "approved"
    kinds = list(application.events.values_list("kind", flat=True))
    assert kinds == [
        "created",
        "submitted",
        "analysis_started",
        "inspection_required",
        "inspection_passed",
        "approved",
        "permit_issued",
    ]
    actions = set(
        AuditEvent.objects.filter(
            object_id=str(application.pk), object_type="licensing.application"
        ).values_list("action", flat=True)
    )
    assert {"application.create", "application.submitted", "application.approved"} <= actions


def test_votuporanga_pj_permit_uses_the_issue_day_counting(votuporanga_pj: Case) -> None:
    permit = issue_permit(votuporanga_pj)
    assert permit.valid_until == dt.date(2027, 3, 9)  # art. 6º, counting the issue day
    assert permit.operator.kind == "PJ"


def _patrocinio_fees(patrocinio: Municipality) -> None:
    fiscal_unit_value_set(
        actor=None,
        municipality=patrocinio,
        valid_from=dt.date(2026, 1, 1),
        value_brl=Decimal("100.0000"),
        cite="art8",
        source="Decreto de teste",
    )
    finance_settings_save(
        actor=None,
        municipality=patrocinio,
        pix_key="financeiro@patrocinio.mg.gov.br",
        receiver_name="PREFEITURA DE PATROCINIO",
        receiver_city="PATROCINIO",
        guide_due_days=10,
    )
    fee_schedule_create(
        actor=None,
        municipality=patrocinio,
        regime_id=None,
        fee_kind="inspection",
        quantity=Decimal("0.25"),
        unit="ufm",
        cite="art8",
        valid_from=dt.date(2025, 1, 1),
    )


def test_patrocinio_fee_payment_moves_to_inspection_and_counts_as_the_receipt(
    patrocinio_pf: Case, patrocinio: Municipality
) -> None:
    _patrocinio_fees(patrocinio)
    application = to_analysis(patrocinio_pf)
    application = services.application_evaluate(application=application, actor=None, as_of=AS_OF)
    assert application.last_decision["outcome"] == "denied"  # art. 8: the inspection fee is not paid yet
    application = services.application_require_fee(
        application=application, actor=None, as_of=AS_OF, fee_kind="inspection"
    )
    guide = application.fee_guide
    assert application.state == "awaiting_fee" and guide is not None and guide.amount_brl == Decimal("25.00")
    payment_register(
        actor=None,
        guide=guide,
        paid_on=AS_OF,
        amount_brl=guide.amount_brl,
        method="pix",
        reference="E2E",
        as_of=AS_OF,
    )
    application.refresh_from_db()
    assert application.state == "awaiting_inspection"
    paid = application.events.get(kind="fee_paid")
    # art. 8: 5 days after paying; 15/03/2026 is a Sunday, so the engine moves it to Monday
    assert paid.data["inspection_deadline"] == "2026-03-16"
    services.application_inspection_passed(
        application=application, performed_on=AS_OF, actor=None, as_of=AS_OF
    )
    services.application_approve(application=application, actor=None, as_of=AS_OF)
    permit = Permit.objects.get(application=application)
    assert permit.valid_until == dt.date(2027, 3, 10)  # art. 4º II b: yearly vistoria


def test_an_illegal_transition_is_refused_in_portuguese_and_changes_nothing(olimpia_pf: Case) -> None:
    application = services.application_create(
        actor=None,
        operator=olimpia_pf.operator,
        kind="vehicle_permit",
        as_of=AS_OF,
        vehicle=olimpia_pf.vehicle,
    )
    events = ApplicationEvent.objects.count()
    with pytest.raises(ValidationError) as error:
        services.application_approve(application=application, actor=None, as_of=AS_OF)
    assert "Só se defere um requerimento em análise" in messages_of(error) and "Rascunho" in messages_of(
        error
    )
    application.refresh_from_db()
    assert application.state == "draft" and ApplicationEvent.objects.count() == events


def test_approval_without_an_approved_inspection_is_refused(olimpia_pf: Case) -> None:
    application = to_analysis(olimpia_pf)
    with pytest.raises(ValidationError) as error:
        services.application_approve(application=application, actor=None, as_of=AS_OF)
    assert error.value.message_dict["inspection"] == [
        f"Deferimento do {application.number}: o veículo ainda não foi aprovado em vistoria."
    ]


def test_second_permit_for_an_olimpia_pf_is_refused_with_art_2_and_nothing_stored(olimpia_pf: Case) -> None:
    issue_permit(olimpia_pf)
    second = extra_vehicle(olimpia_pf, 11, as_of=AS_OF)
    application = to_analysis(olimpia_pf, vehicle=second)
    services.application_require_inspection(application=application, actor=None, as_of=AS_OF)
    services.application_inspection_passed(
        application=application, performed_on=AS_OF, actor=None, as_of=AS_OF
    )
    permits, events = Permit.objects.count(), ApplicationEvent.objects.count()
    with pytest.raises(ValidationError) as error:
        services.application_approve(application=application, actor=None, as_of=AS_OF)
    assert "Lei 5.171/2025 (Olímpia), art. 2º" in messages_of(error)
    assert Permit.objects.count() == permits and ApplicationEvent.objects.count() == events
    application.refresh_from_db()
    assert application.state == "in_analysis"


def test_sixth_vehicle_for_a_votuporanga_pj_is_refused_with_art_5(votuporanga_pj: Case) -> None:
    for number in range(5):
        vehicle = (
            votuporanga_pj.vehicle if number == 0 else extra_vehicle(votuporanga_pj, 20 + number, as_of=AS_OF)
        )
        issue_permit(votuporanga_pj, vehicle=vehicle)
    sixth = extra_vehicle(votuporanga_pj, 30, as_of=AS_OF)
    with pytest.raises(ValidationError) as error:
        issue_permit(votuporanga_pj, vehicle=sixth)
    assert "art. 5º" in messages_of(error)
    assert Permit.objects.filter(operator=votuporanga_pj.operator).count() == 5
    assert not Permit.objects.filter(vehicle=sixth).exists()


def test_third_driver_on_a_patrocinio_car_is_refused_with_art_4_i_b(
    patrocinio_pf: Case, patrocinio: Municipality
) -> None:
    profile = PROFILES["patrocinio_mg_aplicativo"]
    for number, name in ((41, "Segundo Condutor"), (42, "Terceiro Condutor")):
        person = make_person(patrocinio, number, name, as_of=AS_OF, profile=profile)
        make_driver(
            patrocinio_pf.operator,
            person,
            as_of=AS_OF,
            profile=profile,
            vehicle=patrocinio_pf.vehicle,
            role="auxiliary",
        )
    upload_documents(
        patrocinio_pf.vehicle, ("inspection_fee_receipt",), as_of=AS_OF, regime_id="patrocinio_mg_aplicativo"
    )
    application = to_analysis(patrocinio_pf)
    application = services.application_evaluate(application=application, actor=None, as_of=AS_OF)
    failed = {x["code"]: x for x in application.last_decision["findings"] if x["status"] == "not_met"}
    assert set(failed) == {"drivers_per_vehicle", "inspection"}  # the vistoria comes later in the flow
    assert "art. 4º, I, b" in failed["drivers_per_vehicle"]["citations"][0]["text"]
    services.application_require_inspection(application=application, actor=None, as_of=AS_OF)
    services.application_inspection_passed(
        application=application, performed_on=AS_OF, actor=None, as_of=AS_OF
    )
    with pytest.raises(ValidationError) as error:
        services.application_approve(application=application, actor=None, as_of=AS_OF)
    assert "Lei 5.832/2025 (Patrocínio), art. 4º, I, b" in messages_of(error)
    assert not Permit.objects.exists()


def test_denial_names_the_articles_of_the_failed_findings(olimpia: Municipality) -> None:
    old = _old_vehicle_case(olimpia)
    application = services.application_evaluate(application=to_analysis(old), actor=None, as_of=AS_OF)
    denied = services.application_deny(
        application=application, actor=None, as_of=AS_OF, note="Veículo antigo."
    )
    event = denied.events.get(kind="denied")
    assert denied.state == "denied" and denied.decided_on == AS_OF
    assert any("art. 13, II" in article for article in event.data["articles"])
    assert "Fundamento:" in event.note and "Veículo antigo." in event.note


def _old_vehicle_case(olimpia: Municipality) -> Case:
    from apps.licensing.casebook import pf_case

    return pf_case(olimpia, 7, "Carlos Antigo", as_of=AS_OF, manufacture_year=2005, model_year=2005)


def test_denial_without_an_unfavourable_decision_is_refused(olimpia_pf: Case) -> None:
    application = services.application_evaluate(application=to_analysis(olimpia_pf), actor=None, as_of=AS_OF)
    with pytest.raises(ValidationError) as error:
        services.application_deny(application=application, actor=None, as_of=AS_OF)
    assert "só com uma avaliação da lei desfavorável" in messages_of(error)


def test_patrocinio_refusal_opens_the_15_day_cure_window_then_archives_with_fees_lost(
    patrocinio_pf: Case,
) -> None:
    application = services.application_evaluate(
        application=to_analysis(patrocinio_pf), actor=None, as_of=AS_OF
    )
    pending = services.application_request_documents(
        application=application, actor=None, as_of=AS_OF, note="Comprovar o pagamento da taxa de vistoria."
    )
    assert pending.cure_deadline == dt.date(2026, 3, 25)  # art. 7º parágrafo único
    later = dt.date(2026, 3, 26)
    archived = services.application_archive(
        application=pending, actor=None, as_of=later, reason="Prazo vencido."
    )
    assert archived.state == "archived" and archived.fees_forfeited


def test_requesting_documents_needs_the_list_of_what_is_missing(olimpia_pf: Case) -> None:
    application = to_analysis(olimpia_pf)
    with pytest.raises(ValidationError) as error:
        services.application_request_documents(application=application, actor=None, as_of=AS_OF, note="  ")
    assert error.value.message_dict["note"] == ["Pendências: descreva os documentos ou correções pedidos."]


def test_a_target_of_another_operator_is_refused(olimpia_pf: Case, olimpia: Municipality) -> None:
    from apps.licensing.casebook import pf_case

    other = pf_case(olimpia, 8, "Outra Pessoa", as_of=AS_OF)
    with pytest.raises(ValidationError) as error:
        services.application_create(
            actor=None,
            operator=olimpia_pf.operator,
            kind="vehicle_permit",
            as_of=AS_OF,
            vehicle=other.vehicle,
        )
    assert error.value.message_dict["vehicle"] == ["Veículo: não pertence a este autorizatário."]
    assert not Application.objects.exists()


def test_a_future_platform_notice_date_is_refused(patrocinio_pf: Case) -> None:
    with pytest.raises(ValidationError) as error:
        services.application_create(
            actor=None,
            operator=patrocinio_pf.operator,
            kind="temporary_vehicle",
            as_of=AS_OF,
            vehicle=patrocinio_pf.vehicle,
            platform_notified_on=AS_OF + dt.timedelta(days=1),
        )
    assert "Data da comunicação da plataforma: não pode ser posterior a 10/03/2026." in messages_of(error)


def test_renewal_issues_a_new_number_and_closes_the_old_permit(olimpia_pf: Case) -> None:
    first = issue_permit(olimpia_pf)
    renewed = issue_permit(olimpia_pf, "renewal", permit=first, as_of=AS_OF + dt.timedelta(days=20))
    first.refresh_from_db()
    assert renewed.number == "0002/2026" and renewed.replaces == first
    assert renewed.valid_until == dt.date(2027, 3, 30)
    assert first.state == "expired" and "Renovado pelo alvará 0002/2026" in first.closed_reason


def test_votuporanga_substitution_needs_the_decharacterization_proof(votuporanga_pj: Case) -> None:
    first = issue_permit(votuporanga_pj)
    new_vehicle = extra_vehicle(votuporanga_pj, 50, as_of=AS_OF)
    with pytest.raises(ValidationError) as error:
        issue_permit(votuporanga_pj, "substitution", vehicle=new_vehicle, permit=first)
    assert "art. 4º, § 3º" in messages_of(error)
    first.refresh_from_db()
    assert first.state == "active"


def test_votuporanga_substitution_with_proof_closes_the_old_permit(votuporanga_pj: Case) -> None:
    first = issue_permit(votuporanga_pj)
    new_vehicle = extra_vehicle(votuporanga_pj, 51, as_of=AS_OF)
    upload_documents(
        new_vehicle, ("decharacterization_proof",), as_of=AS_OF, regime_id="votuporanga_sp_escolar"
    )
    second = issue_permit(votuporanga_pj, "substitution", vehicle=new_vehicle, permit=first)
    first.refresh_from_db()
    assert first.state == "cancelled" and second.replaces == first and second.vehicle == new_vehicle


def test_votuporanga_temporary_vehicle_allows_one_extension_only(votuporanga_pj: Case) -> None:
    first = issue_permit(votuporanga_pj)
    spare = extra_vehicle(votuporanga_pj, 60, as_of=AS_OF)
    temporary = issue_permit(votuporanga_pj, "temporary_vehicle", vehicle=spare, permit=first, extensions=1)
    assert temporary.kind == "temporary" and temporary.valid_until == dt.date(2026, 5, 8)  # 30 + 30 days
    spare2 = extra_vehicle(votuporanga_pj, 61, as_of=AS_OF)
    with pytest.raises(ValidationError) as error:
        issue_permit(votuporanga_pj, "temporary_vehicle", vehicle=spare2, permit=first, extensions=2)
    assert "art. 8º" in messages_of(error)


def test_emergency_driver_gets_a_special_authorization_until_the_date_asked(
    votuporanga_pj: Case, votuporanga: Municipality
) -> None:
    permit = issue_permit(votuporanga_pj)
    profile = PROFILES["votuporanga_sp_escolar"]
    person = make_person(votuporanga, 70, "Eduardo Emergência", as_of=AS_OF, profile=profile)
    driver = make_driver(
        votuporanga_pj.operator, person, as_of=AS_OF, profile=profile, vehicle=None, role="emergency"
    )
    application = to_analysis(
        votuporanga_pj,
        "emergency_driver",
        driver=driver,
        permit=permit,
        requested_until=dt.date(2026, 4, 10),
        reason="Titular em licença médica.",
    )
    services.application_approve(application=application, actor=None, as_of=AS_OF)
    special = Permit.objects.get(application=application)
    assert (
        special.kind == "emergency"
        and special.driver == driver
        and special.valid_until == dt.date(2026, 4, 10)
    )


def test_an_emergency_authorization_without_its_end_date_is_refused_citing_the_declared_article(
    votuporanga_pj: Case, votuporanga: Municipality
) -> None:
    permit = issue_permit(votuporanga_pj)
    profile = PROFILES["votuporanga_sp_escolar"]
    person = make_person(votuporanga, 71, "Elisa Emergência", as_of=AS_OF, profile=profile)
    driver = make_driver(
        votuporanga_pj.operator, person, as_of=AS_OF, profile=profile, vehicle=None, role="emergency"
    )
    application = to_analysis(
        votuporanga_pj, "emergency_driver", driver=driver, permit=permit, reason="Licença."
    )
    with pytest.raises(ValidationError) as error:
        services.application_approve(application=application, actor=None, as_of=AS_OF)
    assert "Prazo da autorização especial (Lei 5.722/2015" in messages_of(error)
    assert "art. 7º" in messages_of(error)


def test_cancellation_at_the_operators_request_closes_the_permit(olimpia_pf: Case) -> None:
    permit = issue_permit(olimpia_pf)
    application = to_analysis(
        olimpia_pf, "cancellation", permit=permit, reason="Encerrou a atividade (art. 16)."
    )
    services.application_approve(application=application, actor=None, as_of=AS_OF)
    permit.refresh_from_db()
    assert permit.state == "cancelled" and application.number in permit.closed_reason


def test_a_permit_makes_its_pending_holder_an_active_operator(olimpia_pf: Case) -> None:
    assert olimpia_pf.operator.status == "pending"
    issue_permit(olimpia_pf)
    olimpia_pf.operator.refresh_from_db()
    assert (
        olimpia_pf.operator.get_status_display() == "Ativo"
    )  # never "Em cadastro" next to a permit in force
    assert olimpia_pf.operator.registered_on == AS_OF
    assert AuditEvent.objects.filter(action="registry.operator.status").exists()


def test_operator_registration_activates_the_operator(olimpia_pf: Case) -> None:
    application = to_analysis(olimpia_pf, "operator_registration", vehicle=olimpia_pf.vehicle)
    application = services.application_evaluate(application=application, actor=None, as_of=AS_OF)
    assert application.last_decision["outcome"] == "granted"
    services.application_approve(application=application, actor=None, as_of=AS_OF)
    olimpia_pf.operator.refresh_from_db()
    assert olimpia_pf.operator.status == "active" and olimpia_pf.operator.registered_on == AS_OF


def test_revocation_changes_the_verification_token(olimpia_pf: Case) -> None:
    permit = issue_permit(olimpia_pf)
    token = permit.qr_token
    revoked = services.permit_revoke(permit=permit, actor=None, as_of=AS_OF, reason="Cassação (art. 26).")
    assert revoked.state == "revoked" and revoked.qr_token != token and len(revoked.qr_token) >= 32


def test_olimpia_temporary_vehicle_lasts_30_days_from_the_inspection(olimpia_pf: Case) -> None:
    first = issue_permit(olimpia_pf)
    spare = extra_vehicle(olimpia_pf, 90, as_of=AS_OF)
    temporary = issue_permit(olimpia_pf, "temporary_vehicle", vehicle=spare, permit=first)
    assert temporary.kind == "temporary" and temporary.valid_until == dt.date(2026, 4, 9)  # art. 14
    first.refresh_from_db()
    assert first.state == "active"  # the vehicle is only temporarily out of use


def test_patrocinio_temporary_rented_car_needs_the_platform_notice(patrocinio_pf: Case) -> None:
    upload_documents(
        patrocinio_pf.vehicle, ("inspection_fee_receipt",), as_of=AS_OF, regime_id="patrocinio_mg_aplicativo"
    )
    first = issue_permit(patrocinio_pf)
    rented = extra_vehicle(patrocinio_pf, 91, as_of=AS_OF, ownership_kind="rental")
    with pytest.raises(ValidationError) as error:
        issue_permit(patrocinio_pf, "temporary_vehicle", vehicle=rented, permit=first)
    assert "art. 11-A" in messages_of(error) and "plataforma" in messages_of(error)
    notified = issue_permit(
        patrocinio_pf, "temporary_vehicle", vehicle=rented, permit=first, platform_notified_on=AS_OF
    )
    assert notified.kind == "temporary" and notified.valid_until is None  # lasts while the impediment lasts


def test_a_new_application_by_a_banned_person_is_refused_with_article_and_end_date(olimpia_pf: Case) -> None:
    from apps.registry.services import ban_record

    ban_record(
        actor=None,
        municipality=olimpia_pf.operator.municipality,
        reason_code="art26_cassacao",
        start=dt.date(2026, 1, 5),
        until=dt.date(2028, 1, 4),
        source="Processo 12/2025",
        decision={},
        person=olimpia_pf.person,
    )
    with pytest.raises(ValidationError) as error:
        services.application_create(
            actor=None,
            operator=olimpia_pf.operator,
            kind="vehicle_permit",
            as_of=AS_OF,
            vehicle=olimpia_pf.vehicle,
        )
    message = error.value.message_dict["operator"][0]
    assert "até 04/01/2028" in message and "art. 26" in message
    assert not Application.objects.exists()
