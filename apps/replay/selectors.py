"""Replays of stored decisions for a row or a whole municipality (reads only: nothing is written)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from apps.lawconfig.config import config_for
from apps.registry.models import TrafficRecordConfirmation
from apps.replay.compare import Replay, replay
from apps.replay.sources import SOURCES, Source, stored_decisions
from apps.tenancy.models import Municipality
from lawcode.config import Config


@dataclass(frozen=True)
class RowReplay:
    source: Source
    pk: int
    name: str
    replay: Replay


class _Configs:
    """The municipality's configuration today, per regime, built once per run."""

    def __init__(self, municipality: Municipality) -> None:
        self.municipality = municipality
        self._by_regime: dict[str, Config] = {}
        self.records = _Records(municipality)

    def __call__(self, regime_id: str) -> Config:
        if regime_id not in self._by_regime:
            self._by_regime[regime_id] = config_for(self.municipality, regime_id)
        return self._by_regime[regime_id]


class _Records:
    """Whether a confirmed traffic record of a person of the municipality (by name, as the stored facts name
    them) was known on a day: a stored zero without one is replayed as unknown."""

    def __init__(self, municipality: Municipality) -> None:
        self.municipality = municipality
        self._known: dict[tuple[str, Any], bool] = {}

    def __call__(self, name: str, day: Any) -> bool:
        if (name, day) not in self._known:
            rows = TrafficRecordConfirmation.objects.filter(municipality=self.municipality, person__name=name)
            self._known[(name, day)] = rows.known_on(day).exists()
        return self._known[(name, day)]


def replay_row(
    source: Source, row: Any, municipality: Municipality, configs: _Configs | None = None
) -> list[RowReplay]:
    configs = configs or _Configs(municipality)
    return [
        RowReplay(source, row.pk, name, replay(stored, configs(stored["regime"]), configs.records))
        for name, stored in stored_decisions(getattr(row, source.field))
    ]


@dataclass
class MunicipalityReport:
    """How many stored decisions would now differ, and why (finding or point, with its article)."""

    total: int = 0
    differing: list[RowReplay] = field(default_factory=list)
    failed: list[RowReplay] = field(default_factory=list)
    reasons: Counter[str] = field(default_factory=Counter)

    @property
    def outcome_changed(self) -> int:
        """Decisions whose very outcome (granted, denied, penalty…) would now be another."""
        return sum(1 for item in self.differing if any(d.kind == "outcome" for d in item.replay.differences))


def replay_municipality(municipality: Municipality) -> MunicipalityReport:
    report, configs = MunicipalityReport(), _Configs(municipality)
    for source in SOURCES:
        for row in source.rows(municipality).iterator():
            for item in replay_row(source, row, municipality, configs):
                report.total += 1
                if item.replay.error:
                    report.failed.append(item)
                elif item.replay.differences:
                    report.differing.append(item)
                    report.reasons.update(d.reason for d in item.replay.differences)
    return report
