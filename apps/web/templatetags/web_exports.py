"""`{% export_links %}`: the "Baixar CSV / planilha" buttons of a list, keeping the filters on screen."""

from __future__ import annotations

from typing import Any

from django import template

from apps.web.exports import CSV, FORMAT_PARAM, XLSX

register = template.Library()


@register.inclusion_tag("web/_export_links.html", takes_context=True)
def export_links(context: dict[str, Any], label: str = "lista") -> dict[str, Any]:
    params = context["request"].GET.copy()
    for name in ("pagina", FORMAT_PARAM):
        params.pop(name, None)

    def href(fmt: str) -> str:
        params[FORMAT_PARAM] = fmt
        return f"?{params.urlencode()}"

    return {"csv_href": href(CSV), "xlsx_href": href(XLSX), "label": label}
