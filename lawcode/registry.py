"""Discovery of regimes: every folder of lawcode/regimes/ holding a regime.yaml.

    from lawcode.registry import get_regime, all_regimes
    regime = get_regime("exemplo_sp_escolar")     # loads, validates and caches it
    all_regimes()                                  # every regime, sorted by id (fails loudly if one is broken)

Adding a municipality is adding a folder: nothing here changes. The folder's name is the regime id and
its package (``lawcode.regimes.<id>``) is imported so its ``@rule`` functions register.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lawcode.acts import ActRegistry
from lawcode.blocks.standing import STANDING_FILE, load_standing
from lawcode.citations import Citer
from lawcode.documents import check_age_limits
from lawcode.errors import RegimeDefinitionError
from lawcode.labels import check_bodies, check_deadline_labels
from lawcode.penalties import PENALTIES_FILE, load_penalties
from lawcode.procedure import load_procedure
from lawcode.regime import Regime, registered_rules
from lawcode.regime_files import (
    REGIME_KEYS,
    check_bindings,
    citation_validator,
    load_catalog,
    load_interpretations_for,
    load_not_computable,
    load_parameters_for,
    parse_acts,
)
from lawcode.vocabulary import check_vocabulary, load_vocabulary
from lawcode.yamlsource import YamlMap, load_yaml, reject_unknown_keys, require_keys, require_map

if TYPE_CHECKING:
    from lawcode.config import Config
    from lawcode.decision import Decision

REGIMES_DIR = Path(__file__).parent / "regimes"
REGIMES_PACKAGE = "lawcode.regimes"
_CACHE: dict[str, Regime] = {}


def regime_ids() -> list[str]:
    """Ids of every regime folder (sorted), without loading them."""
    return sorted(p.name for p in REGIMES_DIR.iterdir() if (p / "regime.yaml").is_file())


def get_regime(regime_id: str) -> Regime:
    """The loaded regime ``regime_id`` (cached); an unknown id raises RegimeDefinitionError listing the known ones."""
    if regime_id not in _CACHE:
        folder = REGIMES_DIR / regime_id
        if not (folder / "regime.yaml").is_file():
            known = ", ".join(regime_ids()) or "none"
            raise RegimeDefinitionError(
                f"unknown regime {regime_id!r}; known regimes: {known}",
                message_pt=f"regime desconhecido {regime_id!r}; regimes disponíveis: {known}",
                field="regime",
            )
        _CACHE[regime_id] = load_regime(folder, f"{REGIMES_PACKAGE}.{regime_id}")
    return _CACHE[regime_id]


def loaded_regimes() -> list[Regime]:
    """The regimes loaded so far (none is loaded by asking)."""
    return list(_CACHE.values())


def all_regimes() -> list[Regime]:
    """Every regime, loaded and validated, sorted by id."""
    return [get_regime(regime_id) for regime_id in regime_ids()]


def load_regime(folder: Path, package: str | None = None) -> Regime:
    """Load the regime in ``folder`` (any folder: tests use fixture regimes) and register its rules."""
    folder = Path(folder)
    meta = _read_meta(folder)
    sources, main_key = parse_acts(folder, meta, str(meta["municipality"]))
    main = next(source for source in sources if source.key == main_key)
    citer = Citer(ActRegistry.with_external([source.build() for source in sources], main_key))
    interpretations = load_interpretations_for(folder, citer)
    check_bindings(sources, interpretations)
    catalog = load_catalog(folder / "catalog.yaml", citer)
    # The due process first: a new-regime skeleton names its todo sections before any other missing file.
    procedure = load_procedure(folder, citation_validator(citer), catalog, interpretations)
    vocabulary = load_vocabulary(folder, citer)
    check_bodies(vocabulary.labels, tuple(i.key for i in procedure.due_process.instances), str(meta["id"]))
    regime = Regime(
        id=str(meta["id"]),
        name=str(meta["name"]),
        municipality=str(meta["municipality"]),
        uf=str(meta["uf"]),
        ibge=_optional_str(meta, "ibge", "ibge_code"),
        kind=str(meta["kind"]),
        prefix=_optional_str(meta, "prefix", "infraction_prefix"),
        folder=folder,
        package=package or _package_for(folder),
        acts=citer.registry,
        in_force=main.in_force,
        published=main.published,
        parameters=load_parameters_for(folder, citer, vocabulary.units),
        interpretations=interpretations,
        catalog=catalog,
        not_computable=load_not_computable(folder / "not_computable.yaml", citer),
        calendar_data=_calendar_data(folder),
        rules={},
        metadata=dict(meta),
        procedure=procedure,
        act_sources=tuple(sources),
        vocabulary=vocabulary,
    )
    regime.rules = _rules_for(regime)
    check_vocabulary(vocabulary, regime.parameters, set(regime.rules), regime.id)
    check_deadline_labels(vocabulary.labels, set(regime.rules), regime.id)
    check_age_limits(vocabulary.documents, interpretations)
    _load_standing(regime, citer)
    if "sanction" in regime.rules or (folder / PENALTIES_FILE).is_file():
        regime.penalties = load_penalties(folder / PENALTIES_FILE, citer, regime.parameters, regime.id)
    return regime


def _load_standing(regime: Regime, citer: Citer) -> None:
    """standing.yaml and the document_standing rule come together: the rule without the file fails while its
    module is imported (lawcode.blocks.standing.declared_cites), the file without the rule fails here."""
    if "document_standing" in regime.rules:
        regime.standing = load_standing(
            regime.folder, citer, regime.vocabulary.documents, regime.interpretations
        )
    elif (regime.folder / STANDING_FILE).is_file():
        raise RegimeDefinitionError(
            f"{regime.id}: standing.yaml without a document_standing rule (lawcode.blocks.standing.decide)",
            file=str(regime.folder / STANDING_FILE),
        )


def _read_meta(folder: Path) -> YamlMap:
    """regime.yaml, checked: known keys, required keys, and an id equal to the folder name."""
    meta = require_map(load_yaml(folder / "regime.yaml"), str(folder / "regime.yaml"), "regime.yaml")
    reject_unknown_keys(meta, REGIME_KEYS, "regime.yaml")
    require_keys(meta, ("id", "name", "municipality", "uf", "kind", "acts"), "regime.yaml")
    if str(meta["id"]) != folder.name:
        raise RegimeDefinitionError(
            f"regime id {meta['id']!r} must equal its folder name {folder.name!r}",
            file=meta.source,
            line=meta.line_of("id"),
        )
    return meta


def _optional_str(meta: YamlMap, *keys: str) -> str | None:
    for key in keys:
        if meta.get(key) is not None:
            return str(meta[key])
    return None


def _package_for(folder: Path) -> str:
    """Import name of a folder inside this source tree (``…/lawcode/tests/fixtures/x`` → ``lawcode.tests…``)."""
    root = Path(__file__).resolve().parent.parent
    try:
        relative = folder.resolve().relative_to(root)
    except ValueError:
        raise RegimeDefinitionError(
            f"{folder} is outside the source tree; pass its package name", file=str(folder)
        ) from None
    return ".".join(relative.parts)


def _calendar_data(folder: Path) -> Any:
    path = folder / "calendar.yaml"
    return load_yaml(path) if path.exists() else None


def _rules_for(regime: Regime) -> dict[str, Any]:
    rules: dict[str, Any] = {}
    for spec in registered_rules(regime.package):
        if spec.question in rules:
            other = rules[spec.question]
            raise RegimeDefinitionError(
                f"two rules answer {spec.question!r}: {other.name} and {spec.name}; keep one (a conflict is an error)",
                message_pt=f"duas regras respondem {spec.question!r}",
                file=spec.file,
                line=spec.line,
            )
        for ref in spec.cites:
            regime.citer.validate(ref, file=spec.file, line=spec.line)
        rules[spec.question] = spec
    return rules


def evaluate(
    regime_id: str, question: str, facts: Any, *, as_of: dt.date, config: Config | None = None
) -> Decision:
    """Answer ``question`` about ``facts`` under regime ``regime_id`` on ``as_of``.

        decision = lawcode.evaluate("exemplo_sp_escolar", "vehicle_permit", application, as_of=date(2026, 3, 1))
        decision.outcome            # "granted" | "denied"
        print(decision.explain())   # article by article, in Portuguese

    ``facts`` may be the question's dataclass or a dict (``facts.from_dict``). Raises LawNotInForceError,
    QuestionNotApplicableError, MissingFactError, MissingParameterError, … (all LawcodeError).
    """
    return get_regime(regime_id).evaluate(question, facts, as_of=as_of, config=config)


def reload() -> None:
    """Forget loaded regimes (tests that edit regime data on disk)."""
    _CACHE.clear()
