"""Bans after cassação (art. 26) and after clandestine transport (art. 27)."""

from __future__ import annotations

import datetime as dt

from lawcode.context import Context
from lawcode.decision import Finding, Status
from lawcode.facts import Ban, Operator

from .common import br

BAN_CITES = ("art26", "art27")


def ban_article(ban: Ban) -> str:
    """The article a ban rests on: art. 27 for clandestine transport, art. 26 (cassação) otherwise."""
    return "art27" if ban.reason_code.lower().startswith("art27") else "art26"


def active_ban(operator: Operator, on: dt.date) -> Ban | None:
    """The ban in force on ``on`` that ends last (both ends inclusive), if any."""
    current = [b for b in operator.bans if b.start <= on <= b.until]
    return max(current, key=lambda b: b.until) if current else None


def ban_finding(ctx: Context, operator: Operator) -> Finding:
    """not_met while a ban runs, naming its article and last day."""
    ban = active_ban(operator, ctx.as_of)
    if ban is None:
        return ctx.finding("ban", Status.MET, "Sem impedimento de atuar (arts. 26 e 27)", cites=BAN_CITES)
    article = ban_article(ban)
    return ctx.finding(
        "ban",
        Status.NOT_MET,
        f"Impedido de exercer o transporte escolar de {br(ban.start)} até {br(ban.until)} "
        f"({'transporte clandestino' if article == 'art27' else 'alvará cassado'})",
        cites=(article,),
        counterfactual=f"poderá requerer a partir de {br(ban.until + dt.timedelta(days=1))}",
        data={"until": ban.until, "reason": article},
    )


def ban_status_findings(ctx: Context, operator: Operator) -> list[Finding]:
    """The running ban, or the last one that ended, or none at all."""
    if active_ban(operator, ctx.as_of) is not None:
        return [ban_finding(ctx, operator)]
    ended = [b for b in operator.bans if b.until < ctx.as_of]
    if not ended:
        return [ban_finding(ctx, operator)]
    last = max(ended, key=lambda b: b.until)
    return [
        ctx.finding(
            "ban",
            Status.INFO,
            f"Impedimento encerrado em {br(last.until)}",
            cites=(ban_article(last),),
            data={"until": last.until},
        )
    ]
