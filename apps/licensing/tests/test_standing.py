"""The legal status as of a date: the permit's own acts first, then the law's document_standing decision."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from apps.licensing.casebook import Case, pdf, upload_documents
from apps.licensing.choices import LegalStatus
from apps.licensing.models import Permit
from apps.licensing.standing import driver_standing, permit_standing, permits_standing
from apps.licensing.tests.conftest import AS_OF, issue_permit
from apps.registry.models import Document
from apps.registry.services import document_upload, driver_update

pytestmark = pytest.mark.django_db
LAPSE = AS_OF + dt.timedelta(days=21)


def _cnh_expires(case: Case, on: dt.date) -> None:
    driver_update(actor=None, driver=case.driver, as_of=AS_OF, cnh_expiry=on)


def test_a_permit_with_every_document_in_force_is_regular(olimpia_pf: Case) -> None:
    permit = issue_permit(olimpia_pf)
    standing = permit_standing(permit, as_of=AS_OF)
    assert standing.status == LegalStatus.REGULAR and standing.authorized and standing.reason == ""


def test_the_holders_expired_cnh_makes_the_permit_irregular_citing_the_article(olimpia_pf: Case) -> None:
    permit = issue_permit(olimpia_pf)
    _cnh_expires(olimpia_pf, AS_OF + dt.timedelta(days=20))
    assert permit_standing(permit, as_of=AS_OF + dt.timedelta(days=20)).status == LegalStatus.REGULAR
    standing = permit_standing(permit, as_of=LAPSE)
    assert standing.status == LegalStatus.IRREGULAR and not standing.authorized
    assert (
        "Carteira Nacional de Habilitação (CNH) do autorizatário: vencido desde 31/03/2026" in standing.reason
    )
    assert standing.reason.startswith("Irregular — não autorizado a operar até a regularização")
    assert any("art. 9" in text and "III" in text for text in standing.articles)
    assert standing.since == LAPSE


def test_a_renewed_cnh_document_restores_the_permit(olimpia_pf: Case) -> None:
    permit = issue_permit(olimpia_pf)
    _cnh_expires(olimpia_pf, AS_OF + dt.timedelta(days=20))
    document_upload(
        actor=None,
        owner=olimpia_pf.person,
        kind="cnh",
        upload=pdf(),
        issue_date=LAPSE,
        expiry_date=LAPSE + dt.timedelta(days=3650),
        as_of=LAPSE,
        regime_id="olimpia_sp_escolar",
    )
    assert permit_standing(permit, as_of=LAPSE).status == LegalStatus.REGULAR


def test_an_expired_vehicle_document_makes_the_permit_irregular(patrocinio_pf: Case) -> None:
    upload_documents(
        patrocinio_pf.vehicle, ("inspection_fee_receipt",), as_of=AS_OF, regime_id="patrocinio_mg_aplicativo"
    )
    permit = issue_permit(patrocinio_pf)
    Document.objects.filter(vehicle=patrocinio_pf.vehicle, kind="crlv").update(valid_until=AS_OF)
    standing = permit_standing(permit, as_of=AS_OF + dt.timedelta(days=1))
    assert standing.status == LegalStatus.IRREGULAR
    assert "CRLV" in standing.reason and any("art. 12" in text for text in standing.articles)


def test_the_permits_own_acts_come_first(olimpia_pf: Case) -> None:
    permit = issue_permit(olimpia_pf)
    _cnh_expires(olimpia_pf, AS_OF + dt.timedelta(days=20))
    Permit.objects.filter(pk=permit.pk).update(
        state="suspended", suspended_until=AS_OF + dt.timedelta(days=30)
    )
    permit.refresh_from_db()
    assert permit_standing(permit, as_of=LAPSE).status == LegalStatus.SUSPENDED
    after = AS_OF + dt.timedelta(days=31)
    assert (
        permit_standing(permit, as_of=after).status == LegalStatus.IRREGULAR
    )  # suspension over, CNH still lapsed


def test_a_drivers_expired_cnh_bars_that_driver_not_the_permit(votuporanga_pj: Case) -> None:
    permit = issue_permit(votuporanga_pj)
    _cnh_expires(votuporanga_pj, AS_OF + dt.timedelta(days=20))
    assert permit_standing(permit, as_of=LAPSE).status == LegalStatus.REGULAR
    standing = driver_standing(permit, votuporanga_pj.driver, as_of=LAPSE)
    assert standing.status == LegalStatus.IRREGULAR
    assert "CNH) do condutor empregado: vencido desde" in standing.reason


def test_a_municipality_that_reads_a_lapse_as_suspension_gets_suspended(olimpia_pf: Case) -> None:
    from apps.lawconfig.services import interpretation_choose

    permit = issue_permit(olimpia_pf)
    interpretation_choose(
        actor=None,
        municipality=olimpia_pf.operator.municipality,
        regime_id="olimpia_sp_escolar",
        interpretation_id="INT-OLI-DOCUMENT-LAPSE",
        option="suspended",
        decided_by_act="Decreto nº 100/2026",
        decided_on=AS_OF,
    )
    _cnh_expires(olimpia_pf, AS_OF + dt.timedelta(days=20))
    assert permit_standing(permit, as_of=LAPSE).status == LegalStatus.SUSPENDED


def test_many_permits_cost_a_fixed_number_of_queries(
    olimpia_pf: Case, django_assert_max_num_queries: object
) -> None:
    permit = issue_permit(olimpia_pf)
    permits = list(Permit.objects.filter(pk=permit.pk))
    with django_assert_max_num_queries(12):  # type: ignore[operator]
        assert permits_standing(permits, as_of=AS_OF)[permit.pk].status == LegalStatus.REGULAR


def test_the_staff_pages_show_the_legal_status_with_reason_and_article(
    olimpia_pf: Case, analyst_olimpia_client: Any
) -> None:
    from django.urls import reverse
    from django.utils import timezone

    permit = issue_permit(olimpia_pf)
    today = timezone.localdate()
    driver_update(actor=None, driver=olimpia_pf.driver, as_of=AS_OF, cnh_expiry=today - dt.timedelta(days=1))
    pages = [
        reverse("licensing:permit_detail", args=["3533908", permit.pk]),
        reverse("licensing:permit_list", args=["3533908"]),
        reverse("licensing:operator_permits", args=["3533908", olimpia_pf.operator.pk]),
    ]
    for page in pages:
        html = analyst_olimpia_client.get(page).content.decode()
        assert 'data-status="irregular"' in html and "Irregular" in html, page
        assert "Carteira Nacional de Habilitação (CNH) do autorizatário: vencido desde" in html, page
        assert "Fundamento:" in html and "art. 9º, III" in html, page
