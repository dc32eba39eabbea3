"""Which guide a PIX pays, what the bank's messages say, and the daily reconciliation against the PSP's list.

Only PIX whose txid is Outorga's are read: a charge's txid (apps.finance.services_pix.charge_txid) or the
static BR Code's (IBGE code, year, six-digit sequence — a guide paid by its static code before the municipality
had a PSP). Other PIX to the same key (other revenues of the prefeitura) are not Outorga's to account for.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import IntegrityError

from apps.finance.choices import ReceiptSource
from apps.finance.models import PaymentGuide
from apps.finance.pix_models import PixCharge
from apps.finance.psp.client import PspClient, PspError
from apps.finance.psp.config import psp_config
from apps.finance.services_pix import TXID_PREFIX, received_record
from apps.tenancy.models import Municipality

_AMOUNT = re.compile(r"^\d{1,10}\.\d{2}$")
_E2E = re.compile(r"^[A-Za-z0-9]{32}$")
MAX_PAGES = 200


class BadPix(ValueError):
    """A PIX item the bank sent that cannot be read (missing endToEndId, malformed value or instant)."""


@dataclass(frozen=True)
class PixItem:
    end_to_end_id: str
    txid: str
    amount_brl: Decimal
    received_at: dt.datetime
    raw: dict[str, Any]


def pix_item(raw: Any) -> PixItem:
    if not isinstance(raw, dict):
        raise BadPix("item não é um objeto")
    e2e, amount, instant = raw.get("endToEndId"), raw.get("valor"), raw.get("horario")
    if not isinstance(e2e, str) or not _E2E.match(e2e):
        raise BadPix("endToEndId ausente ou inválido")
    if not isinstance(amount, str) or not _AMOUNT.match(amount):
        raise BadPix(f"valor inválido no PIX {e2e}")
    try:
        received_at = dt.datetime.fromisoformat(str(instant))
        value = Decimal(amount)
    except (ValueError, InvalidOperation):
        raise BadPix(f"horário inválido no PIX {e2e}") from None
    if received_at.tzinfo is None:
        raise BadPix(f"horário sem fuso no PIX {e2e}")
    return PixItem(e2e, str(raw.get("txid") or ""), value, received_at, raw)


def is_ours(municipality: Municipality, txid: str) -> bool:
    return (
        txid.startswith(TXID_PREFIX + municipality.ibge_code) or _static_guide(municipality, txid) is not None
    )


def guide_for_txid(municipality: Municipality, txid: str) -> PaymentGuide | None:
    charge = (
        PixCharge.objects.filter(guide__municipality=municipality, txid=txid).select_related("guide").first()
    )
    if charge is not None:
        return charge.guide
    return _static_guide(municipality, txid)


def _static_guide(municipality: Municipality, txid: str) -> PaymentGuide | None:
    code = municipality.ibge_code
    if len(txid) != len(code) + 10 or not txid.startswith(code) or not txid[len(code) :].isdigit():
        return None
    year, sequence = int(txid[len(code) : len(code) + 4]), int(txid[len(code) + 4 :])
    return PaymentGuide.objects.filter(municipality=municipality, year=year, sequence=sequence).first()


@dataclass
class Tally:
    received: int = 0
    repeated: int = 0
    settled: int = 0
    review: int = 0
    ignored: int = 0
    errors: list[str] = field(default_factory=list)


def pix_items_record(*, municipality: Municipality, items: list[Any], source: str, as_of: dt.date) -> Tally:
    """Record each PIX of a bank message (or of the PSP's list); one bad item does not stop the others."""
    tally = Tally()
    for raw in items:
        try:
            item = pix_item(raw)
        except BadPix as exc:
            tally.errors.append(str(exc))
            continue
        if not is_ours(municipality, item.txid):
            tally.ignored += 1
            continue
        try:
            outcome = received_record(
                municipality=municipality,
                end_to_end_id=item.end_to_end_id,
                txid=item.txid,
                amount_brl=item.amount_brl,
                received_at=item.received_at,
                source=source,
                raw=item.raw,
                guide=guide_for_txid(municipality, item.txid),
                as_of=as_of,
            )
        except IntegrityError:
            # The webhook and the reconciliation recorded the same PIX at the same instant: the other one won.
            tally.received, tally.repeated = tally.received + 1, tally.repeated + 1
            continue
        tally.received += 1
        tally.repeated += 0 if outcome.created else 1
        tally.settled += 1 if outcome.created and outcome.settled else 0
        tally.review += 1 if outcome.created and outcome.review is not None else 0
    return tally


def pix_reconcile(
    *, municipality: Municipality, start: dt.datetime, end: dt.datetime, as_of: dt.date
) -> Tally:
    """Read the PSP's list of received PIX between ``start`` and ``end`` and record what the webhook missed."""
    config = psp_config(municipality.ibge_code)
    if config is None:
        return Tally()
    client, tally, page = PspClient(config), Tally(), 0
    while page < MAX_PAGES:
        try:
            answer = client.pix_received(start=start, end=end, page=page)
        except PspError as exc:
            tally.errors.append(exc.message)
            break
        part = pix_items_record(
            municipality=municipality,
            items=list(answer.get("pix") or []),
            source=ReceiptSource.RECONCILIATION,
            as_of=as_of,
        )
        for name in ("received", "repeated", "settled", "review", "ignored"):
            setattr(tally, name, getattr(tally, name) + getattr(part, name))
        tally.errors += part.errors
        pages = answer.get("parametros", {}).get("paginacao", {}).get("quantidadeDePaginas", 1)
        page += 1
        if not isinstance(pages, int) or page >= pages:
            break
    return tally
