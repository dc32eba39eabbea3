"""The turn of the year: from 1 December the administrators see every value their laws will need next year and
do not have yet (derived from the regimes' declarations), on the dashboard and in the daily digest."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from apps.accounts.models import User
from apps.jobs.models import OutboundMail
from apps.lawconfig.models import MunicipalClosure
from apps.lawconfig.services import external_value_enter, parameter_value_set
from apps.lawconfig.yearly import missing_values
from apps.reports.services.digest import staff_digest_send
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality
from apps.tenancy.services import deployment_admin_grant

pytestmark = pytest.mark.django_db

DECEMBER_1 = dt.date(2026, 12, 1)


def _enter_ufesp_2027(actor: User) -> None:
    external_value_enter(
        actor=actor,
        parameter="ufesp",
        valid_from=dt.date(2027, 1, 1),
        value=Decimal("40.12"),
        act="Comunicado DICAR-90/26 da SEFAZ-SP",
        published_on=dt.date(2026, 12, 18),
    )


@pytest.fixture
def installation_admin(make_staff: Callable[..., User], olimpia: Municipality) -> User:
    user = make_staff("ines.instalacao", (olimpia, Role.ADMINISTRATOR), full_name="Inês da Instalação")
    deployment_admin_grant(actor=None, user=user)
    return user


def test_from_1_december_the_ufesp_of_next_year_is_missing_until_entered(
    olimpia: Municipality, installation_admin: User
) -> None:
    assert missing_values(municipality=olimpia, today=dt.date(2026, 11, 30)) == []
    [ufesp] = missing_values(municipality=olimpia, today=DECEMBER_1)
    assert ufesp.what.startswith("UFESP de 2027")
    assert ufesp.needed_on == dt.date(2027, 1, 1) and ufesp.by_installation
    assert ufesp.url == reverse("lawconfig:external_values")
    assert "Lei 5.171/2025" in ufesp.cite  # the article that fines in UFESP
    _enter_ufesp_2027(installation_admin)
    assert missing_values(municipality=olimpia, today=DECEMBER_1) == []


def test_a_municipal_yearly_value_is_derived_from_the_regime(
    votuporanga: Municipality, make_staff: Callable[..., User]
) -> None:
    admin = make_staff("vera.admin", (votuporanga, Role.ADMINISTRATOR))
    [ufm] = missing_values(municipality=votuporanga, today=DECEMBER_1)
    assert ufm.what.startswith("UFM de 2027") and not ufm.by_installation
    assert ufm.url.endswith("?tema=parametros") or ufm.url.endswith("?tema=unidades")
    parameter_value_set(
        actor=admin,
        municipality=votuporanga,
        regime_id="votuporanga_sp_escolar",
        parameter="ufm",
        valid_from=dt.date(2027, 1, 1),
        value=Decimal("5.70"),
        cite="art13",
        source="Decreto nº 1/2026",
    )
    assert missing_values(municipality=votuporanga, today=DECEMBER_1) == []


def test_next_years_closures_are_expected_when_this_year_had_decreed_ones(olimpia: Municipality) -> None:
    MunicipalClosure.objects.create(municipality=olimpia, date=dt.date(2026, 2, 16), description="Carnaval")
    keys = [need.key for need in missing_values(municipality=olimpia, today=DECEMBER_1)]
    assert "closures/2027" in keys
    MunicipalClosure.objects.create(municipality=olimpia, date=dt.date(2027, 2, 8), description="Carnaval")
    keys = [need.key for need in missing_values(municipality=olimpia, today=DECEMBER_1)]
    assert "closures/2027" not in keys


def test_the_dashboard_lists_the_missing_value_with_where_to_enter_it(
    monkeypatch: pytest.MonkeyPatch,
    admin_olimpia: User,
    analyst_olimpia: User,
    olimpia: Municipality,
    installation_admin: User,
) -> None:
    noon = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
    monkeypatch.setattr(timezone, "now", lambda: noon)
    url = reverse("municipality_home", args=[olimpia.ibge_code])
    client = Client()
    client.force_login(admin_olimpia)
    page = client.get(url).content.decode()
    assert 'data-card="lawconfig_next_year"' in page and "cadastro pelo administrador da instalação" in page
    assert "UFESP de 2027" in page and reverse("lawconfig:external_values") not in page  # not theirs to open
    client.force_login(installation_admin)
    assert reverse("lawconfig:external_values") in client.get(url).content.decode()
    client.force_login(analyst_olimpia)
    assert "UFESP de 2027" not in client.get(url).content.decode()
    _enter_ufesp_2027(installation_admin)
    client.force_login(admin_olimpia)
    assert 'data-card="lawconfig_next_year"' not in client.get(url).content.decode()


def test_the_daily_digest_tells_the_administrators(
    make_staff: Callable[..., User], olimpia: Municipality, installation_admin: User
) -> None:
    admin = make_staff("olga.admin", (olimpia, Role.ADMINISTRATOR), email="olga@olimpia.sp.gov.br")
    analyst = make_staff("alan.analista", (olimpia, Role.ANALYST), email="alan@olimpia.sp.gov.br")
    staff_digest_send(as_of=DECEMBER_1, base_url="https://outorga.example")
    mails = {mail.recipient: mail for mail in OutboundMail.objects.all()}
    body = mails[admin.email].body
    assert "UFESP de 2027" in body and "cadastro pelo administrador da instalação" in body
    assert f"https://outorga.example{reverse('lawconfig:external_values')}" in body
    assert analyst.email not in mails
