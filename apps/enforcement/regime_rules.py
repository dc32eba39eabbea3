"""Which dispositivos of each regime the enforcement screens point to (the law decides; this only names them).

Only Olímpia's law lists the mandatory contents of the auto (art. 30; omissions do not void it, parágrafo
único) and forbids punishing again a fact punished only as a traffic infraction (art. 21 §2). Citations are
rendered by lawcode on the date, so a later wording shows up by itself.
"""

from __future__ import annotations

import datetime as dt

import lawcode

# Olímpia art. 30 items, keyed as lawcode's InfractionCase.auto_omissions expects them: (dispositivo, what).
AUTO_CONTENTS: dict[str, dict[str, tuple[str, str]]] = {
    "olimpia_sp_escolar": {
        "place_date_time": ("art30_incI", "local, data e hora da infração"),
        "driver_vehicle": ("art30_incII", "dados do condutor e do veículo"),
        "officer": ("art30_incIII", "identificação do servidor responsável"),
        "description": ("art30_incIV", "descrição da infração e circunstâncias"),
        "supporting_documents": ("art30_incVI", "documentos que embasam o auto"),
    }
}
AUTO_CONTENTS_RULE = {"olimpia_sp_escolar": "art30_parun"}
TRAFFIC_ONLY_RULE = {"olimpia_sp_escolar": "art21_par2"}
CLANDESTINE_RULE = {"olimpia_sp_escolar": "art27"}


def cite_pt(regime_id: str, ref: str, on: dt.date) -> str:
    return lawcode.get_regime(regime_id).resolve_citation(ref, on).render()


def lists_auto_contents(regime_id: str) -> bool:
    return regime_id in AUTO_CONTENTS


def guards_traffic_only(regime_id: str) -> bool:
    return regime_id in TRAFFIC_ONLY_RULE
