"""Criminal certificates, the Polícia Civil atestado and the toxicology exam (art. 4 I e and i).

Freshness ("com menos de 60 dias de sua expedição") is INT-PAT-CERTIFICATE-FRESHNESS; whether it binds the
atestado too is INT-PAT-ATESTADO-FRESHNESS; "a serem renovados anualmente" and "a cada 01 (um) ano" are a
validity of one year from issue, date to date.
"""

from __future__ import annotations

import datetime as dt

from lawcode.context import Context

from .common import years_later

FRESHNESS = "INT-PAT-CERTIFICATE-FRESHNESS"
ATESTADO_FRESHNESS = "INT-PAT-ATESTADO-FRESHNESS"
COURTS = {"federal": "Justiça Federal", "state": "Justiça Estadual"}


def fresh_until(ctx: Context, issued: dt.date) -> dt.date:
    """Last day a certificate issued on ``issued`` may be presented."""
    max_age = int(ctx.param("criminal_certificate_max_age_days"))
    allowed = max_age - 1 if ctx.interpretation(FRESHNESS) == "strictly_less" else max_age
    return issued + dt.timedelta(days=allowed)


def renewal_due(ctx: Context, issued: dt.date) -> dt.date:
    """Last day of the yearly renewal of a certificate or atestado."""
    return years_later(ctx, issued, int(ctx.param("criminal_certificate_renewal_years"))).end


def toxicology_valid_until(ctx: Context, issued: dt.date) -> dt.date:
    return years_later(ctx, issued, int(ctx.param("toxicology_exam_validity_years"))).end


def atestado_needs_freshness(ctx: Context) -> bool:
    return ctx.interpretation(ATESTADO_FRESHNESS) == "all_certificates"
