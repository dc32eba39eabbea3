"""Writes of the registry. Each service is one transaction that validates, saves and audits; a refusal is a
ValidationError naming the field (and the article, for legal refusals) and leaves nothing stored."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.db import IntegrityError, models, transaction

from apps.accounts.actors import Actor
from apps.audit.services import audit_record, audited_change
from apps.lawconfig.config import configs_remembered
from apps.registry import hooks, plausibility
from apps.registry import identifiers as ids
from apps.registry.catalog import age_limited_kinds
from apps.registry.choices import DocumentStatus, OperatorKind, OperatorStatus
from apps.registry.models import Attendant, Ban, Company, Document, Driver, Operator, Person, Vehicle
from apps.registry.validity import ban_refusal, document_validity, extra_schema, typed_extra
from apps.tenancy.models import Municipality
from apps.web.refusals import refuse
from lawcode.documents import DocumentKind
from lawcode.errors import LawcodeError

PERSON_FIELDS = (
    "name",
    "birth_date",
    "email",
    "phone",
    "street",
    "number",
    "complement",
    "district",
    "city",
    "uf",
    "postal_code",
)
COMPANY_FIELDS = (
    "legal_name",
    "trade_name",
    "seat_municipality_ibge",
    "email",
    "phone",
    "street",
    "number",
    "complement",
    "district",
    "city",
    "uf",
    "postal_code",
)
VEHICLE_FIELDS = (
    "make",
    "model",
    "manufacture_year",
    "model_year",
    "seats",
    "doors",
    "air_conditioning",
    "accessibility",
    "registration_municipality_ibge",
    "registration_municipality_name",
    "category",
    "tachograph_ok",
    "last_maintenance",
    "owner_name",
    "owner_document",
    "ownership_kind",
    "ownership_since",
    "ownership_registered",
    "owner_signature_notarized",
)
DRIVER_FIELDS = (
    "role",
    "cnh_number",
    "cnh_category",
    "cnh_ear",
    "cnh_first_issue",
    "cnh_expiry",
    "course_completed_on",
    "vehicle",
)


def _not_after(value: dt.date | None, as_of: dt.date, field: str, label: str) -> None:
    if value is not None and value > as_of:
        raise refuse(
            field, f"{label}: a data {value:%d/%m/%Y} está no futuro (hoje é {as_of:%d/%m/%Y}).", "future"
        )


def _apply(obj: models.Model, fields: tuple[str, ...], values: dict[str, Any]) -> None:
    for name, value in values.items():
        if name == "extra":
            continue  # typed against the regime's facts.yaml by _set_extra
        if name not in fields:
            raise TypeError(f"{type(obj).__name__} has no editable field {name!r}")
        setattr(obj, name, value)


ENTITY_LABELS = {
    "operator": "Autorizatário",
    "company": "Empresa",
    "driver": "Condutor",
    "attendant": "Monitor",
    "vehicle": "Veículo",
}


def _set_extra(obj: Any, entity: str, regime_id: str | None, values: dict[str, Any]) -> None:
    """The answers to the regime's own questions about ``obj`` (facts.yaml), typed and validated; the whole
    mapping is replaced (a form submits every question), so an unanswered question is removed."""
    if "extra" not in values:
        return
    schema = extra_schema(obj.municipality, regime_id, entity)
    obj.extra = typed_extra(schema, values["extra"] or {}, ENTITY_LABELS[entity])


def _save(obj: Any, *, actor: Actor, action: str, before: dict[str, Any] | None) -> None:
    """Validate field by field, save, audit (uniqueness was checked with a message before, the DB is the net)."""
    obj.full_clean(validate_constraints=False)
    try:
        obj.save()
    except IntegrityError as exc:
        raise _race_refusal(exc) from None
    audit_record(
        actor=actor,
        municipality=obj.municipality,
        action=action,
        obj=obj,
        before=before,
        after=obj.audit_snapshot(),
    )


# Unique constraints are the last line against two clerks registering the same identifier at once.
# (constraint name as PostgreSQL reports it, table.column as SQLite reports it, form field, label)
UNIQUE_IDENTIFIERS = (
    ("person_unique_cpf", "registry_person.cpf", "cpf", "CPF"),
    ("company_unique_cnpj", "registry_company.cnpj", "cnpj", "CNPJ"),
    ("vehicle_unique_plate", "registry_vehicle.plate", "plate", "Placa"),
    ("vehicle_unique_renavam", "registry_vehicle.renavam", "renavam", "RENAVAM"),
)


def _race_refusal(exc: IntegrityError) -> ValidationError:
    for constraint, column, field, label in UNIQUE_IDENTIFIERS:
        if constraint in str(exc) or column in str(exc):
            return refuse(
                field, f"{label}: acabou de ser cadastrado por outra pessoa neste município.", "duplicate"
            )
    raise exc


# --- people and companies -------------------------------------------------------------------------------


def _check_person(person: Person, *, as_of: dt.date) -> None:
    _not_after(person.birth_date, as_of, "birth_date", "Data de nascimento")
    plausibility.check_birth_date(person.birth_date, as_of)
    plausibility.normalize_address(person)
    duplicate = Person.objects.filter(municipality=person.municipality, cpf=person.cpf).exclude(pk=person.pk)
    if duplicate.exists():
        raise refuse(
            "cpf",
            f"CPF: {ids.format_cpf(person.cpf)} já está cadastrado em {person.municipality}.",
            "duplicate",
        )


@transaction.atomic
def person_create(
    *, actor: Actor, municipality: Municipality, cpf: str, as_of: dt.date, **fields: Any
) -> Person:
    person = Person(municipality=municipality, cpf=ids.validate_cpf(cpf))
    _apply(person, PERSON_FIELDS, fields)
    _check_person(person, as_of=as_of)
    _save(person, actor=actor, action="registry.person.create", before=None)
    return person


@transaction.atomic
def person_update(*, actor: Actor, person: Person, as_of: dt.date, **fields: Any) -> Person:
    before = person.audit_snapshot()
    _apply(person, PERSON_FIELDS, fields)
    _check_person(person, as_of=as_of)
    _save(person, actor=actor, action="registry.person.update", before=before)
    return person


def _check_company(company: Company) -> None:
    if company.seat_municipality_ibge:
        plausibility.check_ibge_code(
            company.seat_municipality_ibge, "seat_municipality_ibge", "Código IBGE do município-sede"
        )
    plausibility.normalize_address(company)
    duplicate = Company.objects.filter(municipality=company.municipality, cnpj=company.cnpj).exclude(
        pk=company.pk
    )
    if duplicate.exists():
        raise refuse(
            "cnpj",
            f"CNPJ: {ids.format_cnpj(company.cnpj)} já está cadastrado em {company.municipality}.",
            "duplicate",
        )


@transaction.atomic
def company_create(*, actor: Actor, municipality: Municipality, cnpj: str, **fields: Any) -> Company:
    company = Company(municipality=municipality, cnpj=ids.validate_cnpj(cnpj))
    _apply(company, COMPANY_FIELDS, fields)
    _set_extra(company, "company", None, fields)
    _check_company(company)
    _save(company, actor=actor, action="registry.company.create", before=None)
    return company


@transaction.atomic
def company_update(*, actor: Actor, company: Company, **fields: Any) -> Company:
    before = company.audit_snapshot()
    _apply(company, COMPANY_FIELDS, fields)
    _set_extra(company, "company", None, fields)
    _check_company(company)
    _save(company, actor=actor, action="registry.company.update", before=before)
    return company


# --- operators ------------------------------------------------------------------------------------------


def _check_operator_holder(
    municipality: Municipality, regime_id: str, person: Person | None, company: Company | None
) -> None:
    if regime_id not in (municipality.regimes or []):
        raise refuse("regime_id", f"Regime: {municipality} não aplica o regime {regime_id!r}.")
    if (person is None) == (company is None):
        raise refuse("person", "Titular: informe a pessoa (autorizatário PF) ou a empresa (PJ), não ambas.")
    holder: Person | Company = person or company  # type: ignore[assignment]
    if holder.municipality_id != municipality.pk:
        raise refuse("person" if person else "company", "Titular: cadastro de outro município.")
    same_holder = models.Q(person=person) if person is not None else models.Q(company=company)
    existing = Operator.objects.filter(same_holder, municipality=municipality, regime_id=regime_id)
    if existing.exists():
        raise refuse(
            "person" if person else "company",
            f"Titular: {holder} já é autorizatário neste regime em {municipality}.",
            "duplicate",
        )


@transaction.atomic
def operator_create(
    *,
    actor: Actor,
    municipality: Municipality,
    regime_id: str,
    as_of: dt.date,
    person: Person | None = None,
    company: Company | None = None,
    extra: dict[str, Any] | None = None,
) -> Operator:
    """Register an autorizatário; a person or company under a ban in force is refused with article and end.
    ``extra`` answers the regime's own questions about the operator (facts.yaml)."""
    _check_operator_holder(municipality, regime_id, person, company)
    operator = Operator(
        municipality=municipality,
        regime_id=regime_id,
        person=person,
        company=company,
        kind=OperatorKind.PF if person else OperatorKind.PJ,
        status=OperatorStatus.PENDING,
    )
    _set_extra(operator, "operator", regime_id, {"extra": extra} if extra is not None else {})
    operator.save()
    refusal = ban_refusal(operator, as_of=as_of)
    if refusal is not None:
        raise refuse("person" if person else "company", refusal, "banned")
    audit_record(
        actor=actor,
        municipality=municipality,
        action="registry.operator.create",
        obj=operator,
        after=operator.audit_snapshot(),
    )
    return operator


@transaction.atomic
def operator_set_status(
    *, actor: Actor, operator: Operator, status: str, registered_on: dt.date | None = None
) -> Operator:
    """Licensing moves the operator along (active on approval, suspended, revoked, cancelled at request)."""
    if status not in OperatorStatus.values:
        raise refuse("status", f"Situação: valor desconhecido {status!r}.")
    with audited_change(operator, actor=actor, action="registry.operator.status"):
        operator.status = status
        if registered_on is not None:
            operator.registered_on = registered_on
        operator.save(update_fields=["status", "registered_on"])
    return operator


# --- drivers and attendants -----------------------------------------------------------------------------


def _check_driver(driver: Driver, *, as_of: dt.date) -> None:
    _not_after(driver.cnh_first_issue, as_of, "cnh_first_issue", "Primeira habilitação")
    _not_after(driver.course_completed_on, as_of, "course_completed_on", "Conclusão do curso")
    driver.cnh_number = "".join(ch for ch in driver.cnh_number if ch.isdigit())
    if not driver.cnh_number:
        raise refuse("cnh_number", "Número da CNH: informe o número (só dígitos).")
    driver.cnh_category = driver.cnh_category.strip().upper()
    if not driver.cnh_category or not set(driver.cnh_category) <= set("ABCDE"):
        raise refuse("cnh_category", "Categoria da CNH: use as letras A a E (ex.: D, AD).")
    if driver.cnh_expiry and driver.cnh_first_issue and driver.cnh_expiry < driver.cnh_first_issue:
        raise refuse("cnh_expiry", "Validade da CNH: anterior à primeira habilitação.")
    plausibility.check_driver_dates(driver, as_of)
    _check_same_municipality(driver.operator, driver.person, "person")
    if driver.vehicle is not None and driver.vehicle.operator_id != driver.operator_id:
        raise refuse("vehicle", "Veículo: não pertence a este autorizatário.")
    links = Driver.objects.filter(operator=driver.operator, person=driver.person, active=True).exclude(
        pk=driver.pk
    )
    if links.exists():
        raise refuse(
            "person", f"Pessoa: {driver.person} já é condutor ativo deste autorizatário.", "duplicate"
        )


def _check_same_municipality(operator: Operator, person: Person, field: str) -> None:
    if person.municipality_id != operator.municipality_id:
        raise refuse(field, "Pessoa: cadastro de outro município.")


@transaction.atomic
def driver_link(*, actor: Actor, operator: Operator, person: Person, as_of: dt.date, **fields: Any) -> Driver:
    driver = Driver(municipality=operator.municipality, operator=operator, person=person)
    _apply(driver, DRIVER_FIELDS, fields)
    _set_extra(driver, "driver", operator.regime_id, fields)
    _check_driver(driver, as_of=as_of)
    _save(driver, actor=actor, action="registry.driver.link", before=None)
    return driver


@transaction.atomic
def driver_update(*, actor: Actor, driver: Driver, as_of: dt.date, **fields: Any) -> Driver:
    before = driver.audit_snapshot()
    _apply(driver, DRIVER_FIELDS, fields)
    _set_extra(driver, "driver", driver.operator.regime_id, fields)
    _check_driver(driver, as_of=as_of)
    _save(driver, actor=actor, action="registry.driver.update", before=before)
    hooks.holdings_changed(actor, driver, as_of)
    return driver


@transaction.atomic
def driver_unlink(*, actor: Actor, driver: Driver) -> Driver:
    with audited_change(driver, actor=actor, action="registry.driver.unlink"):
        driver.active = False
        driver.save(update_fields=["active"])
    return driver


@transaction.atomic
def attendant_link(
    *, actor: Actor, operator: Operator, person: Person, extra: dict[str, Any] | None = None
) -> Attendant:
    _check_same_municipality(operator, person, "person")
    if Attendant.objects.filter(operator=operator, person=person, active=True).exists():
        raise refuse("person", f"Pessoa: {person} já é monitor ativo deste autorizatário.", "duplicate")
    attendant = Attendant(municipality=operator.municipality, operator=operator, person=person)
    _set_extra(attendant, "attendant", operator.regime_id, {"extra": extra} if extra is not None else {})
    _save(attendant, actor=actor, action="registry.attendant.link", before=None)
    return attendant


@transaction.atomic
def attendant_unlink(*, actor: Actor, attendant: Attendant) -> Attendant:
    with audited_change(attendant, actor=actor, action="registry.attendant.unlink"):
        attendant.active = False
        attendant.save(update_fields=["active"])
    return attendant


# --- vehicles -------------------------------------------------------------------------------------------


def _plate_forms(plate: str) -> set[str]:
    """The plate and its other form: an old plate and its Mercosul conversion are the same vehicle."""
    forms = {plate, ids.to_mercosul(plate)}
    if ids.plate_format(plate) == "mercosul" and plate[4] in "ABCDEFGHIJ":
        forms.add(plate[:4] + str("ABCDEFGHIJ".index(plate[4])) + plate[5:])
    return forms


def _check_vehicle(vehicle: Vehicle, *, as_of: dt.date) -> None:
    if vehicle.manufacture_year > as_of.year:
        raise refuse(
            "manufacture_year", f"Ano de fabricação: {vehicle.manufacture_year} está no futuro.", "future"
        )
    plausibility.check_manufacture_year(vehicle.manufacture_year)
    if not vehicle.manufacture_year <= vehicle.model_year <= vehicle.manufacture_year + 1:
        raise refuse("model_year", "Ano do modelo: deve ser o ano de fabricação ou o seguinte.")
    if vehicle.seats < 1 or vehicle.doors < 1:
        raise refuse(
            "seats" if vehicle.seats < 1 else "doors", "Lugares e portas: informe números positivos."
        )
    plausibility.check_ibge_code(
        vehicle.registration_municipality_ibge,
        "registration_municipality_ibge",
        "Código IBGE do município de registro",
    )
    _not_after(vehicle.ownership_since, as_of, "ownership_since", "Detém o veículo desde")
    plausibility.check_vehicle_dates(vehicle, as_of)
    if vehicle.operator is not None and vehicle.operator.municipality_id != vehicle.municipality_id:
        raise refuse("operator", "Autorizatário: cadastro de outro município.")
    _check_vehicle_duplicates(vehicle)


def _check_vehicle_duplicates(vehicle: Vehicle) -> None:
    same_town = Vehicle.objects.filter(municipality=vehicle.municipality).exclude(pk=vehicle.pk)
    if same_town.filter(plate__in=_plate_forms(vehicle.plate)).exists():
        raise refuse(
            "plate",
            f"Placa: {vehicle.plate_display} já está cadastrada em {vehicle.municipality}.",
            "duplicate",
        )
    if same_town.filter(renavam=vehicle.renavam).exists():
        raise refuse(
            "renavam",
            f"RENAVAM: {vehicle.renavam} já está cadastrado em {vehicle.municipality}.",
            "duplicate",
        )


def _owner_document(value: str) -> str:
    raw = ids.normalize_cnpj(value)
    if len(raw) == 11 and raw.isdigit():
        try:
            return ids.validate_cpf(raw)
        except ValidationError:
            raise refuse("owner_document", "Proprietário: CPF inválido.") from None
    try:
        return ids.validate_cnpj(raw)
    except ValidationError:
        raise refuse(
            "owner_document", "Proprietário: informe um CPF (11 dígitos) ou CNPJ (14) válido."
        ) from None


@transaction.atomic
def vehicle_create(
    *,
    actor: Actor,
    municipality: Municipality,
    plate: str,
    renavam: str,
    as_of: dt.date,
    operator: Operator | None = None,
    **fields: Any,
) -> Vehicle:
    vehicle = Vehicle(
        municipality=municipality, operator=operator, plate=_plate(plate), renavam=_renavam(renavam)
    )
    _apply(vehicle, VEHICLE_FIELDS, fields)
    _set_extra(vehicle, "vehicle", operator.regime_id if operator else None, fields)
    vehicle.owner_document = _owner_document(vehicle.owner_document)
    _check_vehicle(vehicle, as_of=as_of)
    _save(vehicle, actor=actor, action="registry.vehicle.create", before=None)
    return vehicle


@transaction.atomic
def vehicle_update(*, actor: Actor, vehicle: Vehicle, as_of: dt.date, **fields: Any) -> Vehicle:
    before = vehicle.audit_snapshot()
    for key, clean in (("plate", _plate), ("renavam", _renavam)):
        if key in fields:
            setattr(vehicle, key, clean(fields.pop(key)))
    if "operator" in fields:
        vehicle.operator = fields.pop("operator")
    _apply(vehicle, VEHICLE_FIELDS + ("ownership_contract",), fields)
    _set_extra(vehicle, "vehicle", vehicle.operator.regime_id if vehicle.operator else None, fields)
    vehicle.owner_document = _owner_document(vehicle.owner_document)
    _check_vehicle(vehicle, as_of=as_of)
    _save(vehicle, actor=actor, action="registry.vehicle.update", before=before)
    return vehicle


def _plate(value: str) -> str:
    try:
        return ids.validate_plate(value)
    except ValidationError as exc:
        raise refuse("plate", _message(exc)) from None


def _renavam(value: str) -> str:
    try:
        return ids.validate_renavam(value)
    except ValidationError as exc:
        raise refuse("renavam", _message(exc)) from None


def _message(exc: ValidationError) -> str:
    return str(exc.messages[0])


# --- documents and bans ---------------------------------------------------------------------------------


@transaction.atomic
def document_upload(
    *,
    actor: Actor,
    owner: Person | Company | Vehicle | Operator,
    kind: str,
    upload: UploadedFile,
    issue_date: dt.date,
    as_of: dt.date,
    expiry_date: dt.date | None = None,
    details: dict[str, Any] | None = None,
    regime_id: str | None = None,
) -> Document:
    """Store the engine's validity decision and, once committed, the file; a refusal stores nothing."""
    from apps.registry.uploads import check_upload

    _check_document_dates(issue_date, expiry_date, as_of)
    checked = check_upload(upload)
    document = Document(
        municipality=owner.municipality,
        kind=kind,
        issue_date=issue_date,
        expiry_date=expiry_date,
        details=details or {},
        **{_owner_field(owner): owner},
    )
    document.upload_keep(checked, stem="documento", actor=actor)
    _apply_validity(document, as_of, regime_id)
    document.save()
    audit_record(
        actor=actor,
        municipality=document.municipality,
        action="registry.document.upload",
        obj=document,
        after=document.audit_snapshot(),
    )
    hooks.holdings_changed(actor, owner, as_of)
    return document


def _check_document_dates(issue_date: dt.date, expiry_date: dt.date | None, as_of: dt.date) -> None:
    _not_after(issue_date, as_of, "issue_date", "Data de emissão")
    if expiry_date is not None and expiry_date < issue_date:
        raise refuse("expiry_date", "Validade impressa: anterior à data de emissão.")


def _apply_validity(document: Document, as_of: dt.date, regime_id: str | None) -> None:
    """The engine's validity decision, stored with the document (valid until, status, the decision itself)."""
    validity = document_validity(document, as_of=as_of, regime_id=regime_id)
    document.valid_until, document.decision, document.status = (
        validity.valid_until,
        validity.stored,
        validity.status,
    )


def _owner_field(owner: models.Model) -> str:
    return {Person: "person", Company: "company", Vehicle: "vehicle", Operator: "operator"}[type(owner)]


@transaction.atomic
def document_mark_replaced(*, actor: Actor, document: Document) -> Document:
    """A newer copy of the same document was accepted: the old one no longer counts as the one in force."""
    return _document_set_status(actor, document, DocumentStatus.REPLACED, "registry.document.replace")


def _document_set_status(actor: Actor, document: Document, status: str, action: str) -> Document:
    with audited_change(document, actor=actor, action=action):
        document.status = status
        document.save(update_fields=["status"])
    return document


@transaction.atomic
def documents_rejudge(*, actor: Actor, municipality: Municipality, as_of: dt.date) -> int:
    """The municipality's law configuration changed: re-judge its accepted age-limited documents (the kinds its
    regimes declare with ``validity.age_limit``) with the same validity decision as at upload, as of the day each
    was accepted but under today's configuration, and store what changed (validity, status, decision) with an
    audit event citing the article; then the permits they concern record their standing as of ``as_of``.

    Only an acceptance that still holds is re-judged (the window is measured at presentation, so re-judging the
    same day under another reading never un-accepts it); a document marked expired by hand (its validity not
    past) is left alone. Returns how many documents changed; a second call changes nothing."""
    kinds = age_limited_kinds(municipality)
    candidates = Document.objects.filter(
        municipality=municipality,
        kind__in=list(kinds),
        status__in=(DocumentStatus.VALID, DocumentStatus.EXPIRED),
    ).select_related("municipality", "operator", "person", "company", "vehicle")
    owners: dict[tuple[str, int], models.Model] = {}
    with configs_remembered():  # one reading of the configuration for every document
        rejudged = [
            document
            for document in candidates.select_for_update(of=("self",)).order_by("pk")
            if _document_rejudged(actor, document, kinds[document.kind], as_of)
        ]
    for document in rejudged:
        owner = getattr(document, _stored_owner(document))
        owners[(type(owner).__name__, owner.pk)] = owner
    for owner in owners.values():
        hooks.holdings_changed(actor, owner, as_of)
    return len(rejudged)


def _stored_owner(document: Document) -> str:
    return next(
        name for name in ("person", "company", "vehicle", "operator") if getattr(document, f"{name}_id")
    )


def _document_rejudged(actor: Actor, document: Document, kind: DocumentKind, as_of: dt.date) -> bool:
    accepted = document.decision or {}
    if "as_of" not in accepted or "regime" not in accepted:
        return False  # not judged by the document_validity rule (a printed expiry governs it)
    if document.status == DocumentStatus.EXPIRED and not _past(document.valid_until, as_of):
        # Marked expired by hand, not by its validity: a clerk's act that no reading of the law undoes.
        return False
    try:
        validity = document_validity(
            document, as_of=dt.date.fromisoformat(accepted["as_of"]), regime_id=accepted["regime"]
        )
    except (ValidationError, LawcodeError):
        # The law can no longer judge it as stored (its kind or a detail is no longer declared): the stored
        # acceptance stays, and one such document does not block the municipality's configuration change.
        return False
    if validity.status != DocumentStatus.VALID:
        return False
    status = DocumentStatus.EXPIRED if _past(validity.valid_until, as_of) else DocumentStatus.VALID
    if (validity.valid_until, status) == (document.valid_until, document.status):
        return False  # only what the standing reads counts as a change; the stored decision stays as it was
    reading = next(
        (f["message"] for f in validity.stored["findings"] if f["code"].endswith("age_limit")), kind.label
    )
    reason = f"Validade revista após mudança da configuração legal: {reading} ({kind.validity.cite_text})."
    with audited_change(document, actor=actor, action="registry.document.rejudge", extra={"reason": reason}):
        document.valid_until, document.status, document.decision = (
            validity.valid_until,
            status,
            validity.stored,
        )
        document.save(update_fields=["valid_until", "status", "decision"])
    return True


def _past(valid_until: dt.date | None, as_of: dt.date) -> bool:
    return valid_until is not None and valid_until < as_of


@transaction.atomic
def ban_record(
    *,
    actor: Actor,
    municipality: Municipality,
    reason_code: str,
    start: dt.date,
    until: dt.date,
    source: str,
    decision: dict[str, Any],
    person: Person | None = None,
    company: Company | None = None,
) -> Ban:
    """Written by enforcement (cassação, clandestine transport) from the engine's sanction decision."""
    if until < start:
        raise refuse("until", "Impedimento: o fim é anterior ao início.")
    ban = Ban(
        municipality=municipality,
        person=person,
        company=company,
        reason_code=reason_code,
        start=start,
        until=until,
        source=source,
        decision=decision,
    )
    ban.full_clean(validate_constraints=False)
    ban.save()
    audit_record(
        actor=actor,
        municipality=municipality,
        action="registry.ban.record",
        obj=ban,
        after=ban.audit_snapshot(),
    )
    return ban
