"""The PSP's webhook: ``POST …/pix`` with ``{"pix": [...]}`` (API Pix callback ``listaPix``), one per municipality.

The PSP is registered with ``webhookUrl = https://<host>/pix/webhook/<IBGE>``; it appends ``/pix``. Who may call
it is configured per municipality (docs/pix.md): mTLS, verified by the TLS proxy, which passes the client
certificate's verification and SHA-256 fingerprint in ``X-SSL-Client-Verify`` / ``X-SSL-Client-Fingerprint``;
and/or an HMAC-SHA256 of the body in ``X-Pix-Signature`` (hex). A municipality with neither configured accepts
no webhook at all (403): an unauthenticated "the guide was paid" is never taken.

Answers: 200 when every item was recorded (a repeated item counts as recorded), 400 when the body or an item
cannot be read (the PSP retries; the good items were recorded once and stay so), 401/403 for bad credentials.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging

from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from apps.finance.choices import ReceiptSource
from apps.finance.psp.config import WebhookAuth, psp_config, webhook_auth
from apps.finance.reconciliation import pix_items_record
from apps.tenancy.models import Municipality

logger = logging.getLogger(__name__)
SIGNATURE_HEADER = "HTTP_X_PIX_SIGNATURE"
MAX_BODY = 1_000_000


def sign(secret: str, body: bytes) -> str:
    return hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def _authentic(request: HttpRequest, auth: WebhookAuth, body: bytes) -> bool:
    if auth.client_cert_sha256:
        verified = request.META.get("HTTP_X_SSL_CLIENT_VERIFY", "") == "SUCCESS"
        fingerprint = request.META.get("HTTP_X_SSL_CLIENT_FINGERPRINT", "").replace(":", "").lower()
        if not verified or not hmac.compare_digest(fingerprint, auth.client_cert_sha256):
            return False
    if auth.secret:
        given = request.META.get(SIGNATURE_HEADER, "").strip().lower()
        if not hmac.compare_digest(given, sign(auth.secret, body)):
            return False
    return True


@csrf_exempt
@require_POST
def pix_webhook(request: HttpRequest, ibge_code: str) -> JsonResponse:
    municipality = Municipality.objects.filter(ibge_code=ibge_code).first()
    if municipality is None or psp_config(ibge_code) is None:
        return JsonResponse({"erro": "município sem recebimento por PSP"}, status=404)
    auth = webhook_auth(ibge_code)
    if not auth.configured:
        logger.error("PIX webhook for %s refused: no mTLS fingerprint nor HMAC secret configured", ibge_code)
        return JsonResponse({"erro": "webhook sem autenticação configurada"}, status=403)
    body = request.body[:MAX_BODY]
    if not _authentic(request, auth, body):
        logger.warning("PIX webhook for %s refused: bad credentials", ibge_code)
        return JsonResponse({"erro": "credenciais inválidas"}, status=401)
    try:
        message = json.loads(body or b"{}")
    except ValueError:
        return JsonResponse({"erro": "corpo não é JSON"}, status=400)
    items = message.get("pix", []) if isinstance(message, dict) else None
    if not isinstance(items, list):
        return JsonResponse({"erro": "campo pix ausente"}, status=400)
    tally = pix_items_record(
        municipality=municipality, items=items, source=ReceiptSource.WEBHOOK, as_of=timezone.localdate()
    )
    answer = {
        "recebidos": tally.received,
        "baixados": tally.settled,
        "conferencia": tally.review,
        "repetidos": tally.repeated,
        "outras_receitas": tally.ignored,
        "erros": tally.errors,
    }
    return JsonResponse(answer, status=400 if tally.errors else 200)
