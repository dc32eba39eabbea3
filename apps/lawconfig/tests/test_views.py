"""Legal configuration screens: administrators only, every INT listed, refusals name the field."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

import lawcode
from apps.accounts.models import User
from apps.audit.models import AuditEvent
from apps.lawconfig.config import config_for
from apps.lawconfig.models import FiscalUnitValue, InterpretationChoice, MunicipalClosure
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_only_administrators_reach_the_screen(
    admin_olimpia: User, analyst_olimpia: User, outsider: User, olimpia: Municipality
) -> None:
    url = reverse("lawconfig:overview", args=[olimpia.ibge_code])
    assert _client(outsider).get(url).status_code == 404
    assert _client(analyst_olimpia).get(url).status_code == 404
    assert _client(admin_olimpia).get(url).status_code == 200


def test_other_municipality_administrator_gets_404(admin_olimpia: User, patrocinio: Municipality) -> None:
    client = _client(admin_olimpia)
    assert client.get(reverse("lawconfig:overview", args=[patrocinio.ibge_code])).status_code == 404
    response = client.post(
        reverse("lawconfig:ufm_add", args=[patrocinio.ibge_code]),
        {"valid_from": "2026-01-01", "value_brl": "5", "cite": "art8", "source": "x"},
    )
    assert response.status_code == 404 and not FiscalUnitValue.objects.exists()


def test_every_interpretation_of_the_regime_is_listed(admin_olimpia: User, olimpia: Municipality) -> None:
    url = reverse("lawconfig:overview", args=[olimpia.ibge_code])
    content = _client(admin_olimpia).get(url, {"tema": "interpretacoes"}).content.decode()
    interpretations = lawcode.get_regime("olimpia_sp_escolar").interpretations
    assert interpretations
    for int_id, interpretation in interpretations.items():
        assert f'data-interpretation="{int_id}"' in content
        assert interpretation.default in content


def test_choosing_an_interpretation_reaches_the_engine(admin_olimpia: User, olimpia: Municipality) -> None:
    url = reverse("lawconfig:interpretation_choose", args=[olimpia.ibge_code, "INT-OLI-RECIDIVISM-ANCHOR"])
    prefix = "INT-OLI-RECIDIVISM-ANCHOR"
    response = _client(admin_olimpia).post(
        url,
        {
            f"{prefix}-regime_id": "olimpia_sp_escolar",
            f"{prefix}-interpretation_id": prefix,
            f"{prefix}-option": "prior_infraction_date",
            f"{prefix}-decided_by_act": "Parecer PGM 3/2026",
            f"{prefix}-decided_on": "2026-02-01",
        },
    )
    assert response.status_code == 302
    assert config_for(olimpia).interpretations == {prefix: "prior_infraction_date"}
    assert AuditEvent.objects.filter(action="lawconfig.interpretation.choose").exists()


def test_each_topic_is_its_own_short_page_with_the_errors_on_top_and_unique_ids(
    admin_olimpia: User, olimpia: Municipality
) -> None:
    client = _client(admin_olimpia)
    url = reverse("lawconfig:overview", args=[olimpia.ibge_code])
    for topic in ("unidades", "parametros", "interpretacoes", "feriados"):
        page = client.get(url, {"tema": topic}).content.decode()
        ids = re.findall(r'\sid="([^"]+)"', page)
        assert len(ids) == len(set(ids)), (
            f"{topic}: duplicate ids {sorted(i for i in ids if ids.count(i) > 1)}"
        )
        assert f'href="?tema={topic}" aria-current="page"' in page
    holidays = client.get(url, {"tema": "feriados"}).content.decode()
    assert 'aria-labelledby="feriados"' in holidays and 'aria-labelledby="interpretacoes"' not in holidays

    refused = client.post(
        reverse("lawconfig:closure_add", args=[olimpia.ibge_code]),
        {"date": "", "description": "", "kind": "closure"},
    )
    page = refused.content.decode()
    assert refused.status_code == 400 and 'data-testid="error-summary"' in page
    summary = page[page.index('data-testid="error-summary"') :]
    assert (
        page.index('data-testid="error-summary"') < page.index('aria-label="Novo dia sem expediente"')
        and 'href="#id_date"' in summary
    )
    assert 'aria-labelledby="feriados"' in page  # the refused form comes back on its own topic


def test_ufm_for_a_regime_without_ufm_is_refused(admin_olimpia: User, olimpia: Municipality) -> None:
    response = _client(admin_olimpia).post(
        reverse("lawconfig:ufm_add", args=[olimpia.ibge_code]),
        {"valid_from": "2026-01-01", "value_brl": "5", "cite": "art8", "source": "Decreto"},
    )
    assert (
        response.status_code == 400
        and "Nenhum regime deste município usa uma unidade fiscal fixada pelo município"
        in response.content.decode()
    )
    assert not FiscalUnitValue.objects.exists()


def test_ufm_with_a_citation_the_law_does_not_have_is_refused(
    make_staff: object, patrocinio: Municipality
) -> None:
    from apps.tenancy.choices import Role

    admin = make_staff("pat.admin", (patrocinio, Role.ADMINISTRATOR))  # type: ignore[operator]
    client = _client(admin)
    url = reverse("lawconfig:ufm_add", args=[patrocinio.ibge_code])
    bad = client.post(
        url, {"valid_from": "2026-01-01", "value_brl": "5.45", "cite": "art999", "source": "Dec"}
    )
    assert bad.status_code == 400 and "não existe na lei" in bad.content.decode()
    good = client.post(
        url, {"valid_from": "2026-01-01", "value_brl": "5.45", "cite": "art8", "source": "Dec 1"}
    )
    assert good.status_code == 302
    assert FiscalUnitValue.objects.get().value_brl == Decimal("5.4500")


def test_closures_are_added_once_and_removed(admin_olimpia: User, olimpia: Municipality) -> None:
    client = _client(admin_olimpia)
    url = reverse("lawconfig:closure_add", args=[olimpia.ibge_code])
    data = {"date": "2026-10-30", "description": "Ponto facultativo (Decreto 9/2026)", "kind": "closure"}
    assert client.post(url, data).status_code == 302
    again = client.post(url, data)
    assert again.status_code == 400 and "já está cadastrada" in again.content.decode()
    closure = MunicipalClosure.objects.get()
    client.post(reverse("lawconfig:closure_remove", args=[olimpia.ibge_code, closure.pk]))
    assert not MunicipalClosure.objects.exists()


def test_unknown_option_is_refused_by_the_service(olimpia: Municipality) -> None:
    from django.core.exceptions import ValidationError

    from apps.lawconfig.services import interpretation_choose

    with pytest.raises(ValidationError, match="não é uma das opções"):
        interpretation_choose(
            actor=None,
            municipality=olimpia,
            regime_id="olimpia_sp_escolar",
            interpretation_id="INT-OLI-RECIDIVISM-ANCHOR",
            option="whatever",
            decided_by_act="x",
            decided_on=dt.date(2026, 1, 1),
        )
    assert not InterpretationChoice.objects.exists()


def test_the_regimes_own_ufm_values_are_shown(make_staff: object, votuporanga: Municipality) -> None:
    from apps.tenancy.choices import Role

    admin = make_staff("vot.admin", (votuporanga, Role.ADMINISTRATOR))  # type: ignore[operator]
    content = _client(admin).get(reverse("lawconfig:overview", args=[votuporanga.ibge_code])).content.decode()
    assert (
        'data-regime-unit="votuporanga_sp_escolar/ufm"' in content and "R$ 4,74 desde 01/01/2023" in content
    )
    assert "sem valor desde 01/01/2027" in content


def test_every_write_is_404_outside_the_users_municipality(
    admin_olimpia: User, outsider: User, make_staff: object, votuporanga: Municipality
) -> None:
    from apps.lawconfig.services import closure_add

    closure = closure_add(
        actor=None, municipality=votuporanga, date=dt.date(2026, 10, 28), description="x", kind="closure"
    )
    urls = [
        reverse("lawconfig:ufm_add", args=[votuporanga.ibge_code]),
        reverse("lawconfig:closure_add", args=[votuporanga.ibge_code]),
        reverse("lawconfig:closure_remove", args=[votuporanga.ibge_code, closure.pk]),
        reverse(
            "lawconfig:interpretation_choose", args=[votuporanga.ibge_code, "INT-VOT-AMENDMENT-IN-FORCE"]
        ),
    ]
    for user in (admin_olimpia, outsider):
        for url in urls:
            assert (
                _client(user)
                .post(url, {"date": "2026-11-02", "description": "y", "kind": "closure"})
                .status_code
                == 404
            )
    assert list(MunicipalClosure.objects.values_list("description", flat=True)) == ["x"]
