"""Personal data kept out of the audit trail's before/after (LGPD art. 6º, III: necessidade/minimização).

The trail is kept for ever and read by administrators and auditors, so it must say *that* a personal field
changed, not carry the value. `minimize` is the one place that decides it, applied by `audit_record` to every
event: a field declared personal is masked (CPF as ***.456.789-**), replaced by a keyed hash (equal values give
equal hashes under one key, so a change stays visible, but nobody without the key can test guesses), or removed
(birth date); and `after` lists the personal fields whose values changed.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from enum import Enum
from typing import Any

from apps.accounts.models import PERSONAL_DATA_FIELDS
from apps.audit.keys import AuditKeys

CHANGED_KEY = "personal_fields_changed"


class Treatment(Enum):
    MASK_DOCUMENT = (
        "mask"  # a CPF keeps its middle six digits, the usual public masking; a CNPJ is not personal
    )
    KEYED_HASH = "hash"
    REMOVE = "remove"


# Field names (at any depth of before/after) that hold a natural person's data. The accounts list is the one
# that makes a screen an audited personal-data read; the registry adds a person's documents and address.
PERSONAL_FIELDS: Mapping[str, Treatment] = {
    **{name: Treatment.KEYED_HASH for name in PERSONAL_DATA_FIELDS},
    "cpf": Treatment.MASK_DOCUMENT,
    "owner_document": Treatment.MASK_DOCUMENT,
    "holder_document": Treatment.MASK_DOCUMENT,
    "payer_document": Treatment.MASK_DOCUMENT,
    "driver_cpf": Treatment.MASK_DOCUMENT,
    "requester_cpf": Treatment.MASK_DOCUMENT,
    "birth_date": Treatment.REMOVE,
    "cnh_number": Treatment.KEYED_HASH,
    "address": Treatment.KEYED_HASH,
    "street": Treatment.KEYED_HASH,
    "complement": Treatment.KEYED_HASH,
    "postal_code": Treatment.KEYED_HASH,
    "contact": Treatment.KEYED_HASH,
}

CPF_DIGITS = 11
CNPJ_DIGITS = 14


def mask_cpf(value: str) -> str:
    digits = "".join(ch for ch in value if ch.isdigit())
    return f"***.{digits[3:6]}.{digits[6:9]}-**"


def keyed_digest(field: str, value: Any, keys: AuditKeys) -> str:
    message = f"outorga.audit.minimize:{field}:{value}".encode()
    digest = hmac.new(keys.current_secret, message, hashlib.sha256).hexdigest()[:16]
    return f"hmac:{keys.current_id}:{digest}"


def _treat(field: str, value: Any, keys: AuditKeys) -> Any:
    if value in (None, ""):
        return value  # "no value" is not personal data, and it shows a field being filled in or cleared
    treatment = PERSONAL_FIELDS[field]
    if treatment is Treatment.MASK_DOCUMENT:
        digits = "".join(ch for ch in str(value) if ch.isdigit())
        if len(digits) == CPF_DIGITS:
            return mask_cpf(digits)
        if len(digits) == CNPJ_DIGITS:  # a CNPJ identifies a company: public by law, not minimized
            return value
    return keyed_digest(field, value, keys)


_NESTED = (dict, list)
# Built once: a bulk sweep asks this for every one of its events.
_PERSONAL_NAMES = frozenset(PERSONAL_FIELDS)


def _minimize_value(value: Any, keys: AuditKeys) -> Any:
    if isinstance(value, dict):
        if PERSONAL_FIELDS.keys().isdisjoint(value) and not any(
            isinstance(v, _NESTED) for v in value.values()
        ):
            return dict(value)  # the common flat payload with nothing personal: a copy, no walk

        result: dict[str, Any] = {}
        for field, item in value.items():
            if field not in PERSONAL_FIELDS:
                result[field] = _minimize_value(item, keys)
            elif PERSONAL_FIELDS[field] is not Treatment.REMOVE:
                result[field] = _treat(field, item, keys)
        return result
    if isinstance(value, list):
        return [_minimize_value(item, keys) for item in value]
    return value


def changed_personal_fields(before: dict[str, Any] | None, after: dict[str, Any] | None) -> list[str]:
    """Top-level personal fields whose values differ (a created or deleted object changes none)."""
    if before is None or after is None:
        return []
    fields = _PERSONAL_NAMES.intersection(before, after)
    return sorted(field for field in fields if before.get(field) != after.get(field))


def minimize(
    before: dict[str, Any] | None, after: dict[str, Any] | None, keys: AuditKeys
) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The before/after an audit event may keep (both already JSON-safe)."""
    changed = changed_personal_fields(before, after)
    minimized_after = _minimize_value(after, keys)
    if changed:
        minimized_after = {**(minimized_after or {}), CHANGED_KEY: changed}
    return _minimize_value(before, keys), minimized_after


_SCALARS = frozenset((str, int, bool, float, type(None)))


class FlatPayloads:
    """Tells, for the events of one batch, which before/after need neither the JSON round trip nor minimize: a
    flat dict of plain JSON values whose field names are all text and none personal, which both would copy
    unchanged (and mark no personal field changed). A batch's payloads share a few key sets, so each set is
    judged once; the values are checked for every payload."""

    def __init__(self) -> None:
        self._judged: dict[tuple[Any, ...], bool] = {}

    def unchanged(self, value: Any) -> bool:
        if value is None:
            return True
        if type(value) is not dict:
            return False
        names = tuple(value)
        clean = self._judged.get(names)
        if clean is None:
            clean = self._judged[names] = all(
                type(name) is str for name in names
            ) and _PERSONAL_NAMES.isdisjoint(names)
        return clean and _SCALARS.issuperset(map(type, value.values()))
