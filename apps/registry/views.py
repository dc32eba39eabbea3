"""Registry screens for municipal staff. Every read goes through .for_user(); other municipalities answer 404."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Model
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods

from apps.audit.services import audit_personal_data_read
from apps.registry import exports, services
from apps.registry import forms as f
from apps.registry import identifiers as ids
from apps.registry.catalog import document_catalog, kind_choices, municipality_kinds, regime_kinds
from apps.registry.choices import OperatorStatus
from apps.registry.models import Attendant, Ban, Company, Document, Driver, Operator, Person, Vehicle
from apps.registry.selectors import (
    decision_reason,
    document_rows,
    driver_rows,
    next_to_expire,
    operator_documents,
    operator_list,
    operator_search,
    vehicle_rows,
)
from apps.registry.validity import extra_schema
from apps.tenancy.access import municipality_for
from apps.tenancy.models import Municipality
from apps.tenancy.querysets import get_object_for_user_or_404, user_can
from apps.tenancy.regimes import regime_summary
from apps.web.exports import ExportSpec, export_response, requested_format
from apps.web.pagination import paginate
from apps.web.sorting import Sorting
from outorga.submit import submit

PERSONAL_DATA_SHOWN = ("cpf", "cnh_number", "address", "phone")


def _operator(request: HttpRequest, municipality: Municipality, pk: int, action: str = "view") -> Operator:
    queryset = Operator.objects.with_holder().filter(municipality=municipality)
    return get_object_for_user_or_404(queryset, request.user, action, pk=pk)


def _form_page(
    request: HttpRequest,
    municipality: Municipality,
    form: Any,
    title: str,
    back: str,
    multipart: bool = False,
) -> HttpResponse:
    context = {
        "municipality": municipality,
        "form": form,
        "title": title,
        "back": back,
        "multipart": multipart,
    }
    return render(request, "registry/form.html", context, status=400 if form.is_bound else 200)


OPERATOR_SORTS = Sorting.columns(
    ("cadastro", "Cadastrado em", ("created_at", "pk")),
    ("titular", "Titular", ("person__name", "company__legal_name", "pk")),
    ("tipo", "Tipo", ("kind", "pk")),
    ("regime", "Regime", ("regime_id", "pk")),
    ("situacao", "Situação", ("status", "pk")),
    descending=True,
)


@login_required
@require_GET
def operator_list_view(request: HttpRequest, ibge_code: str) -> HttpResponseBase:
    municipality = municipality_for(request, ibge_code, model_label="registry.operator")
    form = f.OperatorFilterForm(
        request.GET or None, regimes=list(municipality.regimes), statuses=list(OperatorStatus.choices)
    )
    operators = Operator.objects.for_user(request.user, "view").filter(municipality=municipality)
    if form.is_bound and form.is_valid():
        operators = operator_search(operators, form.cleaned_data["q"])
        for name in ("regime_id", "kind", "status"):
            if form.cleaned_data[name]:
                operators = operators.filter(**{name: form.cleaned_data[name]})
    sort = OPERATOR_SORTS.read(request)
    operators = operator_list(operators).order_by(*sort.order_by)
    if (fmt := requested_format(request)) is not None:
        return export_response(
            request, spec=exports.OPERATORS, rows=operators, municipality=municipality, fmt=fmt
        )
    page, query = paginate(request, operators)
    context = {
        "municipality": municipality,
        "form": form,
        "page": page,
        "query": query,
        "can_change": user_can(request.user, municipality.pk, "registry.operator", "change"),
        "sort": sort.headers(request),
    }
    # HTMX search (as the user types) swaps only the results; a plain GET renders the whole page.
    template = (
        "registry/_operator_results.html"
        if getattr(request, "htmx", False)
        else "registry/operator_list.html"
    )
    return render(request, template, context)


@dataclass(frozen=True)
class RegistryList:
    """One of the vehicle, driver and document lists: what it shows, filters and exports."""

    model: type[Model]
    label: str
    title: str
    url_name: str
    results: str
    rows: Callable[[Any, str, dict[str, Any]], Any]
    form: Callable[..., f.RegistryListForm]
    spec: ExportSpec
    sorts: Sorting


def _registry_list(request: HttpRequest, ibge_code: str, listing: RegistryList) -> HttpResponseBase:
    """Search, filter, order, paginate — or export the filtered rows (?formato=csv|xlsx)."""
    municipality = municipality_for(request, ibge_code, model_label=listing.model._meta.label_lower)
    form = listing.form(request.GET or None, regimes=list(municipality.regimes), municipality=municipality)
    queryset = listing.model.objects.for_user(request.user, "view").filter(municipality=municipality)  # type: ignore[attr-defined]
    text = form.cleaned_data["q"] if form.is_bound and form.is_valid() else ""
    # A clicked column header wins over the "Ordenar por" select; without one the select orders the list.
    sort = listing.sorts.chosen(request)
    ordering = sort.order_by if sort is not None else form.ordering()
    rows = listing.rows(queryset, text, form.filters()).order_by(*ordering)
    if (fmt := requested_format(request)) is not None:
        return export_response(request, spec=listing.spec, rows=rows, municipality=municipality, fmt=fmt)
    page, query = paginate(request, rows)
    context = {
        "municipality": municipality,
        "form": form,
        "listing": listing,
        "as_of": timezone.localdate(),
        "page": page,
        "query": query,
        "sort": (sort or listing.sorts.unsorted()).headers(request),
    }
    template = listing.results if getattr(request, "htmx", False) else "registry/registry_list.html"
    return render(request, template, context)


def _plain_form(form_class: type[f.RegistryListForm]) -> Callable[..., f.RegistryListForm]:
    def build(data: Any, *, regimes: list[str], municipality: Municipality) -> f.RegistryListForm:
        return form_class(data, regimes=regimes)

    return build


def _document_form(data: Any, *, regimes: list[str], municipality: Municipality) -> f.RegistryListForm:
    kinds = kind_choices(municipality_kinds(municipality))
    return f.DocumentFilterForm(data, regimes=regimes, kinds=kinds)


VEHICLES = RegistryList(
    Vehicle,
    "veículo(s)",
    "Veículos",
    "registry:vehicle_list",
    "registry/_vehicle_results.html",
    vehicle_rows,
    _plain_form(f.VehicleFilterForm),
    exports.VEHICLES,
    Sorting.columns(
        ("placa", "Placa", ("plate", "pk")),
        ("ano", "Ano de fabricação", ("manufacture_year", "pk")),
        ("lugares", "Lugares", ("seats", "pk")),
        ("categoria", "Categoria", ("category", "pk")),
    ),
)
DRIVERS = RegistryList(
    Driver,
    "condutor(es)",
    "Condutores",
    "registry:driver_list",
    "registry/_driver_results.html",
    driver_rows,
    _plain_form(f.DriverFilterForm),
    exports.DRIVERS,
    Sorting.columns(
        ("nome", "Nome", ("person__name", "pk")),
        ("funcao", "Função", ("role", "pk")),
        ("cnh", "Validade da CNH", ("cnh_expiry", "pk")),
        ("ativo", "Ativo", ("active", "pk")),
    ),
)
DOCUMENTS = RegistryList(
    Document,
    "documento(s)",
    "Documentos",
    "registry:document_list",
    "registry/_document_results.html",
    document_rows,
    _document_form,
    exports.DOCUMENTS,
    Sorting.columns(
        ("tipo", "Tipo", ("kind", "pk")),
        ("emissao", "Emissão", ("issue_date", "pk")),
        ("validade", "Válido até", ("valid_until", "pk")),
        ("situacao", "Situação", ("status", "pk")),
    ),
)


@login_required
@require_GET
def vehicle_list(request: HttpRequest, ibge_code: str) -> HttpResponseBase:
    return _registry_list(request, ibge_code, VEHICLES)


@login_required
@require_GET
def driver_list(request: HttpRequest, ibge_code: str) -> HttpResponseBase:
    return _registry_list(request, ibge_code, DRIVERS)


@login_required
@require_GET
def document_list(request: HttpRequest, ibge_code: str) -> HttpResponseBase:
    return _registry_list(request, ibge_code, DOCUMENTS)


@login_required
@require_GET
def operator_detail(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    """The operator's page; showing CPF, CNH, address and phone is an audited personal-data read."""
    municipality = municipality_for(request, ibge_code, model_label="registry.operator")
    operator = _operator(request, municipality, pk)
    as_of = timezone.localdate()
    documents = operator_documents(operator)
    upcoming = next_to_expire(documents, as_of)
    audit_personal_data_read(
        actor=request.user,
        municipality=municipality,
        obj=operator,
        fields=PERSONAL_DATA_SHOWN,
        request_id=getattr(request, "request_id", ""),
    )
    context = {
        "municipality": municipality,
        "operator": operator,
        "as_of": as_of,
        "drivers": operator.drivers.select_related("person", "vehicle").order_by("-active", "role"),
        "attendants": operator.attendants.select_related("person").order_by("-active"),
        "vehicles": operator.vehicles.order_by("plate"),
        "bans": _holder_bans(operator),
        "documents": [(d, decision_reason(d.decision)) for d in documents],
        "upcoming": upcoming,
        "upcoming_reason": decision_reason(upcoming.decision) if upcoming else "",
        "can_change": user_can(request.user, municipality.pk, "registry.operator", "change"),
        "can_schedule_inspection": user_can(
            request.user, municipality.pk, "inspections.inspection", "schedule"
        ),
        "can_view_permits": user_can(request.user, municipality.pk, "licensing.permit", "view"),
    }
    return render(request, "registry/operator_detail.html", context)


def _holder_bans(operator: Operator) -> Any:
    """Impediments of the operator's person or company, newest first (written by enforcement)."""
    bans = Ban.objects.filter(municipality=operator.municipality)
    if operator.person is not None:
        return bans.filter(person=operator.person)
    return bans.filter(company=operator.company)


def _audit_read(
    request: HttpRequest, municipality: Municipality, obj: Model, fields: tuple[str, ...]
) -> None:
    """An edit form shows the stored personal data: that is a read like the operator page."""
    audit_personal_data_read(
        actor=request.user,
        municipality=municipality,
        obj=obj,
        fields=fields,
        request_id=getattr(request, "request_id", ""),
    )


@login_required
@require_http_methods(["GET", "POST"])
def person_create(request: HttpRequest, ibge_code: str) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label="registry.person", action="change")
    form = f.PersonCreateForm(request.POST or None)
    if submit(
        request,
        form,
        lambda: services.person_create(
            actor=request.user,
            municipality=municipality,
            cpf=form.cleaned_data["cpf"],
            as_of=timezone.localdate(),
            **f.service_values(form, services.PERSON_FIELDS),
        ),
        success=lambda person: f"Pessoa {person} cadastrada.",
    ):
        return redirect("registry:operator_list", ibge_code)
    return _form_page(request, municipality, form, "Nova pessoa", "registry:operator_list")


@login_required
@require_http_methods(["GET", "POST"])
def person_edit(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label="registry.person", action="change")
    person = get_object_for_user_or_404(
        Person.objects.filter(municipality=municipality), request.user, "change", pk=pk
    )
    initial = {name: getattr(person, name) for name in services.PERSON_FIELDS}
    form = f.PersonForm(request.POST or None, initial=initial)
    if not form.is_bound:
        _audit_read(request, municipality, person, ("birth_date", "address", "phone", "email"))
    if submit(
        request,
        form,
        lambda: services.person_update(
            actor=request.user,
            person=person,
            as_of=timezone.localdate(),
            **f.service_values(form, services.PERSON_FIELDS),
        ),
        success=lambda saved: f"Cadastro de {saved} atualizado.",
    ):
        return redirect("registry:operator_list", ibge_code)
    return _form_page(request, municipality, form, f"Editar {person}", "registry:operator_list")


@login_required
@require_http_methods(["GET", "POST"])
def company_create(request: HttpRequest, ibge_code: str) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label="registry.company", action="change")
    form = f.CompanyCreateForm(request.POST or None)
    schema = extra_schema(municipality, None, "company")
    f.add_extra_fields(form, schema)
    if submit(
        request,
        form,
        lambda: services.company_create(
            actor=request.user,
            municipality=municipality,
            cnpj=form.cleaned_data["cnpj"],
            extra=f.extra_values(form, schema),
            **f.service_values(form, services.COMPANY_FIELDS),
        ),
        success=lambda company: f"Empresa {company} cadastrada.",
    ):
        return redirect("registry:operator_list", ibge_code)
    return _form_page(request, municipality, form, "Nova empresa", "registry:operator_list")


@login_required
@require_http_methods(["GET", "POST"])
def company_edit(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label="registry.company", action="change")
    company = get_object_for_user_or_404(
        Company.objects.filter(municipality=municipality), request.user, "change", pk=pk
    )
    form = f.CompanyForm(
        request.POST or None, initial={n: getattr(company, n) for n in services.COMPANY_FIELDS}
    )
    schema = extra_schema(municipality, None, "company")
    f.add_extra_fields(form, schema, company.extra)
    if submit(
        request,
        form,
        lambda: services.company_update(
            actor=request.user,
            company=company,
            extra=f.extra_values(form, schema),
            **f.service_values(form, services.COMPANY_FIELDS),
        ),
        success=lambda saved: f"Cadastro de {saved} atualizado.",
    ):
        return redirect("registry:operator_list", ibge_code)
    return _form_page(request, municipality, form, f"Editar {company}", "registry:operator_list")


def _holder(municipality: Municipality, kind: str, document: str) -> dict[str, Any]:
    """The registered person (PF) or company (PJ) with this CPF/CNPJ in the municipality, or a refusal."""
    if kind == "PF":
        person = Person.objects.filter(municipality=municipality, cpf=ids.normalize_cpf(document)).first()
        if person is None:
            raise ValidationError(
                {"document": "CPF: nenhuma pessoa com este CPF no cadastro; cadastre-a antes."}
            )
        return {"person": person}
    company = Company.objects.filter(municipality=municipality, cnpj=ids.normalize_cnpj(document)).first()
    if company is None:
        raise ValidationError(
            {"document": "CNPJ: nenhuma empresa com este CNPJ no cadastro; cadastre-a antes."}
        )
    return {"company": company}


@login_required
@require_http_methods(["GET", "POST"])
def operator_create(request: HttpRequest, ibge_code: str) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label="registry.operator", action="change")
    form = f.OperatorForm(request.POST or None, regimes=list(municipality.regimes))
    f.add_extra_fields_of_regimes(form, list(municipality.regimes), "operator")

    def create() -> Operator:
        data = form.cleaned_data
        # The form shows the questions of every regime of the municipality, each saying whose; an answer to a
        # question the chosen regime does not ask is refused on its field, never silently dropped.
        asked = extra_schema(municipality, data["regime_id"], "operator")
        offered = extra_schema(municipality, None, "operator")
        extra = f.extra_answers(form, offered, asked, regime_summary(data["regime_id"])[0])
        return services.operator_create(
            actor=request.user,
            municipality=municipality,
            regime_id=data["regime_id"],
            as_of=timezone.localdate(),
            extra=extra,
            **_holder(municipality, data["kind"], data["document"]),
        )

    if done := submit(
        request, form, create, success=lambda operator: f"Autorizatário {operator} cadastrado."
    ):
        return redirect("registry:operator_detail", ibge_code, done.result.pk)
    return _form_page(request, municipality, form, "Novo autorizatário", "registry:operator_list")


def _person_by_cpf(municipality: Municipality, cpf: str) -> Person:
    person = Person.objects.filter(municipality=municipality, cpf=ids.normalize_cpf(cpf)).first()
    if person is None:
        raise ValidationError(
            {"person_cpf": "CPF: nenhuma pessoa com este CPF no cadastro; cadastre-a antes."}
        )
    return person


@login_required
@require_http_methods(["GET", "POST"])
def driver_create(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label="registry.driver", action="change")
    operator = _operator(request, municipality, pk, "change")
    form = f.DriverForm(request.POST or None, vehicles=operator.vehicles.all())
    schema = extra_schema(municipality, operator.regime_id, "driver")
    f.add_extra_fields(form, schema)
    if done := submit(
        request,
        form,
        lambda: services.driver_link(
            actor=request.user,
            operator=operator,
            as_of=timezone.localdate(),
            person=_person_by_cpf(municipality, form.cleaned_data["person_cpf"]),
            extra=f.extra_values(form, schema),
            **f.service_values(form, services.DRIVER_FIELDS),
        ),
    ):
        driver = done.result
        warning = ids.cnh_number_warning(driver.cnh_number)
        if warning:
            messages.warning(request, warning)
        messages.success(request, f"Condutor {driver.person} vinculado.")
        return redirect("registry:operator_detail", ibge_code, operator.pk)
    return _form_page(request, municipality, form, f"Novo condutor de {operator}", "registry:operator_list")


@login_required
@require_http_methods(["GET", "POST"])
def driver_edit(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label="registry.driver", action="change")
    driver = get_object_for_user_or_404(
        Driver.objects.filter(municipality=municipality).select_related("operator"),
        request.user,
        "change",
        pk=pk,
    )
    names = tuple(n for n in services.DRIVER_FIELDS if n != "vehicle")
    initial = {n: getattr(driver, n) for n in names} | {
        "person_cpf": driver.person.cpf,
        "vehicle": driver.vehicle,
    }
    form = f.DriverForm(request.POST or None, initial=initial, vehicles=driver.operator.vehicles.all())
    schema = extra_schema(municipality, driver.operator.regime_id, "driver")
    f.add_extra_fields(form, schema, driver.extra)
    if not form.is_bound:
        _audit_read(request, municipality, driver, ("cpf", "cnh_number"))
    if submit(
        request,
        form,
        lambda: services.driver_update(
            actor=request.user,
            driver=driver,
            as_of=timezone.localdate(),
            extra=f.extra_values(form, schema),
            **f.service_values(form, services.DRIVER_FIELDS),
        ),
        success=lambda saved: f"Condutor {saved.person} atualizado.",
    ):
        return redirect("registry:operator_detail", ibge_code, driver.operator_id)
    return _form_page(
        request, municipality, form, f"Editar condutor {driver.person}", "registry:operator_list"
    )


@login_required
@require_http_methods(["GET", "POST"])
def attendant_create(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label="registry.attendant", action="change")
    operator = _operator(request, municipality, pk, "change")
    form = f.AttendantForm(request.POST or None)
    schema = extra_schema(municipality, operator.regime_id, "attendant")
    f.add_extra_fields(form, schema)
    if submit(
        request,
        form,
        lambda: services.attendant_link(
            actor=request.user,
            operator=operator,
            person=_person_by_cpf(municipality, form.cleaned_data["person_cpf"]),
            extra=f.extra_values(form, schema),
        ),
        success=lambda attendant: f"Monitor {attendant.person} vinculado.",
    ):
        return redirect("registry:operator_detail", ibge_code, operator.pk)
    return _form_page(request, municipality, form, f"Novo monitor de {operator}", "registry:operator_list")


@login_required
@require_http_methods(["GET", "POST"])
def vehicle_create(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label="registry.vehicle", action="change")
    operator = _operator(request, municipality, pk, "change")
    form = f.VehicleForm(request.POST or None)
    schema = extra_schema(municipality, operator.regime_id, "vehicle")
    f.add_extra_fields(form, schema)
    if submit(
        request,
        form,
        lambda: services.vehicle_create(
            actor=request.user,
            municipality=municipality,
            operator=operator,
            plate=form.cleaned_data["plate"],
            renavam=form.cleaned_data["renavam"],
            as_of=timezone.localdate(),
            extra=f.extra_values(form, schema),
            **f.service_values(form, services.VEHICLE_FIELDS),
        ),
        success=lambda vehicle: f"Veículo {vehicle.plate_display} cadastrado.",
    ):
        return redirect("registry:operator_detail", ibge_code, operator.pk)
    return _form_page(request, municipality, form, f"Novo veículo de {operator}", "registry:operator_list")


def _vehicle(request: HttpRequest, municipality: Municipality, pk: int) -> Vehicle:
    return get_object_for_user_or_404(
        Vehicle.objects.filter(municipality=municipality), request.user, "change", pk=pk
    )


def _after_vehicle(ibge_code: str, vehicle: Vehicle) -> HttpResponse:
    if vehicle.operator_id:
        return redirect("registry:operator_detail", ibge_code, vehicle.operator_id)
    return redirect("registry:operator_list", ibge_code)


@login_required
@require_http_methods(["GET", "POST"])
def vehicle_edit(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label="registry.vehicle", action="change")
    vehicle = _vehicle(request, municipality, pk)
    initial = {n: getattr(vehicle, n) for n in (*services.VEHICLE_FIELDS, "plate", "renavam")}
    form = f.VehicleForm(request.POST or None, initial=initial)
    schema = extra_schema(municipality, vehicle.operator.regime_id if vehicle.operator else None, "vehicle")
    f.add_extra_fields(form, schema, vehicle.extra)

    def update() -> Vehicle:
        values = f.service_values(form, (*services.VEHICLE_FIELDS, "plate", "renavam"))
        values["extra"] = f.extra_values(form, schema)
        return services.vehicle_update(
            actor=request.user, vehicle=vehicle, as_of=timezone.localdate(), **values
        )

    if submit(request, form, update, success=lambda saved: f"Veículo {saved.plate_display} atualizado."):
        return _after_vehicle(ibge_code, vehicle)
    return _form_page(
        request, municipality, form, f"Editar veículo {vehicle.plate_display}", "registry:operator_list"
    )


@login_required
@require_http_methods(["GET", "POST"])
def vehicle_ownership(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label="registry.vehicle", action="change")
    vehicle = _vehicle(request, municipality, pk)
    contracts = vehicle.documents.filter(kind__in=("comodato_contract", "lease_contract", "crv"))
    initial = {n: getattr(vehicle, n) for n in f.OWNERSHIP_FIELDS} | {
        "ownership_contract": vehicle.ownership_contract
    }
    form = f.OwnershipForm(request.POST or None, initial=initial, contracts=contracts)
    if submit(
        request,
        form,
        lambda: services.vehicle_update(
            actor=request.user,
            vehicle=vehicle,
            as_of=timezone.localdate(),
            **f.service_values(form, (*f.OWNERSHIP_FIELDS, "ownership_contract")),
        ),
        success=lambda saved: f"Vínculo do veículo {saved.plate_display} atualizado.",
    ):
        return _after_vehicle(ibge_code, vehicle)
    return _form_page(
        request,
        municipality,
        form,
        f"Proprietário e vínculo de {vehicle.plate_display}",
        "registry:operator_list",
    )


DocumentOwner = Person | Company | Vehicle | Operator


def _document_owners(operator: Operator) -> dict[str, DocumentOwner]:
    """Who a document of this operator's file may belong to, keyed 'person:12', 'vehicle:3'…

    The autorizatário's own documents are filed under its holder (the person of a PF, the company of a PJ): that
    is where the rules read them. Filing them under the operator row would keep them from every decision."""
    holder: Person | Company | None = operator.person or operator.company
    owners: dict[str, DocumentOwner] = {}
    if holder is not None:
        owners[f"{holder._meta.model_name}:{holder.pk}"] = holder
    else:
        owners[f"operator:{operator.pk}"] = operator
    for link in [*operator.drivers.filter(active=True), *operator.attendants.filter(active=True)]:
        owners[f"person:{link.person_id}"] = link.person
    for vehicle in operator.vehicles.all():
        owners[f"vehicle:{vehicle.pk}"] = vehicle
    return owners


def _owner_label(key: str, owner: Model, holder_key: str = "") -> str:
    if key == holder_key:
        return f"Autorizatário: {owner}"
    kind = {"operator": "Autorizatário", "person": "Pessoa", "company": "Empresa", "vehicle": "Veículo"}
    return f"{kind[key.split(':')[0]]}: {owner}"


@login_required
@require_http_methods(["GET", "POST"])
def document_upload(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label="registry.document", action="change")
    operator = _operator(request, municipality, pk, "change")
    owners = _document_owners(operator)
    holder = operator.person or operator.company
    holder_key = f"{holder._meta.model_name}:{holder.pk}" if holder is not None else ""
    choices = [(key, _owner_label(key, owner, holder_key)) for key, owner in owners.items()]
    form = f.DocumentForm(
        request.POST or None, request.FILES or None, owners=choices, kinds=regime_kinds(operator.regime_id)
    )
    if submit(
        request,
        form,
        lambda: services.document_upload(
            actor=request.user,
            owner=owners[form.cleaned_data["owner"]],
            kind=form.cleaned_data["kind"],
            upload=form.cleaned_data["file"],
            issue_date=form.cleaned_data["issue_date"],
            expiry_date=form.cleaned_data["expiry_date"],
            details=form.details(),
            as_of=timezone.localdate(),
            regime_id=operator.regime_id,
        ),
        success=lambda document: f"Documento {document} recebido: {document.get_status_display().lower()}.",
    ):
        return redirect("registry:operator_detail", ibge_code, operator.pk)
    return _form_page(
        request,
        municipality,
        form,
        f"Enviar documento — {operator}",
        "registry:operator_list",
        multipart=True,
    )


@login_required
@require_GET
def document_file(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponseBase:
    """The stored file, behind the same gate as every read (never a public MEDIA_URL)."""
    municipality = municipality_for(request, ibge_code, model_label="registry.document")
    document = get_object_for_user_or_404(
        Document.objects.filter(municipality=municipality), request.user, "view", pk=pk
    )
    extension = document.file.name.rsplit(".", 1)[-1]
    filename = f"{document.kind}-{document.pk}.{extension}"
    return document.upload_response(request, municipality=municipality, filename=filename)


@login_required
@require_http_methods(["POST"])
def link_deactivate(request: HttpRequest, ibge_code: str, kind: str, pk: int) -> HttpResponse:
    """End a driver's or attendant's link to the operator (the row stays for the history)."""
    link: Driver | Attendant
    if kind == "condutor":
        municipality = municipality_for(request, ibge_code, model_label="registry.driver", action="change")
        driver = Driver.objects.filter(municipality=municipality)
        link = get_object_for_user_or_404(driver, request.user, "change", pk=pk)
        services.driver_unlink(actor=request.user, driver=link)
    elif kind == "monitor":
        municipality = municipality_for(request, ibge_code, model_label="registry.attendant", action="change")
        attendant = Attendant.objects.filter(municipality=municipality)
        link = get_object_for_user_or_404(attendant, request.user, "change", pk=pk)
        services.attendant_unlink(actor=request.user, attendant=link)
    else:
        raise Http404("Registro não encontrado.")
    messages.success(request, f"Vínculo de {link.person} encerrado.")
    return redirect("registry:operator_detail", ibge_code, link.operator_id)


@login_required
@require_GET
def document_catalog_view(request: HttpRequest, ibge_code: str) -> HttpResponse:
    """Which documents each of the municipality's laws asks for, with the articles, as each regime declares."""
    municipality = municipality_for(request, ibge_code, model_label="registry.document")
    as_of = timezone.localdate()
    catalogs = [(regime_id, document_catalog(regime_id)) for regime_id in municipality.regimes]
    context = {"municipality": municipality, "catalogs": catalogs, "as_of": as_of}
    return render(request, "registry/document_catalog.html", context)
