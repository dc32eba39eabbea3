"""docs/glossary.md covers every legal term the models put on screen: each model's verbose name (and its plural
when it is not the regular plural) and each label of a legal state (fields ``state``, ``status``, ``result``)
appears in the glossary's term column. Purely technical models and states are listed below, each with why."""

from __future__ import annotations

import re
from pathlib import Path

from django.apps import apps
from django.db.models import Model

from tools.model_docs import STATE_FIELDS

ROOT = Path(__file__).resolve().parents[1]

# Records that exist for the machinery, not for the law: nobody reads them as a legal act.
TECHNICAL_MODELS = {
    "tenancy.Counter": "the lock row behind a yearly number; the number itself is on the record it numbers",
    "lawconfig.ConfigStamp": "a token the database changes with each configuration row, for config_for's cache",
    "jobs.JobLease": "keeps two runs of one periodic job from overlapping",
    "jobs.JobRun": "the scheduler's record of a periodic job's run",
    "jobs.OutboundMail": "the e-mail outbox; what the e-mail tells is the notification or reminder",
    "platforms.ChangeWatermark": "how far the audit chain has been read into the platform feed",
    "platforms.WebhookDelivery": "retries of one HTTP push of a status change to a platform",
    "platforms.RosterUpload": "the bytes of a queued roster file, for the worker",
    "platforms.RosterEntry": "a line of the platform's current roster, replaced whole by each import",
    "ops.MetricSeries": "a Prometheus counter",
    "ops.PendingFile": "a file's bytes waiting for the file store to confirm them",
    "ops.PublishedFile": "the stored copy of an open-data file",
    "public.LookupCount": "a daily count of public lookups, for statistics",
}
# States of a process, not of a legal act (the run of a job, the reading of a file).
TECHNICAL_STATES = {
    "whatif.WhatIfRun.state": "the progress of a simulation run in the task queue",
    "platforms.RosterImport.state": "the progress of reading a roster file; its legal effect is the roster",
}

ENDINGS = (("ões", "ão"), ("ães", "ão"), ("ais", "al"), ("éis", "el"), ("óis", "ol"), ("ns", "m"))


def _normal(text: str) -> str:
    """Case-insensitive, accents kept, markdown emphasis and code marks dropped, spaces collapsed."""
    return " ".join(re.sub(r"[`*]", "", text).casefold().split())


def _singular(word: str) -> str:
    for plural, singular in ENDINGS:
        if word.endswith(plural):
            return word[: -len(plural)] + singular
    if word.endswith(("res", "zes")):
        return word[:-2]
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def _regular_plural(singular: str, plural: str) -> bool:
    """ "execuções de rotinas" is the plural of "execução de rotina"; "tabela de taxas" is not that of "taxa"."""
    words = [_singular(w) for w in _normal(plural).split()]
    return words == [_singular(w) for w in _normal(singular).split()]


def _glossary_terms() -> list[str]:
    """The first cell of every table row of the glossary (headers and separators left out)."""
    terms = []
    for line in (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0] not in ("termo (pt-BR)",) and not set(cells[0]) <= set("-: "):
            terms.append(_normal(cells[0]))
    return terms


def _covered(term: str, glossary: list[str]) -> bool:
    pattern = re.compile(rf"(?<!\w){re.escape(_normal(term))}(?!\w)")
    return any(pattern.search(cell) for cell in glossary)


def _legal_models() -> list[type[Model]]:
    return [
        m
        for m in apps.get_models()
        if m.__module__.startswith("apps.") and m._meta.label not in TECHNICAL_MODELS
    ]


def _required_terms() -> dict[str, str]:
    """term -> where it comes from."""
    needed: dict[str, str] = {}
    for model in _legal_models():
        meta = model._meta
        needed[str(meta.verbose_name)] = f"{meta.label} verbose_name"
        if not _regular_plural(str(meta.verbose_name), str(meta.verbose_name_plural)):
            needed[str(meta.verbose_name_plural)] = f"{meta.label} verbose_name_plural"
        for f in meta.concrete_fields:
            if f.name in STATE_FIELDS and f.choices and f"{meta.label}.{f.name}" not in TECHNICAL_STATES:
                for value, label in f.flatchoices:
                    needed[str(label)] = f"{meta.label}.{f.name} = {value!r}"
    return needed


def test_the_glossary_has_every_model_name_and_legal_state_on_screen() -> None:
    glossary = _glossary_terms()
    missing = {term: source for term, source in _required_terms().items() if not _covered(term, glossary)}
    assert not missing, "add these terms to the first column of docs/glossary.md:\n" + "\n".join(
        f"  «{term}» ({source})" for term, source in sorted(missing.items())
    )


def test_the_ignore_lists_name_real_models_and_fields() -> None:
    labels = {m._meta.label for m in apps.get_models()}
    assert set(TECHNICAL_MODELS) <= labels
    for entry in TECHNICAL_STATES:
        label, name = entry.rsplit(".", 1)
        assert label in labels and name in {f.name for f in apps.get_model(label)._meta.concrete_fields}


def test_the_glossary_check_reads_terms_and_plurals_as_intended() -> None:
    assert _regular_plural("execução de rotina", "execuções de rotinas")
    assert _regular_plural("credencial de plataforma", "credenciais de plataforma")
    assert _regular_plural("resumo diário de prazos", "resumos diários de prazos")
    assert not _regular_plural("taxa", "tabela de taxas")
    glossary = [_normal("alvará, alvará de licença, autorização"), _normal("`Cassado`")]
    assert _covered("Alvará", glossary) and _covered("cassado", glossary)
    assert not _covered("alva", glossary)  # a word, not a piece of one
    assert not _covered("alvara", glossary)  # accents matter


def _states_rows() -> list[list[str]]:
    text = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    section = text.split("## Situações (estados) e seus valores no código", 1)[1].split("\n## ", 1)[0]
    rows = [line.strip().strip("|").split("|") for line in section.splitlines() if line.startswith("| ")]
    return [[cell.strip() for cell in row] for row in rows if row[0].strip() != "termo (pt-BR)"]


def test_the_states_table_lists_each_state_field_with_its_labels_and_values_in_order() -> None:
    by_name = {m.__name__: m for m in apps.get_models() if m.__module__.startswith("apps.")}
    rows = _states_rows()
    assert rows, "the states section of the glossary is gone"
    for labels, _, code in rows:
        target, values = code.split(": ", 1)
        model_name, field_name = target.split(",")[0].strip("`").split(".")
        field = next(f for f in by_name[model_name]._meta.concrete_fields if f.name == field_name)
        assert [str(label) for _, label in field.flatchoices] == labels.split(", "), model_name
        assert [str(value) for value, _ in field.flatchoices] == [v.strip("` ") for v in values.split(",")]
