"""Small builders of Votuporanga facts used by several tests (dicts, as scenarios and the apps send them)."""

from __future__ import annotations

from typing import Any


def driver(**person: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "birth_date": "1985-06-10",
        "cnh": {"category": "D", "ear": True, "first_issue": "2005-01-10", "expiry": "2029-01-10"},
        "course_completed": True,
        "documents": [
            {"kind": "criminal_distribution_certificate", "issue_date": "2025-01-15", "valid": True}
        ],
        "traffic_infractions": [],
    }
    base.update(person)
    return {"role": "principal", "person": base}


def vehicle(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "plate": "ABC1D23",
        "manufacture_year": 2018,
        "registration_municipality": "Votuporanga",
        "category": "aluguel",
        "ownership": {"kind": "own"},
        "detran_inspection_approved": True,
        "documents": [
            {"kind": "crlv", "issue_date": "2026-01-20", "expiry_date": "2026-12-31", "valid": True},
            {"kind": "app_insurance", "issue_date": "2026-01-10", "expiry_date": "2027-01-10", "valid": True},
        ],
    }
    base.update(fields)
    return base


def permit(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "kind": "new",
        "enrolled_students": 12000,
        "school_vehicles_in_service": 40,
        "operator": {"kind": "PF", "person": {"name": "Maria"}, "active_permits": 0},
        "drivers": [driver()],
        "vehicle": vehicle(),
    }
    base.update(fields)
    return base


def infraction(code: str, date: str, history: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {
        "code": code,
        "date": date,
        "operator": {"kind": "PF", "person": {"name": "João"}, "history": history or []},
    }
