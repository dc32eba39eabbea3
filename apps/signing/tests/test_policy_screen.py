"""The municipality's signing screen: the administrator chooses the level per kind of act; others only read."""

from __future__ import annotations

import pytest
from django.test import Client

from apps.audit.models import AuditEvent
from apps.signing.kinds import registered_kinds
from apps.signing.models import SignatureLevel, SigningPolicy
from apps.signing.tests.conftest import SigningSetup
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db
URL = "/municipios/{}/assinatura-de-documentos/"


def test_it_says_when_no_certificate_is_configured_and_defaults_to_signing_everything(
    admin_olimpia_client: Client, olimpia: Municipality, signing: SigningSetup
) -> None:
    page = admin_olimpia_client.get(URL.format(olimpia.ibge_code)).content.decode()
    assert "Nenhum certificado configurado" in page
    assert 'value="qualificada" selected' in page


def test_the_administrator_sets_a_level_and_it_is_audited(
    admin_olimpia_client: Client, olimpia: Municipality, signing: SigningSetup
) -> None:
    signing.certificate(olimpia)
    page = admin_olimpia_client.get(URL.format(olimpia.ibge_code)).content.decode()
    assert "Certificado em uso: <strong>Prefeitura Municipal de Olímpia</strong>" in page
    form = {kind.slug: SignatureLevel.QUALIFIED for kind in registered_kinds()}
    form["monthly_report"] = SignatureLevel.NONE
    response = admin_olimpia_client.post(URL.format(olimpia.ibge_code), form, follow=True)
    assert "Política de assinatura registrada." in response.content.decode()
    assert SigningPolicy.objects.get(municipality=olimpia, kind="monthly_report").level == SignatureLevel.NONE
    assert AuditEvent.objects.filter(action="signing_policy.set").exists()


def test_an_analyst_reads_but_cannot_change(
    analyst_olimpia_client: Client, olimpia: Municipality, signing: SigningSetup
) -> None:
    response = analyst_olimpia_client.post(URL.format(olimpia.ibge_code), {"permit": SignatureLevel.NONE})
    assert response.status_code == 200
    assert not SigningPolicy.objects.exists()
    assert '<form method="post" novalidate aria-label="Nível' not in response.content.decode()
