"""Unpaid final fines past due, with the fields a Certidão de Dívida Ativa needs (Patrocínio art. 21; Lei
6.830/1980 art. 2 §5: debtor and document, origin and legal basis, amount, the dates the debt runs from).

Machine files for the tax system (API and `to_csv`): UTF-8 with BOM, «;» separated, field names as headers,
amounts with a decimal point and dates ISO 8601 so it imports them unambiguously. JSON: the same rows, amounts
as strings (never floats). People download the same rows as a spreadsheet in the Brazilian convention through
the shared list export (apps.dueprocess.exports.DEBTS).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from decimal import Decimal

from django.db.models import QuerySet

from apps.dueprocess.choices import SanctionState
from apps.dueprocess.models import Sanction
from apps.finance.choices import GuideStatus
from apps.registry.identifiers import format_cnpj, format_cpf
from apps.tenancy.models import Municipality
from apps.web.csvsafe import safe_row
from outorga.localdates import local_date


@dataclass(frozen=True)
class DebtRow:
    debtor_name: str
    debtor_document: str
    debtor_kind: str
    case_number: str
    infraction_code: str
    infraction_title: str
    origin: str
    legal_basis: str
    guide_number: str
    quantity: Decimal
    unit: str
    unit_value_brl: Decimal | None
    valuation_date: dt.date | None
    amount_brl: Decimal
    infraction_date: dt.date
    final_decision_date: dt.date
    guide_issued_on: dt.date
    due_on: dt.date
    days_overdue: int


FIELDS = tuple(DebtRow.__dataclass_fields__)


def _document(raw: str) -> tuple[str, str]:
    if len(raw) == 11:
        return format_cpf(raw), "CPF"
    return (format_cnpj(raw), "CNPJ") if len(raw) == 14 else (raw, "")


def _row(sanction: Sanction, as_of: dt.date) -> DebtRow:
    guide, case = sanction.guide, sanction.case
    assert guide is not None and sanction.decided_final_on is not None  # the query selects only these
    document, kind = _document(guide.payer_document)
    return DebtRow(
        debtor_name=guide.payer_name,
        debtor_document=document,
        debtor_kind=kind,
        case_number=case.number,
        infraction_code=case.infraction_code,
        infraction_title=case.infraction_title,
        origin=f"Multa por infração — auto de infração {case.number}",
        legal_basis=guide.legal_basis,
        guide_number=guide.number,
        quantity=guide.quantity,
        unit=guide.get_unit_display(),
        unit_value_brl=guide.unit_value_used,
        valuation_date=guide.valuation_date,
        amount_brl=guide.amount_brl,
        infraction_date=local_date(case.occurred_at),
        final_decision_date=sanction.decided_final_on,
        guide_issued_on=guide.issued_on,
        due_on=guide.due_on,
        days_overdue=(as_of - guide.due_on).days,
    )


def _unpaid(municipality: Municipality, as_of: dt.date) -> QuerySet[Sanction]:
    """Final sanctions whose fine guide is still open after its due date, oldest due first."""
    return (
        Sanction.objects.filter(
            case__municipality=municipality,
            state=SanctionState.FINAL,
            guide__status=GuideStatus.OPEN,
            guide__due_on__lt=as_of,
        )
        .select_related("case", "guide")
        .order_by("guide__due_on", "pk")
    )


def unpaid_final_fines(municipality: Municipality, as_of: dt.date) -> list[DebtRow]:
    return [_row(row, as_of) for row in _unpaid(municipality, as_of)]


def iter_unpaid_final_fines(
    municipality: Municipality, as_of: dt.date, chunk_size: int = 2000
) -> Iterator[DebtRow]:
    """The same rows read in chunks, for the spreadsheet download of a large municipality."""
    for row in _unpaid(municipality, as_of).iterator(chunk_size=chunk_size):
        yield _row(row, as_of)


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def to_csv(rows: list[DebtRow]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";", lineterminator="\r\n")
    writer.writerow(FIELDS)
    for row in rows:
        writer.writerow(safe_row(_text(value) for value in asdict(row).values()))
    return "\ufeff" + buffer.getvalue()


def to_json(rows: list[DebtRow], municipality: Municipality, as_of: dt.date) -> str:
    payload = {
        "municipality": {
            "ibge_code": municipality.ibge_code,
            "name": municipality.name,
            "uf": municipality.uf,
        },
        "as_of": as_of.isoformat(),
        "count": len(rows),
        "total_brl": str(sum((row.amount_brl for row in rows), Decimal("0.00"))),
        "debts": [
            {key: _text(value) if value is not None else None for key, value in asdict(row).items()}
            for row in rows
        ],
    }
    return json.dumps(payload, ensure_ascii=False, indent=2)
