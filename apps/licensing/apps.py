import datetime as dt
from typing import Any

from django.apps import AppConfig


class LicensingConfig(AppConfig):
    name = "apps.licensing"
    label = "licensing"
    verbose_name = "Requerimentos e autorizações"

    def ready(self) -> None:
        from apps.accounts.actors import Actor
        from apps.finance.choices import OriginType
        from apps.finance.origins import register_payment_handler, register_waiting_issuer
        from apps.licensing import cards, permissions  # noqa: F401  (registrations run on import)
        from apps.licensing.services import (
            application_fee_issue_waiting,
            application_fee_paid,
            permit_standing_refresh,
        )
        from apps.registry.hooks import register_holdings_changed

        register_payment_handler(OriginType.APPLICATION, application_fee_paid)
        register_waiting_issuer(OriginType.APPLICATION, application_fee_issue_waiting)

        def refresh_standing(actor: Actor, owner: Any, as_of: dt.date) -> None:
            permit_standing_refresh(actor=actor, owner=owner, as_of=as_of)

        register_holdings_changed(refresh_standing)
