"""The municipality's signing key and the verifier's trust, from the environment (never from the database).

Per municipality (its 7-digit IBGE code), either pair of variables or the directory convention:

    OUTORGA_SIGNING_<IBGE>_P12_FILE        the PKCS#12 (A1) file: key, certificate and its chain
    OUTORGA_SIGNING_<IBGE>_PASSWORD_FILE   a file holding its password (one line)
    OUTORGA_SIGNING_DIR                    or: <dir>/<IBGE>.p12 with <dir>/<IBGE>.senha beside it
    OUTORGA_SIGNING_<IBGE>_TSA_URL         an RFC 3161 time-stamp authority for this municipality, or
    OUTORGA_SIGNING_TSA_URL                one for all of them
    OUTORGA_SIGNING_TRUST_DIR              the roots the verifier trusts (ICP-Brasil's: *.pem/*.crt/*.cer, PEM
                                           or DER) and any CRLs (*.crl) to check revocation with
    OUTORGA_SIGNING_FETCH=1                let the signer and the verifier fetch CRLs/OCSP answers on line

Rotation: point the variables at the new file. Old acts keep verifying: each carries its own chain (and, at the
qualified level, its validation material), and apps.signing.models.IssuedDocument keeps the fingerprint of the
certificate each was signed with. A file that is configured but cannot be read stops the issue with an error:
a document is never issued unsigned because a password file was mistyped.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from asn1crypto import crl as asn1_crl
from asn1crypto import pem
from asn1crypto import x509 as asn1_x509
from django.core.exceptions import ImproperlyConfigured

from apps.signing.pki import SignerMaterial, TrustMaterial, load_pkcs12

PREFIX = "OUTORGA_SIGNING_"
_CACHE: dict[tuple[str, float, str, float], SignerMaterial] = {}


def _env(environ: Mapping[str, str] | None) -> Mapping[str, str]:
    return os.environ if environ is None else environ


def key_files(ibge_code: str, environ: Mapping[str, str] | None = None) -> tuple[Path, Path] | None:
    env = _env(environ)
    p12 = env.get(f"{PREFIX}{ibge_code}_P12_FILE", "")
    password = env.get(f"{PREFIX}{ibge_code}_PASSWORD_FILE", "")
    if p12 or password:
        if not (p12 and password):
            raise ImproperlyConfigured(
                f"{PREFIX}{ibge_code}_P12_FILE e {PREFIX}{ibge_code}_PASSWORD_FILE vão juntos: falta um deles."
            )
        return Path(p12), Path(password)
    folder = env.get(f"{PREFIX}DIR", "")
    if folder and (Path(folder) / f"{ibge_code}.p12").exists():
        return Path(folder) / f"{ibge_code}.p12", Path(folder) / f"{ibge_code}.senha"
    return None


def signer_for(ibge_code: str, environ: Mapping[str, str] | None = None) -> SignerMaterial | None:
    """The municipality's key, or None when none is configured (the demo: acts go out marked unsigned)."""
    files = key_files(ibge_code, environ)
    if files is None:
        return None
    p12, password = files
    try:
        key = (str(p12), p12.stat().st_mtime, str(password), password.stat().st_mtime)
        if key not in _CACHE:
            _CACHE[key] = load_pkcs12(p12.read_bytes(), password.read_bytes().strip())
        return _CACHE[key]
    except (OSError, ValueError) as exc:
        raise ImproperlyConfigured(
            f"O certificado de assinatura do município {ibge_code} ({p12}) não pôde ser lido: {exc}"
        ) from exc


def tsa_url_for(ibge_code: str, environ: Mapping[str, str] | None = None) -> str:
    env = _env(environ)
    return env.get(f"{PREFIX}{ibge_code}_TSA_URL", "") or env.get(f"{PREFIX}TSA_URL", "")


def trust(environ: Mapping[str, str] | None = None) -> TrustMaterial:
    env = _env(environ)
    fetch = env.get(f"{PREFIX}FETCH", "").lower() in {"1", "true", "yes", "on"}
    folder = env.get(f"{PREFIX}TRUST_DIR", "")
    if not folder:
        return TrustMaterial(allow_fetching=fetch)
    roots: list[asn1_x509.Certificate] = []
    crls: list[asn1_crl.CertificateList] = []
    for path in sorted(Path(folder).iterdir()):
        data = path.read_bytes()
        blocks = [der for _, _, der in pem.unarmor(data, multiple=True)] if pem.detect(data) else [data]
        if path.suffix.lower() == ".crl":
            crls += [asn1_crl.CertificateList.load(der) for der in blocks]
        elif path.suffix.lower() in {".pem", ".crt", ".cer", ".der"}:
            roots += [asn1_x509.Certificate.load(der) for der in blocks]
    return TrustMaterial(roots=tuple(roots), crls=tuple(crls), allow_fetching=fetch)
