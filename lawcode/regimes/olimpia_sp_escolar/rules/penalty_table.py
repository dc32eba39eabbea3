"""The severity table of arts. 22 to 25 as data: what each class costs, first time and on recidivism.

Each entry names parameters (parameters.yaml), never numbers, so a reform changes the YAML, not this table.
Incisos with their own consequence (art. 24 sole § for II, III and X; art. 25 §§ 1º and 2º) are in
SPECIAL_INCISOS. sanctions.py reads both and does the arithmetic.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


@dataclass(frozen=True)
class Recidivism:
    """Consequence of a repeat offence in the same class within the window."""

    cite: str
    window_months_param: str | None  # None: the law gives no window (art. 22 sole §) → interpretation
    fine_param: str | None = None  # a fixed fine instead of the base one (art. 22 sole §)
    multiplier_param: str | None = None  # "duplicação da multa"
    suspension_days_param: str | None = None
    cassation: bool = False


@dataclass(frozen=True)
class SeverityClass:
    cite: str
    warning: bool
    fine_param: str | None
    suspension_days_param: str | None
    recidivism: Recidivism


SEVERITY_TABLE: dict[str, SeverityClass] = {
    "leve": SeverityClass(
        cite="art22",
        warning=True,
        fine_param=None,
        suspension_days_param=None,
        recidivism=Recidivism(
            cite="art22_parun", window_months_param=None, fine_param="leve_recidivism_fine"
        ),
    ),
    "media": SeverityClass(
        cite="art23",
        warning=False,
        fine_param="media_fine",
        suspension_days_param=None,
        recidivism=Recidivism(
            cite="art23_parun",
            window_months_param="media_recidivism_window_months",
            multiplier_param="media_recidivism_fine_multiplier",
            suspension_days_param="media_recidivism_suspension_days",
        ),
    ),
    "grave": SeverityClass(
        cite="art24",
        warning=False,
        fine_param="grave_fine",
        suspension_days_param=None,
        recidivism=Recidivism(
            cite="art24_parun",
            window_months_param="grave_recidivism_window_months",
            multiplier_param="grave_recidivism_fine_multiplier",
            suspension_days_param="grave_recidivism_suspension_days",
        ),
    ),
    "gravissima": SeverityClass(
        cite="art25",
        warning=False,
        fine_param="gravissima_fine",
        suspension_days_param="gravissima_suspension_days",
        recidivism=Recidivism(
            cite="art25_par3",
            window_months_param="gravissima_recidivism_window_months",
            multiplier_param="gravissima_recidivism_fine_multiplier",
            cassation=True,
        ),
    ),
}


class Special(Enum):
    IMMEDIATE_SUSPENSION = "immediate_suspension"  # art. 24 sole §: 30 days now, cassação if not regularized
    SUSPENSION_WITH_INSPECTION = "suspension_with_inspection"  # art. 25 § 1º: 60 days, inspection at the end
    DIRECT_CASSATION = "direct_cassation"  # art. 25 § 2º


@dataclass(frozen=True)
class SpecialRule:
    kind: Special
    cite: str
    suspension_days_param: str | None


SPECIAL_INCISOS: dict[str, SpecialRule] = {
    **{
        code: SpecialRule(Special.IMMEDIATE_SUSPENSION, "art24_parun", "grave_immediate_suspension_days")
        for code in ("OLI-24-II", "OLI-24-III", "OLI-24-X")
    },
    **{
        code: SpecialRule(
            Special.SUSPENSION_WITH_INSPECTION, "art25_par1", "gravissima_extended_suspension_days"
        )
        for code in ("OLI-25-I", "OLI-25-II")
    },
    "OLI-25-III": SpecialRule(Special.DIRECT_CASSATION, "art25_par2", None),
}

CLANDESTINE_CODE = "OLI-27"

# Months of the recidivism window of art. 22 sole § by INT-OLI-LEVE-RECIDIVISM-WINDOW (None: no limit).
LEVE_WINDOW_MONTHS: dict[str, int | None] = {"six_months": 6, "five_years": 60, "no_window": None}
