"""Re-evaluate one stored decision as of its own date with today's code, and say what changed.

A stored decision (``lawcode.Decision.to_dict()``) carries its question, its date and its inputs (the facts and
the configuration it was taken with). Replaying it asks the same question about the same facts on the same
date, with today's rules, today's regime data and the municipality's configuration as it stands today (a
parameter corrected since then takes effect here). The comparison lists, in Portuguese and with the article,
what differs: the outcome, each finding, the computed result and the legal values used.

Decisions stored before the apps collected the driver's traffic record (CTB infractions) hold ``[]`` — a count
of zero nobody confirmed. Given ``record_known`` (whether a confirmed record of that person was known on the
decision's date), the replay reads such a zero as what it was, an unknown record, and says so first.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from apps.replay import lawbridge
from lawcode.citations import Citation, render_citations
from lawcode.config import Config
from lawcode.decision import OUTCOME_PT, Status
from lawcode.errors import LawcodeError

DECISION_KEYS = ("regime", "question", "as_of", "outcome", "findings", "inputs")
RECORD = "traffic_infractions"
RecordKnown = Callable[[str, dt.date], bool]
"""(person's name, day) → whether a confirmed traffic record of that person was known on that day."""


def is_stored_decision(value: Any) -> bool:
    """A JSON value shaped like ``Decision.to_dict()`` with its inputs (older rows may hold none)."""
    return isinstance(value, Mapping) and all(key in value for key in DECISION_KEYS)


@dataclass(frozen=True)
class Difference:
    """One point on which today's answer differs: what, before, now and the article(s) it rests on."""

    what: str
    before: str
    after: str
    cites: str = ""
    code: str = ""
    kind: str = "outcome"
    """outcome, finding, result, parameter or fact (a stored fact read differently today)."""

    @property
    def reason(self) -> str:
        """The short "why" a report groups by: the finding (or point) and its article."""
        return f"{self.what} ({self.cites})" if self.cites else self.what


@dataclass(frozen=True)
class Replay:
    """The stored decision, today's (None when it cannot be re-evaluated) and the differences."""

    stored: Mapping[str, Any]
    replayed: Mapping[str, Any] | None
    differences: tuple[Difference, ...] = ()
    error: str = ""
    as_of: dt.date | None = field(default=None)

    @property
    def verdict_pt(self) -> str:
        if self.error:
            return f"Não foi possível reavaliar: {self.error}"
        if not self.differences:
            return "Hoje a lei, como o sistema a aplica, daria a mesma decisão."
        return f"Hoje a decisão seria diferente em {len(self.differences)} ponto(s)."


def replay(stored: Mapping[str, Any], config: Config, record_known: RecordKnown | None = None) -> Replay:
    """Ask ``stored``'s question again about its own facts, as of its own date, with today's code and
    ``config`` (the municipality's configuration today); a zero infractions count stored without a confirmed
    record is replayed as unknown when ``record_known`` says none was known."""
    try:
        as_of = dt.date.fromisoformat(stored["as_of"])
        facts, unknown = _unconfirmed_records(stored["inputs"]["facts"], as_of, record_known)
        decision = lawbridge.ask_again(stored, facts, as_of=as_of, config=config)
    except LawcodeError as exc:
        return Replay(stored, None, error=exc.message_pt)
    except (KeyError, TypeError, ValueError):
        return Replay(stored, None, error="a decisão armazenada não guarda os fatos em que se baseou")
    today = decision.to_dict()
    found = [_record_difference(name, as_of) for name in unknown] + differences(stored, today)
    return Replay(stored, today, tuple(found), as_of=as_of)


def _unconfirmed_records(
    facts: Any, as_of: dt.date, record_known: RecordKnown | None
) -> tuple[Any, list[str]]:
    """The facts with each person's stored ``[]`` record turned unknown (None) where no confirmed record of
    that person was known on ``as_of``, and those persons' names."""
    names: list[str] = []

    def walk(value: Any) -> Any:
        if isinstance(value, Mapping):
            found = {key: walk(inner) for key, inner in value.items()}
            name = str(value.get("name") or "")
            zero = value.get(RECORD) == [] and bool(name)
            if zero and record_known is not None and not record_known(name, as_of):
                found[RECORD] = None
                names.append(name)
            return found
        if isinstance(value, list):
            return [walk(inner) for inner in value]
        return value

    return walk(facts), names


def _record_difference(name: str, as_of: dt.date) -> Difference:
    return Difference(
        f"Prontuário de trânsito (infrações do CTB) de {name}",
        "0 infrações — contadas quando o prontuário ainda não era coletado",
        f"desconhecido — nenhum prontuário confirmado até {as_of:%d/%m/%Y}",
        code=RECORD,
        kind="fact",
    )


def differences(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[Difference]:
    return [
        *_outcome(before, after),
        *_findings(before, after),
        *_results(before, after),
        *_parameters(before, after),
    ]


def _outcome(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[Difference]:
    if before["outcome"] == after["outcome"]:
        return []
    return [Difference("Resultado", _outcome_pt(before["outcome"]), _outcome_pt(after["outcome"]))]


def _outcome_pt(outcome: str) -> str:
    return OUTCOME_PT.get(outcome, outcome)


def _by_code(decision: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    return {finding["code"]: finding for finding in decision.get("findings", [])}


def _finding_text(finding: Mapping[str, Any] | None) -> str:
    if finding is None:
        return "item não verificado"
    return f"[{Status(finding['status']).label_pt}] {finding['message']}"


def _cites(finding: Mapping[str, Any] | None) -> str:
    if not finding:
        return ""
    return render_citations([Citation.from_dict(c) for c in finding.get("citations", [])])


def _findings(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[Difference]:
    old, new = _by_code(before), _by_code(after)
    found = []
    for code in dict.fromkeys([*old, *new]):
        was, now = old.get(code), new.get(code)
        if (
            was is not None
            and now is not None
            and (was["status"], was["message"]) == (now["status"], now["message"])
        ):
            continue
        found.append(
            Difference(
                f"Item «{code}»",
                _finding_text(was),
                _finding_text(now),
                _cites(now or was),
                code=code,
                kind="finding",
            )
        )
    return found


def _results(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[Difference]:
    old, new = before.get("result") or {}, after.get("result") or {}
    return [
        Difference(
            f"Resultado calculado «{key}»",
            _value(old.get(key)),
            _value(new.get(key)),
            code=key,
            kind="result",
        )
        for key in dict.fromkeys([*old, *new])
        if old.get(key) != new.get(key)
    ]


def _value(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "sim" if value else "não"
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value).strftime("%d/%m/%Y")
        except ValueError:
            return value
    return str(value)


def _parameters(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[Difference]:
    old = {p["name"]: p for p in before.get("parameters", [])}
    new = {p["name"]: p for p in after.get("parameters", [])}
    found = []
    for name in dict.fromkeys([*old, *new]):
        was, now = old.get(name), new.get(name)
        if was is not None and now is not None and was["value"] == now["value"]:
            continue
        used = now or was
        assert used is not None
        found.append(
            Difference(
                f"Valor legal «{used.get('description') or name}»",
                _value(was["value"]) if was else "não usado",
                _value(now["value"]) if now else "não usado",
                Citation.from_dict(used["citation"]).render(),
                code=name,
                kind="parameter",
            )
        )
    return found
