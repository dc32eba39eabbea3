"""The guide's charge at the PSP follows the guide: registered on finance's guide hooks (apps.finance.apps)."""

from __future__ import annotations

from apps.finance.models import PaymentGuide


def charge_for_new_guide(guide: PaymentGuide) -> None:
    from apps.finance.services_pix import pix_charge_open

    pix_charge_open(actor=None, guide=guide)


def charge_follows_guide(guide: PaymentGuide) -> None:
    from apps.finance.services_pix import pix_charge_revise

    pix_charge_revise(actor=None, guide=guide)
