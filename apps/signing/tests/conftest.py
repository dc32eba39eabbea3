"""The test PKI (apps.signing.tests.pkitools) wired into the environment variables apps.signing.material reads."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from apps.signing import material
from apps.signing.tests import pkitools
from apps.tenancy.models import Municipality


@dataclass
class SigningSetup:
    """What a test switches on: a municipality's certificate, the time-stamp authority, a CRL."""

    pki: pkitools.TestPki
    monkeypatch: pytest.MonkeyPatch
    tsa_url: str
    leaves: dict[str, pkitools.Issued] = field(default_factory=dict)

    def certificate(self, municipality: Municipality, common: str = "", **validity: Any) -> pkitools.Issued:
        common = common or f"Prefeitura Municipal de {municipality.name}"
        leaf = pkitools.make_leaf(self.pki.root, common, **validity)
        p12, password = self.pki.write_p12(f"{municipality.ibge_code}-{len(self.leaves)}", leaf)
        self.monkeypatch.setenv(f"OUTORGA_SIGNING_{municipality.ibge_code}_P12_FILE", str(p12))
        self.monkeypatch.setenv(f"OUTORGA_SIGNING_{municipality.ibge_code}_PASSWORD_FILE", str(password))
        self.leaves[common] = leaf
        return leaf

    def timestamps(self) -> None:
        self.monkeypatch.setenv("OUTORGA_SIGNING_TSA_URL", self.tsa_url)

    def revoke(self, *leaves: pkitools.Issued, at: dt.datetime) -> None:
        crl = pkitools.make_crl(self.pki.root, list(leaves), revoked_at=at)
        self.monkeypatch.setenv("OUTORGA_SIGNING_TRUST_DIR", str(self.pki.trust_dir(crl=crl)))


@pytest.fixture(scope="session")
def test_root() -> pkitools.Issued:
    return pkitools.make_root()


@pytest.fixture(scope="session")
def tsa_url(test_root: pkitools.Issued) -> Iterator[str]:
    with pkitools.tsa_server(test_root) as url:
        yield url


@pytest.fixture
def signing(
    test_root: pkitools.Issued, tsa_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> SigningSetup:
    for name in [n for n in __import__("os").environ if n.startswith(material.PREFIX)]:
        monkeypatch.delenv(name)
    pki = pkitools.TestPki(root=test_root, folder=tmp_path)
    monkeypatch.setenv("OUTORGA_SIGNING_TRUST_DIR", str(pki.trust_dir()))
    return SigningSetup(pki=pki, monkeypatch=monkeypatch, tsa_url=tsa_url)
