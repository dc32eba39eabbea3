"""What licensing asks the law, and how it reads the answers. Every question goes through
apps.lawconfig.engine; this module only builds the facts and picks values out of the Decision.
"""

from __future__ import annotations

import calendar
import dataclasses
import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db.models import Count, Q

from apps.lawconfig import engine
from apps.lawconfig.config import RegimeChoiceError
from apps.licensing.choices import PERMIT_IN_FORCE_STATES, ApplicationKind, PermitKind
from apps.registry import lawbridge as registry_lawbridge
from apps.registry.catalog import regime_kinds
from apps.registry.choices import DocumentStatus
from lawcode import Decision, Status
from lawcode import facts as f
from lawcode.config import Config
from lawcode.errors import LawcodeError, QuestionNotApplicableError

if TYPE_CHECKING:
    from apps.licensing.models import Application, Permit
    from apps.tenancy.models import Municipality

QUESTION_BY_KIND: dict[str, str] = {
    ApplicationKind.OPERATOR_REGISTRATION: "operator_registration",
    ApplicationKind.DRIVER_LINK: "driver_registration",
    ApplicationKind.EMERGENCY_DRIVER: "driver_registration",
    ApplicationKind.ATTENDANT_LINK: "attendant_registration",
    ApplicationKind.VEHICLE_PERMIT: "vehicle_permit",
    ApplicationKind.RENEWAL: "vehicle_permit",
    ApplicationKind.SUBSTITUTION: "vehicle_permit",
    ApplicationKind.TEMPORARY_VEHICLE: "vehicle_permit",
}


def law_refusal(field: str, error: LawcodeError | RegimeChoiceError) -> ValidationError:
    """An engine error (missing fact, missing parameter…) as a Portuguese refusal naming the field."""
    where = getattr(error, "field", None)
    suffix = f" (dado: {where})" if where else ""
    return ValidationError({field: f"A lei não pôde ser aplicada: {error.message_pt}{suffix}"})


def ask(
    *, municipality: Municipality, regime_id: str, question: str, facts: Any, as_of: dt.date, field: str
) -> Decision | None:
    """The engine's Decision, or None when the regime does not govern this question at all."""
    try:
        return engine.evaluate(
            municipality=municipality, question=question, facts=facts, as_of=as_of, regime_id=regime_id
        )
    except QuestionNotApplicableError:
        return None
    except (LawcodeError, RegimeChoiceError) as exc:
        raise law_refusal(field, exc) from exc


def document_standing(regime_id: str, facts: f.StandingFacts, *, as_of: dt.date, config: Config) -> Decision:
    """The ``document_standing`` question about a permit's holder, drivers and vehicle (licensing.standing builds
    the facts for a batch of permits and reads each municipality's configuration once)."""
    return engine.evaluate_with(
        config=config, regime_id=regime_id, question="document_standing", facts=facts, as_of=as_of
    )


class ApplicationReads(registry_lawbridge.Reads):
    """The registry's Reads plus what licensing counts for an application; one query each, straight from the row."""

    def permits_in_force(self, application: Application) -> int:
        return in_force_permits(application)

    def vehicles_in_service(self, application: Application) -> int:
        return vehicles_in_service(application)


ONE_BY_ONE = ApplicationReads()


class ChunkApplicationReads(registry_lawbridge.ChunkReads, ApplicationReads):
    """The facts' rows of many applications loaded at once (the registry's ChunkReads) and licensing's counts for
    them in one query per chunk (and one per municipality and regime)."""

    def __init__(
        self,
        applications: Iterable[Application],
        *,
        as_of: dt.date,
        operators: Iterable[Any] = (),
        vehicles: Iterable[Any] = (),
    ) -> None:
        """``operators`` and ``vehicles``: more rows to load, for facts built without an application."""
        from apps.licensing.models import Permit

        rows = list(applications)
        holders = [*operators, *(a.operator for a in rows)]
        super().__init__(
            as_of=as_of,
            operators=holders,
            vehicles=[*vehicles, *(a.vehicle for a in rows if a.vehicle is not None)],
            people=[link.person for a in rows for link in (a.driver, a.attendant) if link is not None],
        )
        in_force = Permit.objects.filter(
            operator_id__in={o.pk for o in holders},
            state__in=PERMIT_IN_FORCE_STATES,
            kind=PermitKind.REGULAR,
        )
        counted = in_force.values("operator_id").annotate(n=Count("pk")).values_list("operator_id", "n")
        self._in_force: dict[int, int] = dict(counted)
        self._in_service = _in_service_by_place({(a.municipality_id, a.regime_id) for a in rows})

    def permits_in_force(self, application: Application) -> int:
        return self._in_force.get(application.operator_id, 0)

    def vehicles_in_service(self, application: Application) -> int:
        return self._in_service.get((application.municipality_id, application.regime_id), 0)


def _in_service_by_place(places: set[tuple[int, str]]) -> dict[tuple[int, str], int]:
    """vehicles_in_service for each (municipality id, regime id), in one query."""
    from apps.licensing.models import Permit

    if not places:
        return {}
    which = Q()
    for municipality_id, regime_id in places:
        which |= Q(municipality_id=municipality_id, regime_id=regime_id)
    in_force = Permit.objects.filter(which, state__in=PERMIT_IN_FORCE_STATES, kind=PermitKind.REGULAR)
    counted = in_force.values("municipality_id", "regime_id").annotate(n=Count("pk"))
    return {(row["municipality_id"], row["regime_id"]): row["n"] for row in counted}


def in_force_permits(application: Application) -> int:
    """Regular permits the operator holds now (a substitution or renewal replaces one, so it adds none)."""
    return application.operator.permits.filter(
        state__in=PERMIT_IN_FORCE_STATES, kind=PermitKind.REGULAR
    ).count()


def vehicles_in_service(application: Application) -> int:
    """Vehicles with a regular permit in force under the regime in the municipality (Votuporanga art. 4º-A)."""
    from apps.licensing.models import Permit

    return Permit.objects.filter(
        municipality_id=application.municipality_id,
        regime_id=application.regime_id,
        state__in=PERMIT_IN_FORCE_STATES,
        kind=PermitKind.REGULAR,
    ).count()


def application_facts(application: Application, as_of: dt.date, reads: ApplicationReads = ONE_BY_ONE) -> Any:
    """The facts for the application's question, from registry rows plus what licensing knows (read one by
    one, or from a ChunkApplicationReads loaded for many applications: the same facts either way)."""
    question = QUESTION_BY_KIND.get(application.kind)
    if question == "operator_registration":
        return _operator_registration_facts(application, as_of, reads)
    if question == "driver_registration":
        driver = registry_lawbridge.driver_facts(
            _required(application.driver, "driver"), as_of=as_of, reads=reads
        )
        receipts = fee_receipts(application, "alvara_fee_receipt")
        return (
            dataclasses.replace(driver, person=_with_documents(driver.person, receipts))
            if receipts
            else driver
        )
    if question == "attendant_registration":
        return registry_lawbridge.attendant_facts(
            _required(application.attendant, "attendant"), as_of=as_of, reads=reads
        )
    return _permit_facts(application, as_of, reads)


def _operator_registration_facts(
    application: Application, as_of: dt.date, reads: ApplicationReads
) -> f.Operator:
    """Some laws (Olímpia art. 9º) ask the applicant for the vehicle's papers at registration: the vehicle named
    on the application lends its documents to the holder's file."""
    operator = registry_lawbridge.operator_facts(
        application.operator, as_of=as_of, reads=reads, active_permits=reads.permits_in_force(application)
    )
    if application.vehicle is None:
        return operator
    papers = registry_lawbridge.vehicle_facts(application.vehicle, as_of=as_of, reads=reads).documents
    if operator.person is not None:
        return dataclasses.replace(operator, person=_with_documents(operator.person, papers))
    if operator.company is not None:
        return dataclasses.replace(operator, company=_with_documents(operator.company, papers))
    return operator


def _permit_facts(application: Application, as_of: dt.date, reads: ApplicationReads) -> f.PermitApplication:
    car = _required(application.vehicle, "vehicle")
    passed = application.inspection_passed_on
    vehicle: dict[str, Any] = {
        "inspection_approved_on": passed,
        "detran_inspection_approved": _detran_authorized(reads.documents(car)),
    }
    if application.kind != ApplicationKind.VEHICLE_PERMIT and passed is not None:
        # The municipal checklist verifies the number painted on the doors of a vehicle already permitted.
        vehicle["permit_number_on_doors"] = True
    extra: dict[str, Any] = {
        "platform_notified_on": application.platform_notified_on,
        "carries_children_under_4_or_pcd": application.carries_children_under_4_or_pcd,
        "school_vehicles_in_service": reads.vehicles_in_service(application),
    }
    if application.enrolled_students is not None:
        extra["enrolled_students"] = application.enrolled_students
    facts = registry_lawbridge.permit_application_facts(
        application,
        as_of=as_of,
        operator={"active_permits": reads.permits_in_force(application)},
        vehicle=vehicle,
        reads=reads,
        **extra,
    )
    receipts = fee_receipts(application, "inspection_fee_receipt")
    return dataclasses.replace(facts, vehicle=_with_documents(facts.vehicle, receipts)) if receipts else facts


# The receipt each paid fee stands for in the law's document list (Patrocínio art. 4º I c and art. 8).
RECEIPT_BY_FEE = {"inspection": "inspection_fee_receipt", "permit": "alvara_fee_receipt"}


def fee_receipts(application: Application, receipt_kind: str) -> tuple[f.Document, ...]:
    """The application's paid guide as the receipt document the law asks for (finance holds the payment)."""
    guide = application.fee_guide
    if guide is None or guide.status != "paid" or RECEIPT_BY_FEE.get(guide.fee_kind) != receipt_kind:
        return ()
    if receipt_kind not in regime_kinds(application.operator.regime_id):
        return ()  # the regime's law does not list the receipt among its documents (documents.yaml)
    paid_on = guide.payment.paid_on
    return (f.Document(kind=receipt_kind, issue_date=paid_on, details={"guide": guide.number}),)


def _with_documents(holder: Any, documents: tuple[f.Document, ...]) -> Any:
    return dataclasses.replace(holder, documents=(*holder.documents, *documents))


def _detran_authorized(documents: Iterable[Any]) -> bool:
    """DETRAN issues the school-transport authorization (CTB art. 136) only to a vehicle its inspection
    approved: a current authorization on file (among the vehicle's ``documents``) is the registry's evidence."""
    return any(
        d.kind == "detran_school_authorization" and d.status == DocumentStatus.VALID for d in documents
    )


def _required(value: Any, field: str) -> Any:
    if value is None:
        labels = {"driver": "Condutor", "attendant": "Monitor", "vehicle": "Veículo"}
        raise ValidationError({field: f"{labels[field]}: informe-o para este tipo de requerimento."})
    return value


def evaluate_application(application: Application, as_of: dt.date) -> Decision | None:
    question = QUESTION_BY_KIND.get(application.kind)
    if question is None:
        return None
    facts = application_facts(application, as_of)
    return ask(
        municipality=application.municipality,
        regime_id=application.regime_id,
        question=question,
        facts=facts,
        as_of=as_of,
        field="kind",
    )


@dataclass(frozen=True)
class Refusal:
    """Why the law refuses: the failed findings' messages and the articles they cite."""

    messages: tuple[str, ...]
    articles: tuple[str, ...]

    def text(self) -> str:
        articles = "; ".join(self.articles)
        return f"{' '.join(self.messages)} Fundamento: {articles}."


def refusal_of(decision_dict: dict[str, Any]) -> Refusal:
    failed = [x for x in decision_dict.get("findings", []) if x.get("status") == Status.NOT_MET.value]
    messages = tuple(_sentence(x["message"]) for x in failed)
    articles: list[str] = []
    for finding in failed:
        for citation in finding.get("citations", []):
            if citation["text"] not in articles:
                articles.append(citation["text"])
    return Refusal(messages, tuple(articles))


def _sentence(text: str) -> str:
    return text if text.endswith((".", "!", "?")) else f"{text}."


def result_date(decision: Decision | None, *keys: str) -> dt.date | None:
    """The first of ``keys`` the decision's result holds as a date (regimes name their deadlines differently)."""
    if decision is None:
        return None
    for key in keys:
        value = decision.result.get(key)
        if isinstance(value, dt.datetime):
            return value.date()
        if isinstance(value, dt.date):
            return value
        if isinstance(value, str) and len(value) >= 10:
            try:  # a stored Decision keeps dates as ISO text
                return dt.date.fromisoformat(value[:10])
            except ValueError:
                continue
    return None


def permit_validity(application: Application, start: dt.date, as_of: dt.date) -> Decision | None:
    return ask(
        municipality=application.municipality,
        regime_id=application.regime_id,
        question="permit_validity",
        facts=f.DeadlineFacts(start=start),
        as_of=as_of,
        field="valid_until",
    )


def temporary_validity(application: Application, start: dt.date, as_of: dt.date) -> Decision | None:
    facts = f.DeadlineFacts(start=start, extensions=application.extensions or None)
    return ask(
        municipality=application.municipality,
        regime_id=application.regime_id,
        question="temporary_vehicle",
        facts=facts,
        as_of=as_of,
        field="extensions",
    )


def next_inspection_due(application: Application, inspected_on: dt.date, as_of: dt.date) -> dt.date | None:
    """The regime's periodic inspection date after this one (yearly, or by plate digit), if it has one."""
    return _calendar_next_due(
        application.municipality, application.regime_id, application.vehicle, inspected_on, as_of
    )


def permit_next_inspection_due(permit: Permit, inspected_on: dt.date) -> dt.date | None:
    """After a periodic or semestral inspection of a permitted vehicle: the next one, by the law of that day."""
    municipality, regime_id = permit.municipality, permit.regime_id
    return _calendar_next_due(municipality, regime_id, permit.vehicle, inspected_on, inspected_on)


def _calendar_next_due(
    municipality: Municipality, regime_id: str, vehicle: Any, inspected_on: dt.date, as_of: dt.date
) -> dt.date | None:
    facts = registry_lawbridge.inspection_facts(
        vehicle.plate if vehicle else None, regime_id=regime_id, year=as_of.year, last_inspection=inspected_on
    )
    try:
        decision = ask(
            municipality=municipality,
            regime_id=regime_id,
            question="inspection_calendar",
            facts=facts,
            as_of=as_of,
            field="inspection",
        )
    except ValidationError:
        return None  # the calendar needs data this permit does not have; the inspections app schedules it
    day = result_date(decision, "next_due", "due_on", "next_due_on")
    return day or _month_last_day(decision, "next_due_month")


def _month_last_day(decision: Decision | None, key: str) -> dt.date | None:
    """A calendar by month (Votuporanga art. 4º § 4: «YYYY-MM») is due by the last day of that month."""
    value = decision.result.get(key) if decision is not None else None
    if not isinstance(value, str) or len(value) != 7:
        return None
    year, month = int(value[:4]), int(value[5:])
    return dt.date(year, month, calendar.monthrange(year, month)[1])


def inspection_deadline(application: Application, paid_on: dt.date, as_of: dt.date) -> dt.date | None:
    """Patrocínio art. 8: the inspection is scheduled within days of paying its fee."""
    decision = ask(
        municipality=application.municipality,
        regime_id=application.regime_id,
        question="inspection_scheduling",
        as_of=as_of,
        facts=registry_lawbridge.inspection_facts(None, regime_id=application.regime_id, fee_paid_on=paid_on),
        field="fee",
    )
    return result_date(decision, "end")


def ban_refusal(
    municipality: Municipality, regime_id: str, operator_facts: f.Operator, as_of: dt.date
) -> str | None:
    """A Portuguese refusal when the law says the operator is banned (with article and end date)."""
    decision = ask(
        municipality=municipality,
        regime_id=regime_id,
        question="ban_status",
        facts=operator_facts,
        as_of=as_of,
        field="operator",
    )
    if decision is None or decision.outcome != "banned":
        return None
    until = result_date(decision, "until")
    articles = "; ".join(c.render() for c in decision.citations)
    until_text = f" até {until:%d/%m/%Y}" if until else ""
    return f"Autorizatário impedido de requerer{until_text}. Fundamento: {articles}."
