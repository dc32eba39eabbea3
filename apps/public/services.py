"""Writes of the public app: complaints filed by the public and handled by the secretariat, each audited in
the same transaction (zulip-style action functions)."""

from __future__ import annotations

import datetime as dt

from django.db import transaction

import lawcode
from apps.accounts.actors import Actor, actor_user
from apps.audit.services import audit_record, audited_change
from apps.licensing.models import Permit
from apps.public.choices import ComplaintCategory, ComplaintState
from apps.public.models import Complaint
from apps.public.verification import InvalidQuery, parse_permit_number, parse_plate
from apps.tenancy.models import Municipality
from apps.tenancy.numbering import format_number, number_take
from apps.web.refusals import refuse

TRANSITIONS: dict[str, frozenset[str]] = {
    ComplaintState.RECEIVED: frozenset(
        {ComplaintState.IN_REVIEW, ComplaintState.FORWARDED, ComplaintState.CLOSED}
    ),
    ComplaintState.IN_REVIEW: frozenset({ComplaintState.FORWARDED, ComplaintState.CLOSED}),
    ComplaintState.FORWARDED: frozenset({ComplaintState.CLOSED}),
    ComplaintState.CLOSED: frozenset(),
}


FEDERAL_BASIS = "Lei 12.527/2011 (acesso à informação) e Lei 13.460/2017 (participação do usuário)"


def complaint_basis(regime_id: str, on: dt.date) -> str:
    """What a complaint about a vehicle invokes, as the regime declares it (procedure.yaml ``complaint_basis``,
    e.g. the duty to show the authorization to passengers), rendered on the date. A municipality that has no
    regime yet still hears the public under the federal laws on access and participation."""
    if not regime_id:
        return FEDERAL_BASIS
    regime = lawcode.get_regime(regime_id)
    return "; ".join(regime.resolve_citation(ref, on).render() for ref in regime.procedure.complaint_basis)


def _identifiers(plate: str, permit_number: str) -> tuple[str, str]:
    try:
        return (
            parse_plate(plate) if plate.strip() else "",
            parse_permit_number(permit_number) if permit_number.strip() else "",
        )
    except InvalidQuery as exc:
        raise refuse(
            "permit_number" if "autorização" in exc.message_pt else "plate", exc.message_pt
        ) from None


def _matching_permit(municipality: Municipality, plate: str, permit_number: str) -> Permit | None:
    rows = Permit.objects.filter(municipality=municipality).order_by("-valid_from", "-pk")
    if permit_number:
        return rows.filter(number=permit_number).first()
    return rows.filter(vehicle__plate=plate).first() if plate else None


@transaction.atomic
def complaint_file(
    *,
    municipality: Municipality,
    category: str,
    occurred_on: dt.date,
    description: str,
    as_of: dt.date,
    plate: str = "",
    permit_number: str = "",
    place: str = "",
    contact: str = "",
) -> Complaint:
    """Record a complaint from the public; the permit is matched by plate or number when one is given."""
    if category not in ComplaintCategory.values:
        raise refuse("category", "Escolha o tipo de problema.")
    if occurred_on > as_of:
        raise refuse("occurred_on", "Data do fato: não pode ser depois de hoje.")
    if len(description.strip()) < 10:
        raise refuse("description", "Conte o que aconteceu em pelo menos 10 caracteres.")
    plate, permit_number = _identifiers(plate, permit_number)
    regime_id = str(municipality.regimes[0]) if municipality.regimes else ""
    sequence = number_take(kind="complaint", municipality=municipality, year=as_of.year)
    complaint = Complaint.objects.create(
        municipality=municipality,
        regime_id=regime_id,
        number="DEN-" + format_number(sequence, as_of.year),
        year=as_of.year,
        sequence=sequence,
        category=category,
        plate=plate,
        permit_number=permit_number,
        permit=_matching_permit(municipality, plate, permit_number),
        occurred_on=occurred_on,
        place=place.strip(),
        description=description.strip(),
        contact=contact.strip(),
        basis=complaint_basis(regime_id, as_of),
        received_on=as_of,
    )
    audit_record(
        actor=None,
        municipality=municipality,
        action="complaint.file",
        obj=complaint,
        after=complaint.audit_snapshot(),
    )
    return complaint


@transaction.atomic
def complaint_move(
    *, complaint: Complaint, state: str, resolution: str, actor: Actor, as_of: dt.date
) -> Complaint:
    """Move a complaint along its queue; closing it needs the measures taken, written for the record."""
    row = Complaint.objects.select_for_update().get(pk=complaint.pk)
    if state not in TRANSITIONS.get(row.state, frozenset()):
        current = ComplaintState(row.state).label.lower()
        raise refuse("state", f"A denúncia {row.number} está {current} e não pode passar a esse estado.")
    if state == ComplaintState.CLOSED and not resolution.strip():
        raise refuse("resolution", "Para encerrar, descreva as providências tomadas.")
    with audited_change(row, actor=actor, action=f"complaint.{state}"):
        row.state, row.handled_by = state, actor_user(actor)
        row.resolution = resolution.strip() or row.resolution
        row.closed_on = as_of if state == ComplaintState.CLOSED else None
        row.save(update_fields=["state", "handled_by", "resolution", "closed_on"])
    return row
