"""Open data (Lei 12.527/2011, art. 8º): the permits in force per municipality, as CSV and JSON files.

`manage.py export_open_data` writes them daily; the public page serves the latest. Only the fields the public
lookup shows are exported — never a CPF, CNPJ, address, phone or CNH. The files go through the storage API
like every other file (apps.ops.published: local disk or S3, written after the commit, SHA-256 kept and checked
before each download); every export is a new version, so a download never gets half a file.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Any

from django.db.models import Q
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.utils import timezone

from apps.licensing.choices import PERMIT_IN_FORCE_STATES, PermitKind, PermitState
from apps.licensing.models import Permit
from apps.licensing.standing import permits_standing
from apps.ops.published import latest_published, published_file_response
from apps.ops.services import published_file_add
from apps.public.choices import VerificationStatus
from apps.public.verification import without_document_numbers
from apps.registry.identifiers import format_plate
from apps.tenancy.models import Municipality
from apps.tenancy.regimes import regime_summary
from apps.web.csvsafe import safe_dict
from outorga.localdates import local_moment

FIELDS = (
    "regime",
    "permit_number",
    "permit_kind",
    "plate",
    "vehicle_make",
    "vehicle_model",
    "holder_name",
    "valid_from",
    "valid_until",
    "status",
    "suspended_until",
)
# The documented machine formats (csv: `,`, the field names above, ISO dates; json) and a spreadsheet for people
# (planilha: `;`, Portuguese headers and values, dd/mm/aaaa, UTF-8 with BOM so Excel opens the accents right).
FORMATS = {
    "csv": "text/csv; charset=utf-8",
    "json": "application/json; charset=utf-8",
    "planilha": "text/csv; charset=utf-8",
}
SHEET_HEADERS = {
    "regime": "Regime (lei municipal)",
    "permit_number": "Número",
    "permit_kind": "Tipo",
    "plate": "Placa",
    "vehicle_make": "Marca",
    "vehicle_model": "Modelo",
    "holder_name": "Titular",
    "valid_from": "Válido desde",
    "valid_until": "Válido até",
    "status": "Situação",
    "suspended_until": "Suspenso até",
}
CHUNK = 2000
LICENSE = (
    "Dados públicos (Lei 12.527/2011, art. 8º). Sem dados pessoais além do nome impresso na autorização."
)
_COLUMNS = (
    "pk",
    "number",
    "kind",
    "state",
    "regime_id",
    "valid_from",
    "valid_until",
    "suspended_until",
    "issued_on",
    "vehicle__make",
    "vehicle__model",
    "vehicle__plate",
    "operator__kind",
    "operator__person__name",
    "operator__company__legal_name",
)


@dataclass(frozen=True)
class Export:
    municipality: Municipality
    as_of: dt.date
    files: dict[str, str]  # format → name of the version in the store
    rows: int


def permits_in_force(municipality: Municipality, as_of: dt.date) -> Iterator[dict[str, Any]]:
    """One dict per permit in force on as_of (active or suspended, not past its validity), by number, with the
    status the law gives that day (apps.licensing.standing: a lapsed CNH or CRLV makes it irregular)."""
    rows = (
        Permit.objects.filter(municipality=municipality, state__in=PERMIT_IN_FORCE_STATES)
        .filter(Q(valid_until__isnull=True) | Q(valid_until__gte=as_of))
        .order_by("year", "sequence")
        .values(*_COLUMNS)
    )
    iterator = rows.iterator(chunk_size=CHUNK)
    while chunk := list(islice(iterator, CHUNK)):
        statuses = _statuses([row["pk"] for row in chunk], as_of)
        for row in chunk:
            yield _public_row(row, statuses[row["pk"]])


def _statuses(pks: list[int], as_of: dt.date) -> dict[int, str]:
    permits = Permit.objects.filter(pk__in=pks).select_related("municipality")
    return {pk: standing.status for pk, standing in permits_standing(permits, as_of=as_of).items()}


def _public_row(row: dict[str, Any], status: str) -> dict[str, Any]:
    holder = row["operator__person__name"] or row["operator__company__legal_name"] or ""
    return {
        "regime": row["regime_id"],
        "permit_number": row["number"],
        "permit_kind": str(PermitKind(row["kind"]).label),
        "plate": format_plate(row["vehicle__plate"]),
        "vehicle_make": row["vehicle__make"],
        "vehicle_model": row["vehicle__model"],
        "holder_name": without_document_numbers(holder),
        "valid_from": row["valid_from"].isoformat(),
        "valid_until": row["valid_until"].isoformat() if row["valid_until"] else "",
        "status": status,
        "suspended_until": row["suspended_until"].isoformat()
        if row["suspended_until"] and row["state"] == PermitState.SUSPENDED
        else "",
    }


def to_csv(rows: list[dict[str, Any]]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(safe_dict(row) for row in rows)  # holder names are free text: no formulas
    return buffer.getvalue()


def to_sheet(rows: list[dict[str, Any]]) -> str:
    """The spreadsheet for people: Portuguese headers and values, dd/mm/aaaa, `;`-separated."""
    statuses = dict(VerificationStatus.choices)
    buffer = io.StringIO()
    buffer.write("\ufeff")
    writer = csv.writer(buffer, delimiter=";", lineterminator="\r\n")
    writer.writerow([SHEET_HEADERS[name] for name in FIELDS])
    for row in rows:
        shown = {
            **row,
            "regime": regime_summary(row["regime"])[0],
            "valid_from": _br_date(row["valid_from"]),
            "valid_until": _br_date(row["valid_until"]),
            "suspended_until": _br_date(row["suspended_until"]),
            "status": str(statuses.get(row["status"], row["status"])),
        }
        writer.writerow(list(safe_dict(shown)[name] for name in FIELDS))
    return buffer.getvalue()


def _br_date(iso: str) -> str:
    return f"{dt.date.fromisoformat(iso):%d/%m/%Y}" if iso else ""


def to_json(
    municipality: Municipality, as_of: dt.date, rows: list[dict[str, Any]], generated_at: dt.datetime
) -> str:
    document = {
        "municipality": municipality.name,
        "uf": municipality.uf,
        "ibge": municipality.ibge_code,
        "as_of": as_of.isoformat(),
        "generated_at": local_moment(generated_at).isoformat(timespec="seconds"),
        "license": LICENSE,
        "fields": list(FIELDS),
        "statuses": {value: str(label) for value, label in VerificationStatus.choices},
        "count": len(rows),
        "permits": rows,
    }
    return json.dumps(document, ensure_ascii=False, indent=1)


def publication_key(fmt: str) -> str:
    return "alvaras-em-vigor-planilha.csv" if fmt == "planilha" else f"alvaras-em-vigor.{fmt}"


def export_municipality(municipality: Municipality, as_of: dt.date) -> Export:
    """Publish a new version of each file; the download view serves the newest."""
    rows = list(permits_in_force(municipality, as_of))
    generated_at = timezone.now()
    texts = {
        "csv": to_csv(rows),
        "json": to_json(municipality, as_of, rows, generated_at),
        "planilha": to_sheet(rows),
    }
    files: dict[str, str] = {}
    for fmt, text in texts.items():
        published = published_file_add(
            municipality=municipality,
            key=publication_key(fmt),
            as_of=as_of,
            filename=_stored_name(fmt, as_of),
            content=text.encode(),
            content_type=FORMATS[fmt],
        )
        files[fmt] = published.file.name
    return Export(municipality, as_of, files, len(rows))


def _stored_name(fmt: str, as_of: dt.date) -> str:
    extension = "csv" if fmt == "planilha" else fmt
    suffix = "-planilha" if fmt == "planilha" else ""
    return f"alvaras-em-vigor-{as_of.isoformat()}{suffix}.{extension}"


def published_on(municipality: Municipality) -> dt.datetime | None:
    """The instant the latest JSON file was published (None when nothing was exported yet)."""
    latest = latest_published(municipality, publication_key("json"))
    return latest.published_at if latest else None


def download_response(request: HttpRequest, municipality: Municipality, fmt: str) -> HttpResponseBase:
    """The newest file of a format, checked against its SHA-256 (404 before the first export)."""
    return published_file_response(
        request,
        municipality=municipality,
        key=publication_key(fmt),
        download_name=_download_name(municipality, fmt),
    )


def _download_name(municipality: Municipality, fmt: str) -> str:
    if fmt == "planilha":
        return f"alvaras-em-vigor-{municipality.ibge_code}-planilha.csv"
    return f"alvaras-em-vigor-{municipality.ibge_code}.{fmt}"
