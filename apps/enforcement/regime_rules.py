"""What each regime declares about enforcement (its ``procedure.yaml``, read by lawcode), as the screens need it:
the contents an auto must have and what an omission does, the rule on clandestine transport and the catalog
entry to suggest, and the guard against punishing again a fact punished only as a traffic infraction.

No regime is named here: a provision the law does not contain is declared absent in the regime folder (with
the reason), and the screens then show the generic form. Citations are rendered by lawcode on the date, so a
later wording shows up by itself.
"""

from __future__ import annotations

import datetime as dt

import lawcode
from lawcode.procedure import AutoContents, Clandestine


def cite_pt(regime_id: str, ref: str, on: dt.date) -> str:
    return lawcode.get_regime(regime_id).resolve_citation(ref, on).render()


def auto_contents(regime_id: str) -> AutoContents:
    return lawcode.get_regime(regime_id).procedure.auto


def clandestine(regime_id: str) -> Clandestine:
    return lawcode.get_regime(regime_id).procedure.clandestine


def traffic_only_rule(regime_id: str) -> str | None:
    """The dispositivo forbidding a municipal penalty for a fact punished only as a traffic infraction, if any."""
    return lawcode.get_regime(regime_id).procedure.traffic_only_guard.cite


def traffic_only_rule_pt(regime_id: str, on: dt.date) -> str:
    """That dispositivo rendered on the date; empty when the law has no such guard."""
    ref = traffic_only_rule(regime_id)
    return cite_pt(regime_id, ref, on) if ref else ""


def clandestine_rule_pt(regime_id: str, on: dt.date) -> str:
    """The dispositivo qualifying transport without authorization, rendered; empty when the law has none."""
    ref = clandestine(regime_id).provision.cite
    return cite_pt(regime_id, ref, on) if ref else ""
