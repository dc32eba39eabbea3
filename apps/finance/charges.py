"""What a charge with due date costs on a given day, and the ``cobv`` body that tells the PSP the same.

Pure functions over the terms a charge froze when it was created (PixChargeTerms.audit_snapshot()):

- up to the discount date (``discount_days_before_due`` before the due date), the discount (modalidade 2,
  percentage up to a date); up to the due date, the original amount;
- after it, the fine once (modalidade 2, percentage) plus interest per calendar day late (modalidade 3,
  percentage per month of 30 days), each rounded half-up to the centavo — the composition the API Pix returns
  in ``componentesValor``. A bank that rounds differently sends a different total: the payment then waits in
  the review queue, it is never accepted at a value Outorga did not compute.
"""

from __future__ import annotations

import datetime as dt
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

CENT = Decimal("0.01")
HUNDRED = Decimal("100")
MONTH_DAYS = Decimal("30")
REMOVED_STATUS = "REMOVIDA_PELO_USUARIO_RECEBEDOR"


def _pct(terms: dict[str, Any], key: str) -> Decimal:
    return Decimal(str(terms.get(key) or "0"))


def money(value: Decimal) -> str:
    return f"{value.quantize(CENT, rounding=ROUND_HALF_UP):.2f}"


def discount_until(terms: dict[str, Any], due_on: dt.date) -> dt.date | None:
    if _pct(terms, "discount_percent") <= 0:
        return None
    return due_on - dt.timedelta(days=int(terms.get("discount_days_before_due") or 0))


def amount_due_on(*, original: Decimal, due_on: dt.date, terms: dict[str, Any], paid_on: dt.date) -> Decimal:
    """The total a payer owes on ``paid_on`` (discount before, fine and interest after the due date)."""
    until = discount_until(terms, due_on)
    if until is not None and paid_on <= until:
        discount = (original * _pct(terms, "discount_percent") / HUNDRED).quantize(CENT, ROUND_HALF_UP)
        return original - discount
    if paid_on <= due_on:
        return original
    late_days = (paid_on - due_on).days
    fine = (original * _pct(terms, "fine_percent") / HUNDRED).quantize(CENT, ROUND_HALF_UP)
    daily = _pct(terms, "interest_percent_month") / HUNDRED / MONTH_DAYS
    interest = (original * daily * late_days).quantize(CENT, ROUND_HALF_UP)
    return original + fine + interest


def cobv_body(
    *,
    original: Decimal,
    due_on: dt.date,
    terms: dict[str, Any],
    payer_name: str,
    payer_document: str,
    pix_key: str,
    description: str,
) -> dict[str, Any]:
    """The API Pix ``CobVSolicitada`` (also a valid ``CobVRevisada``) for a guide."""
    document = {"cpf": payer_document} if len(payer_document) == 11 else {"cnpj": payer_document}
    value: dict[str, Any] = {"original": money(original)}
    if _pct(terms, "fine_percent") > 0:
        value["multa"] = {"modalidade": 2, "valorPerc": money(_pct(terms, "fine_percent"))}
    if _pct(terms, "interest_percent_month") > 0:
        value["juros"] = {"modalidade": 3, "valorPerc": money(_pct(terms, "interest_percent_month"))}
    until = discount_until(terms, due_on)
    if until is not None:
        value["desconto"] = {
            "modalidade": 2,
            "descontoDataFixa": [
                {"data": until.isoformat(), "valorPerc": money(_pct(terms, "discount_percent"))}
            ],
        }
    return {
        "calendario": {
            "dataDeVencimento": due_on.isoformat(),
            "validadeAposVencimento": int(terms.get("days_payable_after_due") or 0),
        },
        "devedor": {**document, "nome": payer_name[:200]},
        "valor": value,
        "chave": pix_key,
        "solicitacaoPagador": description[:140],
    }


def removal_body() -> dict[str, Any]:
    return {"status": REMOVED_STATUS}
