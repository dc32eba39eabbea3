"""A municipality's legal configuration: what the law leaves to the prefeitura (UFM value, readings of
ambiguous passages, days without office hours). config.config_for turns these rows into a lawcode Config."""

from __future__ import annotations

from typing import Any

from django.db import models

import lawcode
from apps.lawconfig.choices import ClosureKind
from apps.tenancy.models import Municipality
from apps.tenancy.querysets import MunicipalityScopedQuerySet


class FiscalUnitValueQuerySet(MunicipalityScopedQuerySet["FiscalUnitValue"]):
    def current(self) -> FiscalUnitValueQuerySet:
        """The entries no later entry corrected (one per date)."""
        return self.filter(superseded_by__isnull=True)


class FiscalUnitValue(models.Model):
    """One dated value, in reais, of a unit a regime of the municipality declares and leaves to it (units.yaml
    ``valued_by: parameter`` over a configurable parameter: a UFM, a tariff set by decree); the latest
    valid_from ≤ date applies. A correction is a new entry that ``supersedes`` the one it corrects (history is
    never edited); only current entries reach the engine."""

    municipality = models.ForeignKey(
        Municipality, on_delete=models.PROTECT, related_name="fiscal_unit_values", verbose_name="município"
    )
    unit = models.CharField("unidade", max_length=32, help_text="A chave da unidade no units.yaml do regime")
    valid_from = models.DateField("vigente a partir de")
    value_brl = models.DecimalField("valor em reais", max_digits=12, decimal_places=4)
    cite = models.CharField(
        "dispositivo da lei que usa a unidade",
        max_length=80,
        help_text="Ex.: art8 (o engine confere que o dispositivo existe)",
    )
    source = models.CharField(
        "ato que fixou o valor", max_length=255, help_text="Ex.: Decreto municipal nº 1.234/2026"
    )
    supersedes = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="superseded_by",
        verbose_name="corrige o registro",
    )
    reason = models.CharField("motivo da correção", max_length=255, blank=True)

    objects = FiscalUnitValueQuerySet.as_manager()

    class Meta:
        verbose_name = "valor de unidade fiscal"
        verbose_name_plural = "valores de unidade fiscal"
        ordering = ["municipality", "unit", "-valid_from"]
        constraints = [
            models.CheckConstraint(condition=models.Q(value_brl__gt=0), name="fiscal_unit_value_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.unit_label} desde {self.valid_from:%d/%m/%Y}: R$ {self.value_brl}"

    @property
    def unit_label(self) -> str:
        """The unit as the municipality's regimes name it (UFM), never a list kept here."""
        from apps.lawconfig.services import municipal_units

        declared = municipal_units(self.municipality).get(self.unit)
        return declared.label if declared is not None else self.unit

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "unit": self.unit,
            "valid_from": self.valid_from,
            "value_brl": self.value_brl,
            "cite": self.cite,
            "source": self.source,
            "supersedes": self.supersedes_id,
            "reason": self.reason,
        }


class InterpretationChoiceQuerySet(MunicipalityScopedQuerySet["InterpretationChoice"]):
    pass


class InterpretationChoice(models.Model):
    """The municipality's reading of an ambiguous passage (an INT-… of the regime), with the act deciding it."""

    municipality = models.ForeignKey(
        Municipality,
        on_delete=models.PROTECT,
        related_name="interpretation_choices",
        verbose_name="município",
    )
    regime_id = models.CharField("regime", max_length=64)
    interpretation_id = models.CharField("interpretação", max_length=80)
    option = models.CharField("opção escolhida", max_length=80)
    decided_by_act = models.CharField("ato que decidiu", max_length=255)
    decided_on = models.DateField("decidido em")

    objects = InterpretationChoiceQuerySet.as_manager()

    class Meta:
        verbose_name = "escolha de interpretação"
        verbose_name_plural = "escolhas de interpretação"
        ordering = ["municipality", "regime_id", "interpretation_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["municipality", "regime_id", "interpretation_id"], name="interpretation_one_choice"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.interpretation_id} = {self.option}"

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "regime_id": self.regime_id,
            "interpretation_id": self.interpretation_id,
            "option": self.option,
            "decided_by_act": self.decided_by_act,
            "decided_on": self.decided_on,
        }


class MunicipalClosureQuerySet(MunicipalityScopedQuerySet["MunicipalClosure"]):
    pass


class MunicipalClosure(models.Model):
    """A dated day the prefeitura has no (full) office hours, beyond the regime's calendar.yaml."""

    municipality = models.ForeignKey(
        Municipality, on_delete=models.PROTECT, related_name="closures", verbose_name="município"
    )
    date = models.DateField("data")
    description = models.CharField("descrição e ato", max_length=255)
    kind = models.CharField("tipo", max_length=16, choices=ClosureKind.choices, default=ClosureKind.CLOSURE)

    objects = MunicipalClosureQuerySet.as_manager()

    class Meta:
        verbose_name = "dia sem expediente"
        verbose_name_plural = "dias sem expediente"
        ordering = ["municipality", "date"]
        constraints = [models.UniqueConstraint(fields=["municipality", "date"], name="closure_one_per_day")]

    def __str__(self) -> str:
        return f"{self.date:%d/%m/%Y} — {self.description}"

    def audit_snapshot(self) -> dict[str, Any]:
        return {"date": self.date, "description": self.description, "kind": self.kind}


class ParameterValueQuerySet(MunicipalityScopedQuerySet["ParameterValue"]):
    def current(self) -> ParameterValueQuerySet:
        """The entries no later entry corrected (one per date)."""
        return self.filter(superseded_by__isnull=True)


class ParameterValue(models.Model):
    """A dated value of a parameter the regime leaves to the municipality (``configurable: true`` in its
    parameters.yaml: Votuporanga's fleet cap by decree, art. 4º-A; a UFM). The latest valid_from ≤ date applies;
    on the same date it prevails over the regime's own value and over the UFM table. A correction is a new entry
    that ``supersedes`` the one it corrects (history is never edited); only current entries reach the engine."""

    municipality = models.ForeignKey(
        Municipality, on_delete=models.PROTECT, related_name="parameter_values", verbose_name="município"
    )
    regime_id = models.CharField("regime", max_length=64)
    parameter = models.CharField("parâmetro", max_length=80)
    valid_from = models.DateField("vigente a partir de")
    value = models.DecimalField("valor", max_digits=14, decimal_places=4)
    cite = models.CharField(
        "dispositivo da lei",
        max_length=80,
        help_text="Ex.: art4A (o engine confere que o dispositivo existe)",
    )
    source = models.CharField("ato que fixou o valor", max_length=255, help_text="Ex.: Decreto nº 1.234/2026")
    supersedes = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="superseded_by",
        verbose_name="corrige o registro",
    )
    reason = models.CharField("motivo da correção", max_length=255, blank=True)

    objects = ParameterValueQuerySet.as_manager()

    class Meta:
        verbose_name = "valor de parâmetro municipal"
        verbose_name_plural = "valores de parâmetros municipais"
        ordering = ["municipality", "regime_id", "parameter", "-valid_from"]
        constraints = [
            models.CheckConstraint(condition=models.Q(value__gt=0), name="parameter_value_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.parameter} ({self.regime_id}) desde {self.valid_from:%d/%m/%Y}: {self.value}"

    @property
    def parameter_label(self) -> str:
        """The parameter as its regime describes it (never its code on a page)."""
        declared = lawcode.get_regime(self.regime_id).parameters.get(self.parameter)
        return declared.description if declared is not None else self.parameter

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "regime_id": self.regime_id,
            "parameter": self.parameter,
            "valid_from": self.valid_from,
            "value": self.value,
            "cite": self.cite,
            "source": self.source,
            "supersedes": self.supersedes_id,
            "reason": self.reason,
        }


class ConfigStamp(models.Model):
    """A token that changes with every change to a municipality's configuration rows, so a process may keep
    the Config it built and know, with one indexed read, whether it still holds (config.config_for).

    Written ONLY by the database triggers of migration 0004 (on FiscalUnitValue, ParameterValue,
    InterpretationChoice and MunicipalClosure) and of migration 0005 (on ExternalValue, which changes EVERY
    municipality's token: a UFESP entered once is read by all), never by Python: a queryset.update, a
    bulk_create or a SQL console change the token as a service's save does. The token is random, never a
    counter, because a counter bumped in a transaction that rolls back would be reused by the next change with
    other rows. Every municipality gets its row when created (a trigger on tenancy_municipality); a missing row
    is never trusted."""

    municipality = models.OneToOneField(
        Municipality, on_delete=models.CASCADE, primary_key=True, related_name="+", verbose_name="município"
    )
    token = models.CharField("marca da configuração", max_length=36)

    class Meta:
        verbose_name = "marca da configuração municipal"
        verbose_name_plural = "marcas da configuração municipal"

    def __str__(self) -> str:
        return f"{self.municipality_id}: {self.token}"


class ExternalValueQuerySet(models.QuerySet["ExternalValue"]):
    def current(self) -> ExternalValueQuerySet:
        """The entries no later entry corrected (one per table and date)."""
        return self.filter(superseded_by__isnull=True)


class ExternalValue(models.Model):
    """One dated value of a table of the state or the Union (the UFESP; lawcode.fiscal.shared_parameters), kept
    ONCE for the whole installation by its administrator and read by every municipality whose law values a unit
    by it. Each entry names the act that fixed it (number, date, publication). History is never edited: a
    correction is a new entry that ``supersedes`` the wrong one; config.config_for hands the current entries to
    the engine, each cited to its act (lawcode Config.acts), so a decision explains the value it used."""

    parameter = models.CharField("tabela", max_length=40, help_text="A tabela do engine (ex.: ufesp)")
    valid_from = models.DateField("vigente a partir de")
    value = models.DecimalField("valor", max_digits=14, decimal_places=4)
    act = models.CharField(
        "ato que fixou o valor", max_length=200, help_text="Ex.: Comunicado DICAR-90/26 da SEFAZ-SP"
    )
    act_date = models.DateField("data do ato", null=True, blank=True)
    published_on = models.DateField("publicado em")
    publication = models.CharField(
        "veículo de publicação", max_length=200, blank=True, help_text="Ex.: DOE-SP, Seção I"
    )
    act_key = models.CharField(
        "norma do engine",
        max_length=80,
        blank=True,
        help_text="A chave do ato em lawcode/data/external_acts.yaml, para os valores que o engine já traz",
    )
    supersedes = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="superseded_by",
        verbose_name="corrige o registro",
    )
    reason = models.CharField("motivo da correção", max_length=255, blank=True)
    entered_at = models.DateTimeField("registrado em", auto_now_add=True)

    objects = ExternalValueQuerySet.as_manager()

    class Meta:
        verbose_name = "valor de tabela estadual ou federal"
        verbose_name_plural = "valores de tabelas estaduais e federais"
        ordering = ["parameter", "-valid_from", "-entered_at"]
        indexes = [models.Index(fields=["parameter", "valid_from"], name="external_value_by_date")]

    def __str__(self) -> str:
        return f"{self.parameter} desde {self.valid_from:%d/%m/%Y}: {self.value}"

    @property
    def citation_key(self) -> str:
        """How the engine cites this entry: the shipped act's key, or an act entered with the value."""
        return self.act_key or f"ato_valor_externo_{self.pk}"

    @property
    def cite_as(self) -> str:
        """Portuguese, as decisions cite it: "Comunicado DICAR-90/26 da SEFAZ-SP, publicado em 18/12/2026"."""
        where = f" no {self.publication}" if self.publication else ""
        return f"{self.act}, publicado{where} em {self.published_on:%d/%m/%Y}"

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "parameter": self.parameter,
            "valid_from": self.valid_from,
            "value": self.value,
            "act": self.act,
            "act_date": self.act_date,
            "published_on": self.published_on,
            "publication": self.publication,
            "act_key": self.act_key,
            "supersedes": self.supersedes_id,
            "reason": self.reason,
        }
