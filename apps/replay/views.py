"""The replay screen: a stored decision next to today's answer for the same facts and date, and what differs.
Read through the same gate as the row's own page (another municipality or role answers 404)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from apps.licensing.presenters import decision_view
from apps.replay.selectors import replay_row
from apps.replay.sources import BY_KEY
from apps.tenancy.access import municipality_for
from apps.tenancy.querysets import get_object_for_user_or_404


@login_required
@require_GET
def decision_replay(request: HttpRequest, ibge_code: str, source: str, pk: int) -> HttpResponse:
    chosen = BY_KEY.get(source)
    if chosen is None:
        raise Http404("Registro não encontrado.")
    municipality = municipality_for(request, ibge_code)
    row: Any = get_object_for_user_or_404(chosen.rows(municipality), request.user, "view", pk=pk)
    replays = [
        {
            "name": item.name,
            "replay": item.replay,
            "stored": decision_view(dict(item.replay.stored)),
            "today": decision_view(dict(item.replay.replayed or {})),
        }
        for item in replay_row(chosen, row, municipality)
    ]
    context = {"municipality": municipality, "source": chosen, "row": row, "replays": replays}
    return render(request, "replay/decision_replay.html", context)
