"""A local PSP for tests: the API Pix endpoints Outorga uses, served over HTTPS with mutual TLS from a thread,
every request and answer validated against the Banco Central's OpenAPI document (bcb-api-pix-openapi.yaml).

    psp = LocalPsp.start(tmp_dir)            # CA, server and client certificates made on the fly
    psp.fail_next("PUT", "/cobv/", "timeout")  # or "500", "503": the next matching call fails that way
    psp.pay(txid, amount="150.00")          # a payer's bank app pays: the PIX is listed and the webhook fires
    psp.violations                          # what broke the schema (a test fixture asserts it stays empty)
"""

from __future__ import annotations

import base64
import contextlib
import datetime as dt
import functools
import hashlib
import hmac
import http.server
import json
import re
import secrets
import ssl
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from openapi_schema_validator import OAS30Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT4

SPEC_PATH = Path(__file__).with_name("bcb-api-pix-openapi.yaml")
CLIENT_ID, CLIENT_SECRET = "outorga-teste", "segredo-do-cliente"
ISPB = "12345678"


def _fix_patterns(node: Any) -> Any:
    """The published document writes some patterns as JS literals ("/^\\d{11}$/"): strip the slashes."""
    if isinstance(node, dict):
        fixed = {key: _fix_patterns(value) for key, value in node.items()}
        pattern = fixed.get("pattern")
        if (
            isinstance(pattern, str)
            and len(pattern) > 2
            and pattern.startswith("/")
            and pattern.endswith("/")
        ):
            fixed["pattern"] = pattern[1:-1]
        return fixed
    if isinstance(node, list):
        return [_fix_patterns(item) for item in node]
    return node


@functools.cache
def spec() -> dict[str, Any]:
    document: dict[str, Any] = _fix_patterns(yaml.safe_load(SPEC_PATH.read_text(encoding="utf-8")))
    # DadosRecebedor repeats the address's "required" at the level of the whole charge, so no response — not even
    # the document's own example cobResponse4 — could pass; the same requirement stays inside ``recebedor``.
    document["components"]["schemas"]["DadosRecebedor"].pop("required", None)
    # PixConsultados requires "cobs" but names its list "pix" (and so does its example getPix1).
    document["components"]["schemas"]["PixConsultados"]["required"] = ["parametros", "pix"]
    return document


@functools.cache
def _registry() -> Registry[Any]:
    registry: Registry[Any] = Registry().with_resource(
        "urn:api-pix", Resource.from_contents(spec(), default_specification=DRAFT4)
    )
    return registry


def schema_errors(pointer: str, instance: Any) -> list[str]:
    """Violations of ``instance`` against the schema at ``pointer`` of the document (e.g. a requestBody's)."""
    validator = OAS30Validator({"$ref": f"urn:api-pix#{pointer}"}, registry=_registry())
    return [f"{pointer}: {error.message}" for error in validator.iter_errors(instance)]


def operation(path: str, method: str) -> dict[str, Any]:
    found: dict[str, Any] = spec()["paths"][path][method]
    return found


def request_schema(path: str, method: str) -> str:
    body = operation(path, method)["requestBody"]
    name = body["$ref"].rsplit("/", 1)[1]
    return f"/components/requestBodies/{name}/content/application~1json/schema"


def response_schema(path: str, method: str, status: str) -> str:
    response = operation(path, method)["responses"][status]
    if "$ref" in response:
        name = response["$ref"].rsplit("/", 1)[1]
        return f"/components/responses/{name}/content/application~1problem+json/schema"
    escaped = path.replace("~", "~0").replace("/", "~1")
    return f"/paths/{escaped}/{method}/responses/{status}/content/application~1json/schema"


def webhook_schema() -> str:
    return "/components/requestBodies/WebhookPixBody/content/application~1json/schema"


# --- certificates ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Certificates:
    ca: Path
    server_cert: Path
    server_key: Path
    client_cert: Path
    client_key: Path


def make_certificates(directory: Path) -> Certificates:
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = dt.datetime.now(dt.UTC)

    def name(common: str) -> x509.Name:
        return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])

    def write_key(key: ec.EllipticCurvePrivateKey, path: Path) -> None:
        path.write_bytes(
            key.private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
            )
        )

    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_cert = (
        x509.CertificateBuilder()
        .subject_name(name("PSP de teste - AC"))
        .issuer_name(name("PSP de teste - AC"))
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(ca_key, hashes.SHA256())
    )

    def leaf(common: str, *, server: bool) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
        key = ec.generate_private_key(ec.SECP256R1())
        builder = (
            x509.CertificateBuilder()
            .subject_name(name(common))
            .issuer_name(ca_cert.subject)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(minutes=5))
            .not_valid_after(now + dt.timedelta(days=1))
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        )
        if server:
            builder = builder.add_extension(
                x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                critical=False,
            )
        return builder.sign(ca_key, hashes.SHA256()), key

    certs = Certificates(
        ca=directory / "ca.pem",
        server_cert=directory / "server.pem",
        server_key=directory / "server.key",
        client_cert=directory / "client.pem",
        client_key=directory / "client.key",
    )
    certs.ca.write_bytes(ca_cert.public_bytes(serialization.Encoding.PEM))
    server_cert, server_key = leaf("127.0.0.1", server=True)
    client_cert, client_key = leaf("outorga-cliente", server=False)
    certs.server_cert.write_bytes(server_cert.public_bytes(serialization.Encoding.PEM))
    write_key(server_key, certs.server_key)
    certs.client_cert.write_bytes(client_cert.public_bytes(serialization.Encoding.PEM))
    write_key(client_key, certs.client_key)
    return certs


# --- the server -----------------------------------------------------------------------------------------


@dataclass
class Call:
    method: str
    path: str
    body: Any


@dataclass
class LocalPsp:
    certs: Certificates
    port: int = 0
    charges: dict[str, dict[str, Any]] = field(default_factory=dict)
    received: list[dict[str, Any]] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    faults: list[tuple[str, str, str]] = field(default_factory=list)
    page_size: int = 100
    webhook_url: str = ""
    webhook_secret: str = ""
    webhook_key: str = ""
    tokens: set[str] = field(default_factory=set)
    _server: http.server.ThreadingHTTPServer | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def start(cls, directory: Path) -> LocalPsp:
        schema_errors("/components/schemas/Pix", {})  # load the document before the first call is timed
        psp = cls(make_certificates(directory))
        handler = functools.partial(_Handler, psp)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH, cafile=str(psp.certs.ca))
        context.load_cert_chain(str(psp.certs.server_cert), str(psp.certs.server_key))
        context.verify_mode = ssl.CERT_REQUIRED  # mTLS: no client certificate, no API
        server.socket = context.wrap_socket(server.socket, server_side=True)
        server.daemon_threads = True
        psp._server, psp.port = server, server.server_address[1]
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return psp

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    @property
    def base_url(self) -> str:
        return f"https://127.0.0.1:{self.port}/api/v2"

    @property
    def token_url(self) -> str:
        return f"https://127.0.0.1:{self.port}/oauth/token"

    def environment(self, ibge_code: str) -> dict[str, str]:
        prefix = f"OUTORGA_PIX_PSP_{ibge_code}_"
        return {
            prefix + "URL": self.base_url,
            prefix + "TOKEN_URL": self.token_url,
            prefix + "CLIENT_ID": CLIENT_ID,
            prefix + "CLIENT_SECRET": CLIENT_SECRET,
            prefix + "CERT": str(self.certs.client_cert),
            prefix + "KEY": str(self.certs.client_key),
            prefix + "CA": str(self.certs.ca),
            prefix + "TIMEOUT": "2",
        }

    def fail_next(self, method: str, path_prefix: str, kind: str) -> None:
        self.faults.append((method, path_prefix, kind))

    def _fault(self, method: str, path: str) -> str | None:
        with self._lock:
            for index, (fault_method, prefix, kind) in enumerate(self.faults):
                if fault_method == method and path.startswith(prefix):
                    del self.faults[index]
                    return kind
        return None

    # --- what a payer does --------------------------------------------------------------------------

    def pay(
        self,
        txid: str,
        *,
        amount: str | None = None,
        at: dt.datetime | None = None,
        notify: bool = True,
    ) -> dict[str, Any]:
        """The payer's bank app pays the charge: the PIX is listed and (if configured) the webhook is called."""
        charge = self.charges.get(txid)
        value = amount or (charge["valor"]["original"] if charge else "1.00")
        when = at or dt.datetime.now(dt.UTC)
        pix = {
            "endToEndId": f"E{ISPB}{when:%Y%m%d%H%M}{secrets.token_hex(6)[:11]}",
            "txid": txid,
            "valor": value,
            "horario": when.isoformat().replace("+00:00", "Z"),
            "infoPagador": "pagamento da guia",
        }
        self.violations += schema_errors("/components/schemas/Pix", pix)
        self.received.append(pix)
        if charge is not None:
            charge["status"] = "CONCLUIDA"
        if notify and self.webhook_url:
            self.deliver([pix])
        return pix

    def deliver(self, items: list[dict[str, Any]], *, secret: str | None = None) -> int:
        """POST the ``listaPix`` callback (the PSP appends /pix to the registered URL), signed."""
        body = json.dumps({"pix": items}).encode()
        self.violations += schema_errors(webhook_schema(), json.loads(body))
        key = self.webhook_secret if secret is None else secret
        request = urllib.request.Request(
            self.webhook_url.rstrip("/") + "/pix",
            data=body,
            method="POST",
            headers={
                "Content-Type": "application/json",
                "X-Pix-Signature": hmac.new(key.encode(), body, hashlib.sha256).hexdigest(),
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310 (test server)
                return int(response.status)
        except urllib.error.HTTPError as exc:
            return exc.code

    # --- the API ------------------------------------------------------------------------------------

    def handle(self, method: str, raw_path: str, headers: Any, body: bytes) -> tuple[int, Any]:
        url = urllib.parse.urlsplit(raw_path)
        path, query = url.path, urllib.parse.parse_qs(url.query)
        parsed = json.loads(body) if body and path != "/oauth/token" else None
        self.calls.append(Call(method, path, parsed))
        fault = self._fault(method, path.removeprefix("/api/v2"))
        if fault == "timeout":
            time.sleep(3)
            return 503, _problem(503, "ServicoIndisponivel")
        if fault in {"500", "503"}:
            return int(fault), _problem(int(fault), "ServicoIndisponivel")
        if path == "/oauth/token":
            return self._token(headers, body)
        if headers.get("Authorization", "").removeprefix("Bearer ") not in self.tokens:
            return 401, _problem(401, "AcessoNegado")
        api = path.removeprefix("/api/v2")
        if match := re.fullmatch(r"/cobv/([^/]+)", api):
            return self._cobv(method, match.group(1), parsed)
        if api == "/pix" and method == "GET":
            return self._pix_list(query)
        if match := re.fullmatch(r"/webhook/([^/]+)", api):
            return self._webhook_config(method, urllib.parse.unquote(match.group(1)), parsed)
        if match := re.fullmatch(r"/pix/([^/]+)/devolucao/([^/]+)", api):
            return self._refund(method, match.group(1), match.group(2), parsed)
        return 404, _problem(404, "NaoEncontrado")

    def _token(self, headers: Any, body: bytes) -> tuple[int, Any]:
        expected = base64.b64encode(f"{CLIENT_ID}:{CLIENT_SECRET}".encode()).decode()
        form = urllib.parse.parse_qs(body.decode())
        if headers.get("Authorization") != f"Basic {expected}" or form.get("grant_type") != [
            "client_credentials"
        ]:
            return 401, {"error": "invalid_client"}
        token = secrets.token_hex(16)
        self.tokens.add(token)
        return 200, {"access_token": token, "token_type": "Bearer", "expires_in": 3600, "scope": "cobv.write"}

    def _check(self, errors: list[str]) -> list[str]:
        self.violations += errors
        return errors

    def _cobv(self, method: str, txid: str, body: Any) -> tuple[int, Any]:
        spec_path = "/cobv/{txid}"
        if not re.fullmatch(r"[a-zA-Z0-9]{26,35}", txid):
            self.violations.append(f"txid fora do padrão: {txid}")
            return 400, _problem(400, "CobVOperacaoInvalida")
        if method == "PUT":
            if self._check(schema_errors(request_schema(spec_path, "put"), body)):
                return 400, _problem(400, "CobVOperacaoInvalida")
            if txid in self.charges:
                return 400, _problem(400, "CobVOperacaoInvalida", "txid já utilizado")
            self.charges[txid] = self._new_charge(txid, body)
            return self._answer(spec_path, "put", "201", self.charges[txid])
        if method == "PATCH":
            if self._check(schema_errors(request_schema(spec_path, "patch"), body)):
                return 400, _problem(400, "CobVOperacaoInvalida")
            charge = self.charges.get(txid)
            if charge is None:
                return 404, _problem(404, "NaoEncontrado")
            if charge["status"] != "ATIVA":
                return 400, _problem(400, "CobVOperacaoInvalida", "cobrança não está ativa")
            for key in ("calendario", "devedor", "valor", "solicitacaoPagador", "status"):
                if key in body:
                    charge[key] = {**charge[key], **body[key]} if key == "calendario" else body[key]
            charge["calendario"]["criacao"] = charge["calendario"]["criacao"]
            charge["revisao"] += 1
            return self._answer(spec_path, "patch", "200", charge)
        if method == "GET":
            charge = self.charges.get(txid)
            if charge is None:
                return 404, _problem(404, "NaoEncontrado")
            return self._answer(spec_path, "get", "200", charge)
        return 405, _problem(405, "MetodoNaoPermitido")

    def _new_charge(self, txid: str, body: dict[str, Any]) -> dict[str, Any]:
        location = f"pix.psp-teste.example/qr/v2/cobv/{secrets.token_hex(16)}"
        return {
            "calendario": {
                "criacao": dt.datetime.now(dt.UTC).isoformat().replace("+00:00", "Z"),
                "validadeAposVencimento": 30,
                **body["calendario"],
            },
            "txid": txid,
            "revisao": 0,
            "loc": {
                "id": len(self.charges) + 1,
                "txid": txid,
                "location": location,
                "tipoCob": "cobv",
                "criacao": "2026-01-01T00:00:00Z",
            },
            "location": location,
            "status": "ATIVA",
            "devedor": body["devedor"],
            "recebedor": {
                "cnpj": "46177523000109",
                "nome": "PREFEITURA",
                "logradouro": "Praça da Matriz, 1",
                "cidade": "Cidade",
                "uf": "SP",
                "cep": "15400000",
            },
            "valor": body["valor"],
            "chave": body["chave"],
            "solicitacaoPagador": body.get("solicitacaoPagador", ""),
            "pixCopiaECola": f"00020101021226{len(location) + 22:02d}0014br.gov.bcb.pix25{len(location):02d}{location}"
            "5204000053039865802BR5910PREFEITURA6006CIDADE62070503***6304ABCD",
        }

    def _answer(self, path: str, method: str, status: str, payload: dict[str, Any]) -> tuple[int, Any]:
        self._check(schema_errors(response_schema(path, method, status), payload))
        return int(status), payload

    def _pix_list(self, query: dict[str, list[str]]) -> tuple[int, Any]:
        for required in ("inicio", "fim"):
            if required not in query:
                self.violations.append(f"GET /pix sem o parâmetro obrigatório {required}")
                return 400, _problem(400, "RequisicaoInvalida")
        start = dt.datetime.fromisoformat(query["inicio"][0])
        end = dt.datetime.fromisoformat(query["fim"][0])
        page = int(query.get("paginacao.paginaAtual", ["0"])[0])
        chosen = [pix for pix in self.received if start <= dt.datetime.fromisoformat(pix["horario"]) <= end]
        pages = max(1, -(-len(chosen) // self.page_size))
        answer = {
            "parametros": {
                "inicio": query["inicio"][0],
                "fim": query["fim"][0],
                "paginacao": {
                    "paginaAtual": page,
                    "itensPorPagina": self.page_size,
                    "quantidadeDePaginas": pages,
                    "quantidadeTotalDeItens": len(chosen),
                },
            },
            "pix": chosen[page * self.page_size : (page + 1) * self.page_size],
        }
        return self._answer("/pix", "get", "200", answer)

    def _webhook_config(self, method: str, key: str, body: Any) -> tuple[int, Any]:
        if method != "PUT" or self._check(schema_errors(request_schema("/webhook/{chave}", "put"), body)):
            return 400, _problem(400, "RequisicaoInvalida")
        self.webhook_url = body["webhookUrl"]
        self.webhook_key = key
        return 200, {}

    def _refund(self, method: str, e2e: str, refund_id: str, body: Any) -> tuple[int, Any]:
        spec_path = "/pix/{e2eid}/devolucao/{id}"
        if method != "PUT" or self._check(schema_errors(request_schema(spec_path, "put"), body)):
            return 400, _problem(400, "RequisicaoInvalida")
        answer = {
            "id": refund_id,
            "rtrId": f"D{ISPB}{dt.datetime.now(dt.UTC):%Y%m%d%H%M}{secrets.token_hex(6)[:11]}",
            "valor": body["valor"],
            "horario": {"solicitacao": dt.datetime.now(dt.UTC).isoformat().replace("+00:00", "Z")},
            "status": "EM_PROCESSAMENTO",
        }
        return self._answer(spec_path, "put", "201", answer)


def _problem(status: int, kind: str, detail: str = "") -> dict[str, Any]:
    problem: dict[str, Any] = {
        "type": f"https://pix.bcb.gov.br/api/v2/error/{kind}",
        "title": kind,
        "status": status,
    }
    if detail:
        problem["detail"] = detail
    return problem


class _Handler(http.server.BaseHTTPRequestHandler):
    def __init__(self, psp: LocalPsp, *args: Any, **kwargs: Any) -> None:
        self.psp = psp
        super().__init__(*args, **kwargs)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (stdlib signature)
        pass

    def _serve(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        try:
            status, payload = self.psp.handle(self.command, self.path, self.headers, body)
        except Exception as exc:  # noqa: BLE001 (a bug in the fake is a violation, not a hang)
            self.psp.violations.append(f"erro no PSP de teste: {exc!r}")
            status, payload = 500, _problem(500, "ErroInterno")
        data = json.dumps(payload).encode()
        self.send_response(status)
        kind = "application/json" if status < 400 or "error" in payload else "application/problem+json"
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        with contextlib.suppress(BrokenPipeError, ConnectionResetError, ssl.SSLError):
            self.wfile.write(data)

    do_GET = do_PUT = do_PATCH = do_POST = _serve  # noqa: N815 (stdlib naming)


SignFunction = Callable[[str, bytes], str]
