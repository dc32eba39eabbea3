"""The article an auto says was infringed, as people read it («Lei 5.171/2025 (Olímpia), art. 23, I»), from the
cite key the auto stores (``art23_incI``) — on the auto, its PDF, the list export and the reports alike."""

from __future__ import annotations

import datetime as dt

import lawcode
from lawcode.errors import LawcodeError


def infraction_cite_text(regime_id: str, cite: str, on: dt.date) -> str:
    """The law's wording of the cite in force on ``on``; the stored key only if the regime no longer knows it."""
    try:
        return lawcode.get_regime(regime_id).resolve_citation(cite, on).render()
    except (LawcodeError, KeyError, ValueError):
        return cite
