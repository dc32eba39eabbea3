"""A real OpenID Connect provider over HTTP on 127.0.0.1, shaped like gov.br's, for the tests only.

It runs in a thread and speaks the same protocol Outorga meets in production: authorization code flow with PKCE
(S256 required, like gov.br), client authentication by secret, RS256-signed ID tokens whose `sub` is the CPF, a
JWKS endpoint and a userinfo endpoint. The login page takes a CPF and a password from `accounts`.

Knobs the tests turn to play a misbehaving or hostile provider: `id_token_lifetime` (negative = already expired),
`nonce_override` (an ID token for another login), `issuer_override` and `sub_override`.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import secrets
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from joserfc import jwt
from joserfc.jwk import RSAKey

CLIENT_ID = "outorga-teste"
CLIENT_SECRET = "segredo-do-cliente-de-teste"
SCOPES_REQUIRED = {"openid"}


@dataclass
class GovBrAccount:
    cpf: str
    password: str
    name: str
    email: str = ""


@dataclass
class _Grant:
    client_id: str
    redirect_uri: str
    nonce: str
    code_challenge: str
    account: GovBrAccount
    scope: str


@dataclass
class LocalGovBr:
    """The provider's state; `start()` serves it on a free port until `stop()`."""

    accounts: dict[str, GovBrAccount] = field(default_factory=dict)
    id_token_lifetime: int = 300
    nonce_override: str | None = None
    issuer_override: str | None = None
    sub_override: str | None = None
    key: RSAKey = field(default_factory=lambda: RSAKey.generate_key(2048, parameters={"kid": "teste-1"}))
    grants: dict[str, _Grant] = field(default_factory=dict)
    access_tokens: dict[str, GovBrAccount] = field(default_factory=dict)
    token_requests: list[dict[str, str]] = field(default_factory=list)
    _server: ThreadingHTTPServer | None = None

    @property
    def issuer(self) -> str:
        assert self._server is not None, "start() the provider first"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def add_account(
        self, cpf: str, name: str, email: str = "", password: str = "senha-gov-br"
    ) -> GovBrAccount:
        account = GovBrAccount(cpf=cpf, password=password, name=name, email=email)
        self.accounts[cpf] = account
        return account

    def settings(self) -> dict[str, Any]:
        """Outorga's settings pointing at this provider (what the environment would give in production)."""
        return {
            "GOVBR_ENABLED": True,
            "GOVBR_OIDC_ISSUER": self.issuer,
            "OIDC_RP_CLIENT_ID": CLIENT_ID,
            "OIDC_RP_CLIENT_SECRET": CLIENT_SECRET,
            "OIDC_OP_AUTHORIZATION_ENDPOINT": f"{self.issuer}/authorize",
            "OIDC_OP_TOKEN_ENDPOINT": f"{self.issuer}/token",
            "OIDC_OP_USER_ENDPOINT": f"{self.issuer}/userinfo/",
            "OIDC_OP_JWKS_ENDPOINT": f"{self.issuer}/jwk",
        }

    def start(self) -> LocalGovBr:
        provider = self

        class Handler(_Handler):
            state = provider

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    # --- protocol -------------------------------------------------------------------------------------------

    def issue_code(self, params: dict[str, str], account: GovBrAccount) -> str:
        code = secrets.token_urlsafe(24)
        self.grants[code] = _Grant(
            client_id=params["client_id"],
            redirect_uri=params["redirect_uri"],
            nonce=params.get("nonce", ""),
            code_challenge=params["code_challenge"],
            account=account,
            scope=params.get("scope", ""),
        )
        return code

    def exchange(self, form: dict[str, str], basic: tuple[str, str] | None) -> tuple[int, dict[str, Any]]:
        """The token endpoint: client secret, single-use code, same redirect_uri, PKCE verifier."""
        self.token_requests.append(form)
        client_id, secret = basic or (form.get("client_id", ""), form.get("client_secret", ""))
        if client_id != CLIENT_ID or secret != CLIENT_SECRET:
            return 401, {"error": "invalid_client"}
        grant = self.grants.pop(form.get("code", ""), None)
        if form.get("grant_type") != "authorization_code" or grant is None:
            return 400, {"error": "invalid_grant"}
        if grant.redirect_uri != form.get("redirect_uri") or grant.client_id != client_id:
            return 400, {"error": "invalid_grant"}
        if _s256(form.get("code_verifier", "")) != grant.code_challenge:
            return 400, {"error": "invalid_grant", "error_description": "PKCE"}
        access_token = secrets.token_urlsafe(24)
        self.access_tokens[access_token] = grant.account
        return 200, {
            "access_token": access_token,
            "token_type": "Bearer",
            "expires_in": 300,
            "scope": grant.scope,
            "id_token": self.id_token(grant),
        }

    def id_token(self, grant: _Grant) -> str:
        now = int(time.time())
        claims = {
            "iss": self.issuer_override or self.issuer,
            "sub": self.sub_override or grant.account.cpf,
            "aud": grant.client_id,
            "iat": now,
            "exp": now + self.id_token_lifetime,
            "nonce": self.nonce_override if self.nonce_override is not None else grant.nonce,
            "amr": ["passwd"],
            "name": grant.account.name,
            "email": grant.account.email,
        }
        header = {"alg": "RS256", "kid": self.key.kid, "typ": "JWT"}
        return jwt.encode(header, claims, self.key)

    def userinfo(self, authorization: str) -> tuple[int, dict[str, Any]]:
        account = self.access_tokens.get(authorization.removeprefix("Bearer ").strip())
        if account is None:
            return 401, {"error": "invalid_token"}
        return 200, {
            "sub": self.sub_override or account.cpf,
            "name": account.name,
            "email": account.email,
            "email_verified": bool(account.email),
        }

    def discovery(self) -> dict[str, Any]:
        return {
            "issuer": self.issuer,
            "authorization_endpoint": f"{self.issuer}/authorize",
            "token_endpoint": f"{self.issuer}/token",
            "userinfo_endpoint": f"{self.issuer}/userinfo/",
            "jwks_uri": f"{self.issuer}/jwk",
            "response_types_supported": ["code"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "code_challenge_methods_supported": ["S256"],
            "scopes_supported": ["openid", "email", "profile", "govbr_confiabilidades"],
        }


def _s256(verifier: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()


class _Handler(BaseHTTPRequestHandler):
    state: LocalGovBr

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002  (quiet test output)
        return

    def do_GET(self) -> None:  # noqa: N802
        url = urlsplit(self.path)
        params = {k: v[0] for k, v in parse_qs(url.query).items()}
        if url.path == "/.well-known/openid-configuration":
            self._json(200, self.state.discovery())
        elif url.path == "/jwk":
            self._json(
                200, {"keys": [self.state.key.as_dict(private=False) | {"alg": "RS256", "use": "sig"}]}
            )
        elif url.path == "/userinfo/":
            self._json(*self.state.userinfo(self.headers.get("Authorization", "")))
        elif url.path == "/authorize":
            problem = _authorization_problem(params)
            if problem:
                self._html(400, f"<p>{html.escape(problem)}</p>")
            else:
                self._html(200, _login_page(params, error=""))
        else:
            self._json(404, {"error": "not_found"})

    def do_POST(self) -> None:  # noqa: N802
        length = int(self.headers.get("Content-Length", "0"))
        form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}
        path = urlsplit(self.path).path
        if path == "/token":
            self._json(*self.state.exchange(form, _basic_credentials(self.headers.get("Authorization", ""))))
        elif path == "/authorize":
            self._login(form)
        else:
            self._json(404, {"error": "not_found"})

    def _login(self, form: dict[str, str]) -> None:
        params = {k: v for k, v in form.items() if k not in {"cpf", "senha"}}
        if _authorization_problem(params):
            self._html(400, "<p>pedido inválido</p>")
            return
        account = self.state.accounts.get(form.get("cpf", "").replace(".", "").replace("-", ""))
        if account is None or not secrets.compare_digest(account.password, form.get("senha", "")):
            self._html(200, _login_page(params, error="CPF ou senha incorretos."))
            return
        code = self.state.issue_code(params, account)
        query = urlencode({"code": code, "state": params.get("state", "")})
        self.send_response(302)
        self.send_header("Location", f"{params['redirect_uri']}?{query}")
        self.end_headers()

    def _json(self, status: int, body: dict[str, Any]) -> None:
        payload = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def _html(self, status: int, body: str) -> None:
        payload = (
            f"<!doctype html><html lang='pt-BR'><meta charset='utf-8'><body>{body}</body></html>".encode()
        )
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)


def _authorization_problem(params: dict[str, str]) -> str:
    if params.get("response_type") != "code":
        return "response_type deve ser code"
    if params.get("client_id") != CLIENT_ID:
        return "cliente desconhecido"
    if not set(params.get("scope", "").split()) >= SCOPES_REQUIRED:
        return "escopo openid ausente"
    if not params.get("redirect_uri", "").startswith(
        ("http://127.0.0.1", "http://localhost", "http://testserver")
    ):
        return "redirect_uri não registrada"
    if params.get("code_challenge_method") != "S256" or not params.get("code_challenge"):
        return "PKCE (S256) obrigatório"
    return ""


def _basic_credentials(header: str) -> tuple[str, str] | None:
    if not header.startswith("Basic "):
        return None
    user, _, password = base64.b64decode(header.removeprefix("Basic ")).decode().partition(":")
    return user, password


def _login_page(params: dict[str, str], *, error: str) -> str:
    hidden = "".join(
        f"<input type='hidden' name='{html.escape(k)}' value='{html.escape(v)}'>" for k, v in params.items()
    )
    message = f"<p role='alert'>{html.escape(error)}</p>" if error else ""
    return (
        "<h1>gov.br (provedor local de teste)</h1>"
        f"{message}<form method='post' action='/authorize'>{hidden}"
        "<label for='cpf'>CPF</label><input id='cpf' name='cpf'>"
        "<label for='senha'>Senha</label><input id='senha' name='senha' type='password'>"
        "<button type='submit'>Entrar</button></form>"
    )
