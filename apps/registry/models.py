"""The registry: people, companies, operators (autorizatários), drivers, attendants, vehicles, documents, bans.

Identifiers are stored normalized (digits; CNPJ and plates upper case) and unique per municipality; services
say so in Portuguese before the database constraint would. Rules about them live in lawcode, reached through
apps.lawconfig.engine with the adapters in lawbridge.py.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.db import models

from apps.ops.uploads import StoredUpload
from apps.registry import choices as c
from apps.registry.identifiers import format_cnpj, format_cpf, format_plate, to_mercosul
from apps.tenancy.models import Municipality
from apps.tenancy.querysets import MunicipalityScopedQuerySet
from outorga.localdates import date_text


class Address(models.Model):
    """Postal address and contacts shared by people and companies."""

    email = models.EmailField("e-mail", blank=True)
    phone = models.CharField("telefone", max_length=20, blank=True)
    street = models.CharField("logradouro", max_length=200, blank=True)
    number = models.CharField("número", max_length=20, blank=True)
    complement = models.CharField("complemento", max_length=100, blank=True)
    district = models.CharField("bairro", max_length=100, blank=True)
    city = models.CharField("município", max_length=100, blank=True)
    uf = models.CharField("UF", max_length=2, blank=True)
    postal_code = models.CharField("CEP", max_length=8, blank=True)

    class Meta:
        abstract = True

    @property
    def address_line(self) -> str:
        parts = [
            f"{self.street}, {self.number}".strip(", "),
            self.complement,
            self.district,
            f"{self.city}/{self.uf}".strip("/"),
        ]
        return " — ".join(p for p in parts if p)


class PersonQuerySet(MunicipalityScopedQuerySet["Person"]):
    pass


class Person(Address):
    """A natural person known to the municipality by CPF: the holder of a PF operator, a driver or an attendant.

    One row per CPF and municipality; the roles (operator, driver, attendant) point to it, so a person's
    documents, traffic record and bans follow the person across roles."""

    municipality = models.ForeignKey(
        Municipality, on_delete=models.PROTECT, related_name="people", verbose_name="município"
    )
    cpf = models.CharField("CPF", max_length=11)
    name = models.CharField("nome", max_length=200)
    birth_date = models.DateField("data de nascimento", null=True, blank=True)
    created_at = models.DateTimeField("cadastrado em", auto_now_add=True)

    objects = PersonQuerySet.as_manager()

    class Meta:
        verbose_name = "pessoa"
        verbose_name_plural = "pessoas"
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["municipality", "cpf"], name="person_unique_cpf")]
        indexes = [models.Index(fields=["municipality", "name"], name="person_name_idx")]

    def __str__(self) -> str:
        return self.name

    @property
    def cpf_display(self) -> str:
        return format_cpf(self.cpf)

    def audit_snapshot(self) -> dict[str, Any]:
        # Every personal field, so a change shows in the trail; audit_record minimizes them (apps.audit.minimization).
        return {
            "cpf": self.cpf,
            "name": self.name,
            "birth_date": self.birth_date,
            "email": self.email,
            "phone": self.phone,
            "address": self.address_line,
            "city": self.city,
        }


class CompanyQuerySet(MunicipalityScopedQuerySet["Company"]):
    pass


class Company(Address):
    """A legal entity known to the municipality by CNPJ: the holder of a PJ operator (pessoa jurídica)."""

    municipality = models.ForeignKey(
        Municipality, on_delete=models.PROTECT, related_name="companies", verbose_name="município"
    )
    cnpj = models.CharField("CNPJ", max_length=14)
    legal_name = models.CharField("razão social", max_length=200)
    trade_name = models.CharField("nome fantasia", max_length=200, blank=True)
    seat_municipality_ibge = models.CharField("código IBGE do município-sede", max_length=7, blank=True)
    # Answers to the regime's own questions (facts.yaml), typed by its schema: a new question needs no migration.
    extra = models.JSONField("informações exigidas pelo regime", default=dict, blank=True)
    created_at = models.DateTimeField("cadastrada em", auto_now_add=True)

    objects = CompanyQuerySet.as_manager()

    class Meta:
        verbose_name = "empresa"
        verbose_name_plural = "empresas"
        ordering = ["legal_name"]
        constraints = [models.UniqueConstraint(fields=["municipality", "cnpj"], name="company_unique_cnpj")]

    def __str__(self) -> str:
        return self.legal_name

    @property
    def cnpj_display(self) -> str:
        return format_cnpj(self.cnpj)

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "cnpj": self.cnpj,
            "legal_name": self.legal_name,
            "trade_name": self.trade_name,
            "seat_municipality_ibge": self.seat_municipality_ibge,
            "city": self.city,
            "extra": self.extra,
        }


class OperatorQuerySet(MunicipalityScopedQuerySet["Operator"]):
    def with_holder(self) -> OperatorQuerySet:
        return self.select_related("person", "company", "municipality")


class Operator(models.Model):
    """The autorizatário: a person or a company holding (or applying for) permits under one regime."""

    municipality = models.ForeignKey(
        Municipality, on_delete=models.PROTECT, related_name="operators", verbose_name="município"
    )
    regime_id = models.CharField("regime", max_length=64)
    kind = models.CharField("tipo", max_length=2, choices=c.OperatorKind.choices)
    person = models.ForeignKey(
        Person,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="operators",
        verbose_name="pessoa",
    )
    company = models.ForeignKey(
        Company,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="operators",
        verbose_name="empresa",
    )
    status = models.CharField(
        "situação", max_length=16, choices=c.OperatorStatus.choices, default=c.OperatorStatus.PENDING
    )
    registered_on = models.DateField("cadastrado em", null=True, blank=True)
    # Answers to the regime's own questions (facts.yaml), typed by its schema: a new question needs no migration.
    extra = models.JSONField("informações exigidas pelo regime", default=dict, blank=True)
    created_at = models.DateTimeField("criado em", auto_now_add=True)

    objects = OperatorQuerySet.as_manager()

    class Meta:
        verbose_name = "autorizatário"
        verbose_name_plural = "autorizatários"
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(kind="PF", person__isnull=False, company__isnull=True)
                    | models.Q(kind="PJ", person__isnull=True, company__isnull=False)
                ),
                name="operator_holder_matches_kind",
            ),
            models.UniqueConstraint(
                fields=["municipality", "regime_id", "person"],
                condition=models.Q(person__isnull=False),
                name="operator_unique_person",
            ),
            models.UniqueConstraint(
                fields=["municipality", "regime_id", "company"],
                condition=models.Q(company__isnull=False),
                name="operator_unique_company",
            ),
        ]

    def __str__(self) -> str:
        return self.holder_name

    @property
    def holder_name(self) -> str:
        holder = self.person if self.kind == c.OperatorKind.PF else self.company
        return str(holder) if holder is not None else "—"

    @property
    def holder_document(self) -> str:
        if self.kind == c.OperatorKind.PF and self.person is not None:
            return self.person.cpf_display
        return self.company.cnpj_display if self.company is not None else ""

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "regime_id": self.regime_id,
            "kind": self.kind,
            "person_id": self.person_id,
            "company_id": self.company_id,
            "status": self.status,
            "registered_on": self.registered_on,
        }


class DriverQuerySet(MunicipalityScopedQuerySet["Driver"]):
    def active(self) -> DriverQuerySet:
        return self.filter(active=True)


class Driver(models.Model):
    """A condutor: a person authorized to drive for one operator, with a role the law defines (principal,
    auxiliary, employee, emergency) and the CNH facts the law asks about; the approval of a driver-link
    application sets ``active``."""

    municipality = models.ForeignKey(
        Municipality, on_delete=models.PROTECT, related_name="drivers", verbose_name="município"
    )
    operator = models.ForeignKey(
        Operator, on_delete=models.PROTECT, related_name="drivers", verbose_name="autorizatário"
    )
    person = models.ForeignKey(
        Person, on_delete=models.PROTECT, related_name="driver_links", verbose_name="pessoa"
    )
    # The car the driver drives (Patrocínio caps drivers per car); null for a school driver of the whole fleet.
    vehicle = models.ForeignKey(
        "Vehicle",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="drivers",
        verbose_name="veículo",
    )
    role = models.CharField("função", max_length=16, choices=c.DriverRole.choices)
    cnh_number = models.CharField("número da CNH", max_length=11)
    cnh_category = models.CharField("categoria da CNH", max_length=3)
    cnh_ear = models.BooleanField("CNH com observação EAR", default=False)
    cnh_first_issue = models.DateField("primeira habilitação", null=True, blank=True)
    cnh_expiry = models.DateField("validade da CNH", null=True, blank=True)
    course_completed_on = models.DateField("curso especializado concluído em", null=True, blank=True)
    # Answers to the regime's own questions (facts.yaml), typed by its schema: a new question needs no migration.
    extra = models.JSONField("informações exigidas pelo regime", default=dict, blank=True)
    active = models.BooleanField("ativo", default=True)
    created_at = models.DateTimeField("criado em", auto_now_add=True)

    objects = DriverQuerySet.as_manager()

    class Meta:
        verbose_name = "condutor"
        verbose_name_plural = "condutores"
        ordering = ["operator", "role", "person__name"]
        constraints = [
            models.UniqueConstraint(
                fields=["operator", "person"],
                condition=models.Q(active=True),
                name="driver_unique_active_link",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.person} ({self.get_role_display()})"

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "operator_id": self.operator_id,
            "person_id": self.person_id,
            "role": self.role,
            "cnh_category": self.cnh_category,
            "cnh_ear": self.cnh_ear,
            "cnh_expiry": self.cnh_expiry,
            "active": self.active,
            "extra": self.extra,
        }


class AttendantQuerySet(MunicipalityScopedQuerySet["Attendant"]):
    pass


class Attendant(models.Model):
    """Monitor/auxiliar de embarque of a school-transport operator."""

    municipality = models.ForeignKey(
        Municipality, on_delete=models.PROTECT, related_name="attendants", verbose_name="município"
    )
    operator = models.ForeignKey(
        Operator, on_delete=models.PROTECT, related_name="attendants", verbose_name="autorizatário"
    )
    person = models.ForeignKey(
        Person, on_delete=models.PROTECT, related_name="attendant_links", verbose_name="pessoa"
    )
    # Answers to the regime's own questions (facts.yaml), typed by its schema: a new question needs no migration.
    extra = models.JSONField("informações exigidas pelo regime", default=dict, blank=True)
    active = models.BooleanField("ativo", default=True)
    created_at = models.DateTimeField("criado em", auto_now_add=True)

    objects = AttendantQuerySet.as_manager()

    class Meta:
        verbose_name = "monitor"
        verbose_name_plural = "monitores"
        ordering = ["operator", "person__name"]
        constraints = [
            models.UniqueConstraint(
                fields=["operator", "person"],
                condition=models.Q(active=True),
                name="attendant_unique_active_link",
            ),
        ]

    def __str__(self) -> str:
        return str(self.person)

    def audit_snapshot(self) -> dict[str, Any]:
        return {"operator_id": self.operator_id, "person_id": self.person_id, "active": self.active}


class VehicleQuerySet(MunicipalityScopedQuerySet["Vehicle"]):
    pass


class Vehicle(models.Model):
    """A veículo an operator uses in the service: identification (plate, RENAVAM), the facts the law limits
    (age, seats, accessibility, tachograph...) and how the operator holds it (own, comodato, leasing...)."""

    municipality = models.ForeignKey(
        Municipality, on_delete=models.PROTECT, related_name="vehicles", verbose_name="município"
    )
    operator = models.ForeignKey(
        Operator,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="vehicles",
        verbose_name="autorizatário",
    )
    plate = models.CharField("placa", max_length=7)
    renavam = models.CharField("RENAVAM", max_length=11)
    make = models.CharField("marca", max_length=60)
    model = models.CharField("modelo", max_length=80)
    manufacture_year = models.PositiveSmallIntegerField("ano de fabricação")
    model_year = models.PositiveSmallIntegerField("ano do modelo")
    seats = models.PositiveSmallIntegerField("lugares (capacidade)")
    doors = models.PositiveSmallIntegerField("portas")
    air_conditioning = models.BooleanField("ar-condicionado", default=False)
    accessibility = models.CharField(
        "acessibilidade", max_length=10, choices=c.Accessibility.choices, blank=True
    )
    registration_municipality_ibge = models.CharField("código IBGE do município de registro", max_length=7)
    registration_municipality_name = models.CharField("município de registro", max_length=100)
    category = models.CharField("categoria", max_length=10, choices=c.VehicleCategory.choices)
    tachograph_ok = models.BooleanField("tacógrafo em ordem", null=True, blank=True)
    last_maintenance = models.DateField("última manutenção", null=True, blank=True)
    owner_name = models.CharField("proprietário (nome)", max_length=200)
    owner_document = models.CharField("proprietário (CPF ou CNPJ)", max_length=14)
    ownership_kind = models.CharField("vínculo com o veículo", max_length=16, choices=c.OwnershipKind.choices)
    ownership_since = models.DateField("detém o veículo desde", null=True, blank=True)
    ownership_contract = models.ForeignKey(
        "Document",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="contrato do vínculo",
    )
    ownership_registered = models.BooleanField("contrato registrado (RTD/RENAVAM)", default=False)
    owner_signature_notarized = models.BooleanField("firma do proprietário reconhecida", default=False)
    # Answers to the regime's own questions (facts.yaml), typed by its schema: a new question needs no migration.
    extra = models.JSONField("informações exigidas pelo regime", default=dict, blank=True)
    created_at = models.DateTimeField("cadastrado em", auto_now_add=True)

    objects = VehicleQuerySet.as_manager()

    class Meta:
        verbose_name = "veículo"
        verbose_name_plural = "veículos"
        ordering = ["plate"]
        # The public lookup finds a plate in every municipality of the deployment (a plate is unique nationally).
        indexes = [models.Index(fields=["plate"], name="vehicle_plate_idx")]
        constraints = [
            models.UniqueConstraint(fields=["municipality", "plate"], name="vehicle_unique_plate"),
            models.UniqueConstraint(fields=["municipality", "renavam"], name="vehicle_unique_renavam"),
            models.CheckConstraint(
                condition=models.Q(model_year__gte=models.F("manufacture_year")),
                name="vehicle_model_year_not_before_manufacture",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.plate_display} — {self.make} {self.model}"

    @property
    def plate_display(self) -> str:
        return format_plate(self.plate)

    @property
    def mercosul_plate(self) -> str:
        """The Mercosul form (CONTRAN Res. 780/2019) of an old plate; equal to the plate when already Mercosul."""
        return to_mercosul(self.plate)

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "plate": self.plate,
            "renavam": self.renavam,
            "operator_id": self.operator_id,
            "manufacture_year": self.manufacture_year,
            "model_year": self.model_year,
            "seats": self.seats,
            "ownership_kind": self.ownership_kind,
            "category": self.category,
            "extra": self.extra,
        }


class DocumentQuerySet(MunicipalityScopedQuerySet["Document"]):
    def current(self) -> DocumentQuerySet:
        return self.exclude(status__in=(c.DocumentStatus.EXPIRED, c.DocumentStatus.REPLACED))


class Document(StoredUpload):
    """An uploaded document of exactly one owner; its validity is the engine's document_validity decision."""

    municipality = models.ForeignKey(
        Municipality, on_delete=models.PROTECT, related_name="documents", verbose_name="município"
    )
    # A kind one of the municipality's regimes declares (documents.yaml); checked by the upload service.
    kind = models.CharField("tipo", max_length=48)
    person = models.ForeignKey(
        Person, on_delete=models.PROTECT, null=True, blank=True, related_name="documents"
    )
    company = models.ForeignKey(
        Company, on_delete=models.PROTECT, null=True, blank=True, related_name="documents"
    )
    vehicle = models.ForeignKey(
        Vehicle, on_delete=models.PROTECT, null=True, blank=True, related_name="documents"
    )
    operator = models.ForeignKey(
        Operator, on_delete=models.PROTECT, null=True, blank=True, related_name="documents"
    )
    issue_date = models.DateField("data de emissão")
    expiry_date = models.DateField("validade impressa", null=True, blank=True)
    # Kind-specific facts the law asks about (court of a certificate, insurance coverage…), as lawcode names them.
    details = models.JSONField("detalhes", default=dict, blank=True)
    valid_until = models.DateField("válido até", null=True, blank=True)
    status = models.CharField(
        "situação", max_length=16, choices=c.DocumentStatus.choices, default=c.DocumentStatus.VALID
    )
    decision = models.JSONField("decisão do engine", default=dict, blank=True)

    objects = DocumentQuerySet.as_manager()

    class Meta:
        verbose_name = "documento"
        verbose_name_plural = "documentos"
        ordering = ["valid_until"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(
                        person__isnull=False,
                        company__isnull=True,
                        vehicle__isnull=True,
                        operator__isnull=True,
                    )
                    | models.Q(
                        person__isnull=True,
                        company__isnull=False,
                        vehicle__isnull=True,
                        operator__isnull=True,
                    )
                    | models.Q(
                        person__isnull=True,
                        company__isnull=True,
                        vehicle__isnull=False,
                        operator__isnull=True,
                    )
                    | models.Q(
                        person__isnull=True,
                        company__isnull=True,
                        vehicle__isnull=True,
                        operator__isnull=False,
                    )
                ),
                name="document_exactly_one_owner",
            ),
        ]
        indexes = [
            models.Index(fields=["municipality", "status", "valid_until"], name="document_validity_idx"),
            # The daily sweep's expiry and reminders select across every municipality (apps.licensing.sweep).
            models.Index(fields=["status", "valid_until"], name="document_sweep_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ({self.issue_date:%d/%m/%Y})"

    def upload_folder(self) -> str:
        return f"documents/{self.municipality.ibge_code}/{self.issue_date:%Y}"

    def get_kind_display(self) -> str:
        """The kind's name as the municipality's law declares it (no closed list of kinds here)."""
        from apps.registry.catalog import kind_label

        return kind_label(self.municipality, self.kind)

    @property
    def owner(self) -> models.Model | None:
        return self.person or self.company or self.vehicle or self.operator

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "person_id": self.person_id,
            "company_id": self.company_id,
            "vehicle_id": self.vehicle_id,
            "operator_id": self.operator_id,
            "issue_date": self.issue_date,
            "expiry_date": self.expiry_date,
            "valid_until": self.valid_until,
            "status": self.status,
            **self.upload_snapshot(),
        }


class BanQuerySet(MunicipalityScopedQuerySet["Ban"]):
    def in_force_on(self, day: Any) -> BanQuerySet:
        return self.filter(start__lte=day, until__gte=day)


class Ban(models.Model):
    """An impediment to operate (cassação, clandestine transport…); written by enforcement, read via the engine."""

    municipality = models.ForeignKey(
        Municipality, on_delete=models.PROTECT, related_name="bans", verbose_name="município"
    )
    person = models.ForeignKey(Person, on_delete=models.PROTECT, null=True, blank=True, related_name="bans")
    company = models.ForeignKey(Company, on_delete=models.PROTECT, null=True, blank=True, related_name="bans")
    reason_code = models.CharField("motivo (código)", max_length=64)
    start = models.DateField("início")
    until = models.DateField("até")
    decision = models.JSONField("decisão do engine", default=dict, blank=True)
    source = models.CharField("origem", max_length=255)
    created_at = models.DateTimeField("registrado em", auto_now_add=True)

    objects = BanQuerySet.as_manager()

    class Meta:
        verbose_name = "impedimento"
        verbose_name_plural = "impedimentos"
        ordering = ["-until"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(person__isnull=False, company__isnull=True)
                    | models.Q(person__isnull=True, company__isnull=False)
                ),
                name="ban_exactly_one_subject",
            ),
            models.CheckConstraint(
                condition=models.Q(until__gte=models.F("start")), name="ban_ends_after_start"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.reason_code} até {self.until:%d/%m/%Y}"

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "person_id": self.person_id,
            "company_id": self.company_id,
            "reason_code": self.reason_code,
            "start": self.start,
            "until": self.until,
            "source": self.source,
        }


class TrafficInfractionQuerySet(MunicipalityScopedQuerySet["TrafficInfraction"]):
    pass


class TrafficInfraction(models.Model):
    """A CTB infraction on a person's driving record as the applicant (portal) or a clerk declared it.

    A declaration is not yet a fact for the law: only a TrafficRecordConfirmation (the analyst, from a
    document) makes the record known to the engine; until then the engine says the record is unknown.
    """

    municipality = models.ForeignKey(
        Municipality, on_delete=models.PROTECT, related_name="traffic_infractions", verbose_name="município"
    )
    person = models.ForeignKey(
        Person, on_delete=models.PROTECT, related_name="traffic_infractions", verbose_name="pessoa"
    )
    date = models.DateField("data da infração")
    severity = models.CharField("natureza", max_length=10, choices=c.InfractionSeverity.choices)
    description = models.CharField("descrição (enquadramento no CTB)", max_length=200, blank=True)
    declared_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="declarada por",
    )
    declared_at = models.DateTimeField("declarada em", auto_now_add=True)

    objects = TrafficInfractionQuerySet.as_manager()

    class Meta:
        verbose_name = "infração de trânsito declarada"
        verbose_name_plural = "infrações de trânsito declaradas"
        ordering = ["-date", "-id"]

    def __str__(self) -> str:
        return f"{self.get_severity_display()} em {self.date:%d/%m/%Y}"

    def as_record_entry(self) -> dict[str, Any]:
        return {"date": self.date.isoformat(), "severity": self.severity, "description": self.description}

    def audit_snapshot(self) -> dict[str, Any]:
        return {"person_id": self.person_id, **self.as_record_entry()}


class TrafficRecordConfirmationQuerySet(MunicipalityScopedQuerySet["TrafficRecordConfirmation"]):
    def known_on(self, day: Any) -> TrafficRecordConfirmationQuerySet:
        """Confirmations from documents issued by ``day``, the latest document first."""
        return self.filter(document__issue_date__lte=day).order_by("-document__issue_date", "-id")


class TrafficRecordConfirmation(models.Model):
    """The analyst's reading of a person's driving record from a document (e.g. certidão de prontuário do
    DETRAN): the infractions it lists, frozen as confirmed, as of the document's issue date."""

    municipality = models.ForeignKey(
        Municipality, on_delete=models.PROTECT, related_name="traffic_records", verbose_name="município"
    )
    person = models.ForeignKey(
        Person, on_delete=models.PROTECT, related_name="traffic_records", verbose_name="pessoa"
    )
    document = models.ForeignKey(
        Document, on_delete=models.PROTECT, related_name="traffic_records", verbose_name="documento"
    )
    # [{"date": ISO, "severity": CTB class, "description": text}]: later declarations never change it.
    infractions = models.JSONField("infrações confirmadas", default=list, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="confirmado por",
    )
    confirmed_at = models.DateTimeField("confirmado em", auto_now_add=True)

    objects = TrafficRecordConfirmationQuerySet.as_manager()

    class Meta:
        verbose_name = "prontuário de trânsito confirmado"
        verbose_name_plural = "prontuários de trânsito confirmados"
        ordering = ["-confirmed_at", "-id"]

    def __str__(self) -> str:
        return f"Prontuário de {self.person} confirmado em {date_text(self.confirmed_at)}"

    @property
    def infractions_display(self) -> str:
        """The frozen list in Portuguese: «Gravíssima em 03/11/2025 (art. 165); …» or «Nenhuma»."""
        labels = dict(c.InfractionSeverity.choices)
        parts = []
        for entry in self.infractions:
            day = dt.date.fromisoformat(entry["date"])
            note = f" ({entry['description']})" if entry.get("description") else ""
            parts.append(f"{labels[entry['severity']]} em {day:%d/%m/%Y}{note}")
        return "; ".join(parts) or "Nenhuma"

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "person_id": self.person_id,
            "document_id": self.document_id,
            "record_date": self.document.issue_date,
            "infractions": self.infractions,
        }
