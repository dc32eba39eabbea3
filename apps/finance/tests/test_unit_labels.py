"""Fine units come from the regime's units.yaml: labels, refusals, and reais always as "R$ 1.234,56"."""

from __future__ import annotations

from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.core.exceptions import ValidationError

from apps.finance.templatetags.finance_format import fine_text
from apps.finance.valuation import quantity_text, unit_label
from apps.tenancy.models import Municipality


def test_reais_print_as_reais_never_as_brl() -> None:
    assert quantity_text("patrocinio_mg_aplicativo", Decimal("286"), "brl") == "R$ 286,00"
    assert quantity_text("olimpia_sp_escolar", Decimal("1234.5"), "brl") == "R$ 1.234,50"


def test_a_declared_unit_prints_with_its_label() -> None:
    assert quantity_text("olimpia_sp_escolar", Decimal("15"), "ufesp") == "15 UFESP"
    assert unit_label("votuporanga_sp_escolar", "ufm") == "UFM"


def test_a_unit_the_regime_does_not_declare_is_refused_in_portuguese() -> None:
    with pytest.raises(ValidationError, match="não é prevista pela lei do regime"):
        unit_label("olimpia_sp_escolar", "ufm")


def test_the_case_page_filter_shows_the_fine_in_its_unit() -> None:
    def sanction(quantity: str, unit: str) -> SimpleNamespace:
        return SimpleNamespace(
            fine_quantity=Decimal(quantity),
            fine_unit=unit,
            case=SimpleNamespace(regime_id="patrocinio_mg_aplicativo"),
        )

    assert fine_text(sanction("286", "brl")) == "R$ 286,00"
    assert fine_text(sanction("0.25", "ufm")) == "0,25 UFM"
    assert fine_text(sanction("3", "ufir")) == "3 ufir (unidade não prevista pela lei)"


def test_the_fee_form_offers_reais_and_the_units_the_regimes_declare() -> None:
    from apps.finance.forms import FeeScheduleForm

    form = FeeScheduleForm(regimes=["patrocinio_mg_aplicativo", "olimpia_sp_escolar"])
    assert form.fields["unit"].choices == [  # type: ignore[attr-defined]
        ("brl", "R$"),
        ("ufm", "UFM — Unidade Fiscal do Município de Patrocínio"),
        ("ufesp", "UFESP — Unidade Fiscal do Estado de São Paulo"),
    ]


@pytest.mark.django_db
def test_a_fee_in_a_unit_the_regime_does_not_declare_is_refused(patrocinio: Municipality) -> None:
    import datetime as dt

    from apps.finance.choices import FeeKind
    from apps.finance.models import FeeSchedule
    from apps.finance.services import fee_schedule_create

    with pytest.raises(ValidationError) as error:
        fee_schedule_create(
            actor=None,
            municipality=patrocinio,
            regime_id=None,
            fee_kind=FeeKind.INSPECTION,
            quantity=Decimal("1"),
            unit="ufesp",
            cite="art8",
            valid_from=dt.date(2026, 1, 1),
        )
    assert (
        "'ufesp' não é prevista pela lei do regime (unidades previstas: R$, UFM)"
        in error.value.message_dict["unit"][0]
    )
    fee = fee_schedule_create(
        actor=None,
        municipality=patrocinio,
        regime_id=None,
        fee_kind=FeeKind.INSPECTION,
        quantity=Decimal("0.25"),
        unit="ufm",
        cite="art8",
        valid_from=dt.date(2026, 1, 1),
    )
    assert str(FeeSchedule.objects.get(pk=fee.pk)).endswith("0.25 UFM")
