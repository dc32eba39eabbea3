"""Values of the state or the Union (the UFESP) kept from a screen, once for the whole installation: who may enter
them, how a correction keeps the history, how the engine cites an act entered on a screen, and that every
municipality whose law uses the table sees the new value at once (stamp, hook)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from apps.accounts.models import User
from apps.audit.models import AuditEvent
from apps.lawconfig import hooks
from apps.lawconfig.config import config_for
from apps.lawconfig.engine import evaluate
from apps.lawconfig.models import ConfigStamp, ExternalValue, FiscalUnitValue
from apps.lawconfig.services import external_value_enter
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality
from apps.tenancy.services import deployment_admin_grant
from lawcode.errors import MissingParameterError
from lawcode.facts import FineFacts

pytestmark = pytest.mark.django_db

FINE_2027 = FineFacts(quantity=Decimal("15"), unit="ufesp", infraction_date=dt.date(2027, 1, 11))
UFESP_2027: dict[str, Any] = {
    "parameter": "ufesp",
    "valid_from": dt.date(2027, 1, 1),
    "value": Decimal("40.12"),
    "act": "Comunicado DICAR-90/26 da SEFAZ-SP",
    "act_date": dt.date(2026, 12, 17),
    "published_on": dt.date(2026, 12, 18),
}
CITED = "Comunicado DICAR-90/26 da SEFAZ-SP, publicado em 18/12/2026"


@pytest.fixture
def installation_admin(make_staff: Callable[..., User], olimpia: Municipality) -> User:
    """Runs the installation; also administers Olímpia, as the one who created it would."""
    user = make_staff("ines.instalacao", (olimpia, Role.ADMINISTRATOR), full_name="Inês da Instalação")
    deployment_admin_grant(actor=None, user=user)
    return user


@pytest.fixture
def admin_patrocinio(make_staff: Callable[..., User], patrocinio: Municipality) -> User:
    return make_staff("paula.admin", (patrocinio, Role.ADMINISTRATOR), full_name="Paula Administradora")


@pytest.fixture
def changed() -> Iterator[list[tuple[Any, dt.date]]]:
    """The configuration_changed calls, as a handler registered by another app would get them."""
    calls: list[tuple[Any, dt.date]] = []

    def handler(actor: Any, municipality: Any, as_of: dt.date) -> None:
        calls.append((municipality, as_of))

    hooks.register_configuration_changed(handler)
    yield calls
    hooks._CHANGED.remove(handler)


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _fine_2027(municipality: Municipality) -> Any:
    return evaluate(
        municipality=municipality, question="fine_amount", facts=FINE_2027, as_of=dt.date(2027, 1, 11)
    )


def test_it_seeds_the_shipped_ufesp_table_as_the_installations_data(olimpia: Municipality) -> None:
    seeded = ExternalValue.objects.current().get(parameter="ufesp", valid_from=dt.date(2026, 1, 1))
    assert seeded.value == Decimal("38.42") and seeded.act_key == "sefaz_sp_dicar_88_25"
    assert seeded.cite_as == "Comunicado DICAR-88/25 da SEFAZ-SP, publicado em 17/12/2025"
    # equal to what the engine ships: nothing is added to the municipality's Config (decisions unchanged)
    assert config_for(olimpia).is_empty()


def test_a_2027_fine_is_valued_with_the_ufesp_entered_by_the_installation(
    installation_admin: User, olimpia: Municipality
) -> None:
    with pytest.raises(MissingParameterError):
        _fine_2027(olimpia)
    external_value_enter(actor=installation_admin, **UFESP_2027)
    decision = _fine_2027(olimpia)
    assert decision.result["brl"] == Decimal("601.80")  # 15 × R$ 40,12
    assert CITED in decision.explain()
    assert decision.to_dict()["inputs"]["config"]["acts"][0]["cite_as"] == CITED


def test_an_installation_value_reaches_every_municipality_and_their_cached_configs(
    installation_admin: User, olimpia: Municipality, votuporanga: Municipality, changed: list[Any]
) -> None:
    before = config_for(olimpia)  # built and kept by this process
    stamps = dict(ConfigStamp.objects.values_list("municipality_id", "token"))
    external_value_enter(actor=installation_admin, as_of=dt.date(2026, 12, 18), **UFESP_2027)
    assert config_for(olimpia) is not before
    assert config_for(olimpia).parameters["ufesp"][-1].value == Decimal("40.12")
    assert all(
        stamps[pk] != token for pk, token in ConfigStamp.objects.values_list("municipality_id", "token")
    )
    # Votuporanga's law does not use the UFESP: its handlers have nothing to re-judge
    assert changed == [(olimpia, dt.date(2026, 12, 18))]


def test_a_correction_is_a_new_entry_and_the_history_stays(
    installation_admin: User, olimpia: Municipality
) -> None:
    first = external_value_enter(actor=installation_admin, **UFESP_2027)
    with pytest.raises(ValidationError) as refused:
        external_value_enter(actor=installation_admin, **{**UFESP_2027, "value": Decimal("40.21")})
    assert "Motivo da correção" in refused.value.message_dict["reason"][0]
    fixed = external_value_enter(
        actor=installation_admin, **{**UFESP_2027, "value": Decimal("40.21"), "reason": "erro de digitação"}
    )
    first.refresh_from_db()
    assert fixed.supersedes == first and first.value == Decimal("40.12")
    assert list(ExternalValue.objects.current().filter(valid_from=dt.date(2027, 1, 1))) == [fixed]
    assert _fine_2027(olimpia).result["brl"] == Decimal("603.15")
    events = AuditEvent.objects.filter(action="lawconfig.external_value.enter").order_by("pk")
    assert [Decimal((e.after or {})["value"]) for e in events] == [Decimal("40.12"), Decimal("40.21")]
    assert Decimal((events[1].before or {})["value"]) == Decimal("40.12")
    assert events[1].actor_id == installation_admin.pk


def test_entering_the_same_value_again_changes_nothing(
    installation_admin: User, olimpia: Municipality
) -> None:
    first = external_value_enter(actor=installation_admin, **UFESP_2027)
    assert external_value_enter(actor=installation_admin, **UFESP_2027) == first
    assert AuditEvent.objects.filter(action="lawconfig.external_value.enter").count() == 1


def test_a_municipal_administrator_may_not_enter_the_ufesp(
    admin_olimpia: User, olimpia: Municipality
) -> None:
    with pytest.raises(ValidationError) as refused:
        external_value_enter(actor=admin_olimpia, **UFESP_2027)
    assert "administrador da instalação" in refused.value.message_dict["parameter"][0]
    url = reverse("lawconfig:external_values")
    assert _client(admin_olimpia).get(url).status_code == 404
    post = {**UFESP_2027, "valid_from": "2027-01-01", "value": "40,12", "published_on": "2026-12-18"}
    assert _client(admin_olimpia).post(url, post).status_code == 404
    assert not ExternalValue.objects.filter(valid_from=dt.date(2027, 1, 1)).exists()


def test_an_outsider_does_not_see_the_screen(outsider: User) -> None:
    assert _client(outsider).get(reverse("lawconfig:external_values")).status_code == 404
    assert Client().get(reverse("lawconfig:external_values")).status_code == 302  # to the login


def test_the_installation_administrator_enters_the_ufesp_on_the_screen(
    installation_admin: User, olimpia: Municipality
) -> None:
    client = _client(installation_admin)
    url = reverse("lawconfig:external_values")
    page = client.get(url).content.decode()
    assert "Olímpia" in page and "01/01/2026" in page and "R$ 38,42" in page
    form = {
        "parameter": "ufesp",
        "valid_from": "2027-01-01",
        "value": "40,12",
        "act": "Comunicado DICAR-90/26 da SEFAZ-SP",
        "act_date": "2026-12-17",
        "published_on": "2026-12-18",
        "publication": "DOE-SP",
    }
    response = client.post(url, form, follow=True)
    assert response.status_code == 200
    shown = response.content.decode()
    assert "Comunicado DICAR-90/26 da SEFAZ-SP, publicado no DOE-SP em 18/12/2026" in shown
    assert "R$ 40,12" in shown
    assert _fine_2027(olimpia).result["brl"] == Decimal("601.80")


def test_refusals_name_the_field_in_portuguese(installation_admin: User) -> None:
    client = _client(installation_admin)
    url = reverse("lawconfig:external_values")
    bad = {"parameter": "ufesp", "valid_from": "2027-01-01", "value": "-1", "act": "Comunicado DICAR-90/26"}
    response = client.post(url, {**bad, "published_on": "2026-12-18"})
    assert response.status_code == 400
    assert "Valor: deve ser maior que zero." in response.content.decode()
    response = client.post(url, {**bad, "value": "40,12", "published_on": "2027-02-01"})
    assert "Motivo: o ato foi publicado depois do início da vigência" in response.content.decode()
    response = client.post(url, {**bad, "value": "quarenta", "published_on": "2026-12-18"})
    assert "Valor: informe um número, com vírgula para decimais" in response.content.decode()
    assert not ExternalValue.objects.filter(valid_from=dt.date(2027, 1, 1)).exists()


def test_a_municipal_administrator_enters_the_ufm_but_not_another_towns(
    admin_patrocinio: User, patrocinio: Municipality, olimpia: Municipality
) -> None:
    client = _client(admin_patrocinio)
    form = {"valid_from": "2027-01-01", "value_brl": "5,80", "cite": "art8", "source": "Decreto nº 9/2026"}
    response = client.post(reverse("lawconfig:ufm_add", args=[patrocinio.ibge_code]), form)
    assert response.status_code == 302
    assert FiscalUnitValue.objects.get(municipality=patrocinio).value_brl == Decimal("5.80")
    response = client.post(reverse("lawconfig:ufm_add", args=[olimpia.ibge_code]), form)
    assert response.status_code == 404


def _csv(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "ufesp-2027.csv"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_command_loads_a_csv_of_the_shipped_shape_once(
    tmp_path: Path, installation_admin: User, olimpia: Municipality, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _csv(
        tmp_path,
        'year,value_brl,source\n2026,38.42,"SEFAZ-SP Comunicado DICAR-88/25 (17-12-2025)"\n'
        '2027,40.12,"SEFAZ-SP Comunicado DICAR-90/26 (18-12-2026)"\n',
    )
    call_command("external_values_load", str(path), "--usuario", installation_admin.username)
    assert "1 valor(es) novo(s), 0 correção(ões), 1 já registrado(s)" in capsys.readouterr().out
    call_command("external_values_load", str(path))
    assert "0 valor(es) novo(s), 0 correção(ões), 2 já registrado(s)" in capsys.readouterr().out
    entry = ExternalValue.objects.current().get(valid_from=dt.date(2027, 1, 1))
    assert entry.cite_as == CITED and entry.act_key == ""
    assert AuditEvent.objects.filter(action="lawconfig.external_value.enter").count() == 1
    assert CITED in _fine_2027(olimpia).explain()


def test_the_command_refuses_a_bad_file_naming_the_column(tmp_path: Path, olimpia: Municipality) -> None:
    path = _csv(
        tmp_path, 'year,value_brl,source\n2027,"40,12","SEFAZ-SP Comunicado DICAR-90/26 (18-12-2026)"\n'
    )
    with pytest.raises(CommandError, match="value_brl: informe um valor positivo"):
        call_command("external_values_load", str(path))
    path = _csv(tmp_path, "ano,valor\n2027,40.12\n")
    with pytest.raises(CommandError, match="faltam as colunas"):
        call_command("external_values_load", str(path))
    with pytest.raises(CommandError, match="não é um administrador da instalação"):
        call_command("external_values_load", str(path), "--usuario", "ninguem")
    assert not ExternalValue.objects.filter(valid_from=dt.date(2027, 1, 1)).exists()


def test_a_municipal_correction_keeps_the_first_entry_on_the_screen(
    admin_patrocinio: User, patrocinio: Municipality
) -> None:
    client = _client(admin_patrocinio)
    url = reverse("lawconfig:ufm_add", args=[patrocinio.ibge_code])
    form = {"valid_from": "2027-01-01", "value_brl": "5,80", "cite": "art8", "source": "Decreto nº 9/2026"}
    client.post(url, form)
    client.post(url, {**form, "value_brl": "5,90", "reason": "decreto republicado"})
    first, fixed = FiscalUnitValue.objects.order_by("pk")
    assert fixed.supersedes == first and first.value_brl == Decimal("5.80")
    page = client.get(reverse("lawconfig:overview", args=[patrocinio.ibge_code]), {"tema": "unidades"})
    text = page.content.decode()
    assert "corrigido depois (decreto republicado)" in text and "R$ 5,90" in text
    day = dt.date(2027, 3, 1)
    assert config_for(patrocinio).parameters["ufm"][-1].value == Decimal("5.90")
    assert evaluate(
        municipality=patrocinio,
        question="fine_amount",
        facts=FineFacts(quantity=Decimal("10"), unit="ufm", infraction_date=day),
        as_of=day,
    ).result["brl"] == Decimal("59.00")
