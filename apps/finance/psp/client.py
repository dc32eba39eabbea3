"""The calls Outorga makes to a PSP's API Pix, with the standard library only (urllib + ssl).

OAuth2 client credentials (the token is kept until shortly before it expires), JSON in and out, mTLS when the
municipality has a client certificate. Every failure is a PspError: ``retryable`` for what time may cure
(timeouts, connection errors, 5xx, 429), not for what it never will (4xx: the request itself is wrong).
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import ssl
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any

from apps.finance.psp.config import PspConfig

TOKEN_MARGIN_SECONDS = 30


class PspError(Exception):
    def __init__(self, message: str, *, status: int | None = None, retryable: bool = True) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.retryable = retryable


@dataclass
class _Token:
    value: str
    expires_at: float


_TOKENS: dict[tuple[str, str], _Token] = {}
_LOCK = threading.Lock()


def forget_tokens() -> None:
    """For tests: the next call asks the PSP for a new token."""
    with _LOCK:
        _TOKENS.clear()


class PspClient:
    def __init__(self, config: PspConfig) -> None:
        self.config = config

    # --- the API Pix calls ------------------------------------------------------------------------------

    def cobv_create(self, txid: str, body: dict[str, Any]) -> dict[str, Any]:
        return self._json("PUT", f"/cobv/{txid}", body)

    def cobv_revise(self, txid: str, body: dict[str, Any]) -> dict[str, Any]:
        return self._json("PATCH", f"/cobv/{txid}", body)

    def cobv_get(self, txid: str) -> dict[str, Any]:
        return self._json("GET", f"/cobv/{txid}")

    def pix_received(self, *, start: dt.datetime, end: dt.datetime, page: int = 0) -> dict[str, Any]:
        query = urllib.parse.urlencode(
            {"inicio": _rfc3339(start), "fim": _rfc3339(end), "paginacao.paginaAtual": page}
        )
        return self._json("GET", f"/pix?{query}")

    def webhook_register(self, pix_key: str, url: str) -> None:
        """Ask the PSP to notify ``url`` (it appends /pix) of every PIX with a txid received on ``pix_key``."""
        self._json("PUT", f"/webhook/{urllib.parse.quote(pix_key, safe='')}", {"webhookUrl": url})

    def refund_request(self, end_to_end_id: str, refund_id: str, amount: str) -> dict[str, Any]:
        return self._json("PUT", f"/pix/{end_to_end_id}/devolucao/{refund_id}", {"valor": amount})

    # --- plumbing ---------------------------------------------------------------------------------------

    def _json(self, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {self._token()}", "Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body, separators=(",", ":")).encode()
            headers["Content-Type"] = "application/json"
        raw = self._send(urllib.request.Request(self.config.base_url + path, data, headers, method=method))
        try:
            answer = json.loads(raw or b"{}")
        except ValueError as exc:
            raise PspError("resposta do banco não é JSON válido", retryable=True) from exc
        if not isinstance(answer, dict):
            raise PspError("resposta do banco em formato inesperado", retryable=True)
        return answer

    def _token(self) -> str:
        key = (self.config.token_url, self.config.client_id)
        with _LOCK:
            token = _TOKENS.get(key)
            if token is not None and token.expires_at > time.monotonic():
                return token.value
        credentials = f"{self.config.client_id}:{self.config.client_secret}".encode()
        request = urllib.request.Request(
            self.config.token_url,
            urllib.parse.urlencode({"grant_type": "client_credentials"}).encode(),
            {
                "Authorization": "Basic " + base64.b64encode(credentials).decode(),
                "Content-Type": "application/x-www-form-urlencoded",
            },
            method="POST",
        )
        try:
            answer = json.loads(self._send(request))
            value, lifetime = str(answer["access_token"]), int(answer.get("expires_in", 300))
        except (ValueError, KeyError, TypeError) as exc:
            raise PspError("o banco não devolveu um token de acesso válido", retryable=True) from exc
        with _LOCK:
            _TOKENS[key] = _Token(value, time.monotonic() + max(lifetime - TOKEN_MARGIN_SECONDS, 1))
        return value

    def _send(self, request: urllib.request.Request) -> bytes:
        try:
            with urllib.request.urlopen(  # noqa: S310 (URL from the deployment's environment)
                request, timeout=self.config.timeout, context=self._ssl_context()
            ) as response:
                return bytes(response.read())
        except urllib.error.HTTPError as exc:
            detail = _problem(exc)
            retryable = exc.code >= 500 or exc.code == 429
            if exc.code == 401:
                forget_tokens()
                retryable = True
            raise PspError(f"HTTP {exc.code}{detail}", status=exc.code, retryable=retryable) from exc
        except (urllib.error.URLError, TimeoutError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise PspError(f"falha de comunicação com o banco: {reason}"[:300], retryable=True) from exc

    def _ssl_context(self) -> ssl.SSLContext | None:
        if not self.config.base_url.startswith("https") and not self.config.token_url.startswith("https"):
            return None
        context = ssl.create_default_context(cafile=self.config.ca or None)
        if self.config.cert:
            context.load_cert_chain(self.config.cert, self.config.key)
        return context


def _problem(exc: urllib.error.HTTPError) -> str:
    """The RFC 7807 title/detail the API Pix answers with, when there is one."""
    try:
        body = json.loads(exc.read() or b"{}")
    except (ValueError, OSError):
        return ""
    if not isinstance(body, dict):
        return ""
    text = str(body.get("detail") or body.get("title") or "")
    return f": {text}"[:200] if text else ""


def _rfc3339(instant: dt.datetime) -> str:
    return instant.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
