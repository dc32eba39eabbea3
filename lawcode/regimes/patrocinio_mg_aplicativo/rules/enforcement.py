"""Sanctions (arts. 12–13, 15, 17, 19, 21) and the notice procedure (art. 19 §§1–2).

The law fixes no municipal fine: art. 17 applies "as penalidades previstas na Lei Federal nº 9.503 (CTB),
bem como de demais sanções previstas na legislação". How the engine answers is INT-PAT-CTB-REFERENCE; the
per-infraction columns (administrative measures, CTB art. 231 VIII) are data in catalog.yaml.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from lawcode.context import Context
from lawcode.decision import Finding, RuleResult, Status
from lawcode.errors import InvalidFactError
from lawcode.facts import InfractionCase
from lawcode.regime import CatalogEntry, rule

from .common import br
from .vigencia import in_force_from

CTB_REFERENCE = "INT-PAT-CTB-REFERENCE"
MEASURES_PT = {
    "document_seizure": "apreensão dos documentos em desacordo com a lei",
    "equipment_seizure": "apreensão do equipamento em desacordo com a lei",
    "vehicle_retention": "retenção do veículo (medida administrativa do CTB, art. 231 VIII)",
}
CATALOG_CITES = (
    "art3",
    "art4_par3",
    "art5",
    "art5_parun",
    "art7",
    "art11",
    "art11_parun",
    "art11A",
    "art11A_parun",
    "art12",
    "art13_incI",
    "art13_incII",
    "art13_incIII",
    "art13_incIV",
    "art13_incV",
    "art13_incVI",
)


@rule(
    "sanction",
    cites=(*CATALOG_CITES, "art13", "art15_parun", "art17", "art19", "art21", "art26", "ctb:art231_incVIII"),
)
def sanction(ctx: Context, facts: InfractionCase) -> RuleResult:
    entry = _catalog_entry(ctx, facts.code)
    start = in_force_from(ctx)
    if facts.date < start:
        return _before_the_law(ctx, facts, entry, start)
    cites = ("art13", entry.cite) if entry.cite.startswith("art13_") else (entry.cite,)
    findings = [
        ctx.finding(
            "infraction",
            Status.INFO,
            f"Infração {entry.code} — {entry.title}: {entry.description}",
            cites=cites,
        )
    ]
    penalties, measures = _ctb_consequences(ctx, entry, findings)
    measures = [*_seizures(entry), *measures]
    if measures:
        findings.append(_measures_finding(ctx, measures))
    findings.append(
        ctx.finding(
            "defence",
            Status.INFO,
            "Lavra-se o auto de infração, enviado ao credenciado para "
            "defesa, com a descrição da conduta e as penalidades cabíveis.",
            cites=("art19",),
        )
    )
    result: dict[str, Any] = {
        "code": entry.code,
        "penalties": penalties,
        "municipal_fine": None,
        "referral": "ctb",
        "administrative_measures": measures,
    }
    if facts.decided_final_on is not None:
        findings.append(_collection_finding(ctx, facts.decided_final_on))
        result["active_debt_after"] = facts.decided_final_on
    return RuleResult("penalty", findings, result)


def _catalog_entry(ctx: Context, code: str) -> CatalogEntry:
    entry = ctx.regime.catalog.get(code)
    if entry is None:
        raise InvalidFactError(
            "code",
            f"unknown infraction code {code!r}; the catalog has: " + ", ".join(sorted(ctx.regime.catalog)),
        )
    return entry


def _before_the_law(ctx: Context, facts: InfractionCase, entry: CatalogEntry, start: dt.date) -> RuleResult:
    finding = ctx.finding(
        "infraction",
        Status.NOT_APPLICABLE,
        f"Fato de {br(facts.date)}, anterior à entrada em vigor da lei ({br(start)}): a conduta "
        f"{entry.code} não era infração a esta lei.",
        cites=("art26",),
    )
    return RuleResult("no_penalty", [finding], {"code": entry.code, "penalties": []})


def _ctb_consequences(
    ctx: Context, entry: CatalogEntry, findings: list[Finding]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    option = ctx.interpretation(CTB_REFERENCE)
    if option == "ctb_art231_viii" and entry.extra.get("ctb_art231_viii") is True:
        findings.append(
            ctx.finding(
                "ctb_classification",
                Status.INFO,
                "Enquadramento no CTB, art. 231 VIII (transporte remunerado não licenciado para esse fim): infração "
                "média, multa do CTB aplicada pela autoridade de trânsito, retenção do veículo.",
                cites=("art17", "ctb:art231_incVIII"),
            )
        )
        fine = {
            "kind": "fine",
            "quantity": None,
            "unit": None,
            "brl": None,
            "days": None,
            "start": None,
            "end": None,
            "doubled": False,
            "ctb_severity": "media",
            "basis": "ctb:art231_incVIII",
        }
        return [fine], [_measure("vehicle_retention", "ctb:art231_incVIII")]
    findings.append(
        ctx.finding(
            "ctb_referral",
            Status.INFO,
            "A lei municipal não fixa multa: aplicam-se as penalidades do CTB e demais sanções da legislação, "
            "enquadradas pela autoridade de trânsito; nenhum valor municipal é calculado.",
            cites=("art17",),
        )
    )
    return [], []


def _seizures(entry: CatalogEntry) -> list[dict[str, Any]]:
    kinds = entry.extra.get("administrative_measures") or []
    return [_measure(str(kind), "art15_parun") for kind in kinds]


def _measure(kind: str, cite: str) -> dict[str, Any]:
    if kind not in MEASURES_PT:
        raise InvalidFactError("catalog.administrative_measures", f"unknown measure {kind!r}")
    return {"kind": kind, "optional": cite == "art15_parun", "cite": cite, "label": MEASURES_PT[kind]}


def _measures_finding(ctx: Context, measures: list[dict[str, Any]]) -> Finding:
    labels = "; ".join(str(m["label"]) + (" (facultativa)" if m["optional"] else "") for m in measures)
    cites = tuple(dict.fromkeys(str(m["cite"]) for m in measures))
    return ctx.finding(
        "administrative_measures", Status.INFO, f"Medidas administrativas: {labels}.", cites=cites
    )


def _collection_finding(ctx: Context, final_on: dt.date) -> Finding:
    return ctx.finding(
        "collection",
        Status.INFO,
        f"Decisão definitiva em {br(final_on)}: multas não pagas são lançadas em dívida ativa e "
        "cobradas judicialmente por CDA.",
        cites=("art21",),
    )
