"""Parameters the law leaves to the municipality (``configurable: true``): set by an administrator with a
dated value, its citation checked by the engine, listed on the screen and passed to every decision."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

import lawcode
from apps.audit.models import AuditEvent
from apps.lawconfig.config import config_for
from apps.lawconfig.demo import seed_lawconfig
from apps.lawconfig.models import FiscalUnitValue, ParameterValue
from apps.lawconfig.services import parameter_value_set
from apps.tenancy.demo import DemoLog
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db
D = dt.date
DECREE = "Decreto 10/2026"


def _set(municipality: Municipality, **overrides: Any) -> ParameterValue:
    fields: dict[str, Any] = {
        "regime_id": "votuporanga_sp_escolar",
        "parameter": "fleet_cap",
        "valid_from": D(2026, 1, 1),
        "value": Decimal(40),
        "cite": "art4A",
        "source": DECREE,
    }
    return parameter_value_set(actor=None, municipality=municipality, **{**fields, **overrides})


def _fleet_cap_on(municipality: Municipality, day: dt.date) -> Any:
    regime = lawcode.get_regime("votuporanga_sp_escolar")
    merged = regime.parameters_with(config_for(municipality))
    return merged["fleet_cap"].value_on(day, regime.id)


def test_the_fleet_cap_a_decree_sets_reaches_the_engine_with_its_act(votuporanga: Municipality) -> None:
    _set(votuporanga)
    value = _fleet_cap_on(votuporanga, D(2026, 3, 1))
    assert (value.value, value.cite, value.note) == (40, "art4A", DECREE)
    first = ParameterValue.objects.get()
    fixed = _set(votuporanga, value=Decimal(45), reason="erro de digitação")  # same date: a correction
    assert fixed.supersedes == first and ParameterValue.objects.get(pk=first.pk).value == Decimal(40)
    assert ParameterValue.objects.current().get().value == Decimal(45)
    assert _fleet_cap_on(votuporanga, D(2026, 3, 1)).value == 45
    assert AuditEvent.objects.filter(action="lawconfig.parameter.set").count() == 2
    _set(votuporanga, value=Decimal(45))  # the same value again: nothing new
    assert ParameterValue.objects.count() == 2


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"parameter": "max_vehicle_age"}, "parameter", "não é fixado pelo município"),
        ({"regime_id": "olimpia_sp_escolar"}, "parameter", "não aplica"),
        ({"value": Decimal("40.5")}, "value", "número inteiro"),
        ({"value": Decimal(0)}, "value", "maior que zero"),
        ({"cite": "art999"}, "cite", "não existe"),
        ({"source": "  "}, "source", "decreto"),
    ],
)
def test_values_the_law_does_not_allow_are_refused_naming_the_field(
    votuporanga: Municipality, overrides: dict[str, Any], field: str, message: str
) -> None:
    with pytest.raises(ValidationError) as refusal:
        _set(votuporanga, **overrides)
    assert message in " ".join(refusal.value.message_dict[field])
    assert not ParameterValue.objects.exists()


def test_a_ufm_set_as_a_parameter_wins_over_the_table_on_the_same_date(patrocinio: Municipality) -> None:
    FiscalUnitValue.objects.create(
        municipality=patrocinio,
        unit="ufm",
        valid_from=D(2026, 1, 1),
        value_brl=Decimal("5.4500"),
        cite="art8",
        source="Tabela",
    )
    _set(
        patrocinio,
        regime_id="patrocinio_mg_aplicativo",
        parameter="ufm",
        value=Decimal("5.6000"),
        cite="art8",
    )
    regime = lawcode.get_regime("patrocinio_mg_aplicativo")
    ufm = regime.parameters_with(config_for(patrocinio))["ufm"].value_on(D(2026, 2, 1), regime.id)
    assert ufm.value == Decimal("5.6000") and ufm.note == DECREE


def test_the_screen_lists_what_the_municipality_sets_and_records_a_value(
    make_staff: Any, votuporanga: Municipality
) -> None:
    from apps.tenancy.choices import Role

    client = Client()
    client.force_login(make_staff("vot.admin", (votuporanga, Role.ADMINISTRATOR)))
    url = reverse("lawconfig:overview", args=[votuporanga.ibge_code])
    page = client.get(url, {"tema": "parametros"}).content.decode()
    row = page[page.index('data-parameter="votuporanga_sp_escolar/fleet_cap"') :].split("</tr>")[0]
    assert "não configurado" in row
    assert 'data-parameter="votuporanga_sp_escolar/ufm"' in page
    add = reverse("lawconfig:parameter_value_add", args=[votuporanga.ibge_code])
    refused = client.post(
        add,
        {
            "target": "votuporanga_sp_escolar/fleet_cap",
            "valid_from": "2026-01-01",
            "value": "40",
            "cite": "art999",
            "source": DECREE,
        },
    )
    assert refused.status_code == 400 and "não existe na lei" in refused.content.decode()
    response = client.post(
        add,
        {
            "target": "votuporanga_sp_escolar/fleet_cap",
            "valid_from": "2026-01-01",
            "value": "40",
            "cite": "art4A",
            "source": DECREE,
        },
    )
    assert response.status_code == 302 and response["Location"].endswith("?tema=parametros")
    page = client.get(response["Location"]).content.decode()
    row = page[page.index('data-parameter="votuporanga_sp_escolar/fleet_cap"') :].split("</tr>")[0]
    assert "<td>40</td>" in row and "01/01/2026" in row and DECREE in row


def test_only_administrators_set_parameters(
    analyst_olimpia: Any, admin_olimpia: Any, votuporanga: Municipality
) -> None:
    for user in (analyst_olimpia, admin_olimpia):
        client = Client()
        client.force_login(user)
        url = reverse("lawconfig:parameter_value_add", args=[votuporanga.ibge_code])
        assert client.post(url, {"target": "votuporanga_sp_escolar/fleet_cap"}).status_code == 404
    assert not ParameterValue.objects.exists()


def test_the_demo_sets_votuporangas_fleet_cap_once(votuporanga: Municipality) -> None:
    seed_lawconfig(DemoLog())
    seed_lawconfig(DemoLog())
    row = ParameterValue.objects.get(municipality=votuporanga, parameter="fleet_cap")
    assert row.source == "Decreto de demonstração (dados fictícios)"
    assert _fleet_cap_on(votuporanga, D(2026, 3, 1)).value == 120


def test_a_value_is_entered_with_a_decimal_comma(make_staff: Any, votuporanga: Municipality) -> None:
    from apps.tenancy.choices import Role

    client = Client()
    client.force_login(make_staff("vot.admin", (votuporanga, Role.ADMINISTRATOR)))
    add = reverse("lawconfig:parameter_value_add", args=[votuporanga.ibge_code])
    target = {
        "target": "votuporanga_sp_escolar/ufm",
        "valid_from": "2027-01-01",
        "cite": "art13",
        "source": DECREE,
    }
    bad = client.post(add, {**target, "value": "cinco"})
    assert (
        bad.status_code == 400
        and "Valor: informe um número, com vírgula para decimais" in bad.content.decode()
    )
    too_precise = client.post(add, {**target, "value": "5,123456"})
    assert too_precise.status_code == 400 and "no máximo 4 casas decimais" in too_precise.content.decode()
    assert client.post(add, {**target, "value": "5,6712"}).status_code == 302
    assert ParameterValue.objects.get().value == Decimal("5.6712")


def test_a_percentage_takes_decimals_and_may_be_zero_or_negative_but_not_minus_100() -> None:
    from apps.lawconfig.services import _check_value
    from lawcode.params import Parameter
    from lawcode.units import Unit

    reindex = Parameter("fine_reindex", "Reajuste anual das multas (INPC)", Unit.PERCENT, ())
    for value in ("5.56", "0", "-1.2"):
        _check_value(reindex, Decimal(value))
    with pytest.raises(ValidationError, match="maior que -100 %"):
        _check_value(reindex, Decimal(-100))
    count = Parameter("fleet_cap", "Frota máxima", Unit.COUNT, ())
    with pytest.raises(ValidationError, match="número inteiro"):
        _check_value(count, Decimal("40.5"))
