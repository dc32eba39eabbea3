"""What the guide page shows of the guide's charge at the PSP (or of the static BR Code when there is none)."""

from __future__ import annotations

from typing import Any

from apps.finance import charges
from apps.finance.models import PaymentGuide
from apps.finance.pix_models import PixCharge


def charge_context(guide: PaymentGuide) -> dict[str, Any]:
    charge = PixCharge.objects.filter(guide=guide).first()
    if charge is None:
        return {"pix_charge": None, "pix_ready": True}
    ready = charge.confirmed == "active" and bool(charge.pix_copy_paste)
    return {
        "pix_charge": charge,
        "pix_ready": ready,
        "discount_until": charges.discount_until(charge.terms, charge.due_on),
    }
