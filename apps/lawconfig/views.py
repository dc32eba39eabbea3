"""Legal configuration screens, for administrators: the table of units left to the municipality (UFM…),
parameters the law leaves to the municipality, interpretation choices, closures/holidays; and, for the
installation's administrator, the tables of the state or the Union (the UFESP) every municipality reads."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

import lawcode
from apps.accounts.decorators import recent_authentication_required
from apps.lawconfig import services
from apps.lawconfig.config import config_for
from apps.lawconfig.forms import (
    ClosureForm,
    ExternalValueForm,
    FiscalUnitValueForm,
    InterpretationChoiceForm,
    ParameterValueForm,
)
from apps.lawconfig.models import (
    ExternalValue,
    FiscalUnitValue,
    InterpretationChoice,
    MunicipalClosure,
    ParameterValue,
)
from apps.tenancy.access import municipality_for
from apps.tenancy.models import Municipality, is_deployment_admin
from apps.tenancy.querysets import get_object_for_user_or_404
from lawcode.decision import format_value_pt
from lawcode.errors import MissingParameterError
from lawcode.fiscal import shared_parameters
from lawcode.params import Parameter
from lawcode.units import FineUnit
from outorga.submit import submit


@dataclass(frozen=True)
class InterpretationRow:
    regime_id: str
    interpretation: Any
    current: InterpretationChoice | None
    form: InterpretationChoiceForm

    @property
    def current_option(self) -> str:
        return self.current.option if self.current else self.interpretation.default

    @property
    def current_option_text(self) -> str:
        """The option as the law's reading reads (never its code)."""
        return str(self.interpretation.options.get(self.current_option, self.current_option))


def _interpretation_rows(
    municipality: Municipality, bound: InterpretationChoiceForm | None
) -> list[InterpretationRow]:
    chosen = {
        (c.regime_id, c.interpretation_id): c
        for c in InterpretationChoice.objects.filter(municipality=municipality)
    }
    rows = []
    for regime_id in municipality.regimes:
        for int_id, interpretation in sorted(lawcode.get_regime(regime_id).interpretations.items()):
            current = chosen.get((regime_id, int_id))
            form = InterpretationChoiceForm(
                initial={
                    "regime_id": regime_id,
                    "interpretation_id": int_id,
                    "option": current.option if current else interpretation.default,
                },
                options=interpretation.options,
                prefix=int_id,
            )
            if bound is not None and bound.prefix == int_id:
                form = bound
            rows.append(InterpretationRow(regime_id, interpretation, current, form))
    return rows


def _regime_units(municipality: Municipality) -> list[tuple[str, FineUnit, Any]]:
    """Values the regimes themselves declare for the units left to the municipality (sourced in their
    parameters.yaml): (regime, unit, values); the table adds to them."""
    units = services.municipal_units(municipality)
    rows = []
    for regime_id in municipality.regimes:
        regime = lawcode.get_regime(regime_id)
        for key, unit in regime.vocabulary.units.items():
            if key in units and unit.parameter in regime.parameters:
                rows.append((regime_id, unit, regime.parameters[unit.parameter].values))
    return rows


def _unit_choices(municipality: Municipality) -> dict[str, str]:
    return {
        key: f"{unit.label} — {unit.name}" for key, unit in services.municipal_units(municipality).items()
    }


@dataclass(frozen=True)
class ConfigurableRow:
    """A parameter the regime leaves to the municipality and its value today (None: não configurado)."""

    regime_id: str
    parameter: Parameter
    current: Any
    since: Any
    note: str

    @property
    def is_money(self) -> bool:
        return self.parameter.unit.is_money

    @property
    def display(self) -> str:
        """The value as Brazilians read it: "5,56 %", "120 unidades", "30 dias"."""
        return format_value_pt(self.current, self.parameter.unit.value)


def _configurable_rows(municipality: Municipality) -> list[ConfigurableRow]:
    today = timezone.localdate()
    rows = []
    for regime_id in municipality.regimes:
        regime = lawcode.get_regime(regime_id)
        merged = regime.parameters_with(config_for(municipality, regime_id))
        for _name, parameter in sorted(merged.items()):
            if parameter.configurable:
                rows.append(_configurable_row(regime_id, parameter, today))
    return rows


def _configurable_row(regime_id: str, parameter: Parameter, today: Any) -> ConfigurableRow:
    try:
        value = parameter.value_on(today, regime_id)
    except MissingParameterError:
        return ConfigurableRow(regime_id, parameter, None, None, "")
    return ConfigurableRow(regime_id, parameter, value.value, value.effective_from, value.note or value.cite)


def _targets(municipality: Municipality) -> list[tuple[str, str]]:
    return [
        (f"{row.regime_id}/{row.parameter.name}", f"{row.parameter.description} ({row.regime_id})")
        for row in _configurable_rows(municipality)
    ]


TOPICS = {
    "unidades": "Unidades fiscais",
    "parametros": "Parâmetros do município",
    "interpretacoes": "Interpretações",
    "feriados": "Feriados e dias sem expediente",
}


def _topic_context(request: HttpRequest, municipality: Municipality, topic: str, form: Any) -> dict[str, Any]:
    """Only what the topic's page shows (each topic reads its own rows)."""
    if topic == "unidades":
        return {
            "ufm_values": FiscalUnitValue.objects.for_user(request.user, "view")
            .filter(municipality=municipality)
            .select_related("superseded_by"),
            "ufm_form": form or FiscalUnitValueForm(units=_unit_choices(municipality)),
            "regime_units": _regime_units(municipality),
        }
    if topic == "parametros":
        return {
            "configurable": _configurable_rows(municipality),
            "parameter_values": ParameterValue.objects.for_user(request.user, "view")
            .filter(municipality=municipality)
            .select_related("superseded_by"),
            "parameter_form": form or ParameterValueForm(targets=_targets(municipality)),
        }
    if topic == "interpretacoes":
        return {"interpretations": _interpretation_rows(municipality, form)}
    return {
        "closures": MunicipalClosure.objects.for_user(request.user, "view").filter(municipality=municipality),
        "closure_form": form or ClosureForm(),
    }


def _page(request: HttpRequest, municipality: Municipality, topic: str, form: Any = None) -> HttpResponse:
    """One topic of the configuration; ``form`` is the refused form of that topic (its errors on top)."""
    context = {
        "municipality": municipality,
        "topic": topic,
        "topic_label": TOPICS[topic],
        "topics": list(TOPICS.items()),
        "topic_template": f"lawconfig/_{topic}.html",
        "bound_form": form,
        **_topic_context(request, municipality, topic, form),
    }
    return render(request, "lawconfig/overview.html", context, status=400 if form is not None else 200)


def _back_to(ibge_code: str, topic: str) -> HttpResponse:
    return redirect(f"{reverse('lawconfig:overview', args=[ibge_code])}?tema={topic}")


@login_required
@require_GET
def overview(request: HttpRequest, ibge_code: str) -> HttpResponse:
    municipality = municipality_for(
        request, ibge_code, model_label="lawconfig.interpretationchoice", action="change"
    )
    topic = request.GET.get("tema", "")
    return _page(request, municipality, topic if topic in TOPICS else next(iter(TOPICS)))


@login_required
@recent_authentication_required
@require_POST
def ufm_add(request: HttpRequest, ibge_code: str) -> HttpResponse:
    municipality = municipality_for(
        request, ibge_code, model_label="lawconfig.fiscalunitvalue", action="change"
    )
    form = FiscalUnitValueForm(request.POST, units=_unit_choices(municipality))
    if submit(
        request,
        form,
        lambda: services.fiscal_unit_value_set(
            actor=request.user, municipality=municipality, **form.cleaned_data
        ),
        success=lambda row: f"Valor da {row.unit_label} registrado.",
    ):
        return _back_to(ibge_code, "unidades")
    return _page(request, municipality, "unidades", form)


@login_required
@recent_authentication_required
@require_POST
def parameter_value_add(request: HttpRequest, ibge_code: str) -> HttpResponse:
    municipality = municipality_for(
        request, ibge_code, model_label="lawconfig.parametervalue", action="change"
    )
    form = ParameterValueForm(request.POST, targets=_targets(municipality))
    if submit(
        request,
        form,
        lambda: services.parameter_value_set(
            actor=request.user, municipality=municipality, **form.service_kwargs()
        ),
        success="Valor do parâmetro registrado.",
    ):
        return _back_to(ibge_code, "parametros")
    return _page(request, municipality, "parametros", form)


@login_required
@recent_authentication_required
@require_POST
def interpretation_choose(request: HttpRequest, ibge_code: str, interpretation_id: str) -> HttpResponse:
    municipality = municipality_for(
        request, ibge_code, model_label="lawconfig.interpretationchoice", action="change"
    )
    regimes = [lawcode.get_regime(r) for r in municipality.regimes]
    known = next(
        (r.interpretations[interpretation_id] for r in regimes if interpretation_id in r.interpretations),
        None,
    )
    if known is None:
        raise Http404("Registro não encontrado.")
    form = InterpretationChoiceForm(request.POST, options=known.options, prefix=interpretation_id)
    if submit(
        request,
        form,
        lambda: services.interpretation_choose(
            actor=request.user, municipality=municipality, **form.cleaned_data
        ),
        success=f"Escolha de {interpretation_id} registrada.",
    ):
        return _back_to(ibge_code, "interpretacoes")
    return _page(request, municipality, "interpretacoes", form)


@login_required
@recent_authentication_required
@require_http_methods(["POST"])
def closure_add(request: HttpRequest, ibge_code: str) -> HttpResponse:
    municipality = municipality_for(
        request, ibge_code, model_label="lawconfig.municipalclosure", action="change"
    )
    form = ClosureForm(request.POST)
    if submit(
        request,
        form,
        lambda: services.closure_add(actor=request.user, municipality=municipality, **form.cleaned_data),
        success="Dia sem expediente registrado.",
    ):
        return _back_to(ibge_code, "feriados")
    return _page(request, municipality, "feriados", form)


@login_required
@recent_authentication_required
@require_POST
def closure_remove(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(
        request, ibge_code, model_label="lawconfig.municipalclosure", action="change"
    )
    closure = get_object_for_user_or_404(
        MunicipalClosure.objects.filter(municipality=municipality), request.user, "change", pk=pk
    )
    services.closure_remove(actor=request.user, closure=closure)
    messages.success(request, "Dia sem expediente removido.")
    return _back_to(ibge_code, "feriados")


# --- the installation's tables of the state or the Union (the UFESP) -----------------------------------------


def _tables() -> dict[str, str]:
    return {name: table.description for name, table in shared_parameters().items()}


@dataclass(frozen=True)
class ExternalTableRows:
    """One shared table: its entries (current and corrected), newest first, and who uses it."""

    parameter: str
    description: str
    unit: str
    entries: list[ExternalValue]
    municipalities: list[Municipality]


def _external_tables() -> list[ExternalTableRows]:
    entries = list(
        ExternalValue.objects.select_related("superseded_by").order_by("-valid_from", "-entered_at")
    )
    return [
        ExternalTableRows(
            name,
            table.description,
            table.unit.value,
            [entry for entry in entries if entry.parameter == name],
            services.municipalities_using(name),
        )
        for name, table in shared_parameters().items()
    ]


@login_required
@recent_authentication_required
@require_http_methods(["GET", "POST"])
def external_values(request: HttpRequest) -> HttpResponse:
    """The installation's administrator keeps the UFESP (and any table of the state or the Union the engine
    ships) once for every municipality; anyone else gets 404, as for the other set-up screens."""
    if not is_deployment_admin(request.user):
        raise Http404("Página não encontrada.")
    form = ExternalValueForm(request.POST or None, tables=_tables())
    if submit(
        request,
        form,
        lambda: services.external_value_enter(actor=request.user, **form.cleaned_data),
        success=lambda row: (
            f"Valor registrado: vigente a partir de {row.valid_from:%d/%m/%Y}, citado como {row.cite_as}."
        ),
    ):
        return redirect("lawconfig:external_values")
    context = {"form": form, "tables": _external_tables(), "today": timezone.localdate()}
    return render(
        request,
        "lawconfig/external_values.html",
        context,
        status=400 if request.method == "POST" else 200,
    )
