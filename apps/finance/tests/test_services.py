from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from apps.audit.models import AuditEvent
from apps.finance import pix
from apps.finance.choices import FeeKind, GuideStatus, OriginType, PaymentMethod, RefundStatus
from apps.finance.models import FeeSchedule, Payment, PaymentGuide, Refund
from apps.finance.origins import payment_handlers_replaced
from apps.finance.services import (
    fee_guide_issue,
    fee_schedule_create,
    finance_settings_save,
    guide_cancel,
    guide_issue,
    payment_register,
    refund_create,
    refund_mark_paid,
)
from apps.finance.tests.conftest import DAY, add_patrocinio_ufm, configure_pix, issue_permit_guide
from apps.finance.valuation import Charge
from apps.tenancy.models import Counter, Municipality

pytestmark = pytest.mark.django_db


def pay(guide: PaymentGuide, **overrides: Any) -> Payment:
    fields: dict[str, Any] = {
        "paid_on": DAY,
        "amount_brl": guide.amount_brl,
        "method": PaymentMethod.PIX,
        "reference": "E2E123",
        "as_of": DAY,
    }
    fields.update(overrides)
    return payment_register(actor=None, guide=guide, **fields)


def issue_inspection_guide(patrocinio: Municipality, day: dt.date = DAY, origin_id: int = 7) -> PaymentGuide:
    return fee_guide_issue(
        actor=None,
        municipality=patrocinio,
        fee_kind=FeeKind.INSPECTION,
        payer_name="Maria Motorista",
        payer_document="52998224725",
        origin_type=OriginType.APPLICATION,
        origin_id=origin_id,
        fact_date=day,
        as_of=day,
    )


# --- Patrocínio: 0,25 UFM (art. 8) --------------------------------------------------------------------


def test_the_inspection_fee_guide_fails_while_patrocinios_ufm_is_not_configured(
    patrocinio: Municipality, patrocinio_inspection_fee: FeeSchedule
) -> None:
    with pytest.raises(ValidationError) as error:
        issue_inspection_guide(patrocinio)
    message = error.value.message_dict["amount_brl"][0]
    assert "0,25 UFM" in message and "art. 8" in message
    assert "valor da UFM vigente em 02/03/2026, ainda não cadastrado" in message
    assert "configuração legal do município" in message
    assert "administrador" in message
    assert not PaymentGuide.objects.exists()
    assert not Counter.objects.exists()  # nothing stored, not even a consumed number


def test_the_inspection_fee_guide_is_valued_once_an_administrator_adds_the_ufm(
    patrocinio: Municipality, patrocinio_inspection_fee: FeeSchedule
) -> None:
    add_patrocinio_ufm(patrocinio, "4.3587")
    guide = issue_inspection_guide(patrocinio)
    assert guide.amount_brl == Decimal("1.09")  # 0.25 × 4.3587 = 1.089675 → R$ 1,09 (half up)
    assert (guide.quantity, guide.unit) == (Decimal("0.25"), "ufm")
    assert guide.unit_value_used == Decimal("4.3587")
    assert guide.valuation_date == DAY  # INT-PAT-UFM-DATE default: the date of the chargeable fact
    assert guide.legal_basis.endswith("art. 8º")
    assert guide.conversion["question"] == "fine_amount"
    assert pix.parse(guide.pix_payload)["54"] == "1.09"


def test_the_ufm_in_force_on_the_fact_date_values_the_fee(
    patrocinio: Municipality, patrocinio_inspection_fee: FeeSchedule
) -> None:
    add_patrocinio_ufm(patrocinio, "4.00", dt.date(2026, 1, 1))
    add_patrocinio_ufm(patrocinio, "6.00", dt.date(2026, 3, 1))
    assert issue_inspection_guide(patrocinio, dt.date(2026, 2, 27)).amount_brl == Decimal("1.00")
    assert issue_inspection_guide(patrocinio, dt.date(2026, 3, 2), origin_id=8).amount_brl == Decimal("1.50")


# --- issuing --------------------------------------------------------------------------------------------


def test_it_issues_a_numbered_guide_with_its_pix_code_and_audit_event(
    olimpia: Municipality, olimpia_permit_fee: FeeSchedule
) -> None:
    guide = issue_permit_guide(olimpia)
    assert guide.number == "000001/2026" and guide.status == GuideStatus.OPEN
    assert guide.amount_brl == Decimal("150.00") and guide.unit_value_used is None
    assert guide.payer_document == "52998224725"
    fields = pix.parse(guide.pix_payload)
    assert (fields["54"], fields["59"], fields["60"]) == ("150.00", "PREFEITURA DE OLIMPIA", "OLIMPIA")
    assert pix.parse_fields(fields["62"])["05"] == "35339082026000001"
    event = AuditEvent.objects.get(action="payment_guide.issue")
    assert event.after is not None
    assert event.object_id == str(guide.pk) and event.after["number"] == "000001/2026"


def test_numbers_are_sequential_per_municipality_and_restart_each_year(
    olimpia: Municipality,
    patrocinio: Municipality,
    olimpia_permit_fee: FeeSchedule,
    patrocinio_inspection_fee: FeeSchedule,
) -> None:
    add_patrocinio_ufm(patrocinio)
    first, second = issue_permit_guide(olimpia, 1), issue_permit_guide(olimpia, 2)
    other_town = issue_inspection_guide(patrocinio)
    next_year = issue_permit_guide(olimpia, 3, dt.date(2027, 1, 4))
    assert [first.number, second.number, other_town.number] == ["000001/2026", "000002/2026", "000001/2026"]
    assert next_year.number == "000001/2027"


def test_the_due_date_moves_to_the_next_business_day(
    olimpia: Municipality, olimpia_permit_fee: FeeSchedule
) -> None:
    guide = issue_permit_guide(olimpia, day=dt.date(2026, 4, 11))  # + 10 days = Tuesday 21 April (Tiradentes)
    assert guide.due_on == dt.date(2026, 4, 22)


def test_it_refuses_a_second_open_guide_for_the_same_charge(
    olimpia: Municipality, olimpia_permit_fee: FeeSchedule
) -> None:
    first = issue_permit_guide(olimpia)
    with pytest.raises(ValidationError, match="Já existe a guia 000001/2026"):
        issue_permit_guide(olimpia)
    guide_cancel(actor=None, guide=first, reason="Emitida com erro", as_of=DAY)
    assert issue_permit_guide(olimpia).number == "000002/2026"


def test_it_refuses_an_invalid_payer_document(olimpia: Municipality, olimpia_permit_fee: FeeSchedule) -> None:
    with pytest.raises(ValidationError) as error:
        fee_guide_issue(
            actor=None,
            municipality=olimpia,
            fee_kind=FeeKind.PERMIT,
            payer_name="José",
            payer_document="111.111.111-12",
            origin_type=OriginType.APPLICATION,
            origin_id=1,
            fact_date=DAY,
            as_of=DAY,
        )
    assert error.value.message_dict["payer_document"][0].startswith("CPF/CNPJ do contribuinte: CPF")
    assert not PaymentGuide.objects.exists()


def test_it_refuses_a_fee_the_municipality_has_not_configured(olimpia: Municipality) -> None:
    configure_pix(olimpia)
    with pytest.raises(ValidationError, match="Taxa de vistoria: Olímpia não tem esta taxa configurada"):
        fee_guide_issue(
            actor=None,
            municipality=olimpia,
            fee_kind=FeeKind.INSPECTION,
            payer_name="José",
            payer_document="52998224725",
            origin_type=OriginType.APPLICATION,
            origin_id=1,
            fact_date=DAY,
            as_of=DAY,
        )


def test_it_refuses_to_issue_without_a_pix_receiver(olimpia: Municipality) -> None:
    charge = Charge(quantity=Decimal("10"), unit="brl", cite="art3", description="Taxa")
    with pytest.raises(ValidationError, match="ainda não configurou a chave PIX"):
        guide_issue(
            actor=None,
            municipality=olimpia,
            regime_id=None,
            charge=charge,
            payer_name="José",
            payer_document="52998224725",
            origin_type=OriginType.APPLICATION,
            origin_id=1,
            fact_date=DAY,
            as_of=DAY,
        )


def test_it_refuses_a_fact_date_after_the_issue_date(
    olimpia: Municipality, olimpia_permit_fee: FeeSchedule
) -> None:
    with pytest.raises(ValidationError, match="Data do fato gerador"):
        fee_guide_issue(
            actor=None,
            municipality=olimpia,
            fee_kind=FeeKind.PERMIT,
            payer_name="José",
            payer_document="52998224725",
            origin_type=OriginType.APPLICATION,
            origin_id=1,
            fact_date=DAY + dt.timedelta(days=1),
            as_of=DAY,
        )


def test_a_unit_the_regime_does_not_declare_is_refused(votuporanga: Municipality) -> None:
    configure_pix(votuporanga)
    charge = Charge(quantity=Decimal("15"), unit="ufesp", cite="art13", description="Multa")
    with pytest.raises(ValidationError) as error:
        guide_issue(
            actor=None,
            municipality=votuporanga,
            regime_id=None,
            charge=charge,
            payer_name="José",
            payer_document="11.222.333/0001-81",
            origin_type=OriginType.FINE,
            origin_id=3,
            fact_date=DAY,
            as_of=DAY,
        )
    assert "'ufesp' não é prevista pela lei do regime (unidades previstas: R$, UFM)" in str(error.value)


def test_a_fine_in_the_regimes_fiscal_unit_is_valued_by_the_engine(votuporanga: Municipality) -> None:
    configure_pix(votuporanga)
    charge = Charge(quantity=Decimal("85"), unit="ufm", cite="art13", description="Multa")
    guide = guide_issue(
        actor=None,
        municipality=votuporanga,
        regime_id=None,
        charge=charge,
        payer_name="José",
        payer_document="11.222.333/0001-81",
        origin_type=OriginType.FINE,
        origin_id=3,
        fact_date=DAY,
        as_of=DAY,
    )
    assert guide.amount_brl == Decimal("463.25")  # 85 × R$ 5,45 (UFM de Votuporanga em 2026, art. 13)
    assert (guide.unit_value_used, guide.valuation_date) == (Decimal("5.45"), DAY)
    assert guide.payer_document == "11222333000181"


# --- fee schedule and settings --------------------------------------------------------------------------


def test_a_fee_must_cite_a_dispositivo_that_exists(patrocinio: Municipality) -> None:
    with pytest.raises(ValidationError) as error:
        fee_schedule_create(
            actor=None,
            municipality=patrocinio,
            regime_id=None,
            fee_kind=FeeKind.PERMIT,
            quantity=Decimal("1"),
            unit="ufm",
            cite="art99",
            valid_from=DAY,
        )
    assert "art99" in error.value.message_dict["cite"][0]
    assert not FeeSchedule.objects.exists()


def test_a_fee_must_be_of_a_regime_the_municipality_runs(patrocinio: Municipality) -> None:
    with pytest.raises(ValidationError, match="Regime:"):
        fee_schedule_create(
            actor=None,
            municipality=patrocinio,
            regime_id="olimpia_sp_escolar",
            fee_kind=FeeKind.PERMIT,
            quantity=Decimal("1"),
            unit="brl",
            cite="art3",
            valid_from=DAY,
        )


def test_settings_refuse_a_long_receiver_name_and_store_nothing(olimpia: Municipality) -> None:
    with pytest.raises(ValidationError) as error:
        finance_settings_save(
            actor=None,
            municipality=olimpia,
            pix_key="52998224725",
            receiver_name="Prefeitura Municipal da Estância Turística de Olímpia",
            receiver_city="Olímpia",
            guide_due_days=10,
        )
    assert "Nome do recebedor" in error.value.message_dict["receiver_name"][0]
    assert not AuditEvent.objects.filter(action="finance_settings.save").exists()


def test_settings_store_names_as_the_qr_code_carries_them(olimpia: Municipality) -> None:
    settings = finance_settings_save(
        actor=None,
        municipality=olimpia,
        pix_key="52998224725",
        receiver_name="Prefeitura de Olímpia",
        receiver_city="Olímpia",
        guide_due_days=15,
    )
    assert (settings.receiver_name, settings.receiver_city) == ("Prefeitura de Olimpia", "Olimpia")


# --- payments -------------------------------------------------------------------------------------------


def test_it_registers_a_payment_and_marks_the_guide_paid(
    olimpia: Municipality, olimpia_permit_fee: FeeSchedule
) -> None:
    guide = issue_permit_guide(olimpia)
    payment = pay(guide)
    guide.refresh_from_db()
    assert guide.status == GuideStatus.PAID and payment.amount_brl == Decimal("150.00")
    event = AuditEvent.objects.get(action="payment.register")
    assert event.after is not None and event.after["guide_status"] == "paid"


def test_it_refuses_paying_a_guide_twice(olimpia: Municipality, olimpia_permit_fee: FeeSchedule) -> None:
    guide = issue_permit_guide(olimpia)
    pay(guide)
    with pytest.raises(ValidationError, match="não se paga duas vezes"):
        pay(guide)
    assert Payment.objects.count() == 1


def test_it_refuses_paying_a_cancelled_guide(olimpia: Municipality, olimpia_permit_fee: FeeSchedule) -> None:
    guide = guide_cancel(
        actor=None, guide=issue_permit_guide(olimpia), reason="Requerimento desistido", as_of=DAY
    )
    with pytest.raises(ValidationError, match="está cancelada"):
        pay(guide)
    assert not Payment.objects.exists()


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        (
            {"amount_brl": Decimal("149.99")},
            "amount_brl",
            "Valor pago: R$ 149,99 difere do valor da guia (R$ 150,00)",
        ),
        ({"paid_on": DAY + dt.timedelta(days=1)}, "paid_on", "não pode ser no futuro"),
        ({"paid_on": DAY - dt.timedelta(days=1)}, "paid_on", "anterior à emissão"),
        ({"method": "cheque"}, "method", "Forma de pagamento"),
    ],
)
def test_it_refuses_an_inconsistent_payment(
    olimpia: Municipality,
    olimpia_permit_fee: FeeSchedule,
    overrides: dict[str, Any],
    field: str,
    message: str,
) -> None:
    guide = issue_permit_guide(olimpia)
    with pytest.raises(ValidationError) as error:
        pay(guide, **overrides)
    assert message in error.value.message_dict[field][0]
    guide.refresh_from_db()
    assert guide.status == GuideStatus.OPEN and not Payment.objects.exists()


def test_a_paid_guide_cannot_be_cancelled(olimpia: Municipality, olimpia_permit_fee: FeeSchedule) -> None:
    guide = issue_permit_guide(olimpia)
    pay(guide)
    with pytest.raises(ValidationError, match="só uma guia em aberto pode ser cancelada"):
        guide_cancel(actor=None, guide=guide, reason="x", as_of=DAY)


# --- the origin callback ---------------------------------------------------------------------------------


@pytest.fixture
def recorded_calls() -> Iterator[list[dict[str, Any]]]:
    calls: list[dict[str, Any]] = []

    def handler(*, guide: PaymentGuide, payment: Payment, actor: Any, as_of: dt.date) -> None:
        calls.append({"guide": guide.number, "payment": payment.pk, "as_of": as_of})

    with payment_handlers_replaced({OriginType.APPLICATION: handler}):
        yield calls


def test_payment_calls_the_handler_of_the_guides_origin(
    olimpia: Municipality, olimpia_permit_fee: FeeSchedule, recorded_calls: list[dict[str, Any]]
) -> None:
    payment = pay(issue_permit_guide(olimpia))
    assert recorded_calls == [{"guide": "000001/2026", "payment": payment.pk, "as_of": DAY}]


def test_a_handler_that_refuses_rolls_the_payment_back(
    olimpia: Municipality, olimpia_permit_fee: FeeSchedule
) -> None:
    def refuse(*, guide: PaymentGuide, payment: Payment, actor: Any, as_of: dt.date) -> None:
        raise ValidationError({"state": "Requerimento arquivado: a taxa não move mais o processo."})

    guide = issue_permit_guide(olimpia)
    with (
        payment_handlers_replaced({OriginType.APPLICATION: refuse}),
        pytest.raises(ValidationError, match="Requerimento arquivado"),
    ):
        pay(guide)
    guide.refresh_from_db()
    assert guide.status == GuideStatus.OPEN and not Payment.objects.exists()
    assert not AuditEvent.objects.filter(action="payment.register").exists()


def test_a_guide_whose_application_does_not_exist_is_refused_in_portuguese(
    olimpia: Municipality, olimpia_permit_fee: FeeSchedule
) -> None:
    """licensing's real handler: no application matches the guide, so the payment is refused, not a crash."""
    from apps.licensing.services import application_fee_paid

    guide = issue_permit_guide(olimpia, origin_id=987654)
    with (
        payment_handlers_replaced({OriginType.APPLICATION: application_fee_paid}),
        pytest.raises(ValidationError, match="nenhum requerimento deste município") as refused,
    ):
        pay(guide)
    assert "guide" in refused.value.message_dict
    guide.refresh_from_db()
    assert guide.status == GuideStatus.OPEN and not Payment.objects.exists()


# --- refunds --------------------------------------------------------------------------------------------


def test_a_full_refund_paid_marks_the_guide_refunded(
    olimpia: Municipality, olimpia_permit_fee: FeeSchedule
) -> None:
    guide = issue_permit_guide(olimpia)
    payment = pay(guide)
    first = refund_create(
        actor=None, payment=payment, amount_brl=Decimal("100.00"), due_on=DAY, reason="Recurso", as_of=DAY
    )
    second = refund_create(
        actor=None, payment=payment, amount_brl=Decimal("50.00"), due_on=DAY, reason="Recurso", as_of=DAY
    )
    refund_mark_paid(actor=None, refund=first, paid_on=DAY, reference="TED 1", as_of=DAY)
    guide.refresh_from_db()
    assert guide.status == GuideStatus.PAID  # R$ 50,00 still owed
    refund_mark_paid(actor=None, refund=second, paid_on=DAY, reference="TED 2", as_of=DAY)
    guide.refresh_from_db()
    assert guide.status == GuideStatus.REFUNDED
    assert set(Refund.objects.values_list("status", flat=True)) == {RefundStatus.PAID}


def test_refunds_cannot_exceed_the_payment(olimpia: Municipality, olimpia_permit_fee: FeeSchedule) -> None:
    payment = pay(issue_permit_guide(olimpia))
    refund_create(
        actor=None, payment=payment, amount_brl=Decimal("100.00"), due_on=DAY, reason="Recurso", as_of=DAY
    )
    with pytest.raises(ValidationError, match=r"excede o que resta do pagamento \(R\$ 50,00\)"):
        refund_create(
            actor=None, payment=payment, amount_brl=Decimal("50.01"), due_on=DAY, reason="Recurso", as_of=DAY
        )
    assert Refund.objects.count() == 1


def test_a_refund_cannot_be_paid_twice(olimpia: Municipality, olimpia_permit_fee: FeeSchedule) -> None:
    payment = pay(issue_permit_guide(olimpia))
    refund = refund_create(
        actor=None, payment=payment, amount_brl=Decimal("10.00"), due_on=DAY, reason="Erro", as_of=DAY
    )
    refund_mark_paid(actor=None, refund=refund, paid_on=DAY, reference="", as_of=DAY)
    with pytest.raises(ValidationError, match="já consta como paga"):
        refund_mark_paid(actor=None, refund=refund, paid_on=DAY, reference="", as_of=DAY)


def test_a_fine_is_valued_on_the_auto_date_when_the_municipality_reads_the_law_so(
    votuporanga: Municipality,
) -> None:
    from apps.lawconfig.services import interpretation_choose

    configure_pix(votuporanga)
    interpretation_choose(
        actor=None,
        municipality=votuporanga,
        regime_id="votuporanga_sp_escolar",
        interpretation_id="INT-VOT-UFM-VALUATION-DATE",
        option="decision_date",
        decided_by_act="Parecer (teste)",
        decided_on=DAY,
    )
    charge = Charge(
        quantity=Decimal("10"), unit="ufm", cite="art13", description="Multa", auto_date=dt.date(2025, 12, 30)
    )
    guide = guide_issue(
        actor=None,
        municipality=votuporanga,
        regime_id=None,
        charge=charge,
        payer_name="José",
        payer_document="52998224725",
        origin_type=OriginType.FINE,
        origin_id=4,
        fact_date=dt.date(2025, 12, 20),
        as_of=DAY,
    )
    assert guide.valuation_date == dt.date(2025, 12, 30)
    assert guide.unit_value_used == Decimal("5.20")  # UFM de Votuporanga em 2025
    assert guide.amount_brl == Decimal("52.00")
