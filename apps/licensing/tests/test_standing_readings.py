"""The municipality's readings that move a lapse: the age window of a certidão (ongoing or only at
presentation) and the CTB art. 162 V tolerance of a CNH expired for up to 30 days."""

from __future__ import annotations

import datetime as dt

import pytest

from apps.audit.models import AuditEvent
from apps.lawconfig.services import interpretation_choose
from apps.licensing.casebook import Case, pf_case
from apps.licensing.choices import LegalStatus
from apps.licensing.models import Permit
from apps.licensing.standing import permit_standing
from apps.licensing.sweep import run_sweep
from apps.licensing.tests.conftest import AS_OF, issue_permit
from apps.registry.choices import DocumentStatus
from apps.registry.models import Document
from apps.registry.selectors import decision_reason
from apps.registry.services import driver_update
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db
REGIME = "olimpia_sp_escolar"
# The casebook's certidões are issued ten days before AS_OF: 60 days later (art. 9 IX) the window closes.
WINDOW_CLOSED = AS_OF - dt.timedelta(days=10) + dt.timedelta(days=61)


def _choose(
    municipality: Municipality, interpretation: str, option: str, as_of: dt.date | None = None
) -> None:
    interpretation_choose(
        actor=None,
        municipality=municipality,
        regime_id=REGIME,
        interpretation_id=interpretation,
        option=option,
        decided_by_act="Decreto nº 7/2026",
        decided_on=AS_OF,
        as_of=as_of,
    )


def _certificates(case: Case) -> list[Document]:
    return list(Document.objects.filter(person=case.person, kind__startswith="criminal_"))


def test_a_window_read_as_ongoing_expires_the_certidao_and_the_permit(olimpia: Municipality) -> None:
    _choose(olimpia, "INT-OLI-CERTIFICATE-WINDOW", "ongoing")
    case = pf_case(olimpia, 1, "João da Silva", as_of=AS_OF)
    permit = issue_permit(case)
    assert {d.valid_until for d in _certificates(case)} == {WINDOW_CLOSED - dt.timedelta(days=1)}
    run_sweep(WINDOW_CLOSED)
    assert {d.status for d in _certificates(case)} == {DocumentStatus.EXPIRED}
    permit.refresh_from_db()
    assert permit.standing["status"] == LegalStatus.IRREGULAR
    assert "Atestado de antecedentes criminais do autorizatário: vencido desde" in permit.standing["reason"]
    assert any("art. 9º, IX" in article for article in permit.standing["articles"])


def test_a_window_read_at_presentation_keeps_the_accepted_certidao(olimpia_pf: Case) -> None:
    permit = issue_permit(olimpia_pf)
    run_sweep(WINDOW_CLOSED)
    certificates = _certificates(olimpia_pf)
    assert {(d.status, d.valid_until) for d in certificates} == {(DocumentStatus.VALID, None)}
    assert "vale só para a apresentação" in decision_reason(certificates[0].decision)
    assert Permit.objects.get(pk=permit.pk).standing == {}


def test_switching_the_window_reading_rejudges_the_accepted_certidao(olimpia_pf: Case) -> None:
    permit = issue_permit(olimpia_pf)  # accepted under "presentation": valid with no end of its own

    def rejudged() -> list[AuditEvent]:
        return list(AuditEvent.objects.filter(action="registry.document.rejudge"))

    _choose(olimpia_pf.operator.municipality, "INT-OLI-CERTIFICATE-WINDOW", "ongoing", WINDOW_CLOSED)
    certificates = _certificates(olimpia_pf)
    closed = WINDOW_CLOSED - dt.timedelta(days=1)  # the 60th day after issue (art. 9 IX)
    assert {(d.status, d.valid_until) for d in certificates} == {(DocumentStatus.EXPIRED, closed)}
    assert len(rejudged()) == len(certificates)
    assert all("art. 9º, IX" in (event.after or {}).get("reason", "") for event in rejudged())
    permit.refresh_from_db()
    assert permit.standing["status"] == LegalStatus.IRREGULAR
    assert any("art. 9º, IX" in article for article in permit.standing["articles"])

    _choose(olimpia_pf.operator.municipality, "INT-OLI-CERTIFICATE-WINDOW", "ongoing", WINDOW_CLOSED)
    assert len(rejudged()) == len(certificates)  # the same reading again changes nothing

    _choose(olimpia_pf.operator.municipality, "INT-OLI-CERTIFICATE-WINDOW", "presentation", WINDOW_CLOSED)
    assert {(d.status, d.valid_until) for d in _certificates(olimpia_pf)} == {(DocumentStatus.VALID, None)}
    assert len(rejudged()) == 2 * len(certificates)
    permit.refresh_from_db()
    assert permit.standing == {}


def test_a_cnh_within_the_ctb_tolerance_stays_regular_until_the_31st_day(olimpia_pf: Case) -> None:
    _choose(olimpia_pf.operator.municipality, "INT-OLI-CNH-TOLERANCE", "tolerated")
    permit = issue_permit(olimpia_pf)
    expiry = AS_OF + dt.timedelta(days=20)
    driver_update(actor=None, driver=olimpia_pf.driver, as_of=AS_OF, cnh_expiry=expiry)
    tolerated = permit_standing(permit, as_of=expiry + dt.timedelta(days=30))
    assert tolerated.status == LegalStatus.REGULAR
    assert "vencido desde 31/03/2026, tolerado até 29/04/2026 (CTB, art. 162, V)" in tolerated.reason
    assert tolerated.until == expiry + dt.timedelta(days=30)
    assert "CTB, art. 162, V" in tolerated.articles
    lapsed = permit_standing(permit, as_of=expiry + dt.timedelta(days=31))
    assert lapsed.status == LegalStatus.IRREGULAR and lapsed.since == expiry + dt.timedelta(days=31)
    assert "tolerância encerrada em 29/04/2026" in lapsed.reason
