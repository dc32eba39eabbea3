"""A real, small PKI for the tests: a root CA, municipality certificates (valid, expired, revoked), a CRL, a
PKCS#12 file per certificate, and an RFC 3161 time-stamp server on 127.0.0.1 in a thread (pyHanko's
DummyTimeStamper does the signing; the HTTP exchange is the real one pyHanko's HTTPTimeStamper speaks).
Everything is made with `cryptography` at test time: no key or certificate is kept in the repository.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from asn1crypto import keys as asn1_keys
from asn1crypto import tsp
from asn1crypto import x509 as asn1_x509
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
from pyhanko.sign.timestamps.dummy_client import DummyTimeStamper
from pyhanko_certvalidator.registry import SimpleCertificateStore

NOW = dt.datetime.now(dt.UTC)
PASSWORD = b"senha-de-teste"
CRL_URL = "http://127.0.0.1:9/raiz.crl"


@dataclass
class Issued:
    key: rsa.RSAPrivateKey
    cert: x509.Certificate

    def p12(self, chain: list[x509.Certificate]) -> bytes:
        return pkcs12.serialize_key_and_certificates(
            b"prefeitura",
            self.key,
            self.cert,
            chain,
            serialization.BestAvailableEncryption(PASSWORD),
        )

    def pem(self) -> bytes:
        return self.cert.public_bytes(serialization.Encoding.PEM)


def _name(common: str) -> x509.Name:
    return x509.Name(
        [
            x509.NameAttribute(NameOID.COUNTRY_NAME, "BR"),
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "AC de Teste do Outorga"),
            x509.NameAttribute(NameOID.COMMON_NAME, common),
        ]
    )


def make_root(common: str = "AC Raiz de Teste") -> Issued:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    cert = (
        x509.CertificateBuilder()
        .subject_name(_name(common))
        .issuer_name(_name(common))
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(NOW - dt.timedelta(days=3650))
        .not_valid_after(NOW + dt.timedelta(days=3650))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    return Issued(key, cert)


def make_leaf(
    root: Issued,
    common: str,
    *,
    not_before: dt.datetime | None = None,
    not_after: dt.datetime | None = None,
    tsa: bool = False,
) -> Issued:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    builder = (
        x509.CertificateBuilder()
        .subject_name(_name(common))
        .issuer_name(root.cert.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(not_before or NOW - dt.timedelta(days=30))
        .not_valid_after(not_after or NOW + dt.timedelta(days=365))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(root.key.public_key()), critical=False
        )
    )
    if tsa:
        builder = builder.add_extension(
            x509.ExtendedKeyUsage([ExtendedKeyUsageOID.TIME_STAMPING]), critical=True
        ).add_extension(
            x509.KeyUsage(True, False, False, False, False, False, False, False, False), critical=True
        )
    else:
        builder = builder.add_extension(
            x509.KeyUsage(True, True, False, False, False, False, False, False, False), critical=True
        ).add_extension(
            # Where the CRL would be published; the tests hand the CRL to the verifier, nothing is fetched.
            x509.CRLDistributionPoints(
                [x509.DistributionPoint([x509.UniformResourceIdentifier(CRL_URL)], None, None, None)]
            ),
            critical=False,
        )
    return Issued(key, builder.sign(root.key, hashes.SHA256()))


def make_crl(root: Issued, revoked: list[Issued], *, revoked_at: dt.datetime) -> bytes:
    builder = (
        x509.CertificateRevocationListBuilder()
        .issuer_name(root.cert.subject)
        .last_update(NOW - dt.timedelta(minutes=5))
        .next_update(NOW + dt.timedelta(days=7))
        .add_extension(x509.CRLNumber(1), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(root.key.public_key()), critical=False
        )
    )
    for item in revoked:
        builder = builder.add_revoked_certificate(
            x509.RevokedCertificateBuilder()
            .serial_number(item.cert.serial_number)
            .revocation_date(revoked_at)
            .build()
        )
    return builder.sign(root.key, hashes.SHA256()).public_bytes(serialization.Encoding.DER)


def _asn1_cert(cert: x509.Certificate) -> asn1_x509.Certificate:
    return asn1_x509.Certificate.load(cert.public_bytes(serialization.Encoding.DER))


@contextmanager
def tsa_server(root: Issued) -> Iterator[str]:
    """An RFC 3161 time-stamp authority at http://127.0.0.1:<port>/tsa, stopped on exit."""
    unit = make_leaf(root, "Carimbo do Tempo de Teste", tsa=True)
    key_der = unit.key.private_bytes(
        serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    stamper = DummyTimeStamper(
        tsa_cert=_asn1_cert(unit.cert),
        tsa_key=asn1_keys.PrivateKeyInfo.load(key_der),
        certs_to_embed=SimpleCertificateStore.from_certs([_asn1_cert(root.cert)]),  # type: ignore[no-untyped-call]
    )

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (the http.server API)
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            answer = stamper.request_tsa_response(tsp.TimeStampReq.load(body)).dump()
            self.send_response(200)
            self.send_header("Content-Type", "application/timestamp-reply")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/tsa"
    finally:
        server.shutdown()
        server.server_close()


@dataclass
class TestPki:
    root: Issued
    folder: Path

    def write_p12(self, name: str, leaf: Issued) -> tuple[Path, Path]:
        p12 = self.folder / f"{name}.p12"
        p12.write_bytes(leaf.p12([self.root.cert]))
        password = self.folder / f"{name}.senha"
        password.write_bytes(PASSWORD + b"\n")
        return p12, password

    def trust_dir(self, *, crl: bytes | None = None) -> Path:
        folder = self.folder / "confianca"
        folder.mkdir(exist_ok=True)
        (folder / "raiz.pem").write_bytes(self.root.pem())
        if crl is not None:
            (folder / "raiz.crl").write_bytes(crl)
        return folder
