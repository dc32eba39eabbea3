"""A self-hosted proof of work for the anonymous complaint form (no third-party CAPTCHA, nothing leaves the site).

Opening the form issues a signed challenge `<random>.<expires>.<bits>`; the browser (static/public/complaint-pow.js)
finds a nonce such that SHA-256("<challenge>:<nonce>") starts with `bits` zero bits — about 2**bits hashes,
a second or two on a phone — and sends both with the form. The server checks the signature, the expiry, the
hash, and that the challenge was not used before: used challenges are kept in the shared cache until they
expire, so one solution files one complaint, whichever server process receives it.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass

from django.core import signing
from django.core.cache import caches

from apps.public import conf

SALT = "outorga.public.complaint-pow"
LABEL = "Verificação contra envios automáticos"


class ProofRefused(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(f"{LABEL}: {message}")
        self.message_pt = str(self)


@dataclass(frozen=True)
class Challenge:
    token: str
    bits: int


def enabled() -> bool:
    return conf.complaint_pow_bits() > 0


def issue() -> Challenge:
    bits = conf.complaint_pow_bits()
    expires = int(time.time()) + conf.complaint_pow_ttl_seconds()
    payload = f"{secrets.token_hex(16)}.{expires}.{bits}"
    return Challenge(token=signing.Signer(salt=SALT).sign(payload), bits=bits)


def leading_zero_bits_ok(token: str, nonce: str, bits: int) -> bool:
    digest = hashlib.sha256(f"{token}:{nonce}".encode()).digest()
    return int.from_bytes(digest[:4], "big") >> (32 - bits) == 0


def solve(token: str, bits: int) -> str:
    """What the browser does; tests and the docs use it."""
    nonce = 0
    while not leading_zero_bits_ok(token, str(nonce), bits):
        nonce += 1
    return str(nonce)


def verify(token: str, nonce: str) -> None:
    """Accept a solved, unexpired, never-used challenge, and mark it used; refuse anything else."""
    if not enabled():
        return
    if not token or not nonce:
        raise ProofRefused("o cálculo do navegador não chegou. Ative o JavaScript e envie de novo.")
    try:
        random, expires, bits = signing.Signer(salt=SALT).unsign(token).split(".")
    except (signing.BadSignature, ValueError):
        raise ProofRefused("desafio inválido. Recarregue a página e envie de novo.") from None
    remaining = int(expires) - int(time.time())
    if remaining <= 0:
        raise ProofRefused("o formulário ficou aberto por muito tempo. Envie de novo.")
    if len(nonce) > 20 or not nonce.isdigit() or not leading_zero_bits_ok(token, nonce, int(bits)):
        raise ProofRefused("o cálculo não confere. Envie de novo.")
    if not caches[conf.rate_limit_cache_alias()].add(f"pow-used:{random}", 1, timeout=remaining + 1):
        raise ProofRefused("este envio já foi usado. Envie de novo.")
